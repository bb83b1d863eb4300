"""/api/v1 memory: history, tree, search, decisions and files of the projects.

Each answer is what the matching `--json` command prints, under one key.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from starlette.requests import ClientDisconnect

from design_agent.core.numbers import MAX_NUMBER
from design_agent.memory.models import FILE_TYPES
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import (
    check_project_id,
    context_of,
    jsonable,
    memory_of,
    person_of,
    project_of,
)
from design_agent.server.uploads import Upload, receive, upload_folder

router = APIRouter(prefix="/api/v1", tags=["memory"])

MAX_HISTORY = 500
DecisionId = Annotated[int, PathParam(ge=1, le=MAX_NUMBER)]


class DecisionBody(BaseModel):
    decision: str = Field(min_length=1, max_length=5000)
    rationale: str = Field(default="", max_length=20000)


@router.get("/projects/{project_id}/history")
def history(project_id: str, request: Request, limit: int = 20, lang: str = "en") -> dict[str, Any]:
    """The project's latest turns, oldest first (as `history --json`), each answer with its
    method's name and persona's role in `lang`, for the page's footers."""
    limit = max(1, min(limit, MAX_HISTORY))
    context = context_of(request)
    with memory_of(request) as memory:
        turns = memory.recent_turns(project_of(memory, project_id).id, limit)
    rows = jsonable(turns)
    catalogue = context.catalogue()
    for row in rows:
        task, agent = catalogue.tasks.get(row.get("task_id") or ""), None
        if row.get("agent_id"):
            agent = catalogue.agents.get(row["agent_id"])
        row["task_name"] = task.name.get(lang) if task else None
        row["agent_role"] = agent.role.get(lang) if agent else None
    return {"turns": rows}


@router.get("/projects/{project_id}/tree")
def tree(project_id: str, request: Request) -> dict[str, Any]:
    """The conversation tree, numbered, with the current turn (as `history --tree --json`)."""
    from design_agent.actions import ActionContext
    from design_agent.actions.tree import show
    from design_agent.understanding.conversation import load_state

    services = context_of(request).services(person_of(request))
    try:
        project = project_of(services.memory, project_id)
        state = load_state(services.memory, project.id)
        language = str(state.language or services.settings.values.language)
        action = ActionContext(services, "es" if language == "es" else "en", project, state)
        done = show(None, action).shown()
    finally:
        services.memory.close()
    found = done.data or {"tree": {"nodes": []}, "current": None}
    return {**found, "text": done.message}  # as `history --tree` prints it


@router.get("/search")
def search(
    request: Request, q: str, project: str | None = None, all: int = 0, limit: int = 20
) -> dict[str, Any]:
    """Turns, files and decisions matching `q`, in one project or (all=1) in all of them."""
    if not q.strip():
        raise ApiError(400, "bad_request", "give something to search for: ?q=TEXT")
    if bool(all) == (project is not None):
        raise ApiError(400, "bad_request", "search one project (?project=ID) or all (?all=1)")
    limit = max(1, min(limit, 200))
    with memory_of(request) as memory:
        if all:
            results = memory.search(q, all_projects=True, limit=limit)
        else:
            results = memory.search(q, project_of(memory, str(project)).id, limit=limit)
        found: dict[str, Any] = jsonable(results)
        _number_turns(memory, found)
    return {"results": found}


def _number_turns(memory: Any, results: dict[str, Any]) -> None:
    """A turn hit gets its number (as /tree shows it), so the page can open that turn."""
    for group in results.get("groups") or []:
        for hit in group.get("hits") or []:
            if hit.get("kind") == "turn":
                hit["number"] = memory.turn_number(int(hit["id"]))


class DecisionEditBody(BaseModel):
    decision: str = Field(min_length=1, max_length=5000)
    rationale: str | None = Field(default=None, max_length=20000)  # None: the old one's


