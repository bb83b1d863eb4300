"""The database file survives real life: two processes at once, kill -9, old and new versions."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from design_agent.core.errors import ConfigError
from design_agent.memory import Memory, fresh_schema
from design_agent.memory.db import connect, transaction
from design_agent.memory.schema import LATEST_VERSION, V1
from design_agent.memory.search_index import index_statements
from design_agent.memory.squash import squashed

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from design_agent.memory import Memory

    path, name, start = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    (start.parent / f"ready-{name}").touch()  # imported: only the start is left
    while not start.exists():  # both writers start at the same moment
        time.sleep(0.005)
    with Memory.open(path) as memory:
        own = memory.create_project(name).id
        shared = memory.find_project("Shared").id
        for n in range(60):
            memory.recent_turns(shared, 3)  # read, then write: the classic lock upgrade
            turn = memory.add_turn(shared, "user", f"{name} says hello number {n}")
            memory.add_turn(own, "agent", f"answer {n}", parent_id=None)
            memory.add_decision(shared, f"{name} decision {n}", "because", turn.id)
            memory.search("hello", shared)
""")

OPENER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from design_agent.memory import Memory

    start = Path(sys.argv[3])
    (start.parent / f"ready-{sys.argv[2]}").touch()
    while not start.exists():
        time.sleep(0.002)
    with Memory.open(Path(sys.argv[1])) as memory:
        memory.add_turn(memory.create_project(sys.argv[2]).id, "user", "first words")
""")

BATCHER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from design_agent.memory import Memory

    with Memory.open(Path(sys.argv[1])) as memory:
        project = memory.find_project("Crash").id
        for batch in range(100_000):
            with memory.transaction():  # one exchange: 40 turns and a decision, all or nothing
                first = None
                for n in range(40):
                    turn = memory.add_turn(project, "user" if n % 2 == 0 else "agent",
                                           f"batch {batch} turn {n} " + "words " * 50)
                    first = first or turn.id
                memory.add_decision(project, f"batch {batch} decided", "why", first)
            print(batch, flush=True)
""")


def python(script: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def go_when_ready(start: Path, names: tuple[str, ...]) -> None:
    """Touch `start` once every process has imported design-agent and waits for it."""
    deadline = time.monotonic() + 60
    while not all((start.parent / f"ready-{n}").exists() for n in names):
        assert time.monotonic() < deadline, "the processes never got ready"
        time.sleep(0.005)
    start.touch()


def test_two_processes_write_at_once_without_database_is_locked(tmp_path):
    path = tmp_path / "design-agent.db"
    with Memory.open(path) as memory:
        memory.create_project("Shared")
    start = tmp_path / "go"
    writers = [python(WRITER, str(path), name, str(start)) for name in ("Ana", "Bruno")]
    go_when_ready(start, ("Ana", "Bruno"))
    outcomes = [w.communicate(timeout=120) for w in writers]
    assert [w.returncode for w in writers] == [0, 0], outcomes
    assert not any("locked" in err for _, err in outcomes)
    with Memory.open(path) as memory:
        counts = {p.name: (p.turns, p.decisions) for p in memory.list_projects()}
        assert counts == {"Shared": (120, 120), "Ana": (60, 0), "Bruno": (60, 0)}
        assert memory.search("hello", memory.find_project("shared").id, limit=500).total == 120


def test_three_processes_creating_the_same_new_database_at_once(tmp_path):
    path = tmp_path / "new" / "design-agent.db"
    start = tmp_path / "go"
    openers = [python(OPENER, str(path), name, str(start)) for name in ("A", "B", "C")]
    go_when_ready(start, ("A", "B", "C"))
    outcomes = [o.communicate(timeout=60) for o in openers]
    assert [o.returncode for o in openers] == [0, 0, 0], outcomes
    with Memory.open(path) as memory:
        assert sorted((p.name, p.turns) for p in memory.list_projects()) == [
            ("A", 1),
            ("B", 1),
            ("C", 1),
        ]


def test_kill_9_in_the_middle_of_a_batch_leaves_whole_batches_only(tmp_path):
    path = tmp_path / "design-agent.db"
    with Memory.open(path) as memory:
        memory.create_project("Crash")
    writer = python(BATCHER, str(path))
    assert writer.stdout is not None
    for line in writer.stdout:
        if int(line) >= 4:
            break
    time.sleep(0.013)  # land somewhere inside a later batch
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=10)

    with Memory.open(path) as memory:
        assert memory.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        memory.db.execute(
            "INSERT INTO conversations_fts_1(conversations_fts_1) VALUES ('integrity-check')"
        )
        project = memory.find_project("crash")
        turns = memory.recent_turns(project.id, 1_000_000)
        batches = {int(t.message.split()[1]) for t in turns}
        assert len(turns) == 40 * len(batches) and batches == set(range(len(batches)))
        assert all(t.message.endswith("words " * 50) for t in turns)
        assert len(memory.list_decisions(project.id)) == len(batches) >= 5
        indexed = memory.db.execute(
            "SELECT count(*) FROM conversations_fts_1 WHERE conversations_fts_1 MATCH 'batch'"
        ).fetchone()[0]
        assert indexed == len(turns)
        memory.add_turn(project.id, "user", "life goes on")  # and it is writable again


