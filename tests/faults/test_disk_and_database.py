"""A damaged database file and a full disk, made for real.

- Damage: garbage written over a page in the middle of a real database file (a page of
  the turns' table). Every command that reads it says which file is damaged, what
  `PRAGMA integrity_check` finds and how to recover, exit 3, and leaves the file as it is
  (was "unexpected DatabaseError", exit 1).
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from design_agent.cli.context import AppContext
from design_agent.errors import ExitCode
from design_agent.memory import Memory
from design_agent.memory.faults import DatabaseDamagedError, storage_error

PAGE_TEXT = "usability findings about the checkout "


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    return lines[0]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- a damaged page ------------------------------------------------------------------------


def turns_page(path: Path) -> int:
    """A page of the turns' table in the middle of the file (dbstat when SQLite has it,
    else the file's middle page, which the turns fill)."""
    db = sqlite3.connect(path)
    try:
        pages = [r[0] for r in db.execute("SELECT pageno FROM dbstat WHERE name = 'conversations'")]
    except sqlite3.OperationalError:  # built without SQLITE_ENABLE_DBSTAT_VTAB
        pages = [int(db.execute("PRAGMA page_count").fetchone()[0]) // 2]
    finally:
        db.close()
    return sorted(pages)[len(pages) // 2]


@pytest.fixture
def damaged_home(home: Path) -> tuple[Path, int]:
    """A home whose database has 200 turns and garbage over one page of them in the middle
    of the file; the page's number."""
    app = AppContext(str(home))
    project = app.memory.create_project("Atlas")
    app.memory.switch_project(project.id)
    for n in range(200):
        app.memory.add_turn(project.id, ("user", "agent")[n % 2], f"turn {n} " + PAGE_TEXT * 40)
    beacon = app.memory.create_project("Beacon")  # its turns are at the end of the file
    app.memory.add_turn(beacon.id, "user", "plan a diary study")
    app.memory.add_decision(beacon.id, "two-week diary", "habits show over days")
    app.close()
    path = app.home.database_file
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself
    page = turns_page(path)
    size = 4096
    with path.open("r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(b"\xde\xad\xbe\xef" * (size // 4))
    return path, page


@pytest.mark.parametrize(
    "args",
    [("history", "-n", "500"), ("projects", "export", "Atlas", "-"), ("history", "--tree")],
    ids=lambda a: " ".join(a),
)
def test_a_damaged_page_is_named_with_what_integrity_check_says_and_how_to_recover(
    run_cli, damaged_home, tmp_path, args
):
    path, page = damaged_home
    before = sha256(path)
    args = tuple(str(tmp_path / "atlas.json") if a == "-" else a for a in args)
    result = run_cli(*args)
    assert result.exit_code == ExitCode.INVALID_CONFIG == 3, result.output
    line = one_error_line(result)
    assert f"the database {path} is damaged" in line
    assert f"integrity_check: Page {page}" in line  # the page, as SQLite reports it
    assert "design-agent projects export NAME FILE" in line
    assert f"mv {path} {path}.damaged" in line and "design-agent projects import FILE" in line
    assert sha256(path) == before  # left as it is


def test_the_way_back_works_export_what_reads_move_it_aside_and_import(run_cli, damaged_home):
    path, _ = damaged_home
    backup = path.parent.parent / "beacon.json"
    assert run_cli("projects", "export", "Beacon", str(backup)).exit_code == 0
    path.rename(path.with_name(path.name + ".damaged"))
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    assert run_cli("projects", "import", str(backup)).exit_code == 0
    shown = run_cli("decisions", "list", "--project", "Beacon")
    assert shown.exit_code == 0 and "two-week diary" in shown.output


def test_the_damage_is_mapped_from_a_real_sqlite_error(damaged_home):
    path, page = damaged_home
    with Memory.open(path) as memory:
        project = memory.find_project("Atlas")
        with pytest.raises(sqlite3.DatabaseError) as raised:
            memory.recent_turns(project.id, 500)
    error = storage_error(raised.value, path)
    assert isinstance(error, DatabaseDamagedError) and error.exit_code == 3
    assert f"Page {page}" in error.message


def test_other_database_errors_are_not_called_damage_or_a_full_disk(tmp_path):
    locked = sqlite3.OperationalError("database is locked")
    assert storage_error(locked, tmp_path / "design-agent.db") is None
    assert storage_error(ValueError("no"), tmp_path / "design-agent.db") is None
