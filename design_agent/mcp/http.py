"""/mcp of `design-agent serve`: the same MCP server over streamable HTTP.

The server's Guard (server/security.py) checks the token, Host and Origin before a request
reaches this endpoint, exactly as for /api/; the SDK's own Host/Origin check is turned off
so there is one rule, in one place. Stateless, with JSON responses: every request stands
alone (no session to lose when the server restarts, no open stream to hold a shutdown).

Nothing of the SDK is imported until the first request to /mcp, so `serve` starts as fast
as before: the app's lifespan opens a task group (`running`), and the first request starts
the SDK's session manager in it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

import anyio
from anyio.abc import TaskGroup, TaskStatus

from design_agent.mcp.access import Caller
from design_agent.turn.session import SharedServices

PATH = "/mcp"
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class McpEndpoint:
    """An ASGI app serving MCP for one home; `running()` is the lifespan it needs."""

    def __init__(self, shared: SharedServices) -> None:
        self.shared = shared
        self._manager: Any = None
        self._group: TaskGroup | None = None
        self._lock = anyio.Lock()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """While the server runs: the task group the SDK's session manager lives in."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        manager = await self._started()
        if manager is None:  # an app served without its lifespan (a test's own server)
            await _unavailable(send)
            return
        await manager.handle_request(scope, receive, send)

    async def _started(self) -> Any:
        async with self._lock:
            if self._manager is None and self._group is not None:
                self._manager = _manager(self.shared)
                await self._group.start(_serve, self._manager)
        return self._manager


def _manager(shared: SharedServices) -> Any:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings

    from design_agent.mcp.server import build_server

    return StreamableHTTPSessionManager(
        build_server(shared, Caller("http")),
        json_response=True,
        stateless=True,
        # The Guard checked Host and Origin already (see the module docstring).
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )


async def _serve(manager: Any, *, task_status: TaskStatus[None]) -> None:
    async with manager.run():
        task_status.started()
        await anyio.sleep_forever()


async def _unavailable(send: Send) -> None:
    body = b'{"error": {"code": "unavailable", "message": "MCP is not running on this server"}}'
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
