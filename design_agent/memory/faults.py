"""What a failing database means to the user: a full disk, a damaged file, a server out of
reach, a migration that failed.

sqlite3 raises OperationalError or DatabaseError; the code it carries (Python 3.11:
`sqlite_errorcode`, the extended code) says why. Two failures are the user's to act
on, and each is turned into its own error, with the database's path:

- SQLITE_FULL ("database or disk is full"), ENOSPC or EDQUOT, and an I/O error while the
  disk has (almost) no room left (SQLite says "disk I/O error" when the -shm or -wal
  cannot grow): DiskFullError, exit 8, saying how much room is left.
- SQLITE_CORRUPT and its extended codes (a table, an index, a full-text index):
  DatabaseDamagedError, exit 3, with the first lines of `PRAGMA integrity_check` (run on
  a read-only connection, bounded in time) and the way back: export what can still be
  read, move the file aside, import the exports; and the answers waiting in the recovery
  journal. (SQLite's `.recover` is not offered: the sqlite3 shell of 3.40 fails on our
  contentless full-text tables, even on a sound file. The events log holds no text.)

Anything else is left as it is (an unexpected error). The interfaces call
`storage_error` once, at their edge; opening the database (db.py) calls it too.

PostgreSQL's failures are said where psycopg raises them (postgres/connection.py): a server
that cannot be reached is DatabaseUnavailableError (exit 9: try again), a full disk on the
server DiskFullError, and a migration that failed MigrationError (exit 3), after it was
rolled back.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import time
from pathlib import Path

from design_agent.core.errors import ConfigError, DesignAgentError, DiskFullError, ExitCode
from design_agent.core.paths import HomeLayout

SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
NO_ROOM_BYTES = 1 << 20  # an I/O error with less than this left is the disk being full
CHECK_SECONDS = 10.0  # integrity_check of a big file may take long: a damaged one is enough
CHECK_LINES = 3


class DatabaseDamagedError(ConfigError):
    """The database file is damaged (SQLITE_CORRUPT): exit 3, with how to recover."""


class DatabaseUnavailableError(DesignAgentError):
    """The database server cannot be reached (down, refused, timed out, connection lost):
    exit 9. Nothing was half-written: a transaction the server did not commit is undone."""

    exit_code = ExitCode.DATABASE_UNAVAILABLE


class MigrationError(ConfigError):
    """A schema migration failed: exit 3, naming the statement; it was rolled back whole."""


# What a store raises when it cannot take a write (the turn keeps the answer in the
# recovery journal, recovery.py): SQLite's errors, and a PostgreSQL server out of reach.
STORAGE_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, DatabaseUnavailableError)


def storage_error(error: BaseException, path: Path) -> DesignAgentError | None:
    """The user's error for a failure of the database at `path`, or None when it is neither
    a full disk nor a damaged file."""
    if isinstance(error, DesignAgentError):
        return error
    if isinstance(error, OSError):
        full = error.errno in (errno.ENOSPC, errno.EDQUOT)
        return disk_full(path, error.strerror or str(error)) if full else None
    if not isinstance(error, sqlite3.DatabaseError):
        return None
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if code == SQLITE_FULL or "database or disk is full" in str(error):
        return disk_full(path, str(error))
    if code == SQLITE_IOERR and free_bytes(path.parent) < NO_ROOM_BYTES:
        return disk_full(path, str(error))
    if code == SQLITE_CORRUPT or "malformed" in str(error):
        return damaged(path, error)
    return None


def disk_full(
    path: Path,
    detail: str,
    then: str = "free some space and run the command again",
    left: int | None = None,
) -> DiskFullError:
    """The disk holding `path` is full: what, where, how much room is left (`left` bytes,
    else measured now), and `then`."""
    room = _size(free_bytes(path.parent) if left is None else left)
    return DiskFullError(
        f"the disk is full: {path} could not be written ({detail}; {room} left on its disk); "
        f"nothing was half-written: {then}",
        path,
    )


def damaged(path: Path, error: sqlite3.DatabaseError) -> DatabaseDamagedError:
    """The database at `path` is damaged: what integrity_check says, and the ways back."""
    found = "; ".join(integrity_lines(path)) or "no details"
    aside = f"{path}.damaged"
    waiting = _waiting(HomeLayout(path.parent).recovery_dir)  # the database is in the home
    return DatabaseDamagedError(
        f"the database {path} is damaged ({error}; integrity_check: {found}); it was left as "
        "it is. To recover: export the projects that can still be read (design-agent "
        f"projects export NAME FILE), move the file aside (mv {path} {aside}), and import "
        "the exports, or older ones, into the new database design-agent then makes "
        f"(design-agent projects import FILE){waiting}"
    )


def integrity_lines(path: Path, limit: int = CHECK_LINES) -> list[str]:
    """The first lines `PRAGMA integrity_check` reports for the file (read-only, at most
    CHECK_SECONDS); what stopped it, when it could not finish."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error as e:
        return [f"could not be run ({e})"]
    deadline = time.monotonic() + CHECK_SECONDS
    db.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        return _check(db, limit)
    finally:
        db.close()


def _check(db: sqlite3.Connection, limit: int) -> list[str]:
    # Python reads the row after the one it returns: on a damaged page that read fails and
    # the report is lost, so when `limit` lines cannot be had, the first one is asked for.
    last = "no details"
    for count in (limit, 1):
        try:
            rows = db.execute(f"PRAGMA integrity_check({count})").fetchall()
        except sqlite3.OperationalError as e:
            return [f"did not finish in {CHECK_SECONDS:g} s" if "interrupt" in str(e) else str(e)]
        except sqlite3.DatabaseError as e:
            last = str(e)
            continue
        lines = [line for row in rows for line in str(row[0]).splitlines()]
        return [line for line in lines if not line.startswith("***")][:limit]
    return [last]


def free_bytes(folder: Path) -> int:
    """Room left for us on the disk holding `folder` (a large number when it cannot be
    told, so that nothing is called full by mistake)."""
    try:
        info = os.statvfs(folder)
    except OSError:
        return 1 << 62
    return info.f_bavail * info.f_frsize


def _size(count: int) -> str:
    return f"{count} bytes" if count < 1024 else f"{count // 1024:,} KB"


def _waiting(folder: Path) -> str:
    """Where answers that were not saved wait, when some do."""
    try:
        count = sum(1 for entry in os.scandir(folder) if entry.name.endswith(".json"))
    except OSError:
        return ""
    if not count:
        return ""
    return f"; {count} unsaved answer(s) wait in {folder} (design-agent history --recover)"
