"""Shared test fixtures: every test gets its own design-agent home."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pg_fixtures import (  # the stores' fixtures: memory_target runs a test on each
    cli_store,
    memory_target,
    postgres_admin,
    postgres_cluster,
    postgres_databases,
    postgres_url,
    stop_cluster,
)

from design_agent.core.cache import CACHE_ENV, cached
from design_agent.core.paths import HomeLayout

__all__ = [
    "cli_store",
    "memory_target",
    "postgres_admin",
    "postgres_cluster",
    "postgres_databases",
    "postgres_url",
]

if TYPE_CHECKING:  # imported by the fixtures: xdist's controller runs no test and needs none
    from click.testing import Result

    from design_agent.knowledge.registry import Catalogue
    from design_agent.understanding.matching import Matcher


def pytest_configure(config: pytest.Config) -> None:
    """Let every Python the suite spawns (design-agent, fake CLIs, xdist workers) keep its
    compiled modules: with PYTHONDONTWRITEBYTECODE set, each of the hundreds of
    `design-agent` processes would compile the package again (~0.2 s). They go where Python
    keeps them by default, beside the sources, where pip put an installed package's: a
    separate bytecode folder would ignore those and compile every module again on a fresh
    checkout (~20 s of the first run)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    if not os.environ.get("PYTEST_XDIST_WORKER") and config.getoption("numprocesses", None):
        _rewrite_test_modules_once(config)


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """On a fresh checkout no test module has its assertion-rewritten bytecode yet, and each
    xdist worker would rewrite every one of them at the same moment (~1.5 s of CPU each).
    xdist's controller does it here, once, before the workers start. With pytest's own
    rewriter: should its internals differ, nothing is written and the workers do it."""
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        for source in sorted(Path(__file__).parent.rglob("*.py")):
            if source.name.startswith("test_") or source.name == "conftest.py":
                pyc = rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)
                if not pyc.exists() and rewrite.try_makedirs(pyc.parent):
                    source_hash, code = rewrite._rewrite_test(source, config)
                    rewrite._write_pyc(state, code, source_hash, pyc)
    except Exception:  # private API: a fresh run is only slower without it
        return


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run is over: stop the PostgreSQL cluster a worker may have started."""
    stop_cluster(config)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep the collected suite (modules, items, fixtures: long-lived) out of the cyclic
    garbage collector's scans for the rest of the run, and let it run less often: the
    tests make millions of short-lived objects that reference counting frees (measured on
    the in-process modules: 0.67 s of collection at the default thresholds, 0.25 s here)."""
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts two workers per CPU: much of the suite waits on real processes (ptys,
    fake CLIs, servers), and a second worker per CPU runs meanwhile (on 2 CPUs, measured on
    the whole suite: 3 workers ~68 s, 4 workers ~60 s, 5 workers ~69 s).
    PYTEST_XDIST_AUTO_NUM_WORKERS wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 2 * (cpus or 1)


# Modules whose tests share a costly module-scoped set-up (a live server, a browser, a built
# wheel, a recorded story): each runs whole on one worker, instead of once on every worker
# that gets one of its tests.
SHARED_SETUP_MODULES = frozenset(
    {
        "tests/test_ask_server.py",
        "tests/test_packaging.py",
        "tests/test_report.py",
    }
)
# The web page's tests, which share one browser: one unit.
BROWSER_PACKAGE = "tests/web/"
# Modules whose tests start in-process servers: they run as one unit, so only one worker
# loads the web stack (~0.6 s of imports).
SERVER_MODULES = frozenset(
    {
        "tests/test_server_api.py",
        "tests/test_server_concurrency.py",
        "tests/test_server_security.py",
    }
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Every other test is scheduled on its own; those modules go out first, as units
    (xdist's --dist loadgroup would do it, but its marks are lost on pytest 9's node ids)."""
    from xdist.scheduler import LoadScopeScheduling

    class SharedSetupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            if module in SERVER_MODULES:
                return "in-process servers"
            if module.startswith(BROWSER_PACKAGE):
                return BROWSER_PACKAGE  # one chromium for all of it (tests/web/conftest.py)
            return module if module in SHARED_SETUP_MODULES else nodeid

    return SharedSetupScheduling(config, log)


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
def bundled_catalogue(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Catalogue:
    """The bundled catalogue (an empty home adds nothing), for the tests that only read it:
    read from the run's shared cache, as every fresh home's `design-agent` reads it."""
    from design_agent.knowledge.registry import load_catalogue_cached

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(shared_cache))
        home = HomeLayout(tmp_path_factory.mktemp("empty-home"))
        return load_catalogue_cached(home).require_valid()


@pytest.fixture(scope="session")
def bundled_matcher(
    tmp_path_factory: pytest.TempPathFactory, shared_cache: Path, bundled_catalogue: Catalogue
) -> Matcher:
    """The bundled catalogue's matcher (matching only memoises look-ups: safe to share), from
    the shared cache: built once per run, not once per worker."""
    from design_agent.understanding.matching import Matcher

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(shared_cache))
        home = HomeLayout(tmp_path_factory.mktemp("empty-home"))
        signature = bundled_catalogue.signature
        return cached(home, "matcher", signature, lambda: Matcher.from_catalogue(bundled_catalogue))


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
    # A fake CLI replays one recording per run: the review's model-graded pass would be one
    # more run. Tests of that pass (test_review_story.py) turn it on with its own verdict.
    monkeypatch.setenv("DESIGN_AGENT_MODEL_REVIEW", "off")
    yield path


@pytest.fixture
def run_cli():  # type: ignore[no-untyped-def]
    """Run `design-agent ARGS...` in-process with click's CliRunner."""

    from click.testing import CliRunner

    from design_agent.cli import cli

    def run(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return run
