"""PostgreSQL through psycopg 3 and psycopg_pool: the same `Connection` the SQLite file gives.

The memory modules write SQL with `?` and `:name` placeholders (sqlite3's); `placeholders`
rewrites them once per statement (cached) into psycopg's `%s` and `%(name)s`, leaving
string literals, identifiers, comments and `::` casts alone.

A `PgConnection` holds no database connection between operations. A statement outside a
block borrows a pooled connection and gives it back with the rows read; `transaction()`
and `snapshot()` hold one for the block only. A `Memory` may live through a whole turn
(and its model call) while the pool's connections serve other requests; nothing is held
across a model call or a stream.

Every pooled connection is in autocommit mode (a block says BEGIN and COMMIT itself), in
UTC, and reads json and jsonb as their text, as SQLite returns them, so the modules
decode JSON the same way on both. One pool per database URL per process; opening the
first one migrates the database (migrate.py) on a connection of its own, which also says
plainly why a server cannot be reached before any pool is made.

PostgreSQL's text cannot hold the NUL character, which SQLite's can: a NUL in a value (or
a `\u0000` in its JSON) is stored as U+FFFD, the replacement character (text.without_nul).

psycopg's errors are said here: a server out of reach is DatabaseUnavailableError (a
connection failure, SQLSTATE class 08, a server shutting down, no pooled connection in
time), a full disk DiskFullError, a refused constraint IntegrityViolation.
"""

from __future__ import annotations

import atexit
import contextlib
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import lru_cache
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.types.string import TextLoader
from psycopg_pool import ConnectionPool, PoolTimeout

from design_agent.core.errors import DiskFullError
from design_agent.memory.connection import Dialect, IntegrityViolation, Params
from design_agent.memory.faults import DatabaseUnavailableError
from design_agent.memory.postgres.migrate import migrate
from design_agent.memory.text import without_nul as storable
from design_agent.memory.url import DatabaseUrl

PgConn = psycopg.Connection[tuple[Any, ...]]
IDLE = psycopg.pq.TransactionStatus.IDLE
POOL_SIZE = 10  # connections per process and database (a benchmark may raise it)
WAIT_SECONDS = 10.0  # for a pooled connection, and to connect at all
UNAVAILABLE_STATES = ("57P01", "57P02", "57P03")  # shutting down, crashed, starting up
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _storable_params(parameters: Params) -> Params:
    if isinstance(parameters, dict):
        return {key: storable(value) for key, value in parameters.items()}
    return [storable(value) for value in parameters]


@lru_cache(maxsize=4096)
def placeholders(sql: str) -> str:
    """`sql` with sqlite3's `?` and `:name` as psycopg's `%s` and `%(name)s`, and `%` as
    `%%`; quoted text, quoted names and comments are copied as they are."""
    out: list[str] = []
    at, size = 0, len(sql)
    while at < size:
        char = sql[at]
        if char in "'\"":
            end = _closing(sql, at, char)
            out.append(sql[at:end])
            at = end
        elif sql.startswith("--", at):
            end = sql.find("\n", at)
            end = size if end < 0 else end
            out.append(sql[at:end])
            at = end
        elif char == ":" and sql.startswith("::", at):
            out.append("::")
            at += 2
        elif char == ":" and (name := _NAME.match(sql, at + 1)):
            out.append(f"%({name.group()})s")
            at = name.end()
        else:
            out.append({"?": "%s", "%": "%%"}.get(char, char))
            at += 1
    return "".join(out)


def _closing(sql: str, start: int, quote: str) -> int:
    """The index after the quote closing the one at `start` (a doubled quote is inside)."""
    at = start + 1
    while True:
        at = sql.find(quote, at)
        if at < 0:
            return len(sql)
        if sql.startswith(quote * 2, at):
            at += 2
            continue
        return at + 1


