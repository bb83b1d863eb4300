"""`db copy`: a whole home from one database to another, SQLite <-> PostgreSQL, checked.

Everything moves, table by table in foreign-key order (tables.py): projects, the tree
of turns, branches and state snapshots, files, decisions with their history, metadata,
agent memory and state, usage figures, each row's language. Ids are kept, so what points
at a turn or a decision (a snapshot's decision ids, the conversation state) still does;
PostgreSQL's sequences are then set past them, and SQLite's per-project turn indexes are
made as the projects arrive.

The source is read in one snapshot; the target is written in one transaction, which also
reads every table back and compares its count and checksum with the source's (tables.py:
the same canonical rows on both dialects). Any difference, or any error, rolls the
target back whole: it is either the source's copy or as it was. A target that holds a
home already is refused unless `replace`, and then emptied in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from design_agent.core.errors import DesignAgentError, NotFoundError, UsageError
from design_agent.memory import search_index
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import rows, stamp
from design_agent.memory.facade import Memory
from design_agent.memory.schema import AUDIT_GUARDS
from design_agent.memory.tables import (
    EPHEMERAL,
    POSTGRES_EPHEMERAL,
    TABLES,
    Checksum,
    Table,
    counts,
    select,
)
from design_agent.memory.url import DatabaseUrl

if TYPE_CHECKING:
    from design_agent.memory.postgres.connection import PgConnection

BATCH = 5000
Row = tuple[Any, ...]


@dataclass(frozen=True)
class Copied:
    """One table copied: its rows and its checksum, the same on both sides."""

    table: str
    rows: int
    checksum: str


class CopyMismatchError(DesignAgentError):
    """A table read back from the target differs from the source's: nothing was written."""


def copy_database(
    source: DatabaseUrl,
    target: DatabaseUrl,
    replace: bool = False,
    done: Callable[[Copied], None] | None = None,
) -> list[Copied]:
    """Copy every table of `source` into `target` (see the module docstring); `done` is told
    of each table as it is copied. UsageError for a non-empty target without `replace`."""
    _check_ends(source, target)
    with Memory.open(source) as origin, Memory.open(target) as destination:
        src, dst = origin.db, destination.db
        with src.snapshot(), dst.transaction():
            _make_room(dst, target, replace)
            copied = []
            for table in TABLES:
                copied.append(_copy_table(src, dst, table))
                if done is not None:
                    done(copied[-1])
            _finish(dst)
            _verify(dst, target, copied)
    return copied


def _check_ends(source: DatabaseUrl, target: DatabaseUrl) -> None:
    if source.path is not None and not source.path.is_file():
        raise NotFoundError(f"no database at {source.path}; give the file of a home to copy")
    same_file = source.path is not None and target.path is not None
    if (same_file and source.path.resolve() == target.path.resolve()) or (  # type: ignore[union-attr]
        source.conninfo and source.conninfo == target.conninfo
    ):
        raise UsageError("the source and the target are the same database; give two")


