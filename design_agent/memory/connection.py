"""What the memory modules are written against: one connection protocol, two databases.

Every module of memory/ takes a `Connection` and writes its SQL once where SQLite and
PostgreSQL agree (most of it: selects, joins, recursive CTEs, upserts, RETURNING), with
`?` and `:name` placeholders. Two classes satisfy it:

- `SqliteConnection`, the standard library's sqlite3 connection itself (a subclass only
  adds `dialect` and the two transaction blocks): no wrapper between a query and SQLite;
- `postgres.connection.PgConnection`, psycopg 3 over a pool, which rewrites the
  placeholders and borrows a pooled connection per statement, or per block, so nothing
  holds one between operations (imported only for a postgresql:// URL).

Where the dialects differ (full-text search, the schema and its migrations, locks,
deleting a project), a module asks `is_postgres(db)` and calls the dialect's own code.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Literal, Protocol

Dialect = Literal["sqlite", "postgresql"]
Params = tuple[Any, ...] | list[Any] | dict[str, Any]


class Cursor(Protocol):
    """The part of a DB-API cursor the memory modules use."""

    @property
    def description(self) -> Any: ...

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchmany(self, size: int = ...) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection to design-agent's database, SQLite or PostgreSQL."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def snapshot(self) -> AbstractContextManager[None]: ...

    def close(self) -> None: ...


class IntegrityViolation(Exception):
    """A constraint refused a row (PostgreSQL's IntegrityError, translated where it is
    raised so no module above needs psycopg to catch it; SQLite raises its own)."""


INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, IntegrityViolation)


def is_postgres(db: Connection) -> bool:
    """Whether `db` is a PostgreSQL connection (the dialect-specific code is imported lazily)."""
    return db.dialect == "postgresql"


class SqliteConnection(sqlite3.Connection):
    """sqlite3's own connection (made by `sqlite3.connect(..., factory=SqliteConnection)`),
    in autocommit mode: every transaction is an explicit block below."""

    dialect: Dialect = "sqlite"

    def transaction(self) -> AbstractContextManager[None]:
        """Run the block as one write transaction (a savepoint when already inside one).

        `BEGIN IMMEDIATE` takes the write lock up front and waits for it (busy_timeout):
        a deferred transaction that reads first and writes later fails at once with
        "database is locked" when another process committed in between."""
        return _savepoint(self) if self.in_transaction else _immediate(self)

    def snapshot(self) -> AbstractContextManager[None]:
        """Run several reads against one consistent view of the database."""
        return contextlib.nullcontext() if self.in_transaction else _read(self)


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")  # may fail too (a full disk): then nothing of it is kept
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # the first error says what happened
                db.execute("ROLLBACK")
        raise


@contextmanager
def _savepoint(db: sqlite3.Connection) -> Iterator[None]:
    """A nested block: undone alone if it fails, kept with the transaction around it."""
    db.execute("SAVEPOINT nested")  # the innermost of this name is the one released
    try:
        yield
    except BaseException:
        if db.in_transaction:  # an error may have ended the whole transaction already
            db.execute("ROLLBACK TO SAVEPOINT nested")
            db.execute("RELEASE SAVEPOINT nested")
        raise
    db.execute("RELEASE SAVEPOINT nested")


@contextmanager
def _read(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN")
    try:
        yield
    finally:
        if db.in_transaction:
            db.execute("COMMIT")
