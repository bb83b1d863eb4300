"""Research evidence in the page (issue 29): transcripts uploaded with the attach button go
in as evidence sessions, and a research answer shows its evidence check under it (the
participants' own words with who and when, a re-pointed quote, a removed one, counts and
coverage), live and again after a reload; axe runs on it, the console stays clean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import claude_run
from test_evidence_conversation import research_folder
from test_evidence_story import ASKED, DATA, INVENTED, answer_text

from web.a11y import check_axe
from web.test_browser import Server, serving
from web.test_record import error_toasts, new_project, open_page, say


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("web-evidence")
    text, _ = answer_text("en")
    extra = {"FAKE_RECORDING": str(claude_run(root / "answer.json", text))}
    with serving(root, shared_cache, extra, cwd=root / "server-cwd") as running:
        yield running


def test_uploaded_transcripts_and_a_checked_affinity_map(chromium: Any, server: Server) -> None:
    page, console = open_page(chromium, server, "desktop")
    new_project(page, "Clinic booking")
    for name in ("01_zoom_en.vtt", "02_teams_en.vtt"):
        page.set_input_files("#brief-input", str(DATA / "transcripts" / name))
        page.locator("#upload-result", has_text="as evidence session").wait_for()
        page.locator("#upload").wait_for(state="hidden", timeout=8000)
    answer = say(page, ASKED["en"])
    check = answer.locator(".evidence-check")
    check.wait_for()
    shown = check.inner_text()
    assert "Evidence check" in shown and "(P1, 0:43) S01.T006" in shown
    assert "re-pointed:" in shown and f"removed: “{INVENTED['en']}”" in shown
    assert "Finding and choosing a slot: 1 of 2 participants (P1)" in shown
    assert "Coverage: cited S01; not cited S02" in shown
    check_axe(page, "a research answer's evidence check")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    again = page.locator(".evidence-check").last.inner_text()
    assert f"removed: “{INVENTED['en']}”" in again  # drawn again from the stored record
    assert error_toasts(page) == []
    console.check()
    page.context.close()


def test_a_file_that_needs_one_answer_is_asked_about_in_the_page(
    chromium: Any, server: Server, tmp_path: Path
) -> None:
    """Which speaker moderates, which column holds the text, whether an unlabelled
    transcript is one person's notes: asked under the upload, as a conversation asks it;
    an answer adds the file, a cancel leaves nothing."""
    made = research_folder(tmp_path)
    page, console = open_page(chromium, server, "desktop")
    new_project(page, "Physio interviews")
    console.expect("status of 409")  # the question comes as a 409 needs_answer, on purpose
    result = page.locator("#upload-result")

    page.set_input_files("#brief-input", str(made / "interview-3.vtt"))
    result.locator("text=Which speaker is the moderator in interview-3.vtt?").wait_for()
    result.get_by_role("button", name="Ana").click()
    result.locator("text=Added interview-3.vtt as evidence session").wait_for()

    page.set_input_files("#brief-input", str(made / "reviews.csv"))
    result.locator("text=Which column of reviews.csv holds the text?").wait_for()
    result.get_by_role("button", name="Comment").click()
    result.locator("text=Added reviews.csv as evidence session").wait_for()

    page.set_input_files("#brief-input", str(made / "notes-7.txt"))
    result.locator("text=notes-7.txt has no speaker labels").wait_for()
    result.get_by_role("button", name="Cancel").click()
    result.locator("text=notes-7.txt was not added.").wait_for()
    page.set_input_files("#brief-input", str(made / "notes-7.txt"))
    result.get_by_role("button", name="Add as notes").click()
    result.locator("text=Added notes-7.txt as evidence session").wait_for()

    listed = page.evaluate(
        """async () => (await (await fetch('/api/v1/projects/' + DAApp.state.projectId
        + '/evidence')).json()).sessions.map(s => s.source)"""
    )
    assert sorted(listed) == ["interview-3.vtt", "notes-7.txt", "reviews.csv"]
    check_axe(page, "a question about an uploaded research file")
    console.check()
    page.context.close()
