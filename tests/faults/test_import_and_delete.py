"""Faults around importing and deleting projects, reproduced through the real commands.

- A project's stored preferences only fill what the user did not set
  (flag > env > settings.yaml > project > default); bad ones are dropped on
  import and ignored on read, with a warning, never fatal.
- Deleting a project leaves nothing of it behind: not in process memory, not
  in agent state, not in logs/, not in the bytes of the database file.
- A hostile export file (deep nesting, repeated file hashes, a path as its
  project id) is refused with one line naming the file, exit code 2.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from design_agent.core.errors import ExitCode
from design_agent.core.paths import HomeLayout
from design_agent.core.settings import load_settings, set_setting
from design_agent.memory import Memory
from design_agent.memory.schema import MIGRATIONS
from design_agent.memory.search_index import index_statements

MARKER = "Zq7Marker"  # one word, so the search indexes hold it as one token too


def exported(tmp_path: Path, name: str = "Imported", **metadata: Any) -> Path:
    """An export file of a small project (made on another machine) with this metadata."""
    with Memory.open(tmp_path / "elsewhere" / "design-agent.db") as memory:
        project = memory.create_project(name)
        memory.add_turn(project.id, "user", "plan a usability test")
        for key, value in metadata.items():
            memory.set_metadata(project.id, key, value)
        path = tmp_path / f"{project.id}.json"
        memory.export_project(project.id, path)
    return path


def edited(path: Path, change: Any) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def stored_preferences(home: Path, project_id: str) -> Any:
    with Memory.open(home / "design-agent.db") as memory:
        return memory.metadata(project_id).get("preferences")


@pytest.fixture
def fake_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `claude` on PATH that leaves a file behind when it is run (it never should be)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    ran = tmp_path / "claude-ran"
    script = folder / "claude"
    script.write_text(f"#!/bin/sh\ntouch {ran}\nexit 1\n", encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return ran


# -- 7. preferences: the user wins ----------------------------------------------------------


def test_an_imported_provider_preference_never_beats_the_users_setting(
    run_cli, tmp_path, home, monkeypatch, fake_claude
):
    backup = exported(tmp_path, preferences={"provider": "claude", "verbosity": "brief"})
    assert run_cli("projects", "import", str(backup)).exit_code == 0
    run_cli("projects", "switch", "imported")
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    by_env = json.loads(run_cli("ask", "--json", "plan a usability test").output)
    monkeypatch.delenv("DESIGN_AGENT_PROVIDER")
    assert run_cli("config", "set", "provider", "offline").exit_code == 0
    by_file = json.loads(run_cli("ask", "--json", "plan a usability test").output)
    assert by_env["provider"] == by_file["provider"] == "offline"
    assert not fake_claude.exists()  # the brief never went to Claude


def test_bad_preferences_are_dropped_on_import_with_a_warning(run_cli, tmp_path, home):
    prefs = {"provider": "nonexistent", "verbosity": "insane", "tier": "fast", "colour": "red"}
    result = run_cli("projects", "import", str(exported(tmp_path, preferences=prefs)))
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 3 and all("preferences" in w for w in warnings)
    assert "nonexistent" in result.stderr and "insane" in result.stderr
    assert stored_preferences(home, "imported") == {"tier": "fast"}


def test_a_bad_stored_preference_is_ignored_with_a_warning_not_fatal(
    run_cli, home, tmp_path, monkeypatch
):
    monkeypatch.setenv("PATH", str(tmp_path))  # no AI CLI installed: auto means offline
    run_cli("projects", "create", "Checkout")
    with Memory.open(home / "design-agent.db") as memory:
        bad = {"provider": "nonexistent", "verbosity": "insane"}
        memory.set_metadata("checkout", "preferences", bad)
    events = run_cli("ask", "--events", "plan a usability test for the checkout")
    assert events.exit_code == 0, events.output
    lines = [json.loads(line) for line in events.output.splitlines()]
    loaded = next(e for e in lines if e["kind"] == "preferences")
    assert (loaded["provider"], loaded["verbosity"]) == ("auto", "normal")
    notice = next(e for e in lines if e.get("action") == "preferences.ignored")
    assert "nonexistent" in notice["message"] and "insane" in notice["message"]
    assert lines[-1]["status"] == "complete" and lines[-1]["provider"] == "offline"


# flag, env, settings.yaml, project -> the provider used and where it came from
PRECEDENCE = [
    (None, None, None, None, ("auto", "default")),
    (None, None, None, "gemini", ("gemini", "project")),
    (None, None, "offline", "gemini", ("offline", "file")),
    (None, "codex", "offline", "gemini", ("codex", "env")),
    ("claude", "codex", "offline", "gemini", ("claude", "flag")),
    (None, None, None, "nonexistent", ("auto", "default")),
    (None, None, "auto", "gemini", ("auto", "file")),  # an explicit auto is the user's choice
]


@pytest.mark.parametrize(("flag", "env", "file", "project", "expected"), PRECEDENCE)
def test_the_precedence_table(home, flag, env, file, project, expected):
    from design_agent.core.preferences import resolve_preferences

    layout = HomeLayout(home)
    if file:
        set_setting(layout, "provider", file)
        set_setting(layout, "verbosity", "detailed")
    environ = {"DESIGN_AGENT_PROVIDER": env} if env else {}
    settings = load_settings(layout, {"provider": flag}, environ)
    stored = {"provider": project, "verbosity": "brief"} if project else None
    resolved = resolve_preferences(settings, stored, {"claude", "gemini", "codex", "offline"})
    assert (resolved.values["provider"], resolved.sources["provider"]) == expected
    verbosity = ("detailed", "file") if file else ("brief", "project") if project else None
    assert (resolved.values["verbosity"], resolved.sources["verbosity"]) == (
        verbosity or ("normal", "default")
    )
    assert bool(resolved.ignored) == (project == "nonexistent")


# -- 9. delete forgets everything -----------------------------------------------------------


def files_holding(folder: Path, needle: bytes) -> list[str]:
    return [
        p.name
        for p in sorted(folder.rglob("*"))
        if p.is_file() and needle in p.read_bytes().lower()
    ]


def test_a_deleted_project_leaves_no_trace(run_cli, home, tmp_path):
    brief = tmp_path / "brief.md"
    brief.write_text(f"# Brief\n{MARKER} buyers abandon at sign-up\n", encoding="utf-8")
    run_cli("projects", "create", "Kept")
    run_cli("decisions", "add", "Keep guest checkout", "--why", "fewer steps")
    run_cli("projects", "create", "Doomed")
    assert run_cli("files", "add", str(brief)).exit_code == 0
    run_cli("decisions", "add", f"Use {MARKER} cards", "--why", f"{MARKER} reasons")
    said = f"we decided to use {MARKER} tiles because {MARKER} testers liked them"
    for message in (said, f"plan a usability test about {MARKER} checkout"):
        assert run_cli("ask", "--json", "--provider", "offline", message).exit_code == 0
    needle = MARKER.lower().encode()
    assert files_holding(home, needle)  # it is there before the delete

    deleted = run_cli("projects", "delete", "Doomed", input="y\n")
    assert deleted.exit_code == 0, deleted.output
    assert "process-memory" in deleted.output and "conversation state" in deleted.output

    with sqlite3.connect(home / "design-agent.db") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert files_holding(home, needle) == []  # database, -wal, logs/, cache/
    with Memory.open(home / "design-agent.db") as memory:
        assert [p.name for p in memory.list_projects()] == ["Kept"]
        assert memory.search_process_memory(MARKER) == []
        assert memory.list_process_memory() == []  # only the talk in Doomed had added one
        assert memory.get_state("conversation:doomed") is None


def test_process_memory_of_a_deleted_project_goes_and_others_stay(tmp_path):
    with Memory.open(tmp_path / "design-agent.db") as memory:
        doomed, kept = memory.create_project("Doomed"), memory.create_project("Kept")
        memory.add_process_memory("Doomed", f"{MARKER} cards", "why", project_id=doomed.id)
        memory.add_process_memory("Kept: Journey map", "diary study", project_id=kept.id)
        memory.set_state(f"conversation:{doomed.id}", {"last": MARKER})
        report = memory.deletion_report(doomed.id)
        assert report.process_memory == 1
        memory.delete_project(report)
        assert [e.decision for e in memory.list_process_memory()] == ["diary study"]
        assert memory.get_state(f"conversation:{doomed.id}") is None


def test_old_process_memory_is_linked_to_its_project_by_the_migration(tmp_path):
    """A version 3 file (no link yet): the migration links entries by the context the
    decisions handler wrote, the project's name or "<name>: <task name>"."""
    path = tmp_path / "design-agent.db"
    db = sqlite3.connect(path)
    for statement in (*MIGRATIONS[1], *MIGRATIONS[2], *MIGRATIONS[3]):
        db.execute(statement)
    for key, (project_id, name) in enumerate((("doomed", "Doomed"), ("kept", "Kept")), 1):
        db.execute(
            "INSERT INTO projects VALUES (?, ?, ?, ?, '2025', '2025')",
            [project_id, name, project_id, key],
        )
        for statement in index_statements(project_id, key):
            db.execute(statement)
    for context in ("Doomed", "Doomed: Usability test plan", "Kept", "Doomed project"):
        db.execute(
            "INSERT INTO process_memory (context, decision, timestamp) VALUES (?, ?, '2025')",
            [context, f"decision in {context}"],
        )
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    with Memory.open(path) as memory:
        memory.delete_project(memory.deletion_report("doomed"))
        left = sorted(e.context for e in memory.list_process_memory())
    assert left == ["Doomed project", "Kept"]


