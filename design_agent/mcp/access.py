"""Who may do what through MCP: the one place where roles will be checked.

Every tool call passes through `check_access` with what the tool does (read or write),
then again with its project once that is resolved (call.py); resource and prompt
requests do the same. All of it happens before memory is touched. design-agent
serves one person today, so it allows everything: the stdio server runs as the person who
started it, on their own home, and the HTTP endpoint answers only the server's token,
which only they were shown. When team mode lands (issue 28: people, and owner / editor /
viewer per project), this function is where a viewer's write and a non-member's read are
refused, with the caller's identity in `Caller`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Access = Literal["read", "write"]
Transport = Literal["stdio", "http"]


@dataclass(frozen=True)
class Caller:
    """Who is calling: over stdio, the person who started the process; over HTTP, whoever
    holds the server's token (the Guard checked it before the request reached MCP)."""

    transport: Transport


def check_access(caller: Caller, access: Access, project_id: str | None) -> None:
    """Return when `caller` may `access` the project (None: no project, e.g. the method
    catalogue); raise a DesignAgentError saying why not otherwise. Single-user mode:
    everything is allowed (see the module docstring for what team mode adds here)."""
    return None
