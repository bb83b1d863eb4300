"""The state one server shares between its routes: home, token, turns, services.

`request.app.state.context` is a `ServerContext`. SQLite connections belong
to one thread, so every request and every turn opens its own Memory
(`context.memory()` / `context.services()`); the catalogue, matcher,
knowledge and adapters are read once and shared (turn/session.py's
SharedServices, which the MCP server uses too).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from design_agent.core.paths import HomeLayout

if TYPE_CHECKING:
    from design_agent.knowledge.registry import Catalogue
    from design_agent.memory import Memory
    from design_agent.memory.models import Person
    from design_agent.memory.url import DatabaseUrl
    from design_agent.providers.spec import AdapterSpec
    from design_agent.server.turns import TurnManager
    from design_agent.turn.session import Services, SharedServices


@dataclass(frozen=True)
class TeamSettings:
    """A team's server (`serve --team`): the address its people open (`--public-url`, else
    its own), which also says whether cookies are Secure (https)."""

    public_url: str

    @property
    def _parts(self) -> tuple[str, str, int | None]:
        from urllib.parse import urlsplit

        found = urlsplit(self.public_url)
        return found.scheme.lower(), (found.hostname or "").lower(), found.port

    @property
    def secure(self) -> bool:
        return self._parts[0] == "https"

    @property
    def origin(self) -> str:
        scheme, host, port = self._parts
        shown = f"[{host}]" if ":" in host else host
        return f"{scheme}://{shown}" + (f":{port}" if port else "")

    @property
    def hosts(self) -> set[str]:
        """The Host headers of the public address (a default port may be left out)."""
        scheme, host, port = self._parts
        shown = f"[{host}]" if ":" in host else host
        default = 443 if scheme == "https" else 80
        found = {f"{shown}:{port or default}"}
        if port in (None, default):
            found.add(shown)
        return found


@dataclass
class ServerContext:
    """One running server: where its home is, its token (or its team), its turns."""

    home: HomeLayout
    token: str
    host: str = "127.0.0.1"
    port: int = 0
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    turns: TurnManager = field(init=False)
    upload_limit_mb: int = 10
    database: DatabaseUrl | None = None  # None: the home's file (cli/context.py resolves it)
    team: TeamSettings | None = None  # `serve --team`: people sign in; no token
    # The home's services, shared by every request and turn (turn/session.py); the MCP
    # endpoint at /mcp uses the same ones.
    shared: SharedServices = field(init=False, repr=False)

    def __post_init__(self) -> None:
        from design_agent.server.turns import TurnManager
        from design_agent.turn.session import SharedServices

        self.shared = SharedServices(self.home, self.database)
        if self.database is not None and self.database.is_postgres:
            # Several processes may serve it: its turns are shared through the database.
            from design_agent.server.shared_turns import SharedTurnManager

            self.turns = SharedTurnManager(self.services, self.database)
        else:
            self.turns = TurnManager(self.services)

    def pool(self) -> dict[str, int] | None:
        """This process's database connections (PostgreSQL): how many the pool holds and
        how many are lent out now; None on SQLite."""
        if self.database is None or not self.database.is_postgres:
            return None
        from design_agent.memory.postgres.connection import pool_for

        stats = pool_for(self.database).get_stats()
        size = int(stats.get("pool_size", 0))
        return {"size": size, "in_use": size - int(stats.get("pool_available", 0))}

    @contextmanager
    def memory(self, person: Person | None = None) -> Iterator[Memory]:
        """This thread's own connection to the home's database, closed after the block;
        every call made as `person` (a team's), else as the home's owner."""
        with self.shared.memory() as memory:
            memory.act_as(person)
            yield memory

    def services(self, person: Person | None = None) -> Services:
        """A turn's services: a fresh Memory acting as `person` (close it:
        `services.memory.close()`) and the shared catalogue, matcher, knowledge, adapters."""
        services = self.shared.services()
        services.memory.act_as(person)
        return services

    def adapters(self) -> dict[str, AdapterSpec]:
        """The home's provider adapters, bundled and the user's."""
        return self.shared.adapters()

    def catalogue(self) -> Catalogue:
        """The home's catalogue (ConfigError when a bundled file of it is invalid; a broken
        entry of the home's own is left out), read again when one of its files changed."""
        return self.shared.catalogue()