def build_version_1(path: Path) -> None:
    """A database as design-agent's first schema left it, with some rows in it."""
    db = sqlite3.connect(path)
    for statement in (*V1, *index_statements("checkout", 1)):
        db.execute(statement)
    now = "2025-01-01T10:00:00.000000+00:00"
    db.execute(
        "INSERT INTO projects VALUES ('checkout', 'Checkout', 'checkout', 1, ?, ?)", [now, now]
    )
    db.execute(
        "INSERT INTO conversations (project_id, timestamp, role, message) "
        "VALUES ('checkout', ?, 'user', 'moderated usability test plan')",
        [now],
    )
    db.execute(
        "INSERT INTO process_memory (context, decision, rationale, outcome, lessons, "
        "timestamp) VALUES ('b2b checkout', 'moderated testing', 'few users', 'ok', "
        "'recruit early', ?)",
        [now],
    )
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()


def test_a_version_1_database_is_migrated_forward(tmp_path):
    path = tmp_path / "design-agent.db"
    build_version_1(path)
    with Memory.open(path) as memory:
        assert memory.db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION == 11
        assert memory.find_project("checkout").name == "Checkout"
        assert memory.search("usability", "checkout").total == 1
        found = memory.search_process_memory("why did we choose moderated testing")
        assert [f.item.lessons for f in found] == ["recruit early"]
        memory.add_process_memory("onboarding", "diary study")
        assert memory.search_process_memory("diary")[0].item.decision == "diary study"


def test_a_database_from_a_newer_version_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "design-agent.db"
    with Memory.open(path) as memory:
        memory.create_project("Checkout")
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    db.commit()
    db.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(ConfigError, match="newer design-agent"):
        Memory.open(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_files_that_are_not_our_database_are_refused(tmp_path):
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ConfigError, match="not a readable design-agent database"):
        Memory.open(garbage)
    foreign = tmp_path / "foreign.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(ConfigError, match="not a design-agent database"):
        Memory.open(foreign)


# -- transactions: one block commits whole; a nested block fails alone -----------------------


def names_in(path: Path) -> list[str]:
    with sqlite3.connect(path) as reader:  # another connection: only what was committed
        return [row[0] for row in reader.execute("SELECT name FROM projects ORDER BY name")]


def add_project(db: sqlite3.Connection, name: str) -> None:
    db.execute(
        "INSERT INTO projects (id, name, name_key, search_key, created_at, last_accessed) "
        "VALUES (?, ?, ?, ?, '2026-11-27T10:00:00+00:00', '2026-11-27T10:00:00+00:00')",
        [name.lower(), name, name.lower(), len(name)],  # search_key is unique
    )


def test_a_failed_nested_block_is_undone_alone_and_the_rest_commits(tmp_path):
    path = tmp_path / "design-agent.db"
    db = connect(path)
    with transaction(db):
        add_project(db, "Atlas")
        with pytest.raises(RuntimeError), transaction(db):
            add_project(db, "Borealis")
            raise RuntimeError("the inner step failed")
        with transaction(db):
            add_project(db, "Cygnus")
        assert names_in(path) == []  # nothing is seen before the outer block commits
    assert names_in(path) == ["Atlas", "Cygnus"]
    assert not db.in_transaction
    db.close()


def test_a_failure_in_the_outer_block_undoes_its_nested_blocks_too(tmp_path):
    path = tmp_path / "design-agent.db"
    db = connect(path)
    with pytest.raises(KeyboardInterrupt), transaction(db):
        with transaction(db):
            add_project(db, "Atlas")
        raise KeyboardInterrupt  # Ctrl-C between two steps of one operation
    assert names_in(path) == [] and not db.in_transaction
    db.close()


# -- a new database is built in one go, as the migrations would build it -----------------------


def test_the_fresh_schema_is_what_the_migrations_build():
    assert fresh_schema.VERSION == LATEST_VERSION
    assert squashed() == fresh_schema.STATEMENTS, (
        "design_agent/memory/fresh_schema.py is out of date: run "
        "`python -m design_agent.memory.squash > design_agent/memory/fresh_schema.py`"
    )


def schema_rows(path: Path) -> tuple[int, list[tuple[str, str, str, str | None]]]:
    with sqlite3.connect(path) as reader:
        version = reader.execute("PRAGMA user_version").fetchone()[0]
        rows = reader.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).fetchall()
    return version, rows


def test_a_new_database_and_one_migrated_step_by_step_have_the_same_schema(tmp_path):
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    connect(new).close()
    connect(old, version=1).close()
    connect(old).close()  # every migration from 2 on
    assert schema_rows(new) == schema_rows(old)
    assert schema_rows(new)[0] == LATEST_VERSION and len(schema_rows(new)[1]) > 40