def translated(error: BaseException, url: DatabaseUrl) -> BaseException:
    """The error the user should see for a psycopg failure (`error` itself when none fits)."""
    if isinstance(error, PoolTimeout):
        return DatabaseUnavailableError(
            f"no connection to {url} came free within {WAIT_SECONDS:g} s (the server is down "
            "or busy); nothing was half-written: try again"
        )
    if not isinstance(error, psycopg.Error):
        return error
    state = error.sqlstate or ""
    if isinstance(error, pg_errors.IntegrityError):
        return IntegrityViolation(_first_line(error))
    if isinstance(error, pg_errors.DiskFull):
        return DiskFullError(
            f"the database server's disk is full: {url} could not be written "
            f"({_first_line(error)}); nothing was half-written: free some space on the server",
            str(url),
        )
    if not state or state.startswith("08") or state in UNAVAILABLE_STATES:
        return DatabaseUnavailableError(
            f"cannot reach the database {url}: {_first_line(error)}; check that the server "
            "runs and DESIGN_AGENT_DATABASE_URL (or the database.url setting); nothing was "
            "half-written"
        )
    return error


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _configure(conn: PgConn) -> None:
    """Every connection: autocommit, UTC, and JSON read as text (as SQLite gives it)."""
    conn.autocommit = True
    for name in ("json", "jsonb"):
        conn.adapters.register_loader(name, TextLoader)
    conn.execute("SET TIME ZONE 'UTC'")


def _connect(url: DatabaseUrl) -> PgConn:
    """A connection of its own (not pooled), configured like the pool's."""
    try:
        conn = psycopg.connect(
            url.conninfo, connect_timeout=int(WAIT_SECONDS), application_name="design-agent"
        )
    except psycopg.Error as e:
        raise translated(e, url) from e
    _configure(conn)
    return conn


def migrate_database(url: DatabaseUrl) -> tuple[int, int]:
    """Bring the database at `url` to this design-agent's schema: the versions before and
    after (see migrate.py)."""
    with _connect(url) as conn:
        try:
            return migrate(conn, str(url))
        except psycopg.Error as e:
            raise translated(e, url) from e


def inspect(url: DatabaseUrl, tables: list[str]) -> tuple[int, dict[str, int]]:
    """The schema version of the database at `url` and the rows of each of `tables` it has,
    read on a connection of its own: nothing is migrated or changed."""
    from design_agent.memory.postgres.migrate import version

    with _connect(url) as conn:
        try:
            found = version(conn)
            present = [t for t in tables if _exists(conn, t)]
            counted = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone() for t in present}
        except psycopg.Error as e:
            raise translated(e, url) from e
    return found, {table: int(row[0]) if row else 0 for table, row in counted.items()}


def _exists(conn: PgConn, table: str) -> bool:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [table]).fetchone()
    return bool(row and row[0])


_pools: dict[str, ConnectionPool[PgConn]] = {}
_pools_lock = threading.Lock()


def pool_for(url: DatabaseUrl, size: int | None = None) -> ConnectionPool[PgConn]:
    """This process's pool for `url`, made (and the database migrated) on first use."""
    with _pools_lock:
        pool = _pools.get(url.conninfo)
        if pool is None:
            migrate_database(url)
            pool = ConnectionPool(
                url.conninfo,
                min_size=1,
                max_size=max(1, POOL_SIZE if size is None else size),
                kwargs={"application_name": "design-agent"},
                configure=_configure,
                timeout=WAIT_SECONDS,
                name=f"design-agent {url}",
                open=False,
            )
            pool.open(wait=False)
            _pools[url.conninfo] = pool
        return pool


def close_pools(url: DatabaseUrl | None = None) -> None:
    """Close this process's pool for `url` (every pool when None): their connections end."""
    with _pools_lock:
        keys = [url.conninfo] if url is not None else list(_pools)
        closing = [_pools.pop(key) for key in keys if key in _pools]
    for pool in closing:
        pool.close()


atexit.register(close_pools)


class Result:
    """A statement's rows, read whole before its connection went back to the pool."""

    def __init__(self, cursor: psycopg.Cursor[tuple[Any, ...]]) -> None:
        described = cursor.description
        self.description = None if described is None else [(c.name,) for c in described]
        self._rows = cursor.fetchall() if described is not None else []
        self.rowcount = cursor.rowcount
        self._at = 0

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    def fetchmany(self, size: int = 1) -> list[Any]:
        some = self._rows[self._at : self._at + size]
        self._at += len(some)
        return some

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


