"""/api/v1 turns: start one on a project, follow its events (SSE), look at it, cancel it."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from design_agent.core.errors import ExitCode
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import check_turn_id, context_of, memory_of, person_of, project_of
from design_agent.server.sse import parse_after, sse_events
from design_agent.server.turns import FollowedTurn, ProjectBusy, TurnNotFound

router = APIRouter(prefix="/api/v1", tags=["turns"])

MAX_MESSAGE_CHARS = 100_000


class TurnBody(BaseModel):
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    provider: str | None = Field(default=None, max_length=100)
    tier: Literal["fast", "deep"] | None = None
    start: str | None = Field(default=None, max_length=200)


@router.post("/projects/{project_id}/turns", status_code=202, response_model=None)
def start_turn(project_id: str, body: TurnBody, request: Request) -> dict[str, Any] | JSONResponse:
    """Start a turn on the project; its events stream from `events_url`. 409 when the
    project already has one running (no queue: reattach to `running_turn_id`)."""
    from design_agent.turn.types import TurnRequest

    context = context_of(request)
    message = body.message.strip()
    if not message:
        raise ApiError(400, "bad_request", "the message is empty")
    with memory_of(request) as memory:
        project = project_of(memory, project_id)
        memory.require(project.id, "editor")  # a viewer reads; talking is an editor's
    if body.provider:
        _check_provider(context.adapters(), body.provider)
    # The page's turns: a report asked for by talking is offered for download.
    turn = TurnRequest(message, project.name, body.provider, body.tier, body.start, downloads=True)
    try:
        record = context.turns.start(turn, project.id, person_of(request))
    except ProjectBusy as e:
        message = f"project '{project.name}' is busy with turn {e.running_turn_id}"
        error = ApiError(409, "project_busy", message, ExitCode.USAGE)
        return JSONResponse(error.body() | {"running_turn_id": e.running_turn_id}, 409)
    return {
        "turn_id": record.turn_id,
        "project_id": project.id,
        "events_url": f"/api/v1/turns/{record.turn_id}/events",
    }


@router.get("/turns/{turn_id}")
def get_turn(turn_id: str, request: Request) -> dict[str, Any]:
    """How the turn stands: running, complete, cancelled, failed or needs_answer."""
    return _record(request, turn_id).summary()


@router.get("/turns/{turn_id}/events", response_model=None)
def turn_events(
    turn_id: str,
    request: Request,
    after: int | None = None,
    last_event_id: str | None = Header(default=None),
) -> StreamingResponse:
    """The turn's events as server-sent events, from after seq N (`Last-Event-ID` or
    `?after=N`) to the `end` event."""
    record = _record(request, turn_id)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    stream = sse_events(record, parse_after(last_event_id, after))
    return StreamingResponse(stream, media_type="text/event-stream", headers=headers)


@router.post("/turns/{turn_id}/cancel", status_code=202)
def cancel_turn(turn_id: str, request: Request) -> dict[str, Any]:
    """Cancel this turn only: its provider stops, the partial answer is saved as cancelled."""
    record = _record(request, turn_id, "editor")
    record.cancel()
    return {"turn_id": record.turn_id, "status": record.status}


def _record(request: Request, turn_id: str, needed: str = "viewer") -> FollowedTurn:
    """The turn, if the person may see its project (and do `needed` there); 404 if not."""
    message = f"no turn '{turn_id}' (finished turns are kept 30 minutes)"
    try:
        record = context_of(request).turns.get(check_turn_id(turn_id))
    except TurnNotFound as e:
        raise ApiError(404, "not_found", message, ExitCode.NOT_FOUND) from e
    if person_of(request) is not None:
        with memory_of(request) as memory:
            if memory.role_in(record.project_id) is None:  # not theirs: as if none
                raise ApiError(404, "not_found", message, ExitCode.NOT_FOUND)
            memory.require(record.project_id, needed)
    return record


def _check_provider(adapters: dict[str, Any], name: str) -> None:
    from design_agent.providers.resolve import check_provider_name

    check_provider_name(name, adapters)
