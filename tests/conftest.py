"""Shared test fixtures: every test gets its own design-agent home."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from design_agent.cache import CACHE_ENV
from design_agent.cli import cli
from design_agent.matching import Matcher
from design_agent.paths import HomeLayout
from design_agent.registry import Catalogue, load_catalogue


def pytest_configure(config: pytest.Config) -> None:
    """Let every Python the suite spawns (design-agent, fake CLIs, xdist workers) keep its
    compiled modules, outside the checkout: with PYTHONDONTWRITEBYTECODE set, each of the
    hundreds of `design-agent` processes would compile the whole package again (~0.2 s)."""
    cache = getattr(config, "cache", None)
    default = Path(tempfile.gettempdir()) / "design-agent-test-bytecode"
    folder = str(cache.mkdir("bytecode") if cache else default)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", folder)
    sys.dont_write_bytecode = False
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts two workers per CPU: much of the suite waits on real processes (ptys,
    fake CLIs, servers), and a second worker per CPU runs meanwhile (on 2 CPUs: 4 workers
    took ~88 s, 2 workers ~115 s, 6 no better than 4). PYTEST_XDIST_AUTO_NUM_WORKERS wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cpus or 1)


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One catalogue and matcher cache for every home of this run (design_agent/cache.py):
    each fresh home would otherwise build them again, in-process and in each spawned process.
    The xdist workers share it (entries are written atomically)."""
    run = tmp_path_factory.getbasetemp()
    folder = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "catalogue-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def bundled_catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """The bundled catalogue (an empty home adds nothing), loaded once per worker for the
    tests that only read it; Matcher.from_catalogue then builds its matcher once too."""
    return load_catalogue(HomeLayout(tmp_path_factory.mktemp("empty-home"))).require_valid()


@pytest.fixture(scope="session")
def bundled_matcher(bundled_catalogue: Catalogue) -> Matcher:
    """The bundled catalogue's matcher (matching only memoises look-ups: safe to share)."""
    return Matcher.from_catalogue(bundled_catalogue)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared_cache: Path) -> Iterator[Path]:
    """A fresh, empty design-agent home per test; no DESIGN_AGENT_* leaks in from outside.

    The fake CLIs' FAKE_* variables reach them through DESIGN_AGENT_ENV_PASSTHROUGH. The
    built catalogue is cached outside the home, shared (tests/test_cache.py unsets that).
    """
    for name in list(os.environ):
        if name.startswith("DESIGN_AGENT_"):
            monkeypatch.delenv(name)
    path = tmp_path / "home"
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(path))
    monkeypatch.setenv(CACHE_ENV, str(shared_cache))
    # The fake CLIs read FAKE_* settings; a provider gets an allow-listed environment
    # (providers/environment.py), to which a user adds variables exactly like this.
    monkeypatch.setenv("DESIGN_AGENT_ENV_PASSTHROUGH", "FAKE_*")
    yield path


@pytest.fixture
def run_cli():  # type: ignore[no-untyped-def]
    """Run `design-agent ARGS...` in-process with click's CliRunner."""

    def run(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return run
