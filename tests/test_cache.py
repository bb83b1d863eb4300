"""Parsing the catalogue once per edit, not once per start, without ever serving stale data."""

from __future__ import annotations

import stat
import subprocess
import sys
import time

import pytest

from design_agent.core.cache import CACHE_ENV, forget_loaded
from design_agent.core.paths import HomeLayout
from design_agent.knowledge.registry import load_catalogue_cached

TASKS = """\
tasks:
  - id: pricing_page_review
    name: {en: Pricing page review, es: Revisión de página de precios}
    description: Review a pricing page.
    expected_output: [Findings]
    keywords: {en: [pricing page], es: [página de precios]}
    guides: [journey_mapping.md]
    agent: content_specialist
"""


@pytest.fixture(autouse=True)
def own_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """These stories are about the cache in the home (conftest shares one across homes)."""
    monkeypatch.delenv(CACHE_ENV)


def cache_files(home):
    return sorted((home / "cache").glob("catalogue-*.pickle"))


def test_the_second_start_reads_the_cache(home):
    first = load_catalogue_cached(HomeLayout(home))
    [cached] = cache_files(home)
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    forget_loaded()  # the next start is a new process
    second = load_catalogue_cached(HomeLayout(home))
    assert second is not first and second.tasks == first.tasks
    assert cache_files(home) == [cached]


def test_within_one_process_an_unchanged_entry_is_read_once(home):
    load_catalogue_cached(HomeLayout(home))  # built and written
    forget_loaded()
    read = load_catalogue_cached(HomeLayout(home))
    assert load_catalogue_cached(HomeLayout(home)) is read  # a server's next turn
    [cached] = cache_files(home)
    cached.write_bytes(cached.read_bytes())  # the same bytes, but another write of the file
    cached.touch()
    again = load_catalogue_cached(HomeLayout(home))
    assert again is not read and again.tasks == read.tasks


def test_editing_an_overlay_file_rebuilds_it(home):
    before = load_catalogue_cached(HomeLayout(home))
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "tasks.yaml").write_text(TASKS, encoding="utf-8")
    after = load_catalogue_cached(HomeLayout(home))
    assert "pricing_page_review" in after.tasks and "pricing_page_review" not in before.tasks
    assert len(cache_files(home)) == 1  # the stale one is gone
    time.sleep(0.01)
    (home / "config" / "tasks.yaml").write_text(TASKS.replace("Review a", "Audit a"), "utf-8")
    again = load_catalogue_cached(HomeLayout(home))
    assert again.tasks["pricing_page_review"].description == "Audit a pricing page."


def test_homes_can_share_one_cache_folder(home, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    monkeypatch.setenv(CACHE_ENV, str(shared))
    first = load_catalogue_cached(HomeLayout(home))
    other = tmp_path / "other"
    (other / "config").mkdir(parents=True)
    (other / "config" / "tasks.yaml").write_text(TASKS, encoding="utf-8")
    custom = load_catalogue_cached(HomeLayout(other))
    assert not (home / "cache").exists(), "the shared folder, not the home's"
    assert "pricing_page_review" in custom.tasks and "pricing_page_review" not in first.tasks
    assert len(list(shared.glob("catalogue-*.pickle"))) == 2, "one entry per set of sources"
    again = load_catalogue_cached(HomeLayout(home))
    assert again.signature == first.signature and "pricing_page_review" not in again.tasks


def test_a_corrupt_cache_file_is_rebuilt(home):
    load_catalogue_cached(HomeLayout(home))
    [cached] = cache_files(home)
    cached.write_bytes(b"not a pickle")
    catalogue = load_catalogue_cached(HomeLayout(home))
    assert catalogue.tasks and cache_files(home)[0].read_bytes() != b"not a pickle"


BUILDER = """
import sys, time
from pathlib import Path
from design_agent.core.cache import cached
from design_agent.core.paths import HomeLayout

def build():
    with open(sys.argv[2], "a") as log:
        log.write("built\\n")
    time.sleep(0.3)  # long enough for the others to find no entry yet
    return {"tasks": 88}

print(cached(HomeLayout(Path(sys.argv[1])), "index", "k1", build))
"""


def test_processes_starting_at_once_build_an_entry_once(home, tmp_path):
    builds = tmp_path / "builds.log"
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", BUILDER, str(home), str(builds)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [process.communicate(timeout=30)[0] for process in starts]
    assert outputs == ["{'tasks': 88}\n"] * 3
    assert builds.read_text().splitlines() == ["built"]
