"""Run the server: bind 127.0.0.1 (any free port by default), write server.json, serve
until SIGINT/SIGTERM, then cancel the running turns (saved as cancelled) and clean up.

    code = run_server(HomeLayout(path), say_line=print)

uvicorn and fastapi are imported here, only when a server starts.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

from design_agent.core import startup
from design_agent.core.errors import UsageError
from design_agent.core.paths import HomeLayout
from design_agent.server.context import ServerContext
from design_agent.server.lifecycle import (
    live_server,
    remove_server_file,
    server_record,
    url_of,
    write_server_file,
)
from design_agent.server.security import is_loopback
from design_agent.server.uploads import clean_uploads

if TYPE_CHECKING:
    from design_agent.memory.url import DatabaseUrl
    from design_agent.server.context import TeamSettings

# Where a team server records its address, for `users add` to make invite links with.
TEAM_URL_KEY = "team.url"

GRACEFUL_SECONDS = 5
BACKLOG = 128


def check_host(host: str, explicit: bool) -> bool:
    """Whether `host` lets other computers in (the caller prints a warning then); such a
    host is refused (UsageError) unless it was asked for explicitly (--host)."""
    if is_loopback(host):
        return False
    if not explicit:
        raise UsageError(f"refusing to listen on {host}: pass --host {host} explicitly")
    return True


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as e:
        sock.close()
        raise UsageError(
            f"cannot listen on {host}:{port} ({e.strerror}); try another --port"
        ) from e
    sock.listen(BACKLOG)
    sock.set_inheritable(False)
    return sock


def run_server(
    home: HomeLayout,
    host: str = "127.0.0.1",
    port: int = 0,
    say_line: Callable[[str], None] = print,
    lines: Callable[[str], list[str]] | None = None,
    database: DatabaseUrl | None = None,
    team: TeamSettings | None = None,
) -> int:
    """Serve until a stop signal; 0 after a clean stop. `lines(url)` gives what to print;
    `database` is the memory's (None: the home's file); `team` makes it a team's server
    (run_team_server)."""
    if team is not None:
        return run_team_server(home, host, port, say_line, database, team)
    running = live_server(home)
    if running is not None:
        where = url_of(running, token=False)
        raise UsageError(
            f"a server for this home already runs at {where} (pid "
            f"{running['pid']}); stop it with: design-agent server stop"
        )
    clean_uploads(home)  # left by a server killed mid-upload; no other serves this home
    sock = bind(host, port)
    context = ServerContext(
        home=home, token=secrets.token_urlsafe(32), host=host, database=database
    )
    context.port = int(sock.getsockname()[1])
    info = server_record(
        os.getpid(), context.port, host, context.token, context.started.isoformat()
    )
    server = _uvicorn_server(context)
    write_server_file(home, info)
    startup.ready()  # the requests are the real work (the server opens no AppContext)
    try:
        for line in (lines or _default_lines)(url_of(info)):
            say_line(line)
        server.run(sockets=[sock])
    finally:
        context.turns.shutdown()
        remove_server_file(home, os.getpid())
        sock.close()
    return 0


def run_team_server(
    home: HomeLayout,
    host: str,
    port: int,
    say_line: Callable[[str], None],
    database: DatabaseUrl | None,
    team: TeamSettings,
) -> int:
    """A team's server: people sign in (no token, no server.json: several processes may
    serve one database, each on its own port); its address is recorded in the database for
    the invite links `users add` prints."""
    from design_agent.memory import Memory
    from design_agent.memory.passwords import _hasher

    _hasher()  # argon2-cffi is there (ConfigError saying how to install it otherwise)
    sock = bind(host, port)
    context = ServerContext(
        home=home, token=secrets.token_urlsafe(32), host=host, database=database
    )
    context.port = int(sock.getsockname()[1])
    if not team.public_url:
        from design_agent.server.context import TeamSettings

        shown = f"[{host}]" if ":" in host else host
        team = TeamSettings(f"http://{shown}:{context.port}")
    context.team = team
    with Memory.open(database or home.database_file) as memory:
        memory.set_state(TEAM_URL_KEY, team.public_url)
        people = len(memory.list_people())
    server = _uvicorn_server(context)
    startup.ready()
    try:
        say_line(f"design-agent team server on {team.public_url} (pid {os.getpid()})")
        if not people:
            say_line("Nobody can sign in yet: design-agent users add NAME --admin")
        server.run(sockets=[sock])
    finally:
        context.turns.shutdown()
        sock.close()
    return 0


def _default_lines(url: str) -> list[str]:
    return [url, "Press Ctrl-C to stop the server."]


def _uvicorn_server(context: ServerContext) -> Any:
    import uvicorn

    from design_agent.server.app import create_app

    class Server(uvicorn.Server):
        """uvicorn's server, which also cancels the running turns as soon as a stop signal
        comes, so open event streams end (with `end`) instead of holding the shutdown."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # Unlike uvicorn's own, the signal is not raised again after the shutdown:
            # that would kill the process before server.json is removed.
            for record in context.turns.running():
                record.cancel()
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True  # a second Ctrl-C: stop waiting for open streams
            self.should_exit = True

    config = uvicorn.Config(
        create_app(context),
        log_level="warning",
        access_log=False,
        lifespan="on",  # the MCP endpoint's task group (mcp/http.py)
        ws="none",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
    return Server(config)
