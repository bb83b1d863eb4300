"""`design-agent ask` through a running server: the fast path, standard library only.

A fresh process that imports pydantic, rich, click and rapidfuzz pays
~250 ms before the first token. When `design-agent serve` runs for this home,
`ask` instead sends the turn to it and writes what comes back: the server runs
the same validation and pipeline and renders the events with the same
TurnView, for this terminal's width, tty-ness and colours (see
design_agent/server/ask_route.py), so stdout, stderr and the exit code are
what the in-process `ask` gives.

A home logged in to a team's server (`design-agent login URL`: <home>/team.json) sends
every `ask` form parsed here to that server, as its person, and never runs it on this
home: a refusal (a project not theirs, a busy one, an expired login) ends the command
with its message and exit code.

Otherwise the fast path is taken only for the `ask` forms parsed here, and only when
server.json in the home is fresh: same version, same environment fingerprint
(design_agent.core.server_env), a live pid and a port that accepts a connection
within 0.2 s. Anything else returns None and the normal command runs, without
a word. Nothing here may import beyond the standard library (a test checks).

Every millisecond here is the user's: HTTP is spoken over the C socket module
(http.client costs ~50 ms to import, socket.py ~10 ms for its enums and
selectors), and the fingerprint's sha256 comes from the built-in one, not
OpenSSL's (server_env).
"""

from __future__ import annotations

import io
import json
import os
import sys

from design_agent import __version__
from design_agent.core.ask_client import Fallback, Refused, RemoteAsk, Target
from design_agent.core.server_env import environment_fingerprint
from design_agent.core.stdio import input_text
from design_agent.core.team_login import TeamLogin, logged_in, read_login

LOOPBACK = ("127.0.0.1", "localhost", "0.0.0.0")
VALUE_OPTIONS = {
    "--project": "project",
    "-p": "project",
    "--provider": "provider",
    "--tier": "tier",
    "--from": "from_turn",
    "--branch": "branch",
}
FLAGS = {
    "--json": "as_json",
    "--events": "events",
    "--continue": "continuing",
    "--over-budget": "over_budget",
}
TIERS = (None, "fast", "deep")


def main(argv: list[str]) -> int | None:
    """The exit code of `ask` run through a server, or None to run the normal command."""
    parsed = parse_argv(argv)
    if parsed is None:
        return None
    flag = parsed.pop("home")
    home = resolve_home(flag if isinstance(flag, str) else None)
    if home and logged_in(home):
        login = read_login(home)
        return team_ask(login, parsed) if login is not None else None
    server = fresh_server(home) if home else None
    if server is None:
        return None
    if not _read_message(parsed):
        return None
    target = Target.loopback(int(str(server["port"])), str(server["token"]))
    try:
        return RemoteAsk(target).run(parsed)
    except Fallback:
        return None


def team_ask(login: TeamLogin, parsed: dict[str, object]) -> int | None:
    """`ask` on the team's server this home is logged in to, as its person: never run on
    this home (a refusal is said with its exit code); None for the normal command to say
    how to give a message (or to take the forms parsed here do not: it sends them too)."""
    if not _read_message(parsed):
        return None
    try:
        return RemoteAsk(Target.of_url(login.url, login.token)).run(parsed)
    except (Refused, Fallback) as e:
        said = e.message if isinstance(e, Refused) else "the team's server refused the turn"
        sys.stderr.write(f"Error: {said}\n")
        return e.exit_code if isinstance(e, Refused) else 1


def _read_message(parsed: dict[str, object]) -> bool:
    """The message, from stdin when it is `-` or missing; False when there is none to read
    (a terminal: the normal command says how to give one)."""
    message = parsed["message"]
    if message in (None, "-"):
        if sys.stdin is None or sys.stdin.isatty():
            return False  # the normal command says how to give a message (or that fd 0 is closed)
        parsed["message"] = text = input_text(sys.stdin.read())
        sys.stdin = io.StringIO(text)  # for the normal command, if it runs after all
    elif isinstance(message, str):
        parsed["message"] = input_text(message)
    return True


def parse_argv(argv: list[str]) -> dict[str, object] | None:
    """`[--home H] ask [MESSAGE|-] [options]` as a dict; None for any other form."""
    home: str | None = None
    index = 0
    while index < len(argv) and argv[index] != "ask":
        token = argv[index]
        if token == "--home" and index + 1 < len(argv):
            home, index = argv[index + 1], index + 2
        elif token.startswith("--home="):
            home, index = token[len("--home=") :], index + 1
        else:
            return None
    if index >= len(argv) or home == "":
        return None
    parsed = _parse_ask(argv[index + 1 :])
    if parsed is not None:
        parsed["home"] = home
    return parsed


def _parse_ask(args: list[str]) -> dict[str, object] | None:
    parsed: dict[str, object] = {flag: False for flag in FLAGS.values()}
    positional: list[str] = []
    rest = iter(args)
    for token in rest:
        name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
        if token == "--":
            positional += list(rest)
        elif name in FLAGS and not equals:
            parsed[FLAGS[name]] = True
        elif name in VALUE_OPTIONS:
            value = value if equals else next(rest, "-")
            if value.startswith("-"):
                return None  # a missing value, or one click might read otherwise
            parsed[VALUE_OPTIONS[name]] = value
        elif token.startswith("-p") and not token.startswith("--"):
            parsed["project"] = token[2:]
        elif token.startswith("-") and token != "-":
            return None  # --file, --show-prompt, --help, --no-server, anything unknown
        else:
            positional.append(token)
    if len(positional) > 1 or parsed.get("tier") not in TIERS:
        return None
    parsed["message"] = positional[0] if positional else None
    return parsed


def resolve_home(flag: str | None) -> str | None:
    """design_agent.core.paths.resolve_home without platformdirs (None when unsure)."""
    chosen = flag or os.environ.get("DESIGN_AGENT_HOME")
    if chosen:
        return os.path.realpath(os.path.expanduser(chosen))
    if sys.platform != "linux":
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "design-agent")
    home = os.environ.get("HOME", "")
    if not home.startswith("/"):
        return None  # platformdirs asks the password database: the normal path knows
    return os.path.join(home.rstrip("/") + "/.config", "design-agent")


def fresh_server(home: str) -> dict[str, object] | None:
    """The server in server.json, if it is this version's, in this environment, alive."""
    from design_agent.core.home_trust import open_trusted

    try:
        # One another user planted would send the turn to their port: the normal command
        # then refuses the home, naming the file (HomeLayout.verify).
        server = json.loads(open_trusted(os.path.join(home, "server.json"), home))
    except (OSError, ValueError):
        return None
    except Exception as e:
        from design_agent.core.errors import UntrustedPathError  # imported only when one is raised

        if isinstance(e, UntrustedPathError):
            return None
        raise
    if not isinstance(server, dict):
        return None
    pid, port, token = server.get("pid"), server.get("port"), server.get("token")
    if not (isinstance(pid, int) and isinstance(port, int) and isinstance(token, str)):
        return None
    if server.get("version") != __version__ or server.get("host", "127.0.0.1") not in LOOPBACK:
        return None
    if server.get("env") != environment_fingerprint():
        return None  # started in another environment: another provider set-up
    return server if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:  # gone, or another user's
        return False
    return True
