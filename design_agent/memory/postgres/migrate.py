"""Bringing a PostgreSQL database to this design-agent's schema: once, whole, or not at all.

Several server processes may start at once on one database; each opens it and would
migrate it. So a migration runs in one transaction that first takes an advisory lock
(`pg_advisory_xact_lock`: the transaction-scoped pg_advisory_lock, let go by the commit
or the rollback, even when the process dies), then reads the version again: the first
process migrates, the others wait for it and find nothing left to do.

PostgreSQL's DDL is transactional: when a statement fails, everything the migration did
is rolled back and MigrationError names the version and the statement, so a server is
never left half-migrated. A database of a newer design-agent is refused, unchanged, and
so is a database whose tables are some other program's (a `projects` table, but not our
version table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from design_agent.core.errors import ConfigError
from design_agent.memory.faults import MigrationError
from design_agent.memory.postgres.schema import (
    FIRST_VERSION,
    LATEST_VERSION,
    MIGRATIONS,
    SCHEMA_TABLE,
)

if TYPE_CHECKING:
    import psycopg

    PgConn = psycopg.Connection[tuple[Any, ...]]

LOCK_KEY = 0x6465_7369_676E_0001  # "design" + 1: design-agent's migrations, per database
OURS = ("projects", "conversations")  # a database holding these without our version table


def version(conn: PgConn) -> int:
    """The schema version stored in the database (0: none of our tables yet)."""
    found = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [SCHEMA_TABLE]).fetchone()
    if not found or not found[0]:
        return 0
    row = conn.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: PgConn, where: str, target: int = LATEST_VERSION) -> tuple[int, int]:
    """Migrate the database on `conn` (in autocommit mode) up to `target`: the versions
    before and after. `where` names the database in messages (no password)."""
    before = version(conn)
    _refuse_newer(before, where)
    if before >= target:
        return before, before
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])
        before = version(conn)  # again, under the lock: another process may have done it
        _refuse_newer(before, where)
        if before == 0:
            _refuse_foreign(conn, where)
        for number in range(max(before + 1, FIRST_VERSION), target + 1):
            _apply(conn, number, where)
        conn.execute(f"UPDATE {SCHEMA_TABLE} SET version = %s", [max(before, target)])
    return before, max(before, target)


def _apply(conn: PgConn, number: int, where: str) -> None:
    import psycopg

    for statement in MIGRATIONS[number]:
        try:
            conn.execute(statement)
        except psycopg.Error as e:
            first = " ".join(statement.split())[:160]
            reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise MigrationError(
                f"migration {number} of {where} failed at: {first} ({reason}); it was rolled "
                "back, the database is as it was: fix the cause (e.g. permission to CREATE "
                "EXTENSION unaccent and pg_trgm) and run design-agent db migrate"
            ) from e


def _refuse_newer(found: int, where: str) -> None:
    if found > LATEST_VERSION:
        raise ConfigError(
            f"{where} was written by a newer design-agent (schema version {found}; this one "
            f"knows up to {LATEST_VERSION}). Upgrade design-agent (pip install -U "
            "'design-agent[postgres]'); nothing was changed."
        )
    if 0 < found < FIRST_VERSION:
        raise ConfigError(f"{where} says schema version {found}, which PostgreSQL never had")


def _refuse_foreign(conn: PgConn, where: str) -> None:
    for table in OURS:
        found = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [table]).fetchone()
        if found and found[0]:
            raise ConfigError(
                f"{where} already has a '{table}' table that is not design-agent's (no "
                f"{SCHEMA_TABLE} table); it was left untouched: use another database"
            )