def _make_room(db: Connection, target: DatabaseUrl, replace: bool) -> None:
    """Refuse a target that holds a home already, unless `replace`: then empty it."""
    held = {name: n for name, n in counts(db, copied=True).items() if n}
    if not held:
        return
    if not replace:
        listed = ", ".join(f"{n:,} {name}" for name, n in held.items())
        raise UsageError(
            f"{target} is not empty ({listed}); copy into an empty database, or add "
            "--replace to overwrite it (everything there is deleted first)"
        )
    if is_postgres(db):
        from design_agent.memory.postgres.schema import AUDIT_GUARDS as PG_GUARDS

        names = [*POSTGRES_EPHEMERAL, *EPHEMERAL, *(t.name for t in TABLES)]
        _set_guards_aside(db, [f"ALTER TABLE audit_log DISABLE TRIGGER {g}" for g in PG_GUARDS])
        db.execute(f"TRUNCATE {', '.join(names)}")
        _set_guards_aside(db, [f"ALTER TABLE audit_log ENABLE TRIGGER {g}" for g in PG_GUARDS])
        return
    for found in rows(db, "SELECT search_key FROM projects"):
        search_index.drop_index(db, int(found["search_key"]))
    guards = {
        str(r["name"]): str(r["sql"])
        for r in rows(db, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        if r["name"] in AUDIT_GUARDS
    }
    _set_guards_aside(db, [f"DROP TRIGGER {name}" for name in guards])
    for name in EPHEMERAL:
        db.execute(f"DELETE FROM {name}")
    for table in reversed(TABLES):
        db.execute(f"DELETE FROM {table.name}")
    _set_guards_aside(db, list(guards.values()))


def _set_guards_aside(db: Connection, statements: list[str]) -> None:
    """The audit log's append-only triggers, set aside (or back) for a replace: inside the
    copy's transaction, so they are back whatever happens."""
    for statement in statements:
        db.execute(statement)


def _copy_table(src: Connection, dst: Connection, table: Table) -> Copied:
    """Stream one table from `src` into `dst`, summing the source's rows as they pass."""
    checksum = Checksum(table)
    for batch in _batches(src, select(table)):
        for row in batch:
            checksum.add(row)
        _write(dst, table, batch)
    return Copied(table.name, checksum.rows, checksum.hexdigest)


def _batches(db: Connection, sql: str) -> Iterator[list[Row]]:
    """The rows of a query, BATCH at a time (a server-side cursor on PostgreSQL)."""
    if is_postgres(db):
        yield from cast("PgConnection", db).batches(sql, BATCH)
        return
    cursor = db.execute(sql)
    while chunk := cursor.fetchmany(BATCH):
        yield [tuple(row) for row in chunk]


def _write(db: Connection, table: Table, batch: list[Row]) -> None:
    """Append rows to `table`: COPY on PostgreSQL; on SQLite, an INSERT per row, each
    timestamp as the ISO text SQLite keeps (PostgreSQL reads that text as it is)."""
    if is_postgres(db):
        cast("PgConnection", db).copy_rows(table.name, list(table.columns), batch)
        return
    at = [table.columns.index(column) for column in table.timestamps]
    fixed = [_stamped(row, at) for row in batch] if at else batch
    marks = ", ".join("?" * len(table.columns))
    db.executemany(f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks})", fixed)
    if table.name == "projects":  # each project's own turn index, before its turns arrive
        key, search = table.columns.index("id"), table.columns.index("search_key")
        for row in batch:
            search_index.create_index(db, str(row[key]), int(row[search]))


def _stamped(row: Row, at: list[int]) -> Row:
    values = list(row)
    for n in at:
        if isinstance(values[n], datetime):
            values[n] = stamp(values[n])
    return tuple(values)


def _finish(db: Connection) -> None:
    """PostgreSQL: each identity's next id goes past the ids copied (SQLite's does by itself)."""
    if not is_postgres(db):
        return
    for table in TABLES:
        if table.identity:
            db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"coalesce((SELECT max(id) FROM {table.name}), 0) + 1, false)"
            )


def _verify(db: Connection, target: DatabaseUrl, copied: list[Copied]) -> None:
    """Read every table back from the target (in its transaction) and compare."""
    for expected, table in zip(copied, TABLES, strict=True):
        checksum = Checksum(table)
        for batch in _batches(db, select(table)):
            for row in batch:
                checksum.add(row)
        if (checksum.rows, checksum.hexdigest) != (expected.rows, expected.checksum):
            raise CopyMismatchError(
                f"db copy: {table.name} in {target} differs from the source after the copy "
                f"({checksum.rows:,} rows, checksum {checksum.hexdigest[:12]}; the source has "
                f"{expected.rows:,}, {expected.checksum[:12]}); nothing was written"
            )
