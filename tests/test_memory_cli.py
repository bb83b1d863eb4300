"""The memory commands, as a user types them: projects, files, decisions, history, search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from design_agent.core.errors import ExitCode


@pytest.fixture(autouse=True)
def database(cli_store: Path | str) -> Path | str:
    """Every test here runs on the home's SQLite file and on a team's PostgreSQL."""
    return cli_store


def as_json(result) -> object:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_project_from_creation_to_backup(run_cli, tmp_path: Path):
    assert (
        "Created project 'Mobile Checkout'"
        in run_cli("projects", "create", "Mobile Checkout").output
    )
    brief = tmp_path / "brief.md"
    brief.write_text("# Brief\nGuest checkout for first-time buyers", encoding="utf-8")
    added = as_json(run_cli("files", "add", str(brief), "--json"))
    assert added["duplicate"] is False and added["file"]["file_type"] == "brief"
    assert "nothing changed" in run_cli("files", "add", str(brief)).output
    assert [f["filename"] for f in as_json(run_cli("files", "list", "--json"))] == ["brief.md"]

    run_cli("decisions", "add", "Moderated usability testing", "--why", "we need the why")
    decisions = as_json(run_cli("decisions", "list", "--json"))
    assert decisions[0]["rationale"] == "we need the why"
    found = as_json(run_cli("decisions", "search", "why did we choose moderated testing", "--json"))
    assert found[0]["item"]["decision"] == "Moderated usability testing"
    results = as_json(run_cli("search", "why did we choose moderated testing", "--json"))
    assert results["groups"][0]["hits"][0]["kind"] == "decision"
    assert "Moderated usability testing" in run_cli("search", "moderated").output

    run_cli("projects", "create", "Onboarding")
    assert as_json(run_cli("history", "--json")) == []
    switched = as_json(run_cli("projects", "switch", "mobile checkout", "--json"))
    assert switched["id"] == "mobile-checkout"
    listed = as_json(run_cli("projects", "list", "--json"))
    assert [(p["name"], p["active"]) for p in listed] == [
        ("Mobile Checkout", True),
        ("Onboarding", False),
    ]
    everywhere = as_json(run_cli("search", "checkout", "--all-projects", "--json"))
    assert [g["project"]["id"] for g in everywhere["groups"]] == ["mobile-checkout"]

    run_cli("projects", "rename", "mobile checkout", "Checkout 2.0")
    shown = as_json(run_cli("projects", "show", "checkout 2.0", "--json"))
    assert shown["project"]["name"] == "Checkout 2.0" and shown["decisions"] == 1
    backup = tmp_path / "backup.json"
    assert "1 decisions" in run_cli("projects", "export", "checkout 2.0", str(backup)).output

    refused = run_cli("projects", "delete", "checkout 2.0", input="n\n")
    assert refused.exit_code == 1 and "removes 0 turns, 1 files, 1 decisions" in refused.output
    assert "Deleted" in run_cli("projects", "delete", "checkout 2.0", input="y\n").output
    assert "Imported 'Checkout 2.0'" in run_cli("projects", "import", str(backup)).output
    deleted = as_json(run_cli("projects", "delete", "Onboarding", "--yes", "--json"))
    assert deleted["deleted"] is True and deleted["turns"] == 0


def test_history_shows_the_latest_turns(run_cli, database: Path | str):
    from design_agent.memory import Memory

    run_cli("projects", "create", "Checkout")
    with Memory.open(database) as memory:
        project = memory.find_project("checkout")
        for n in range(5):
            memory.add_turn(project.id, "user" if n % 2 == 0 else "agent", f"message [{n}]")
    turns = as_json(run_cli("history", "-n", "2", "--json"))
    assert [t["message"] for t in turns] == ["message [3]", "message [4]"]
    assert "message [4]" in run_cli("history").output


def test_errors_say_what_to_do_and_exit_with_their_code(run_cli, tmp_path: Path):
    no_project = run_cli("history")
    assert no_project.exit_code == ExitCode.USAGE and "projects create" in no_project.output
    run_cli("projects", "create", "Checkout")
    missing = run_cli("projects", "switch", "Chekout")
    assert missing.exit_code == ExitCode.NOT_FOUND and "Did you mean: Checkout" in missing.output
    binary = tmp_path / "logo.png"
    binary.write_bytes(b"\x89PNG\x00\x00binary")
    refused = run_cli("files", "add", str(binary))
    assert refused.exit_code == ExitCode.USAGE and "binary" in refused.output
    assert run_cli("projects", "create", "checkout").exit_code == ExitCode.USAGE