class DecisionRetireBody(BaseModel):
    rationale: str = Field(default="", max_length=20000)


@router.get("/projects/{project_id}/decisions")
def list_decisions(
    project_id: str,
    request: Request,
    all_branches: int = 0,
    history: int = 0,
    q: str | None = None,
) -> dict[str, Any]:
    """The current decisions on the branch the conversation is on (all_branches=1: every
    branch's; history=1: replaced and retired ones too), newest first, each with its turn
    and branch; `counts` says what the listing leaves out (as `decisions list --json`).
    With `q`: the decisions matching it, best first (as `decisions search --json`)."""
    from design_agent.understanding.conversation import conversation_node

    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        if q is not None:
            found_by = memory.search_decisions(project.id, q[:1000], limit=20)
            return {"decisions": [jsonable(hit.item) for hit in found_by]}
        node = None if all_branches else conversation_node(memory, project.id)
        found = (
            memory.decisions_on_path(node, history=bool(history))
            if node is not None
            else memory.list_decisions(project.id, history=bool(history))
        )
        items = memory.place_decisions(found)
        counts = memory.decision_counts(project.id, node)
    return {"decisions": jsonable(items), "counts": jsonable(counts)}


@router.patch("/projects/{project_id}/decisions/{decision_id}")
def edit_decision(
    project_id: str, decision_id: DecisionId, body: DecisionEditBody, request: Request
) -> dict[str, Any]:
    """A new version of a current decision, replacing it (as `decisions edit --json`):
    `{decision, replaced}`; unknown id 404, already replaced or retired 409."""
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        old = memory.get_decision(decision_id, project.id)
        new = memory.supersede_decision(old.id, body.decision, body.rationale)
        replaced = memory.get_decision(old.id)
    return {"decision": jsonable(new), "replaced": jsonable(replaced)}


@router.post("/projects/{project_id}/decisions/{decision_id}/retire")
def retire_decision(
    project_id: str,
    decision_id: DecisionId,
    request: Request,
    body: DecisionRetireBody | None = None,
) -> dict[str, Any]:
    """Retire a current decision, kept in the history (as `decisions retire --json`):
    `{decision}`; unknown id 404, already replaced or retired 409."""
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        old = memory.get_decision(decision_id, project.id)
        retired = memory.retire_decision(old.id, body.rationale if body else "")
    return {"decision": jsonable(retired)}


@router.post("/projects/{project_id}/decisions", status_code=201)
def add_decision(project_id: str, body: DecisionBody, request: Request) -> dict[str, Any]:
    """Record a decision and why (as `decisions add`)."""
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        recorded = memory.add_decision(project.id, body.decision, body.rationale)
    return jsonable(recorded)  # type: ignore[no-any-return]


@router.get("/projects/{project_id}/files")
def list_files(project_id: str, request: Request) -> dict[str, Any]:
    """The files added to the project, without their text."""
    with memory_of(request) as memory:
        items = memory.list_files(project_of(memory, project_id).id)
    return {"files": jsonable(items)}


@router.post("/projects/{project_id}/files", status_code=201)
async def upload_file(project_id: str, request: Request) -> dict[str, Any]:
    """Add an uploaded brief (text, markdown or PDF) to the project: multipart fields
    `file` and `type` (default brief); 413 as soon as the file passes the limit."""
    from starlette.concurrency import run_in_threadpool

    async with _received_upload(project_id, request) as (context, person, upload):
        file_type = upload.fields.get("type", "brief")
        if file_type not in FILE_TYPES:
            raise ApiError(422, "invalid", f"type must be one of: {', '.join(FILE_TYPES)}")
        path = _uploaded_path(upload)
        return await run_in_threadpool(_add_file, context, person, project_id, path, file_type)


