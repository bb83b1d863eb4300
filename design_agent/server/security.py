"""Who may talk to the server: the token, the Host and Origin checks, the headers.

A local server that holds private work must refuse (see docs/server-api.md):
- a request whose Host is not this server (DNS rebinding: evil.com resolving
  to 127.0.0.1 would otherwise read the API from a browser): 403;
- a state-changing request from another page's origin (CSRF): 403;
- an /api/ call without the token (cookie or Bearer): 401;
- the same for /mcp (the MCP endpoint), where any request from another page's origin is
  refused, as the MCP specification asks of a server, not only a state-changing one.
No CORS header is ever sent, and HTML carries a strict CSP, nosniff and
no-referrer (the token is in the first URL; it must never leak in a Referer).

A team's server (`serve --team`) has no token: each person signs in (team_auth.py), and
the Guard finds who a request is from (a session cookie, HttpOnly and SameSite=Lax, or
`Authorization: Bearer` with a personal API token) before any route runs. Its Host may
also be the team's public address, and every state-changing request needs, besides an
Origin of its own (when the browser sends one), the header `X-Design-Agent: 1`: a page of
another site cannot send it without a CORS preflight, which this server never answers.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import CookieError, SimpleCookie
from typing import Any

from design_agent.server.context import ServerContext

COOKIE = "design_agent_token"
SESSION_COOKIE = "design_agent_session"
CSRF_HEADER = "x-design-agent"
MCP_PATH = "/mcp"  # mcp/http.py's PATH (not imported: the Guard loads no MCP code)
API_UNAUTHORIZED = "open the URL `design-agent serve` printed (it has the token)"
MCP_UNAUTHORIZED = (
    "send the server's token as `Authorization: Bearer TOKEN` "
    "(design-agent server status --show-token prints it)"
)
LOOPBACK = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
HTML_HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
)
ALL_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


def is_loopback(host: str) -> bool:
    return host.strip("[]").lower() in LOOPBACK


def allowed_hosts(context: ServerContext) -> set[str]:
    """The Host headers this server answers: its loopback names, or the --host given (and
    a team's public address)."""
    names = set(LOOPBACK) | {context.host}
    bracketed = {f"[{n}]" if ":" in n else n for n in names}
    hosts = {f"{n}:{context.port}".lower() for n in bracketed}
    if context.team is not None:
        hosts |= context.team.hosts
    return hosts


def own_origins(context: ServerContext) -> set[str]:
    """The Origin headers of this server's own pages."""
    origins = {f"http://{h}" for h in allowed_hosts(context)}
    if context.team is not None:
        origins.add(context.team.origin)
    return origins


def token_matches(context: ServerContext, given: str | None) -> bool:
    return bool(given) and secrets.compare_digest(str(given).encode(), context.token.encode())


def request_token(headers: dict[str, str]) -> str | None:
    """The token a request carries: `Authorization: Bearer T`, else the cookie."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return cookie_token(headers.get("cookie", ""))


def cookie_token(header: str, name: str = COOKIE) -> str | None:
    try:
        morsel = SimpleCookie(header).get(name)
    except CookieError:
        return None
    return morsel.value if morsel is not None else None


def session_cookie(context: ServerContext, token: str, max_age: int) -> str:
    """Set-Cookie for a team's session: HttpOnly, SameSite=Lax (a link from another site
    opens the page signed in; no other site's form or script sends it), Path=/, Secure when
    the team's address is https; `max_age` 0 ends it."""
    secure = "; Secure" if context.team is not None and context.team.secure else ""
    return f"{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"


def credential(headers: dict[str, str]) -> str | None:
    """A team request's credential: `Authorization: Bearer T`, else the session cookie."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return cookie_token(headers.get("cookie", ""), SESSION_COOKIE)


def cookie_header(token: str) -> str:
    """Set-Cookie for the token: HttpOnly (no script reads it), SameSite=Strict (no
    other site's page sends it), Path=/; no Max-Age (it dies with the browser)."""
    return f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"


def refusal(context: ServerContext, method: str, path: str, headers: dict[str, str]) -> Any:
    """(status, code, message) when the request must be refused, else None."""
    hosts = allowed_hosts(context)
    if headers.get("host", "").lower() not in hosts:
        return 403, "forbidden_host", "this server answers only on its own address"
    origin = headers.get("origin")
    mcp = path == MCP_PATH or path.startswith(f"{MCP_PATH}/")
    changing = method not in SAFE_METHODS
    if origin is not None and (mcp or changing) and origin.lower() not in own_origins(context):
        return 403, "forbidden_origin", "requests from other pages are not accepted"
    if context.team is not None:
        if mcp:  # its tools act for the home's owner: not for a team's people
            message = "a team's server does not serve MCP: run `design-agent mcp` in your own home"
            return 403, "forbidden", message
        if changing and path.startswith("/api/") and not headers.get(CSRF_HEADER):
            message = f"a request that changes something needs the header {CSRF_HEADER}: 1"
            return 403, "forbidden_header", message
    elif (path.startswith("/api/") or mcp) and not token_matches(context, request_token(headers)):
        return 401, "unauthorized", MCP_UNAUTHORIZED if mcp else API_UNAUTHORIZED
    if _declared_size(headers) > (context.upload_limit_mb + 1) * 1024 * 1024:
        # Refused before the body is read (the route checks what is actually sent).
        return 413, "too_large", f"uploads are limited to {context.upload_limit_mb} MB"
    return None


def _declared_size(headers: dict[str, str]) -> int:
    try:
        return int(headers.get("content-length", "0"))
    except ValueError:
        return 0


class Guard:
    """ASGI middleware: refuse what `refusal` says; add the security headers; strip any
    Access-Control-* header a component might add."""

    def __init__(self, app: Asgi, context: ServerContext) -> None:
        self.app = app
        self.context = context

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refused = refusal(self.context, scope["method"], scope["path"], headers)
        if refused is None and self.context.team is not None:
            from design_agent.server.team_auth import authenticate

            refused = await authenticate(self.context, scope, headers)
        if refused is not None:
            status, code, message = refused
            # A team's: not signed in, or not allowed, is exit 10 on the command line.
            team = self.context.team is not None and code in ("unauthorized", "forbidden")
            await _refuse(send, status, code, message, 10 if team else 2)
            return
        await self.app(scope, receive, _with_headers(send))


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [
                (k, v)
                for k, v in message.get("headers", [])
                if not k.lower().startswith(b"access-control-")
            ]
            html = any(k.lower() == b"content-type" and b"text/html" in v for k, v in kept)
            message["headers"] = [*kept, *ALL_HEADERS, *(HTML_HEADERS if html else ())]
        await send(message)

    return sending


async def _refuse(send: Send, status: int, code: str, message: str, exit_code: int = 2) -> None:
    error = {"code": code, "message": message, "exit_code": exit_code}
    body = json.dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if status == 413:  # the body is never read: end the connection rather than drain it
        headers.append((b"connection", b"close"))
    await send(
        {"type": "http.response.start", "status": status, "headers": [*headers, *ALL_HEADERS]}
    )
    await send({"type": "http.response.body", "body": body})
