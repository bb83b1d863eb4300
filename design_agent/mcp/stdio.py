"""`design-agent mcp`: the MCP server over standard input and output, as the agents spawn
it (one process per agent session, on the home it was registered with).

The SDK keeps stdout for the protocol while it serves (anything else written there goes
to stderr), so design-agent's own notes never corrupt a message.
"""

from __future__ import annotations

import anyio

from design_agent.core.paths import HomeLayout
from design_agent.mcp.access import Caller
from design_agent.memory.url import DatabaseUrl
from design_agent.turn.session import SharedServices


def serve_stdio(home: HomeLayout, database: DatabaseUrl | None = None) -> None:
    """Serve until the client closes standard input, on `database` (None: the home's file)."""
    from mcp.server.stdio import stdio_server

    from design_agent.mcp.server import build_server

    server = build_server(SharedServices(home, database), Caller("stdio"))

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)
