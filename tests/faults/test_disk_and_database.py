"""A damaged database file and a full disk, made for real.

- Damage: garbage written over a page in the middle of a real database file (a page of
  the turns' table). Every command that reads it says which file is damaged, what
  `PRAGMA integrity_check` finds and how to recover, exit 3, and leaves the file as it is
  (was "unexpected DatabaseError", exit 1).
- A full disk: a real 16 MB tmpfs (mounted as root; skipped where mount is not
  permitted), filled with a file until the room left is what the test wants, and
  SQLite's `max_page_count` for SQLITE_FULL on an ordinary file. At open it says "the
  disk is full" with the path, exit 8 (was "not a readable design-agent database", exit
  3); an answer the database cannot take is shown, kept in the home's recovery journal
  (on room set aside beforehand) and saved by the next command or `history --recover`
  (was "unexpected OperationalError" and the answer lost).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.fakes import claude_run, install_fake

from design_agent.cli.context import AppContext
from design_agent.core.errors import DiskFullError, ExitCode
from design_agent.memory import Memory
from design_agent.memory.faults import DatabaseDamagedError, storage_error
from design_agent.memory.recovery import RESERVE_BYTES

AGENT = [sys.executable, "-m", "design_agent"]
FIRST = "plan a usability test for the invoice screen"
SECOND = "write personas for our accountants"

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


# -- a full disk -----------------------------------------------------------------------------


def test_sqlite_full_on_a_real_file_is_said_as_a_full_disk_with_its_path(tmp_path):
    path = tmp_path / "design-agent.db"
    with Memory.open(path) as memory:
        project = memory.create_project("Atlas")
        pages = memory.db.execute("PRAGMA page_count").fetchone()[0]
        memory.db.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow
        with pytest.raises(sqlite3.OperationalError) as raised:
            memory.add_turn(project.id, "agent", PAGE_TEXT * 2000)
        assert raised.value.sqlite_errorcode & 0xFF == 13  # SQLITE_FULL
        assert not memory.db.in_transaction  # the failed write was rolled back
    error = storage_error(raised.value, path)
    assert isinstance(error, DiskFullError) and error.exit_code == ExitCode.DISK_FULL == 8
    assert error.message.startswith(f"the disk is full: {path} could not be written")


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    """A real 16 MB tmpfs (root only), unmounted afterwards."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path, leave: int) -> None:
    """Fill the disk with one file until `leave` bytes are left."""
    filler = disk / "filler"
    filler.unlink(missing_ok=True)
    info = os.statvfs(disk)
    with filler.open("wb") as handle:
        handle.write(bytes(max(0, info.f_bavail * info.f_frsize - leave)))


