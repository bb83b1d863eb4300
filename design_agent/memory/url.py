"""Which database a memory lives in: an SQLite file or a PostgreSQL server, as one URL.

`DESIGN_AGENT_DATABASE_URL` or the `database.url` setting name it (core/settings.py);
without either it is the home's own file, as always:

    sqlite:////home/ana/.config/design-agent/design-agent.db   (four slashes: an absolute path)
    sqlite:///design-agent.db                                  (three: relative to here)
    postgresql://design@db.example.com/design                  (or postgres://)
    postgresql://design@/design?host=/var/run/postgresql       (a unix socket)

A bare path is an SQLite file too (`db copy ~/old-home/design-agent.db postgresql://...`).
The SQLite form follows SQLAlchemy's, which a team's other tools (Open WebUI's
DATABASE_URL) already use. A URL is shown without its password, ever (`redacted`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from design_agent.core.errors import ConfigError, UsageError
from design_agent.core.text import hide_password
from design_agent.memory.connection import Dialect

ENV = "DESIGN_AGENT_DATABASE_URL"  # core/settings.py's DATABASE_ENV: env beats the file
SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")
HINT = "a database URL is sqlite:///PATH or postgresql://USER@HOST/DATABASE"


@dataclass(frozen=True)
class DatabaseUrl:
    """A parsed database URL: an SQLite `path`, or a PostgreSQL `conninfo` (libpq's URI)."""

    dialect: Dialect
    path: Path | None = None
    conninfo: str = ""

    @classmethod
    def parse(cls, text: str | Path) -> DatabaseUrl:
        """The database `text` names; UsageError (with the forms allowed) for anything else."""
        if isinstance(text, Path):
            return cls("sqlite", path=text)
        given = text.strip()
        scheme = given.partition("://")[0].lower() if "://" in given else ""
        if scheme in POSTGRES_SCHEMES:
            if not urlsplit(given).path.strip("/") and "dbname=" not in given:
                raise UsageError(f"{_shown(given)} names no database; {HINT}")
            return cls("postgresql", conninfo=given)
        if scheme == "sqlite":
            if not given.lower().startswith(SQLITE_PREFIX) or len(given) == len(SQLITE_PREFIX):
                raise UsageError(f"{_shown(given)} names no file; {HINT}")
            return cls("sqlite", path=Path(given[len(SQLITE_PREFIX) :]).expanduser())
        if scheme or not given:
            raise UsageError(f"unknown database {_shown(given)!r}; {HINT}")
        return cls("sqlite", path=Path(given).expanduser())

    @property
    def is_postgres(self) -> bool:
        return self.dialect == "postgresql"

    def require_driver(self) -> None:
        """ConfigError (exit 3, with the install command) when this is a PostgreSQL URL and
        psycopg is not installed: it comes with the `postgres` extra only."""
        if not self.is_postgres:
            return
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError as e:
            raise ConfigError(
                f"{self} is a PostgreSQL database and psycopg is not installed: "
                "pip install 'design-agent[postgres]'"
            ) from e

    def redacted(self) -> str:
        """The URL without a password (in the user part or as a parameter)."""
        if self.path is not None:
            return SQLITE_PREFIX + str(self.path)
        return _shown(self.conninfo)

    def __str__(self) -> str:
        return self.redacted()


def _shown(url: str) -> str:
    """`url` with any password taken out."""
    return hide_password(url)
