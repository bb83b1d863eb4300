"""Parsing the catalogue once per edit, not once per start, without ever serving stale data."""

from __future__ import annotations

import stat
import time

from design_agent.paths import HomeLayout
from design_agent.registry import load_catalogue_cached

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


def cache_files(home):
    return sorted((home / "cache").glob("catalogue-*.pickle"))


def test_the_second_start_reads_the_cache(home):
    first = load_catalogue_cached(HomeLayout(home))
    [cached] = cache_files(home)
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600
    second = load_catalogue_cached(HomeLayout(home))
    assert second is not first and second.tasks == first.tasks
    assert cache_files(home) == [cached]


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


def test_a_corrupt_cache_file_is_rebuilt(home):
    load_catalogue_cached(HomeLayout(home))
    [cached] = cache_files(home)
    cached.write_bytes(b"not a pickle")
    catalogue = load_catalogue_cached(HomeLayout(home))
    assert catalogue.tasks and cache_files(home)[0].read_bytes() != b"not a pickle"
