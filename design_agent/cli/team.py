"""The command line against a team's server: `login URL`, `logout`, and the commands that go
to the server while this home is logged in to one.

    design-agent login https://design.example.com     # name and password, asked here
    design-agent projects list                          # the projects shared with you
    design-agent ask "why did we choose moderated tests?"
    design-agent logout

`login` asks the server for a personal API token (POST /api/v1/tokens: the password never
stays here) and keeps it in <home>/team.json (0600, core/team_login.py). Then `ask`, the
shell, `projects list|switch|create`, `decisions`, `history` and `search` go to that
server as that person (the `Team` calls below); every other command acts on this home and
says so on stderr, once. `logout` ends the token on the server and forgets it here.

The server's answers are shown as the local commands show theirs; its errors keep their
exit codes: 10 not allowed (or the login ended), 6 not found, 9 the server out of reach.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import echo, print_json
from design_agent.core.errors import (
    ConflictError,
    DesignAgentError,
    ExitCode,
    NotAllowedError,
    NotFoundError,
    UsageError,
)
from design_agent.core.team_login import TeamLogin, Unreachable, call, forget_login, write_login

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext


class TeamUnreachableError(DesignAgentError):
    """The team's server could not be reached: exit 9 (nothing was sent, or nothing kept)."""

    exit_code = ExitCode.DATABASE_UNAVAILABLE


class Team:
    """Calls to the team's server this home is logged in to, as its person."""

    def __init__(self, login: TeamLogin) -> None:
        self.login = login

    @property
    def url(self) -> str:
        return self.login.url

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """The answer's JSON; a refusal as the error the local command would raise."""
        return request(self.url, self.login.token, method, "/api/v1" + path, body)

    def project(self, name: str | None) -> dict[str, Any]:
        """The project called `name` among yours (case, accents and a unique start of its
        name are enough), else your active one; NotFoundError / UsageError saying which."""
        if not name:
            active = self.call("GET", "/status").get("active_project")
            if not active:
                raise UsageError(
                    "no active project on the team's server: design-agent projects switch "
                    "NAME (projects list shows yours), or pass --project NAME"
                )
            return dict(active)
        return find_project(self.call("GET", "/projects")["projects"], name)

    def path(self, project: dict[str, Any], rest: str = "") -> str:
        return f"/projects/{quote(str(project['id']), safe='')}{rest}"

    def upload(self, project: dict[str, Any], file: Path) -> Any:
        """Add a brief to the project, as the page's upload does (multipart)."""
        import http.client
        import secrets

        boundary = f"design-agent-{secrets.token_hex(12)}"
        name = file.name.replace('"', "")
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nbrief\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        ).encode()
        body = head + file.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
        found = urlsplit(self.url)
        kind = (
            http.client.HTTPSConnection if found.scheme == "https" else http.client.HTTPConnection
        )
        conn = kind(found.hostname or "", found.port, timeout=120)
        headers = {
            "Authorization": f"Bearer {self.login.token}",
            "X-Design-Agent": "1",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        }
        try:
            conn.request("POST", f"{found.path.rstrip('/')}/api/v1{self.path(project, '/files')}",
                         body=body, headers=headers)  # fmt: skip
            response = conn.getresponse()
            status, raw = response.status, response.read()
        except (OSError, http.client.HTTPException) as e:
            raise TeamUnreachableError(f"cannot reach the team's server {self.url} ({e})") from e
        finally:
            conn.close()
        return _answer(self.url, status, raw)


def request(url: str, token: str | None, method: str, path: str, body: Any = None) -> Any:
    """One call to a team's server; its errors as design-agent's (see the module docstring)."""
    try:
        status, data = call(url, token, method, path, body)
    except Unreachable as e:
        raise TeamUnreachableError(
            f"cannot reach the team's server {url} ({e}); try again, or design-agent logout "
            "to work on this computer's own home"
        ) from e
    return _checked(url, status, data)


def _answer(url: str, status: int, raw: bytes) -> Any:
    import json

    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        data = None
    return _checked(url, status, data)


def _checked(url: str, status: int, data: Any) -> Any:
    """`data` when the server did what was asked; its error as design-agent's otherwise."""
    if status < 400:
        return data
    error = (data or {}).get("error") if isinstance(data, dict) else None
    message = str((error or {}).get("message") or f"the team's server answered HTTP {status}")
    if status == 401:
        raise NotAllowedError(
            f"{message} (your login to {url}: design-agent login {url})", signed_in=False
        )
    kinds: dict[int, type[DesignAgentError]] = {
        403: NotAllowedError,
        404: NotFoundError,
        409: ConflictError,
        400: UsageError,
        422: UsageError,
        429: NotAllowedError,
    }
    raise kinds.get(status, DesignAgentError)(message)


