"""What every route needs: the server's context, a validated project, a JSON-able value."""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request
from pydantic import BaseModel

from design_agent.memory import Memory
from design_agent.memory.models import Project
from design_agent.memory.text import is_slug
from design_agent.server.api_errors import ApiError
from design_agent.server.context import ServerContext

TURN_ID = re.compile(r"^[a-z0-9]{1,64}$")


def context_of(request: Request) -> ServerContext:
    """The server's shared state (see ServerContext)."""
    context = request.app.state.context
    assert isinstance(context, ServerContext)
    return context


def check_project_id(project_id: str) -> str:
    """`project_id` if it has the form of a project id (a slug); 400 otherwise."""
    if not is_slug(project_id):
        raise ApiError(400, "bad_request", f"'{project_id[:80]}' is not a project id")
    return project_id


def project_of(memory: Memory, project_id: str) -> Project:
    """The project with this id: 400 for a malformed id, 404 for an unknown one."""
    return memory.get_project(check_project_id(project_id))


def check_turn_id(turn_id: str) -> str:
    if not TURN_ID.match(turn_id):
        raise ApiError(400, "bad_request", "a turn id is letters a-z and digits")
    return turn_id


def jsonable(value: Any) -> Any:
    """Pydantic models (and lists of them) as plain JSON values."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    return value


def project_json(project: Project, **extra: Any) -> dict[str, Any]:
    """A project as the API shows it (created / last_accessed as ISO 8601)."""
    data = project.model_dump(mode="json")
    data["created"] = data.pop("created_at")
    return {**data, **extra}
