"""The one seam to the SQLite file (connect, configure, migrate), and the row helpers and
transaction blocks every memory module uses on either database (connection.py).

The standard library's sqlite3, with no wrapper: this layer writes its own SQL, in
explicit transactions (the connection is in autocommit mode). (sqlite-utils was
used here only as a wrapper around the connection, and importing it cost 60-80 ms
of every process's start.) PostgreSQL's counterpart is postgres/connection.py.

Durability choices, and why:

- WAL, so readers never block the writer and a kill -9 never corrupts.
- synchronous=NORMAL: a commit survives a crash of the process (kill -9);
  a power cut may lose the last commits but never leaves a broken file.
- Every write runs in `BEGIN IMMEDIATE`: the write lock is taken up front and
  waited for (busy_timeout), because a deferred transaction that reads first
  and writes later fails at once with "database is locked" when another
  process committed in between. All the rows of one operation (a turn and its
  index entries, a deleted project and everything in it) commit together.
- foreign_keys on, so deleting a project cascades to all of its rows.
- The file (and so its -wal and -shm, which SQLite creates with the file's
  mode) is 0600.
- A file already at the path is identified from its header BEFORE anything is
  changed: something that is not SQLite, or an SQLite file of another program
  (tables but no schema version of ours), or one from a newer design-agent, is
  refused with its bytes, mode and journal mode untouched.
- secure_delete is FAST on every connection (deleted rows are zeroed inside
  their pages at no extra I/O); deleting a project turns it fully ON (see
  projects.delete), so freed pages are zeroed as well.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from design_agent.core.errors import ConfigError
from design_agent.core.fsutil import (
    FILE_MODE,
    NotWritableError,
    create_private,
    shared_mode,
    warn_shared,
)
from design_agent.core.home_trust import trusted
from design_agent.memory import fresh_schema
from design_agent.memory.connection import Connection, Params, SqliteConnection
from design_agent.memory.faults import storage_error
from design_agent.memory.schema import LATEST_VERSION, steps
from design_agent.memory.text import guess_language

BUSY_TIMEOUT_S = 30.0
SQLITE_MAGIC = b"SQLite format 3\x00"
HOME_HINT = "use a folder you can write: --home PATH or DESIGN_AGENT_HOME"
WARNED_KEY = "shared_home_warned"  # agent state: the home and mode already warned about


def connect(path: Path, version: int = LATEST_VERSION) -> SqliteConnection:
    """Open (creating if needed) the database at `path`, migrated to `version`.

    The file and its -wal, -shm and -journal companions must be the user's own: a
    planted -wal would be replayed into the database (design_agent.core.home_trust)."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        trusted(path.with_name(path.name + suffix), path.parent)
    try:
        if not create_private(path):
            identify(path)  # refuse a foreign file before changing anything about it
    except NotWritableError as e:
        full = storage_error(e.__cause__, path) if e.__cause__ is not None else None
        raise full or ConfigError(f"{e.message}; {HOME_HINT}") from e
    try:
        # Autocommit: every transaction is an explicit BEGIN (transaction(), snapshot()).
        db = sqlite3.connect(
            path,
            timeout=BUSY_TIMEOUT_S,
            isolation_level=None,
            cached_statements=1024,
            factory=SqliteConnection,
        )
        _configure(db)
        migrate(db, path, version)
    except sqlite3.DatabaseError as e:
        # A full disk or a damaged page is said as such (faults.py), not as a foreign file.
        raise storage_error(e, path) or _unusable(path, e) from e
    _tighten(path)
    _warn_if_shared(db, path.parent)
    return db


def _warn_if_shared(db: SqliteConnection, folder: Path) -> None:
    """Warn once per home and mode when others may read or write the home (never chmod it)."""
    mode = shared_mode(folder)
    if mode is None:
        return
    seen = f"{folder}:{mode:o}"
    if scalar(db, "SELECT value FROM agent_state WHERE key = ?", [WARNED_KEY]) == f'"{seen}"':
        return
    warn_shared(folder, mode)
    with contextlib.suppress(sqlite3.OperationalError):  # busy or read-only: warned next time
        db.execute(
            "INSERT INTO agent_state (key, value, updated_at) VALUES (?, json_quote(?), ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [WARNED_KEY, seen, stamp(datetime.now(UTC))],
        )


def identify(path: Path) -> None:
    """ConfigError unless `path` is empty, or design-agent's database of this version or older.

    Reads the 100-byte header and the first page's header only: nothing is written."""
    try:
        with path.open("rb") as handle:
            head = handle.read(108)
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}; {HOME_HINT}") from e
    if not head:
        return  # an empty file: ours, created by a run that stopped at once
    if not head.startswith(SQLITE_MAGIC) or len(head) < 108:
        raise ConfigError(
            f"{path} is not a readable design-agent database (not an SQLite file); it was left "
            "untouched: move it aside or use another --home"
        )
    _refuse_newer(int.from_bytes(head[60:64], "big"), path)
    rollback = head[18] == 1  # a WAL file's main header may lag behind its log
    schema_entries = int.from_bytes(head[103:105], "big") or head[100] == 0x05
    if rollback and int.from_bytes(head[60:64], "big") == 0 and schema_entries:
        raise ConfigError(
            f"{path} is an SQLite file but not a design-agent database; it was left "
            "untouched: move it aside or use another --home"
        )


def _unusable(path: Path, error: sqlite3.DatabaseError) -> ConfigError:
    if not os.access(path.parent, os.W_OK) or not os.access(path, os.W_OK):
        return ConfigError(f"cannot write to {path.parent} ({error}); {HOME_HINT}")
    return ConfigError(
        f"{path} is not a readable design-agent database ({error}); "
        "move it aside or use another --home"
    )


