"""Each project's own full-text index over its turns: created, dropped and rebuilt.

Why one index per project (see schema.py): FTS5's bm25 counts every query
word over the whole table before ranking, so with a million turns in one
table a scoped search costs as much as a global one. With one small table per
project the work of a scoped search is bounded by that project's size.

The triggers are per project too (`WHEN new.project_id = '<id>'`), so the
index stays in sync with `conversations` whoever writes to it.
"""

from __future__ import annotations

from design_agent.memory.connection import Connection
from design_agent.memory.db import scalar, sql_literal, transaction
from design_agent.memory.schema import FTS_OPTIONS


def turns_index(search_key: int) -> str:
    """The name of the FTS5 table over one project's turns."""
    return f"conversations_fts_{int(search_key)}"


def index_statements(project_id: str, search_key: int) -> tuple[str, ...]:
    """DDL of one project's turn index and of the triggers that keep it in sync."""
    fts = turns_index(search_key)
    pid = sql_literal(project_id)
    insert = f"INSERT INTO {fts}(rowid, message) VALUES (new.id, new.message);"
    delete = f"INSERT INTO {fts}({fts}, rowid, message) VALUES ('delete', old.id, old.message);"
    return (
        f"CREATE VIRTUAL TABLE {fts} USING fts5(message, {FTS_OPTIONS})",
        f"CREATE TRIGGER {fts}_insert AFTER INSERT ON conversations "
        f"WHEN new.project_id = {pid} BEGIN {insert} END",
        f"CREATE TRIGGER {fts}_delete AFTER DELETE ON conversations "
        f"WHEN old.project_id = {pid} BEGIN {delete} END",
        f"CREATE TRIGGER {fts}_update AFTER UPDATE OF message ON conversations "
        f"WHEN new.project_id = {pid} BEGIN {delete} {insert} END",
    )


def evidence_index(search_key: int) -> str:
    """The name of the FTS5 table over one project's evidence segments."""
    return f"evidence_fts_{int(search_key)}"


def evidence_statements(project_id: str, search_key: int) -> tuple[str, ...]:
    """DDL of one project's evidence index and its triggers (as the turns', for the same
    reason: a million segments in one index would make every scoped search pay for all)."""
    fts = evidence_index(search_key)
    pid = sql_literal(project_id)
    insert = f"INSERT INTO {fts}(rowid, text) VALUES (new.id, new.text);"
    delete = f"INSERT INTO {fts}({fts}, rowid, text) VALUES ('delete', old.id, old.text);"
    return (
        f"CREATE VIRTUAL TABLE {fts} USING fts5(text, {FTS_OPTIONS})",
        f"CREATE TRIGGER {fts}_insert AFTER INSERT ON evidence_segments "
        f"WHEN new.project_id = {pid} BEGIN {insert} END",
        f"CREATE TRIGGER {fts}_delete AFTER DELETE ON evidence_segments "
        f"WHEN old.project_id = {pid} BEGIN {delete} END",
        f"CREATE TRIGGER {fts}_update AFTER UPDATE OF text ON evidence_segments "
        f"WHEN new.project_id = {pid} BEGIN {delete} {insert} END",
    )


def create_index(db: Connection, project_id: str, search_key: int) -> None:
    """Create a project's turn and evidence indexes (inside the transaction that creates
    the project)."""
    for statement in (
        *index_statements(project_id, search_key),
        *evidence_statements(project_id, search_key),
    ):
        db.execute(statement)


def ensure_evidence_index(db: Connection, project_id: str) -> str:
    """A project's evidence index, made now for a project older than evidence (schema
    version 10); its name."""
    key = int(scalar(db, "SELECT search_key FROM projects WHERE id = ?", [project_id]))
    fts = evidence_index(key)
    if scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = ?", [fts]) == 0:
        for statement in evidence_statements(project_id, key):
            db.execute(statement)
        db.execute(
            f"INSERT INTO {fts}(rowid, text) SELECT id, text FROM evidence_segments "
            "WHERE project_id = ?",
            [project_id],
        )
    return fts


def drop_index(db: Connection, search_key: int) -> None:
    """Drop a project's triggers and indexes, so deleting its rows costs no index work."""
    for fts in (turns_index(search_key), evidence_index(search_key)):
        for event in ("insert", "delete", "update"):
            db.execute(f"DROP TRIGGER IF EXISTS {fts}_{event}")
        db.execute(f"DROP TABLE IF EXISTS {fts}")


def next_search_key(db: Connection) -> int:
    """A search key no live project uses (call inside the creating transaction)."""
    return int(scalar(db, "SELECT coalesce(max(search_key), 0) + 1 FROM projects"))


def merge(db: Connection, search_key: int, pages: int) -> None:
    """Merge a project's index segments, writing at most about `pages` pages.

    Every committed turn adds a small segment to its project's index and FTS5
    merges them only lazily; a search reads every segment, so a fragmented
    index is slower (2-3x for common words). Repeated calls converge to one
    segment; when there is one already, this costs nothing.
    """
    fts = turns_index(search_key)
    db.execute(f"INSERT INTO {fts}({fts}, rank) VALUES ('merge', ?)", [-abs(pages)])


def merge_project(db: Connection, project_id: str, pages: int) -> None:
    """`merge` for a project given by id, in its own write transaction (no-op if deleted)."""
    with transaction(db):
        key = scalar(db, "SELECT search_key FROM projects WHERE id = ?", [project_id])
        if key is not None:
            merge(db, int(key), pages)


def optimize_all(db: Connection) -> None:
    """Merge every full-text index into a single segment."""
    names = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
        ).fetchall()
    ]
    for name in names:
        with transaction(db):
            db.execute(f"INSERT INTO {name}({name}) VALUES ('optimize')")


SHARED_INDEXES = ("project_files_fts", "project_decisions_fts", "process_memory_fts")


def purge_shared(db: Connection) -> None:
    """Merge the indexes shared by all projects into one segment each.

    Deleting rows from a contentless FTS5 index only adds delete markers: the
    words stay in the old segments until they are merged. A project's delete
    runs this, so none of its words are left in the file."""
    for fts in SHARED_INDEXES:
        db.execute(f"INSERT INTO {fts}({fts}) VALUES ('optimize')")
