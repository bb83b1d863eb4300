"""Faults in what reaches the terminal: text from a model, a file or an import is printed
cleaned in text mode (no escape sequence, BEL or bare CR; a newline never splits a row),
while JSON output keeps the data as it is, JSON-escaped.

Each surface is tried with the same hostile string: an OSC 52 clipboard write, a window
title change, a clear screen, a bare CR and an 8-bit CSI.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from fixtures.fakes import claude_run, install_fake

from design_agent.cli.context import AppContext

EVIL = "Evil\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\x1b[2J\rX\x9b2J"
Run = Callable[..., Result]


def assert_clean(text: str, where: str) -> None:
    for bad in ("\x1b", "\x07", "\r", "\x9b"):
        assert bad not in text, f"{bad!r} reached the terminal from {where}: {text!r}"


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake Claude whose answer carries the hostile string in its text and in both tags."""
    answer = (
        f"Plan {EVIL} body.\n<ask_user>Which {EVIL} users?</ask_user>\n"
        f'<decision rationale="because {EVIL}">Ship {EVIL} now</decision>\nDone.'
    )
    binary = install_fake(tmp_path / "bin", "claude")
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "claude")
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", str(binary))
    monkeypatch.setenv("FAKE_RECORDING", str(claude_run(tmp_path / "evil.json", answer)))


def test_an_answer_its_question_and_its_decisions_are_printed_clean(
    run_cli: Run, claude: None
) -> None:
    run_cli("projects", "create", "Atlas")
    asked = run_cli("ask", f"plan a usability test {EVIL}")
    assert asked.exit_code == 0, asked.output
    assert_clean(asked.output, "ask")
    assert "Which EvilX users?" in asked.output and "Ship EvilX now" in asked.output
    saved = run_cli("ask", "yes")
    assert_clean(saved.output, "the saved decisions")
    listed = run_cli("decisions", "list")
    assert_clean(listed.output, "decisions list")
    row = next(line for line in listed.output.splitlines() if "Ship" in line)
    assert "because EvilX" in row, "one decision, one row"
    as_json = json.loads(run_cli("decisions", "list", "--json").output)
    assert as_json[0]["decision"] == f"Ship {EVIL} now", "JSON keeps the data"


def test_history_and_search_print_turns_clean(run_cli: Run, claude: None) -> None:
    run_cli("projects", "create", "Atlas")
    run_cli("ask", f"plan a usability test {EVIL}")
    history = run_cli("history")
    assert_clean(history.output, "history")
    assert "Plan EvilX body." in history.output
    found = run_cli("search", "evil")
    assert found.exit_code == 0 and "Atlas" in found.output, found.output
    assert_clean(found.output, "search")


def test_file_names_are_one_clean_row(run_cli: Run, tmp_path: Path) -> None:
    run_cli("projects", "create", "Atlas")
    path = tmp_path / f"notes{EVIL}\nsecond.md"
    path.write_text(f"# Notes\n{EVIL} research", encoding="utf-8")
    added = run_cli("files", "add", str(path))
    assert added.exit_code == 0, added.output
    assert_clean(added.output, "files add")
    listed = run_cli("files", "list")
    assert_clean(listed.output, "files list")
    row = next(line for line in listed.output.splitlines() if "second.md" in line)
    assert "notesEvilX␤second.md" in row and "brief" in row, listed.output
    assert json.loads(run_cli("files", "list", "--json").output)[0]["filename"] == path.name


def _import_hostile(run_cli: Run, tmp_path: Path) -> str:
    """Export a project, give it a hostile name in the file, and import it back."""
    run_cli("projects", "create", "Atlas")
    backup = tmp_path / "atlas.json"
    run_cli("projects", "export", "Atlas", str(backup))
    bundle = json.loads(backup.read_text(encoding="utf-8"))
    bundle["project"]["name"] = f"Atlas {EVIL}"
    bundle["project"]["id"] = "atlas-evil"
    backup.write_text(json.dumps(bundle), encoding="utf-8")
    imported = run_cli("projects", "import", str(backup))
    assert imported.exit_code == 0, imported.output
    assert_clean(imported.output, "projects import")
    return "atlas-evil"


def test_imported_project_names_are_printed_clean(run_cli: Run, tmp_path: Path) -> None:
    project_id = _import_hostile(run_cli, tmp_path)
    for args in (
        ["projects", "list"],
        ["projects", "switch", project_id],
        ["projects", "show"],
        ["search", "atlas", "--all-projects"],
        ["projects", "switch", f"nope {EVIL}"],  # the error edge quotes the name
    ):
        result = run_cli(*args)
        assert_clean(result.output, " ".join(args))
    assert "Atlas Evil" in run_cli("projects", "list").output


def test_the_piped_shell_prints_names_questions_and_answers_clean(
    run_cli: Run, tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    project_id = _import_hostile(run_cli, tmp_path)
    run_cli("projects", "switch", project_id)
    app = AppContext(str(home))
    app.memory.add_decision(project_id, f"Keep {EVIL}", f"why {EVIL}")
    app.close()
    lines = [
        "what projects do I have?",
        "what have we decided?",
        "plan a usability test",
        "/history 2",
        "/search atlas",
        f"delete the {EVIL} project",
        "/switch nowhere",
    ]
    shell = run_cli(input="\n".join(lines) + "\n")
    assert_clean(shell.output, "the shell")
    assert "Atlas Evil" in shell.output and "Keep EvilX" in shell.output


def test_providers_test_prints_the_models_text_clean(run_cli: Run, claude: None) -> None:
    """`providers test` streams a model's raw text: no escape sequence reaches the terminal."""
    tested = run_cli("providers", "test", "claude", "say something")
    assert tested.exit_code == 0, tested.output
    assert_clean(tested.output, "providers test")
    assert "Plan EvilX body." in tested.output