class PgConnection:
    """The memory's connection to a PostgreSQL database (see the module docstring). One
    per `Memory`, used by one thread at a time; its pool is shared by the process."""

    dialect: Dialect = "postgresql"

    def __init__(self, url: DatabaseUrl, pool_size: int | None = None) -> None:
        self.url = url
        self._pool = pool_for(url, POOL_SIZE if pool_size is None else pool_size)
        self._held: PgConn | None = None
        self._depth = 0  # nested blocks open (savepoints)

    @property
    def in_transaction(self) -> bool:
        held = self._held
        return (
            held is not None and held.info.transaction_status != psycopg.pq.TransactionStatus.IDLE
        )

    def execute(self, sql: str, parameters: Params = (), /) -> Result:
        """Run one statement (on the block's connection, else a borrowed one)."""
        with self._connection() as conn:
            try:
                return Result(conn.execute(placeholders(sql), _storable_params(parameters)))
            except psycopg.Error as e:
                raise translated(e, self.url) from e

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Result:
        """Run one statement for each set of parameters."""
        with self._connection() as conn, conn.cursor() as cursor:
            try:
                cursor.executemany(placeholders(sql), [_storable_params(p) for p in parameters])
            except psycopg.Error as e:
                raise translated(e, self.url) from e
            return Result(cursor)

    def copy_rows(self, table: str, columns: list[str], values: Iterable[tuple[Any, ...]]) -> int:
        """Append rows to `table` with COPY (inside a block): how many."""
        count = 0
        with self._connection() as conn, conn.cursor() as cursor:
            try:
                with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    for row in values:
                        copy.write_row([storable(value) for value in row])
                        count += 1
            except psycopg.Error as e:
                raise translated(e, self.url) from e
        return count

    def batches(self, sql: str, size: int = 5000) -> Iterator[list[tuple[Any, ...]]]:
        """The rows of a query `size` at a time, from a server-side cursor (in a block)."""
        assert self._held is not None, "batches() reads inside snapshot() or transaction()"
        with self._held.cursor(name="design_agent_batches") as cursor:
            try:
                cursor.execute(placeholders(sql), [])
                while chunk := cursor.fetchmany(size):
                    yield chunk
            except psycopg.Error as e:
                raise translated(e, self.url) from e

    @contextmanager
    def _connection(self) -> Iterator[PgConn]:
        if self._held is not None:
            yield self._held
            return
        try:
            with self._pool.connection() as conn:
                yield conn
        except PoolTimeout as e:  # no connection came free (a statement's own: execute)
            raise translated(e, self.url) from e

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction (read committed; writers of a project lock its row first,
        projects.lock), or a savepoint inside one."""
        return self._savepoint() if self.in_transaction else self._block("BEGIN")

    def snapshot(self) -> AbstractContextManager[None]:
        """Several reads against one consistent view (a read-only repeatable-read block)."""
        if self.in_transaction:
            return contextlib.nullcontext()
        return self._block("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    @contextmanager
    def _block(self, begin: str) -> Iterator[None]:
        with self._connection() as conn:
            self._held = conn
            try:
                self.execute(begin)
                yield
                self.execute("COMMIT")  # may fail too: then nothing of it is kept
            except BaseException:
                if conn.info.transaction_status != IDLE:
                    with contextlib.suppress(psycopg.Error):  # the first error says what
                        conn.execute("ROLLBACK")
                raise
            finally:
                self._held = None

    @contextmanager
    def _savepoint(self) -> Iterator[None]:
        """A nested block, undone alone if it fails. Named by its depth and never released
        (each round trip counts here, and a turn nests four blocks): a rollback goes to the
        newest savepoint of its name, which is always the block's own."""
        self._depth += 1
        name = f"nested_{self._depth}"
        try:
            self.execute(f"SAVEPOINT {name}")
            yield
        except BaseException:
            if self.in_transaction:
                self.execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        finally:
            self._depth -= 1

    def close(self) -> None:
        """Nothing is held between operations; the pool stays for the next Memory."""
        self._held = None
