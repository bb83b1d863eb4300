"""Fixtures for the tests that run against both stores: a fresh database of each per test.

`memory_target` is parametrized: "sqlite" gives a file in the test's folder, "postgresql"
the URL of a new database cloned from the run's template (`CREATE DATABASE ... TEMPLATE`:
~30 ms, with every migration already applied), dropped after the test. The cluster is
tests/pg_cluster.py's, one per run; without PostgreSQL (or psycopg) those tests skip and
say why.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pg_cluster
import pytest

TEMPLATE = "design_agent_template"
BACKENDS = ["sqlite", "postgresql"]
_names = itertools.count(1)


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run shares (the controller's basetemp)."""
    base = factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "postgres"


def stop_cluster(config: pytest.Config) -> None:
    """The run's last step (tests/conftest.py): stop the cluster, if a worker started one."""
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is not None and not os.environ.get("PYTEST_XDIST_WORKER"):
        pg_cluster.stop(factory.getbasetemp() / "postgres")


def _template(cluster: pg_cluster.Cluster, folder: Path) -> None:
    """Make the template database (migrated) once per run, under the run's lock."""
    with (folder / pg_cluster.LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = folder / "template.json"
        if marker.exists():
            return
        from design_agent.memory.postgres.connection import migrate_database
        from design_agent.memory.url import DatabaseUrl

        with _admin(cluster) as admin:
            admin.execute(f"CREATE DATABASE {TEMPLATE}")
            migrate_database(DatabaseUrl.parse(cluster.url(TEMPLATE)))
            admin.execute(
                f"ALTER DATABASE {TEMPLATE} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"
            )
        marker.write_text(json.dumps({"template": TEMPLATE}), encoding="utf-8")


def _admin(cluster: pg_cluster.Cluster) -> Any:
    import psycopg

    return psycopg.connect(cluster.url("postgres"), autocommit=True)


@pytest.fixture(scope="session")
def postgres_cluster(tmp_path_factory: pytest.TempPathFactory) -> pg_cluster.Cluster:
    """The run's PostgreSQL (started by the first worker that asks), with its template."""
    folder = run_folder(tmp_path_factory)
    try:
        cluster = pg_cluster.start(folder)
        _template(cluster, folder)
    except RuntimeError as e:
        pytest.skip(str(e))
    return cluster


@pytest.fixture(scope="session")
def postgres_admin(postgres_cluster: pg_cluster.Cluster) -> Iterator[Any]:
    """This worker's connection to the cluster's `postgres` database, to make and drop."""
    with _admin(postgres_cluster) as admin:
        yield admin


class Databases:
    """Makes databases from the template and drops them (each test's, or a module's)."""

    def __init__(self, cluster: pg_cluster.Cluster, admin: Any) -> None:
        self.cluster, self.admin = cluster, admin

    def new(self) -> str:
        name = f"test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{next(_names)}"
        self.admin.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return self.cluster.url(name)

    def drop(self, url: str) -> None:
        """Close this process's pool for it, then drop it (whoever is still connected)."""
        from design_agent.memory.postgres.connection import close_pools
        from design_agent.memory.url import DatabaseUrl

        close_pools(DatabaseUrl.parse(url))
        name = urlsplit(url).path.strip("/")
        self.admin.execute(f"DROP DATABASE {name} WITH (FORCE)")

    @contextmanager
    def database(self) -> Iterator[str]:
        url = self.new()
        try:
            yield url
        finally:
            self.drop(url)


@pytest.fixture(scope="session")
def postgres_databases(postgres_cluster: pg_cluster.Cluster, postgres_admin: Any) -> Databases:
    """Fresh databases on demand (module-scoped fixtures use this)."""
    return Databases(postgres_cluster, postgres_admin)


@pytest.fixture
def postgres_url(postgres_databases: Databases) -> Iterator[str]:
    """The URL of a new database made from the template, dropped after the test."""
    with postgres_databases.database() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def memory_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's memory lives, once per store: an SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "design-agent.db"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=BACKENDS)
def cli_store(
    request: pytest.FixtureRequest, home: Path, monkeypatch: pytest.MonkeyPatch
) -> str | Path:
    """The commands' database, once per store: the home's file, or (through
    DESIGN_AGENT_DATABASE_URL, as a team sets it) a new PostgreSQL database."""
    if request.param == "sqlite":
        return home / "design-agent.db"
    url = str(request.getfixturevalue("postgres_url"))
    monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", url)
    return url


@contextmanager
def store(request: pytest.FixtureRequest, backend: str, folder: Path) -> Iterator[str | Path]:
    """A database of `backend` for a fixture of any scope: a file in `folder`, or a new
    PostgreSQL database dropped when the block ends."""
    if backend == "sqlite":
        yield folder / "design-agent.db"
        return
    databases: Databases = request.getfixturevalue("postgres_databases")
    with databases.database() as url:
        yield url
