"""/api/v1 what a project's people share: its members and roles, its audit log, and its
export as a download (each filtered by what the person may see; the report is
routes_report.py's).

    GET    /projects/{id}/members                  {members: [{name, role, added_at}]}
    PUT    /projects/{id}/members/{name}           {role} -> the member (owners only)
    DELETE /projects/{id}/members/{name}           204 (owners only; the last owner stays)
    GET    /audit?project=ID&limit=N               {entries} (a project's owners; all: admins)
    GET    /projects/{id}/export                   the project's export (JSON), as a download
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from design_agent.memory.models import TeamRole
from design_agent.server.deps import jsonable, memory_of, project_of

router = APIRouter(prefix="/api/v1", tags=["team"])


class RoleBody(BaseModel):
    role: TeamRole


@router.get("/projects/{project_id}/members")
def list_members(project_id: str, request: Request) -> dict[str, Any]:
    """The project's members and their roles, owners first (anyone who may see it)."""
    with memory_of(request) as memory:
        found = memory.members(project_of(memory, project_id).id)
    return {"members": jsonable(found)}


@router.put("/projects/{project_id}/members/{name}")
def share(project_id: str, name: str, body: RoleBody, request: Request) -> dict[str, Any]:
    """Give the person called `name` this role in the project (as `projects share`)."""
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        memory.require(project.id, "owner")  # before saying whether the person exists
        member = memory.share_project(project.id, memory.find_person(name).id, body.role)
    return jsonable(member)  # type: ignore[no-any-return]


@router.delete("/projects/{project_id}/members/{name}", status_code=204)
def unshare(project_id: str, name: str, request: Request) -> Response:
    """Take the person called `name` out of the project (as `projects share --remove`)."""
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        memory.require(project.id, "owner")
        memory.unshare_project(project.id, memory.find_person(name).id)
    return Response(status_code=204)


@router.get("/audit")
def audit(request: Request, project: str | None = None, limit: int = 100) -> dict[str, Any]:
    """The newest lines of the audit log: one project's (its owners and admins), or all
    the person may read (an admin: every line; an owner: their projects')."""
    with memory_of(request) as memory:
        project_id = project_of(memory, project).id if project else None
        entries = memory.audit_log(project_id, max(1, min(limit, 1000)))
    return {"entries": jsonable(entries)}


@router.get("/projects/{project_id}/export", response_model=None)
def export(project_id: str, request: Request) -> Response:
    """The whole project as `projects export` writes it (JSON), to download."""
    with memory_of(request) as memory:
        bundle = memory.export_project(project_of(memory, project_id).id)
    return Response(
        bundle.model_dump_json(indent=2) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{bundle.project.id}.json"'},
    )