def _configure(db: sqlite3.Connection) -> None:
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    for attempt in range(50):
        # Switching a new file to WAL needs a moment alone with it; another
        # process opening the same new file at once makes it report "locked".
        try:
            db.execute("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError:
            if attempt == 49:
                raise
            time.sleep(0.05)
    db.execute("PRAGMA synchronous = NORMAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA secure_delete = FAST")
    add_functions(db)


def add_functions(db: sqlite3.Connection) -> None:
    """The SQL functions migrations call: `guess_language(text)` (migration 8 fills the
    language of the rows it finds)."""
    db.create_function("guess_language", 1, guess_language, deterministic=True)


def _tighten(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        sibling = path.with_name(path.name + suffix)
        try:
            if sibling.exists() and (sibling.stat().st_mode & 0o777) != FILE_MODE:
                os.chmod(sibling, FILE_MODE)  # ours by now: identified and migrated
        except OSError:
            pass  # not the owner (a shared, read-mostly home): reading still works


WIPE_TABLE = "wipe_free_pages"
WIPE_CHUNK = 1 << 20


def wipe_free_pages(db: Connection) -> None:
    """Overwrite every page on the free list with zeros (call inside a write transaction).

    Pages freed while secure_delete was FAST (a merged index segment, an older
    version's deletes) keep their old bytes. Filling the free list with a zero blob
    rewrites each of them; dropping it again (with secure_delete ON) leaves them
    zeroed. Costs one write per free page."""
    page = int(scalar(db, "PRAGMA page_size"))
    db.execute(f"CREATE TABLE {WIPE_TABLE} (b BLOB)")
    for _ in range(1_000_000):  # each round takes at least one page off the list
        free = int(scalar(db, "PRAGMA freelist_count"))
        if free == 0:
            break
        db.execute(
            f"INSERT INTO {WIPE_TABLE} VALUES (zeroblob(?))", [min(free * (page - 4), WIPE_CHUNK)]
        )
    db.execute(f"DROP TABLE {WIPE_TABLE}")


def user_version(db: Connection) -> int:
    """The schema version stored in the file (0 for a new, empty file)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: SqliteConnection, path: Path, target: int = LATEST_VERSION) -> None:
    """Apply the forward migrations up to `target`; refuse files from a newer version."""
    _refuse_newer(user_version(db), path)
    if user_version(db) >= target:
        return
    with transaction(db):
        # Read again under the write lock: another process may have just migrated.
        version = user_version(db)
        _refuse_newer(version, path)
        if version == 0 and _has_tables(db):
            raise ConfigError(f"{path} is an SQLite file but not a design-agent database")
        for statement in _statements(version, target):
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {max(version, target)}")


def _statements(version: int, target: int) -> list[str]:
    """What takes a database from `version` to `target`: a new one is built in one go
    (fresh_schema.py, what the migrations build, without their ALTER TABLEs)."""
    if version == 0 and target == fresh_schema.VERSION:
        return list(fresh_schema.STATEMENTS)
    return steps(version, target)


def _refuse_newer(version: int, path: Path) -> None:
    if version > LATEST_VERSION:
        raise ConfigError(
            f"{path} was written by a newer design-agent (schema version {version}; "
            f"this one knows up to {LATEST_VERSION}). Upgrade design-agent "
            "(pip install -U design-agent) or use another --home; nothing was changed."
        )


def _has_tables(db: Connection) -> bool:
    return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


@contextmanager
def transaction(db: Connection) -> Iterator[None]:
    """Run the block as one write transaction (a savepoint when already inside one)."""
    with db.transaction():
        yield


@contextmanager
def snapshot(db: Connection) -> Iterator[None]:
    """Run several reads against one consistent view of the database."""
    with db.snapshot():
        yield


def rows(db: Connection, sql: str, params: Params = ()) -> list[dict[str, Any]]:
    """All rows of a query, as dicts keyed by column name."""
    cursor = db.execute(sql, params)
    keys = [column[0] for column in cursor.description]
    return [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]


def one(db: Connection, sql: str, params: Params = ()) -> dict[str, Any] | None:
    """The first row of a query as a dict, or None."""
    found = rows(db, sql, params)
    return found[0] if found else None


def scalar(db: Connection, sql: str, params: Params = ()) -> Any:
    """The first column of the first row (None when there is no row)."""
    row = db.execute(sql, params).fetchone()
    return None if row is None else row[0]


def sql_literal(text: str) -> str:
    """`text` as an SQL string literal, for DDL where parameters are not allowed."""
    return "'" + text.replace("'", "''") + "'"


def inserted_id(db: Connection, sql: str, params: Params = ()) -> int:
    """Run an `INSERT ... RETURNING id` and return the id (both dialects have RETURNING; the
    row is read to the end, so SQLite's statement is done before the transaction ends)."""
    found = db.execute(sql, params).fetchall()
    return int(found[0][0])


def rows_by_id(
    db: Connection, table: str, columns: str, ids: list[int]
) -> dict[int, dict[str, Any]]:
    """The rows of `table` with these ids, keyed by id (missing ids are absent)."""
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    found = rows(db, f"SELECT {columns} FROM {table} WHERE id IN ({marks})", ids)
    return {int(r["id"]): r for r in found}


def author_of(prefix: str) -> str:
    """The select-list item naming who made a row (people are never deleted or renamed):
    `prefix` is the row's table alias and a dot, or ""."""
    return f"(SELECT name FROM people WHERE people.id = {prefix}author_id) AS author"


def stamp(moment: datetime) -> str:
    """How every timestamp is stored: ISO 8601 in UTC with microseconds (sorts as text)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