@router.post("/projects/{project_id}/evidence", status_code=201)
async def upload_evidence(project_id: str, request: Request) -> dict[str, Any]:
    """Add an uploaded research file (a transcript, notes, a survey export, a reviews CSV)
    as an evidence session: multipart fields `file`, optional `moderator`, `map`
    (text=COLUMN,...) and `notes` (yes: a transcript without speaker labels is one
    participant's notes); 400 with one line when it cannot be read, nothing stored; 409
    `needs_answer` with the `question` (ask, source, options) when one thing said makes it
    readable, as a conversation asks it (the page asks, then sends the file again)."""
    from starlette.concurrency import run_in_threadpool

    async with _received_upload(project_id, request) as (context, person, upload):
        path = _uploaded_path(upload)
        given = _EvidenceFields(
            moderator=upload.fields.get("moderator"),
            mapping=upload.fields.get("map"),
            notes=upload.fields.get("notes", "").strip().lower() in ("yes", "true", "1"),
        )
        return await run_in_threadpool(_add_evidence, context, person, project_id, path, given)


@asynccontextmanager
async def _received_upload(
    project_id: str, request: Request
) -> AsyncIterator[tuple[Any, Any, Any]]:
    """The request's multipart upload, received into a temporary folder removed afterwards:
    a viewer is refused before its bytes are read, and 413 comes as soon as the file
    passes the limit."""
    from starlette.concurrency import run_in_threadpool

    context = context_of(request)
    check_project_id(project_id)
    person = person_of(request)
    if person is not None:
        await run_in_threadpool(_may_write, context, person, project_id)
    limit = context.upload_limit_mb * 1024 * 1024
    folder = upload_folder(context.home)
    try:
        try:
            content_type = request.headers.get("content-type", "")
            upload = await receive(request.stream(), content_type, folder, limit)
        except ClientDisconnect as e:  # nobody is left to read an answer
            raise ApiError(400, "bad_request", "the upload was cut off") from e
        yield context, person, upload
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _uploaded_path(upload: Upload) -> Path:
    if upload.path is None:
        raise ApiError(422, "invalid", "file: a file is required (multipart field 'file')")
    return upload.path


@router.get("/projects/{project_id}/evidence")
def list_evidence(project_id: str, request: Request) -> dict[str, Any]:
    """The project's evidence sessions (interviews, surveys, reviews)."""
    with memory_of(request) as memory:
        found = memory.evidence.sessions(project_of(memory, project_id).id)
    return {"sessions": jsonable(found)}


class _EvidenceFields(BaseModel):
    """What the page said of an uploaded research file (its questions answered)."""

    moderator: str | None = None
    mapping: str | None = None
    notes: bool = False


def _add_evidence(
    context: Any, person: Any, project_id: str, path: Path, given: _EvidenceFields
) -> dict[str, Any]:
    from design_agent.core.errors import EvidenceNeedsAnswer
    from design_agent.core.evidence import EvidenceAnswers
    from design_agent.evidence.ingest import add_evidence

    moderators = [given.moderator] if given.moderator else []
    answers = EvidenceAnswers(notes=[path.name] if given.notes else [])
    try:
        with context.memory(person) as memory:
            project = project_of(memory, project_id)
            added = add_evidence(memory, project.id, [path], moderators, given.mapping, answers)
    except EvidenceNeedsAnswer as e:
        question = {"ask": e.ask, "source": e.source, "options": e.options}
        message = " ".join(str(e).split())
        raise ApiError(409, "needs_answer", message, extra={"question": question}) from e
    data = jsonable(added[0])
    assert isinstance(data, dict)
    return data


def _may_write(context: Any, person: Any, project_id: str) -> None:
    with context.memory(person) as memory:
        memory.require(project_of(memory, project_id).id, "editor")


def _add_file(
    context: Any, person: Any, project_id: str, path: Path, file_type: str
) -> dict[str, Any]:
    with context.memory(person) as memory:
        added = memory.add_file(project_of(memory, project_id).id, path, file_type)
    data = jsonable(added)
    assert isinstance(data, dict)
    return data
