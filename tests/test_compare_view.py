"""How /compare shows two answers: side by side on a wide terminal, one after the other
otherwise, model text never acting on the terminal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import design_agent.cli.turn_view as turn_view

DATA = {
    "providers": ["claude", "gemini"],
    "texts": ["# Plan A\n\nRecruit five nurses.", "# Plan B\n\nRun it remotely.\x1b[2J"],
    "footers": ["── claude/sonnet · 1.2 s · checklist 5/9", "── gemini · 0.9 s · checklist 4/9"],
    "question": "Which answer do you keep, 1 or 2?",
}


def shown(monkeypatch: pytest.MonkeyPatch, width: int) -> str:
    buffer = io.StringIO()
    screen = Console(file=buffer, width=width, force_terminal=False, color_system=None)
    monkeypatch.setattr(turn_view, "console", lambda: screen)
    turn_view.show_compared(DATA)
    return buffer.getvalue()


def test_a_wide_terminal_shows_the_answers_side_by_side(monkeypatch):
    out = shown(monkeypatch, 200)
    assert any(
        "Recruit five nurses" in line and "Run it remotely" in line for line in out.splitlines()
    )
    assert "1. claude" in out and "2. gemini" in out and "checklist 4/9" in out
    assert "\x1b" not in out


def test_a_narrow_terminal_shows_them_one_after_the_other(monkeypatch):
    out = shown(monkeypatch, 100)
    assert out.index("Recruit five nurses") < out.index("## 2. gemini") < out.index("Run it")
    assert out.rstrip().endswith("Which answer do you keep, 1 or 2?")