def design_agent(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A real `design-agent` process on `home`, offline unless `env` says otherwise."""
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline"}
    return subprocess.run(
        [*AGENT, *args], capture_output=True, text=True, env={**environ, **(env or {})}, timeout=120
    )


@pytest.fixture
def big_answer(tmp_path: Path) -> dict[str, str]:
    """A fake Claude (outside the small disk) whose answer is ~600 KB of personas."""
    answer = "# Personas\n\n" + "".join(
        f"- Persona {n}: " + "an accountant " * 40 + "\n" for n in range(1000)
    )
    return {
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(install_fake(tmp_path / "bin", "claude")),
        "FAKE_RECORDING": str(claude_run(tmp_path / "personas.json", answer)),
    }


def test_a_full_disk_at_open_says_so_with_the_path(disk):
    home = disk / "home"
    fill(disk, leave=0)
    result = design_agent(home, "projects", "list")
    assert result.returncode == ExitCode.DISK_FULL, result.stderr
    line = one_error_line(result)
    assert line.startswith("Error: the disk is full: ") and str(home) in line
    assert "not a readable" not in line


def test_a_setting_written_on_a_full_disk_says_so(disk):
    home = disk / "home"
    assert design_agent(home, "projects", "create", "Atlas").returncode == 0
    fill(disk, leave=0)
    result = design_agent(home, "config", "set", "language", "es")
    assert result.returncode == ExitCode.DISK_FULL, result.stderr
    line = one_error_line(result)
    assert line.startswith("Error: the disk is full: cannot write to") and str(home) in line
    assert list(home.glob(".settings.yaml.*")) == []  # no temporary file left


@pytest.fixture
def unsaved(
    disk: Path, big_answer: dict[str, str]
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A home whose first answer was saved (room was set aside then), and whose second, a
    600 KB answer asked with 200 KB left on the disk, did not fit: the home and that `ask`."""
    home = disk / "home"
    assert design_agent(home, "ask", FIRST).returncode == 0
    assert (home / "recovery" / "reserve").stat().st_size == RESERVE_BYTES
    fill(disk, leave=200 * 1024)
    return home, design_agent(home, "ask", SECOND, env=big_answer)


def test_an_answer_the_full_disk_cannot_take_is_shown_and_kept(unsaved):
    home, asked = unsaved
    assert asked.returncode == ExitCode.DISK_FULL, asked.stderr
    assert "# Personas" in asked.stdout  # the answer was shown before the save failed
    line = one_error_line(asked)
    assert line.startswith(f"Error: the disk is full: {home / 'design-agent.db'} could not")
    (kept,) = (home / "recovery").glob("*.json")
    assert f"the answer is kept in {kept}" in line and "history --recover" in line
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "recovery").stat().st_mode) == 0o700
    entry = json.loads(kept.read_text(encoding="utf-8"))
    assert entry["message"] == SECOND and entry["project_name"] == "General"
    assert entry["answer"].startswith("# Personas") and len(entry["answer"]) > 500_000
    assert entry["provider"] == "claude" and entry["status"] == "complete"


def test_history_recover_saves_the_kept_answer_once_there_is_room(unsaved, disk):
    home, _ = unsaved
    entry = json.loads(next((home / "recovery").glob("*.json")).read_text(encoding="utf-8"))
    (disk / "filler").unlink()
    recovered = design_agent(home, "history", "--recover", "-n", "2", "--json")
    assert recovered.returncode == 0, recovered.stderr
    assert "Saved the answer kept on" in recovered.stderr and "as turns 3 and 4" in recovered.stderr
    turns = json.loads(recovered.stdout)
    assert [t["role"] for t in turns] == ["user", "agent"]
    assert turns[0]["message"] == SECOND and turns[1]["message"] == entry["answer"]
    assert list((home / "recovery").glob("*.json")) == []
    again = design_agent(home, "history", "--recover")
    assert "Nothing to recover" in again.stderr


def test_the_next_command_saves_the_kept_answer_and_says_so(unsaved, disk):
    home, _ = unsaved
    fill(disk, leave=100 * 1024)  # the reserve's room taken too: still no room for 600 KB
    still_full = design_agent(home, "projects", "list")  # it waits, and the command works
    assert still_full.returncode == 0, still_full.stderr
    assert "1 unsaved answer(s) wait in" in still_full.stderr
    (disk / "filler").unlink()
    listed = design_agent(home, "projects", "list")
    assert listed.returncode == 0 and "as turns 3 and 4" in listed.stderr
    assert list((home / "recovery").glob("*.json")) == []


def test_when_even_the_journal_cannot_be_written_the_error_says_so(disk, big_answer):
    home = disk / "home"
    assert design_agent(home, "ask", FIRST).returncode == 0
    shutil.rmtree(home / "recovery")
    (home / "recovery").write_text("not a folder", encoding="utf-8")  # nowhere to keep it
    fill(disk, leave=200 * 1024)
    asked = design_agent(home, "ask", SECOND, env=big_answer)
    assert asked.returncode == ExitCode.DISK_FULL and "# Personas" in asked.stdout
    line = one_error_line(asked)
    assert "the answer could not be kept in" in line and "copy it from above" in line
