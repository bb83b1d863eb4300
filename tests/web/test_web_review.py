"""An answer's review in the page (issue 26): what the review found wrong is listed under
the answer in the answer's words, live and again after a reload; axe runs on it, the
console stays clean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import claude_run
from test_review_story import PLAN

from web.a11y import check_axe
from web.test_browser import Server, serving
from web.test_record import error_toasts, new_project, open_page, say

# A plan with an invented guide section and "Limitations: none".
FLAWED = (
    PLAN.format(format="Moderated remote sessions over video, 45 minutes.")
    .replace("[test_plan.md > Procedure]", "[test_plan.md > The magic number]")
    .replace("Five people per segment show the worst problems, not how often they occur.", "None.")
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("web-review")
    extra = {"FAKE_RECORDING": str(claude_run(root / "answer.json", FLAWED)), "FAKE_DELAY": "0"}
    with serving(root, shared_cache, extra, cwd=root / "server-cwd") as running:
        yield running


def test_the_reviews_findings_are_listed_under_the_answer(chromium: Any, server: Server) -> None:
    page, console = open_page(chromium, server, "desktop")
    new_project(page, "Cestalia")
    answer = say(page, "plan a usability test of the new checkout")
    review = answer.locator(".review-failed")
    review.wait_for()
    shown = review.inner_text()
    assert "cites [test_plan.md > The magic number], a section test_plan.md does not have" in (
        shown
    )
    assert 'Limitations: "None"' in shown
    check_axe(page, "an answer's review")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    again = page.locator(".review-failed").last.inner_text()
    assert "The magic number" in again  # drawn again from the stored review
    assert error_toasts(page) == []
    console.check()
    page.context.close()
