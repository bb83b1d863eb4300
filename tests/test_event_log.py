"""Each turn appends its events to logs/events.jsonl: private (0600) whatever the file was,
rotated when it grows past its limit, never written through a link put in its place."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from pydantic import BaseModel

from design_agent.core import logs
from design_agent.core.logs import EventLog


class Step(BaseModel):
    kind: str = "task"
    step: int = 1


def test_the_log_is_private_even_when_it_was_left_readable(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "events.jsonl"
    path.parent.mkdir(mode=0o700)
    path.write_text("", encoding="utf-8")
    path.chmod(0o644)
    EventLog(path.parent).write([Step(), Step(kind="text")])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [line["kind"] for line in lines] == ["task"]  # the answer's text is never logged


def test_a_full_log_is_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 10)
    log = EventLog(tmp_path / "logs")
    log.write([Step()])
    log.write([Step(step=2)])
    assert json.loads(log.path.with_suffix(".jsonl.1").read_text(encoding="utf-8"))["step"] == 1
    assert json.loads(log.path.read_text(encoding="utf-8"))["step"] == 2


def test_a_link_in_place_of_the_log_is_not_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("", encoding="utf-8")
    folder = tmp_path / "logs"
    folder.mkdir(mode=0o700)
    os.symlink(elsewhere, folder / "events.jsonl")
    EventLog(folder).write([Step()])
    assert elsewhere.read_text(encoding="utf-8") == ""
