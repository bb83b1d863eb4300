"""/api/v1/projects: list, create, rename, activate and delete (with counted confirmation).

Deleting is the CLI's counted confirmation over HTTP: `delete-preview` gives
the counts and a fingerprint of them; DELETE with that fingerprint deletes
only if the counts are still the same (else 409 with the new preview), and
`Memory.delete_project` checks them again inside its transaction.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from design_agent.core.errors import ExitCode, UsageError
from design_agent.core.input_history import forget_project
from design_agent.memory import Memory
from design_agent.memory.models import DeletionReport
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import context_of, memory_of, person_of, project_json, project_of

router = APIRouter(prefix="/api/v1", tags=["projects"])


class ProjectName(BaseModel):
    name: str = Field(min_length=1, max_length=200)


@router.get("/projects")
def list_projects(request: Request) -> dict[str, Any]:
    """Every project, most recently used first, with its counts and whether it is active."""
    with memory_of(request) as memory:
        items = memory.list_projects()
        roles = {p.id: memory.role_in(p.id) for p in items} if person_of(request) else {}
    projects = [
        project_json(
            p, turns=p.turns, files=p.files, decisions=p.decisions, active=p.active,
            **({"role": roles[p.id]} if roles else {}),
        )
        for p in items
    ]  # fmt: skip
    return {"projects": projects}


@router.post("/projects", status_code=201)
def create_project(body: ProjectName, request: Request) -> dict[str, Any]:
    """Create a project and make it the active one (as `projects create`); 409 if taken."""
    with memory_of(request) as memory:
        taken = _existing(memory, body.name)
        if taken is not None:
            message = f"a project named '{taken}' already exists"
            raise ApiError(409, "conflict", message, ExitCode.USAGE)
        project = memory.switch_project(memory.create_project(body.name).id)
    return project_json(project, active=True)


@router.patch("/projects/{project_id}")
def rename_project(project_id: str, body: ProjectName, request: Request) -> dict[str, Any]:
    """Rename the project (its id stays the same)."""
    with memory_of(request) as memory:
        project = memory.rename_project(project_of(memory, project_id).id, body.name)
    return project_json(project)


@router.post("/projects/{project_id}/activate")
def activate_project(project_id: str, request: Request) -> dict[str, Any]:
    """Make the project the active one, as `projects switch` does."""
    with memory_of(request) as memory:
        project = memory.switch_project(project_of(memory, project_id).id)
    return project_json(project, active=True)


@router.post("/projects/{project_id}/delete-preview")
def delete_preview(project_id: str, request: Request) -> dict[str, Any]:
    """What deleting the project removes, and the fingerprint DELETE must send back."""
    with memory_of(request) as memory:
        return preview(memory.deletion_report(project_of(memory, project_id).id))


@router.delete("/projects/{project_id}", status_code=204)
def delete_project(project_id: str, request: Request, confirm: str | None = None) -> Response:
    """Delete the project if its counts are still those of the preview `confirm` names."""
    if not confirm:
        message = "send confirm=<the fingerprint from delete-preview>"
        raise ApiError(400, "bad_request", message)
    context = context_of(request)
    with memory_of(request) as memory:
        report = memory.deletion_report(project_of(memory, project_id).id)  # 404/403 first
        if context.turns.running_on(project_id) is not None:
            message = "a turn is running on this project; cancel it first"
            raise ApiError(409, "project_busy", message)
        if fingerprint(report) != confirm:
            raise _changed(report)
        try:
            memory.delete_project(report)
        except UsageError as e:  # the counts changed between our check and the delete
            raise _changed(memory.deletion_report(report.project.id)) from e
    forget_project(context.home, report.project.id)  # as `projects delete` does
    return Response(status_code=204)


def counts(report: DeletionReport) -> dict[str, int]:
    return {
        "turns": report.turns,
        "files": report.files,
        "decisions": report.decisions,
        "metadata": report.metadata,
        "process_memory": report.process_memory,
    }


def fingerprint(report: DeletionReport) -> str:
    """A short hash of the project and its counts: it changes when anything is added."""
    text = json.dumps({"project": report.project.id, **counts(report)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def preview(report: DeletionReport) -> dict[str, Any]:
    return {
        "project": project_json(report.project),
        "counts": counts(report),
        "confirm": fingerprint(report),
    }


def _changed(report: DeletionReport) -> ApiError:
    message = f"project '{report.project.name}' changed since the preview; confirm again"
    return ApiError(409, "changed", message, ExitCode.USAGE, {"preview": preview(report)})


def _existing(memory: Memory, name: str) -> str | None:
    """The name of the project `name` would clash with (same letters, any case/accents)."""
    from design_agent.memory.text import slugify

    for project in memory.list_projects():
        if slugify(project.name) == slugify(name):
            return project.name
    return None