def find_project(projects: list[dict[str, Any]], name: str) -> dict[str, Any]:
    """`name`'s project among `projects`: by id or name (any case and accents), else the one
    whose name starts with it or holds it as words."""
    from design_agent.memory.text import slugify

    key = slugify(name)
    exact = [p for p in projects if p["id"] == name or slugify(p["name"]) == key]
    if exact:
        return exact[0]
    near = [p for p in projects if key and key in slugify(p["name"])]
    if len(near) == 1:
        return near[0]
    names = ", ".join(p["name"] for p in projects) or "none yet"
    if near:
        raise UsageError(f"'{name}' fits more than one project ({names}); give its whole name")
    raise NotFoundError(f"no project named '{name}' among yours ({names})")


# -- login and logout ---------------------------------------------------------------------


@click.command()
@click.argument("url")
@click.option("--name", help="Your name on the team (asked when not given).")
@click.option(
    "--token-stdin",
    is_flag=True,
    help="Read a personal API token from standard input (design-agent users token NAME) "
    "instead of signing in with a password.",
)
@json_option
@click.pass_context
def login(ctx: click.Context, url: str, name: str | None, token_stdin: bool, as_json: bool) -> None:
    """Log this home in to the team's server at URL, as you.

    Asks for your name and password (set from your invite link), and keeps a
    personal API token for this computer in the home (team.json, 0600): the
    password is not kept. Then `ask`, the shell, `projects list|switch|create`,
    `decisions`, `history` and `search` go to that server as you; every other
    command acts on this home. Exit codes: 10 wrong name or password, 9 the
    server cannot be reached.

    \b
    Examples:
      design-agent login https://design.example.com
      design-agent login http://10.0.0.5:8801 --name ana
      design-agent users token ana | design-agent login https://design.example.com --token-stdin
    """
    app = app_of(ctx)
    app.remote = True
    base = _base(url)
    if token_stdin:
        token = sys.stdin.readline().strip() if sys.stdin is not None else ""
        if not token:
            raise UsageError("--token-stdin read no token from standard input")
    else:
        who = name or str(click.prompt("Name", err=True))
        password = _password()
        label = f"design-agent login on {socket.gethostname()}"
        asked = {"name": who, "password": password, "label": label}
        token = str(request(base, None, "POST", "/api/v1/tokens", asked)["token"])
    person = request(base, token, "GET", "/api/v1/me")["person"]
    write_login(app.home.root, TeamLogin(base, token, str(person["name"])))
    if as_json:
        print_json({"url": base, "person": person})
        return
    echo(
        f"Logged in to {base} as {person['name']}. ask, the shell, projects "
        "list|switch|create, decisions, history and search now go to that server; other "
        "commands act on this home (design-agent logout to stop)."
    )


@click.command()
@click.pass_context
def logout(ctx: click.Context) -> None:
    """Forget this home's login to a team's server (its token ends on the server too).

    \b
    Example:
      design-agent logout
    """
    from design_agent.core.team_login import read_login

    app = app_of(ctx)
    app.remote = True
    found = read_login(app.home.root)
    if found is None:
        forget_login(app.home.root)
        echo("This home is not logged in to a team's server.")
        return
    try:
        request(found.url, found.token, "DELETE", "/api/v1/tokens/current")
        ended = "its token ended on the server"
    except DesignAgentError as e:  # out of reach, or ended already: forget it here anyway
        ended = f"the server did not answer ({e.message.split(';')[0]}); its token stays there"
    forget_login(app.home.root)
    echo(f"Logged out of {found.url} ({ended}). Commands act on this home again.")


def _password() -> str:
    """The password: asked without echo on a terminal, else the next line of stdin."""
    if sys.stdin is not None and sys.stdin.isatty():
        return str(click.prompt("Password", hide_input=True, err=True))
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if not line.strip():
        raise UsageError("no password on standard input (give it on a line of its own)")
    return line.rstrip("\n")


def _base(url: str) -> str:
    found = urlsplit(url.strip())
    if found.scheme not in ("http", "https") or not found.hostname:
        raise UsageError(f"{url}: give the team server's address, e.g. https://design.example.com")
    return url.strip().rstrip("/")


def team_of(app: AppContext) -> Team | None:
    """The team's server this home is logged in to, or None; the command goes there."""
    login = app.team_login
    if login is None:
        return None
    app.remote = True
    return Team(login)


def ask_team(team: Team, parsed: dict[str, Any], files: tuple[Path, ...]) -> int:
    """`ask` on the team's server, as `ask` runs through a local server (core/ask_client.py):
    the briefs of --file added to the project first; the exit code, a refusal's included."""
    from design_agent.core.ask_client import Refused, RemoteAsk, Target

    if files:
        project = team.project(parsed.get("project"))
        for file in files:
            team.upload(project, file)
    try:
        return RemoteAsk(Target.of_url(team.url, team.login.token)).run(parsed)
    except Refused as e:
        echo(f"Error: {e.message}", err=True)
        return e.exit_code
