"""The team server this home is logged in to: `<home>/team.json` (0600), and talking to it.

    {"url": "https://design.example.com", "token": "...", "person": "Ana"}

`design-agent login URL` writes it (the token is a personal API token the server made for
this login, stored hashed there), `logout` removes it. While it is there, `ask`, the
shell, `projects list|switch|create`, `decisions`, `history` and `search` go to that
server as that person; every other command acts on this home and says so.

Standard library only: `ask`'s first step (design_agent/launch/remote_ask.py) reads the
file before click, pydantic or rich are imported. A file another user planted is never
read (it would send the turn, and its token, to their server).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

TEAM_FILE = "team.json"  # as HomeLayout.team_file names it
TIMEOUT = 30.0
HEADER = {"X-Design-Agent": "1"}  # a team's server wants it on every state-changing call


@dataclass(frozen=True)
class TeamLogin:
    """A home's login to a team's server."""

    url: str
    token: str
    person: str

    def as_json(self) -> str:
        return json.dumps({"url": self.url, "token": self.token, "person": self.person}) + "\n"


def read_login(home: str | os.PathLike[str]) -> TeamLogin | None:
    """The home's login, or None (none, unreadable, or not the user's own file)."""
    from design_agent.core.home_trust import open_trusted

    path = os.path.join(os.fspath(home), TEAM_FILE)
    try:
        data = json.loads(open_trusted(path, home))
    except (OSError, ValueError):
        return None
    except Exception as e:
        from design_agent.core.errors import UntrustedPathError  # only on this rare path

        if isinstance(e, UntrustedPathError):
            return None
        raise
    if not isinstance(data, dict):
        return None
    fields = [data.get(name) for name in ("url", "token", "person")]
    if not all(isinstance(value, str) and value for value in fields):
        return None
    return TeamLogin(*fields)  # type: ignore[arg-type]


def logged_in(home: str | os.PathLike[str]) -> bool:
    """Whether the home has a login file (one stat: every command asks)."""
    return os.path.exists(os.path.join(os.fspath(home), TEAM_FILE))


def write_login(home: str | os.PathLike[str], login: TeamLogin) -> None:
    from pathlib import Path

    from design_agent.core.fsutil import write_private_text

    write_private_text(Path(home) / TEAM_FILE, login.as_json())


def forget_login(home: str | os.PathLike[str]) -> bool:
    """Remove the login file: whether there was one."""
    try:
        os.unlink(os.path.join(os.fspath(home), TEAM_FILE))
    except FileNotFoundError:
        return False
    return True


class Unreachable(Exception):
    """The server could not be reached (or went away mid-answer)."""


def call(url: str, token: str | None, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One JSON call to the team's server at `url`: (status, the decoded body or None).
    Unreachable when there is no answer."""
    import http.client
    from urllib.parse import urlsplit

    found = urlsplit(url)
    kind = http.client.HTTPSConnection if found.scheme == "https" else http.client.HTTPConnection
    conn = kind(found.hostname or "", found.port, timeout=TIMEOUT)
    headers = dict(HEADER)
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, found.path.rstrip("/") + path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
    except (OSError, http.client.HTTPException) as e:
        raise Unreachable(str(e) or type(e).__name__) from e
    finally:
        conn.close()
    try:
        return response.status, json.loads(raw) if raw else None
    except ValueError:
        return response.status, None
