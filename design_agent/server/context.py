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
    from design_agent.memory.url import DatabaseUrl
    from design_agent.providers.spec import AdapterSpec
    from design_agent.server.turns import TurnManager
    from design_agent.turn.session import Services, SharedServices


@dataclass
class ServerContext:
    """One running server: where its home is, its token, its turns."""

    home: HomeLayout
    token: str
    host: str = "127.0.0.1"
    port: int = 0
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    turns: TurnManager = field(init=False)
    upload_limit_mb: int = 10
    database: DatabaseUrl | None = None  # None: the home's file (cli/context.py resolves it)
    # The home's services, shared by every request and turn (turn/session.py); the MCP
    # endpoint at /mcp uses the same ones.
    shared: SharedServices = field(init=False, repr=False)

    def __post_init__(self) -> None:
        from design_agent.server.turns import TurnManager
        from design_agent.turn.session import SharedServices

        self.shared = SharedServices(self.home, self.database)
        self.turns = TurnManager(self.services)

    @contextmanager
    def memory(self) -> Iterator[Memory]:
        """This thread's own connection to the home's database, closed after the block."""
        with self.shared.memory() as memory:
            yield memory

    def services(self) -> Services:
        """A turn's services: a fresh Memory (close it: `services.memory.close()`) and the
        shared catalogue, matcher, knowledge and adapters."""
        return self.shared.services()

    def adapters(self) -> dict[str, AdapterSpec]:
        """The home's provider adapters, bundled and the user's."""
        return self.shared.adapters()

    def catalogue(self) -> Catalogue:
        """The home's catalogue (ConfigError when a bundled file of it is invalid; a broken
        entry of the home's own is left out), read again when one of its files changed."""
        return self.shared.catalogue()
