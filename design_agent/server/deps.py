"""What every route needs: the server's context, who asks (a team's server), a validated
project, a JSON-able value."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import Request
from pydantic import BaseModel

from design_agent.memory import Memory
from design_agent.memory.models import Person, Project
from design_agent.memory.text import is_slug
from design_agent.server.api_errors import ApiError
from design_agent.server.context import ServerContext

TURN_ID = re.compile(r"^[a-z0-9]{1,64}$")


def context_of(request: Request) -> ServerContext:
    """The server's shared state (see ServerContext)."""
    context = request.app.state.context
    assert isinstance(context, ServerContext)
    return context


def person_of(request: Request) -> Person | None:
    """Who the request is from on a team's server (security.Guard found them); None on a
    one-person server, where the token is the home's owner."""
    person = getattr(request.state, "person", None)
    return person if isinstance(person, Person) else None


@contextmanager
def memory_of(request: Request) -> Iterator[Memory]:
    """A Memory for this request, every call made as its person (see person_of)."""
    with context_of(request).memory(person_of(request)) as memory:
        yield memory


def require_admin(request: Request) -> None:
    """403 on a team's server unless an admin asks (the server's own settings, providers)."""
    person = person_of(request)
    if context_of(request).team is not None and (person is None or not person.is_admin):
        from design_agent.core.errors import ExitCode

        name = person.name if person is not None else "nobody"
        message = f"only an admin may change this server's settings and providers ({name} is not)"
        raise ApiError(403, "forbidden", message, ExitCode.NOT_ALLOWED)


def person_json(person: Person) -> dict[str, Any]:
    """A person as the API shows them."""
    return {"id": person.id, "name": person.name, "is_admin": person.is_admin}


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
