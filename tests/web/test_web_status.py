"""The web page shows a wait on the model: the fast model choosing the method.

A vague request with Claude active makes the server ask Claude's fast tier to
choose the method first. The fake `claude` answers that call after a silence
(or never): the page shows a status line with a spinner while it waits, in the
turn's language, and removes it when the choice is made; the Cancel button
during the wait stops the call's process, removes the line and ends the turn
as cancelled.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import alive, claude_run, pids_in

from web.test_browser import Server, ask, create_project, open_page, serving

VAGUE = "tengo una idea y no sé por dónde empezar"  # LOW: the model is asked to choose
ANSWER = "Let us run an ideation session."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    """A server whose fake claude chooses slowly, answers, then never chooses again."""
    root = tmp_path_factory.mktemp("web-status")
    runs = [
        claude_run(
            root / "slow-choice.json", '{"task": "brainstorming", "reason": "x"}', sleep=2.0
        ),
        claude_run(root / "answer.json", ANSWER),
        claude_run(root / "no-choice.json", '{"task": "brainstorming"}', sleep=60.0),
    ]
    extra = {
        "FAKE_SEQUENCE": os.pathsep.join(str(run) for run in runs),
        "FAKE_PIDS": str(root / "pids"),
        "FAKE_DELAY": "0",
    }
    with serving(root, shared_cache, extra) as running:
        yield running


def runs_started(counter: Path, count: int) -> None:
    """Until the fake has started its `count`th run (it counts them in FAKE_SEQUENCE's file)."""
    deadline = time.monotonic() + 15
    while not (counter.exists() and counter.read_text() == str(count)):
        assert time.monotonic() < deadline, "the fake was never asked"
        time.sleep(0.02)


def test_the_page_shows_the_wait_for_the_model_then_removes_it(
    chromium: Any, server: Server
) -> None:
    page = open_page(chromium, server)
    create_project(page, "Ideas")
    answer = ask(page, VAGUE)
    working = answer.locator(".msg-working")
    working.wait_for(state="visible")
    # The page's own words are in the user's language (here the browser's: English), not
    # the language of the message.
    assert working.inner_text() == "Choosing the method…"
    assert working.get_attribute("role") == "status"
    assert answer.locator(".markdown").inner_text() == ""  # nothing answered yet
    working.wait_for(state="detached")
    page.locator(".msg.agent.done .footer-line").wait_for()
    assert ANSWER in answer.locator(".markdown").inner_text()
    assert page.locator(".msg-working").count() == 0

    # A model that never answers: Cancel stops it, the line goes, the turn is cancelled.
    again = ask(page, VAGUE)
    again.locator(".msg-working").wait_for(state="visible")
    root = server.home.parent
    runs_started(root / "slow-choice.json.count", 3)  # the fake is asked to choose
    page.click("#cancel")
    page.locator(".msg.agent[data-status='cancelled']").wait_for()
    assert again.locator(".msg-working").count() == 0
    assert again.locator(".note.cancelled").count() == 1
    pids = pids_in(root / "pids")
    deadline = time.monotonic() + 3
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if alive(pid)]
    page.context.close()
