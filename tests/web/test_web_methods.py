"""The web page's Methods tab: the team's own methods marked, what was left out said.

A home holds the team's pricing page review and a second entry with a mistake in it.
The page opens as usual (the broken entry stops nothing) and says what was left out;
its Methods tab lists every method, the team's first and marked as theirs, names them
in the page's language, and opens a method's guide from its name.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web.test_browser import Server, open_page, serving

TASKS = """\
tasks:
  - id: pricing_page_review
    name: {en: Pricing page review, es: Revisión de página de precios}
    description: Review a pricing page for clarity and plan comparison.
    expected_output: [Findings by severity, Recommendations]
    keywords: {en: [pricing page review], es: [revisión de página de precios]}
    guides: [pricing_page_review.md]
    agent: content_specialist
  - id: onboarding_audit
    name: Onboarding audit
"""
GUIDE = "# Pricing page review\n\nWe review pricing pages.\n\n## Procedure\n1. List plans.\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("web-methods")
    home = root / "home"
    (home / "config").mkdir(parents=True)
    (home / "knowledge" / "guides").mkdir(parents=True)
    (home / "config" / "tasks.yaml").write_text(TASKS, encoding="utf-8")
    (home / "knowledge" / "guides" / "pricing_page_review.md").write_text(GUIDE, encoding="utf-8")
    with serving(root, shared_cache) as running:
        yield running


def test_the_methods_tab_marks_the_teams_and_says_what_was_left_out(
    chromium: Any, server: Server
) -> None:
    page = open_page(chromium, server)
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "your method 'onboarding_audit' is left out" in toast.inner_text()
    page.click("#tab-methods")
    first = page.locator("#method-list li.method").first
    first.wait_for()
    assert first.get_attribute("data-method") == "pricing_page_review"
    assert first.locator(".team-badge").inner_text() == "your team's"
    assert page.locator("#method-list .team-badge").count() == 1
    assert page.locator("#method-list li.method").count() > 90
    warning = page.locator("#left-out .warning")
    assert warning.count() == 1 and "tasks.yaml:10" in warning.inner_text()
    first.locator(".method-name").click()
    page.locator("#guide h2").wait_for()
    assert page.locator("#guide h2").inner_text() == "Pricing page review"
