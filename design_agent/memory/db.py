"""The one seam to the database: connect, configure, migrate, transactions, row helpers.

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
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from design_agent.errors import ConfigError
from design_agent.fsutil import FILE_MODE, ensure_private_dir, touch_private
from design_agent.memory.schema import LATEST_VERSION, MIGRATIONS

BUSY_TIMEOUT_S = 30.0
Params = tuple[Any, ...] | list[Any] | dict[str, Any]


def connect(path: Path, version: int = LATEST_VERSION) -> sqlite_utils.Database:
    """Open (creating if needed) the database at `path`, migrated to `version`."""
    if not path.parent.exists():
        ensure_private_dir(path.parent)  # never chmod a folder we did not create
    touch_private(path)
    try:
        conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, cached_statements=1024
        )
        db = sqlite_utils.Database(conn, execute_plugins=False)
        _configure(db)
        migrate(db, path, version)
    except sqlite3.DatabaseError as e:
        raise ConfigError(
            f"{path} is not a readable design-agent database ({e}); "
            "move it aside or use another --home"
        ) from e
    _tighten(path)
    return db


def _configure(db: sqlite_utils.Database) -> None:
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


def _tighten(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        sibling = path.with_name(path.name + suffix)
        if sibling.exists() and (sibling.stat().st_mode & 0o777) != FILE_MODE:
            os.chmod(sibling, FILE_MODE)


def user_version(db: sqlite_utils.Database) -> int:
    """The schema version stored in the file (0 for a new, empty file)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite_utils.Database, path: Path, target: int = LATEST_VERSION) -> None:
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
        for step in range(version + 1, target + 1):
            for statement in MIGRATIONS[step]:
                db.execute(statement)
        db.execute(f"PRAGMA user_version = {max(version, target)}")


def _refuse_newer(version: int, path: Path) -> None:
    if version > LATEST_VERSION:
        raise ConfigError(
            f"{path} was written by a newer design-agent (schema version {version}; "
            f"this one knows up to {LATEST_VERSION}). Upgrade design-agent "
            "(pip install -U design-agent) or use another --home; nothing was changed."
        )


def _has_tables(db: sqlite_utils.Database) -> bool:
    return bool(db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[None]:
    """Run the block as one write transaction (a savepoint when already inside one)."""
    if db.conn.in_transaction:
        with db.atomic():
            yield
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


@contextmanager
def snapshot(db: sqlite_utils.Database) -> Iterator[None]:
    """Run several reads against one consistent view of the database."""
    if db.conn.in_transaction:
        yield
        return
    db.conn.execute("BEGIN")
    try:
        yield
    finally:
        if db.conn.in_transaction:
            db.conn.execute("COMMIT")


def rows(db: sqlite_utils.Database, sql: str, params: Params = ()) -> list[dict[str, Any]]:
    """All rows of a query, as dicts keyed by column name."""
    cursor = db.conn.execute(sql, params)
    keys = [column[0] for column in cursor.description]
    return [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]


def one(db: sqlite_utils.Database, sql: str, params: Params = ()) -> dict[str, Any] | None:
    """The first row of a query as a dict, or None."""
    found = rows(db, sql, params)
    return found[0] if found else None


def scalar(db: sqlite_utils.Database, sql: str, params: Params = ()) -> Any:
    """The first column of the first row (None when there is no row)."""
    row = db.conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


def sql_literal(text: str) -> str:
    """`text` as an SQL string literal, for DDL where parameters are not allowed."""
    return "'" + text.replace("'", "''") + "'"


def rows_by_id(
    db: sqlite_utils.Database, table: str, columns: str, ids: list[int]
) -> dict[int, dict[str, Any]]:
    """The rows of `table` with these ids, keyed by id (missing ids are absent)."""
    if not ids:
        return {}
    marks = ", ".join("?" * len(ids))
    found = rows(db, f"SELECT {columns} FROM {table} WHERE id IN ({marks})", ids)
    return {int(r["id"]): r for r in found}


def stamp(moment: datetime) -> str:
    """How every timestamp is stored: ISO 8601 in UTC with microseconds (sorts as text)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
