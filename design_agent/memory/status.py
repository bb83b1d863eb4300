"""`db status` and `db migrate`: what a database holds, read without changing it, and
bringing it to this design-agent's schema (which opening it does too, on first use).

Status opens nothing the way `Memory` does: an SQLite file is read read-only (a file
that is not design-agent's is refused untouched, db.identify), a PostgreSQL database on
a connection of its own, with no pool and no migration, so an administrator sees the
version a server is at before moving it on.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from design_agent.memory.db import connect, identify
from design_agent.memory.schema import LATEST_VERSION
from design_agent.memory.tables import TABLES
from design_agent.memory.url import DatabaseUrl


@dataclass(frozen=True)
class DatabaseStatus:
    """Which store, where (no password), its schema version and this design-agent's, and
    the rows of each table (none when there is no database yet)."""

    backend: str
    location: str
    version: int
    latest: int = LATEST_VERSION
    exists: bool = True
    counts: dict[str, int] = field(default_factory=dict)


def status(url: DatabaseUrl) -> DatabaseStatus:
    """What the database at `url` is and holds, read without changing it."""
    names = [t.name for t in TABLES]
    if url.path is None:
        url.require_driver()
        from design_agent.memory.postgres.connection import inspect

        version, counts = inspect(url, names)
        return DatabaseStatus("postgresql", str(url), version, counts=counts)
    if not url.path.exists():
        return DatabaseStatus("sqlite", str(url), 0, exists=False)
    identify(url.path)
    db = sqlite3.connect(f"file:{url.path}?mode=ro", uri=True)
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        present = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        counts = {
            n: int(db.execute(f"SELECT count(*) FROM {n}").fetchone()[0])
            for n in names
            if n in present
        }
    finally:
        db.close()
    return DatabaseStatus("sqlite", str(url), version, counts=counts)


def migrate(url: DatabaseUrl) -> tuple[int, int]:
    """Bring the database at `url` (made if missing) to this design-agent's schema: the
    versions before and after."""
    if url.path is None:
        url.require_driver()
        from design_agent.memory.postgres.connection import migrate_database

        return migrate_database(url)
    before = status(url).version
    connect(url.path).close()
    return before, LATEST_VERSION