# -- 12c. hostile export files --------------------------------------------------------------


def refused(run_cli, path: Path) -> str:  # type: ignore[no-untyped-def]
    result = run_cli("projects", "import", str(path))
    assert result.exit_code == ExitCode.USAGE, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(path) in errors[0], result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    return errors[0]


def test_deeply_nested_json_is_a_clear_error(run_cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000, encoding="utf-8")
    assert "nested" in refused(run_cli, deep)


def test_repeated_file_hashes_are_a_clear_error(run_cli, tmp_path):
    def twice(document: dict[str, Any]) -> None:
        entry = {
            "filename": "brief.md",
            "file_type": "brief",
            "uploaded_at": "2025-01-01T00:00:00Z",
            "sha256": "ab" * 32,
            "content": "the brief",
        }
        document["files"] = [entry, {**entry, "filename": "copy.md"}]

    line = refused(run_cli, edited(exported(tmp_path), twice))
    assert "copy.md" in line and "same" in line


@pytest.mark.parametrize("bad_id", ["../../../etc/passwd", "Imported", "imported/../x", ""])
def test_a_project_id_that_is_not_a_slug_is_refused(run_cli, tmp_path, home, bad_id):
    backup = edited(exported(tmp_path), lambda d: d["project"].update(id=bad_id))
    assert "id" in refused(run_cli, backup)
    assert json.loads(run_cli("projects", "list", "--json").output) == []


def test_a_renamed_slug_id_still_imports(run_cli, tmp_path):
    backup = edited(exported(tmp_path), lambda d: d["project"].update(id="imported-2"))
    assert run_cli("projects", "import", str(backup)).exit_code == 0
    listed = json.loads(run_cli("projects", "list", "--json").output)
    assert [p["id"] for p in listed] == ["imported-2"]
