"""/api/v1 the conversation as the page shows it: the path it is on, and moving in its tree.

`GET /projects/{id}/conversation` is the path from the first turn to the one the
conversation continues from (as the prompt sees it), each turn with its number (as
`/tree` numbers it), the exchange it belongs to (a meta-request and its reply) and the
other turns beside it (a request edited and sent again, an answer retried with another
provider), with the latest turn each of those leads to; the question still open; and
the answer a retry or a comparison would redo (the last one answered).
`POST .../goto` and `POST .../fork` are the shell's /goto and /fork.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from design_agent.memory import Memory
from design_agent.memory.models import Turn
from design_agent.server.deps import context_of, jsonable, person_of, project_of

router = APIRouter(prefix="/api/v1", tags=["conversation"])
MAX_PATH = 500


class GotoBody(BaseModel):
    target: str = Field(min_length=1, max_length=80)


class ForkBody(BaseModel):
    turn: int | None = Field(default=None, ge=1)
    name: str | None = Field(default=None, min_length=1, max_length=80)


@router.get("/projects/{project_id}/conversation")
def conversation(
    project_id: str, request: Request, limit: int = 200, lang: str = "en"
) -> dict[str, Any]:
    """The path the conversation is on (its last `limit` turns), and the open question."""
    from design_agent.understanding.conversation import conversation_node, load_state

    context = context_of(request)
    limit = max(1, min(limit, MAX_PATH))
    with context.memory(person_of(request)) as memory:
        project = project_of(memory, project_id)
        node = conversation_node(memory, project.id)
        path = memory.path_to(node, limit) if node is not None else []
        rows = [_row(memory, turn) for turn in path]
        conversation = load_state(memory, project.id)
        pending = conversation.live_pending()
    _name_methods(context.catalogue(), rows, lang)
    open_question = None
    if pending is not None:
        open_question = {**pending.model_dump(mode="json"), "choices": pending.choices}
    # The answer "try that again with gemini" and "compare with codex" act on.
    last = conversation.last.agent_turn_id if conversation.last else None
    return {"turns": rows, "current": node, "pending": open_question, "last_answer": last}


def _row(memory: Memory, turn: Turn) -> dict[str, Any]:
    row: dict[str, Any] = jsonable(turn)
    row["number"] = memory.turn_number(turn.id)
    row["exchange"] = (turn.validation or {}).get("exchange")
    row["siblings"] = _siblings(memory, turn)
    return row


def _siblings(memory: Memory, turn: Turn) -> list[dict[str, int]]:
    """The turns of the same role beside this one (itself included), oldest first, each
    with the number of the latest turn its line leads to; [] when it has none."""
    if turn.parent_id is None:
        return []
    beside = [t for t in memory.children(turn.parent_id) if t.role == turn.role]
    if len(beside) < 2:
        return []
    return [
        {"id": t.id, "number": memory.turn_number(t.id), "tip": _tip(memory, t)} for t in beside
    ]


def _tip(memory: Memory, turn: Turn) -> int:
    """The number of the latest turn down the line `turn` starts (its newest child each time)."""
    current = turn
    for _ in range(MAX_PATH * 10):
        children = memory.children(current.id)
        if not children:
            break
        current = children[-1]
    return memory.turn_number(current.id)


def _name_methods(catalogue: Any, rows: list[dict[str, Any]], lang: str) -> None:
    """Each answer's method name and persona role in `lang`, for the page's footers."""
    for row in rows:
        task = catalogue.tasks.get(row.get("task_id") or "")
        agent = catalogue.agents.get(row.get("agent_id") or "")
        row["task_name"] = task.name.get(lang) if task else None
        row["agent_role"] = agent.role.get(lang) if agent else None


@router.post("/projects/{project_id}/goto")
def goto(project_id: str, body: GotoBody, request: Request) -> dict[str, Any]:
    """Continue from a turn (its number) or a branch's latest turn (its name), as /goto."""
    return _act(request, project_id, "goto", {"target": body.target})


@router.post("/projects/{project_id}/fork")
def fork(project_id: str, body: ForkBody, request: Request) -> dict[str, Any]:
    """A new branch from a turn (default: where the conversation is), as /fork."""
    given = {"turn": body.turn, "name": body.name}
    return _act(request, project_id, "fork", {k: v for k, v in given.items() if v is not None})


def _act(request: Request, project_id: str, method: str, data: dict[str, Any]) -> dict[str, Any]:
    """A tree action run exactly as the shell's slash command runs it, in that project."""
    from design_agent.turn.pipeline import Pipeline
    from design_agent.understanding.envelope import ActionEnvelope

    services = context_of(request).services(person_of(request))
    try:
        project = project_of(services.memory, project_id)
        services.memory.require(project.id, "editor")  # it moves the conversation for all
        services.memory.switch_project(project.id)
        envelope = ActionEnvelope(module="tree", method=method, input=data)
        events = list(Pipeline(services).act(envelope))
    finally:
        services.memory.close()
    done = next((e for e in events if getattr(e, "kind", "") == "action"), None)
    return {"message": done.message if done else "", "data": done.data if done else {}}
