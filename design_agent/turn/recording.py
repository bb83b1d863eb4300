"""Recording turns: the user's message before the provider runs, the answer after it.

Whatever happens to the answer (complete, failed, cancelled), both turns are
saved, with the task, persona, provider, model, tier, tokens, cost and the
checklist (which says `truncated` when the answer was cut at its size
limit). Decisions the model proposed are not stored here: they wait for
the user's confirmation in the conversation state.

Everything else said is part of the record too: a meta-request ("we decided X",
"what have we decided?", creating a project, an interview's answer) and its
reply, or a question design-agent asked instead of answering, are saved as an
exchange, two turns whose `validation` is `{"exchange": KIND}` (the action's
name, or "choice" with its options), so that history, the tree and the report
tell them from design answers (`exchange_kind`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from design_agent.memory.models import ProjectState, Proposal, StateDecision
from design_agent.memory.usage import TurnFigures, record_figures
from design_agent.turn.grounding import PRIVATE_METADATA
from design_agent.understanding.conversation import CompareChoice

if TYPE_CHECKING:
    from design_agent.actions.base import ActionResult
    from design_agent.core.checklist import Validation
    from design_agent.core.events import ActionDone
    from design_agent.core.models import Agent, Task
    from design_agent.memory import Memory
    from design_agent.memory.models import Project
    from design_agent.providers.events import Tier
    from design_agent.turn.answer_stream import AnswerStream
    from design_agent.turn.types import TurnState


EXCHANGE = "exchange"


def save_exchange(
    memory: Memory,
    project: Project,
    message: str,
    reply: str,
    after: int | None = None,
    kind: str = "reply",
    extra: dict[str, Any] | None = None,
) -> tuple[int, int]:
    """A message and design-agent's reply (a question, an action's answer), saved together,
    after turn `after` (None: the project's latest), both marked as an exchange of `kind`
    (`extra` is kept with the reply: a choice's options)."""
    marker = {EXCHANGE: kind}
    with memory.transaction():
        user = memory.add_turn(project.id, "user", message, parent_id=after, validation=marker)
        agent = memory.add_turn(
            project.id, "agent", reply, parent_id=user.id, validation={**marker, **(extra or {})}
        )
    return user.id, agent.id


def exchange_kind(validation: dict[str, Any] | None) -> str | None:
    """The kind of exchange a turn belongs to (None: a design request or its answer)."""
    kind = (validation or {}).get(EXCHANGE)
    return str(kind) if kind else None


def save_request(
    memory: Memory,
    project: Project,
    message: str,
    task: Task,
    agent: Agent,
    provider: str,
    after: int | None = None,
) -> int:
    """The user's design request, saved before the provider is called (nothing is lost),
    after turn `after` (None: the project's latest)."""
    turn = memory.add_turn(
        project.id,
        "user",
        message,
        task_id=task.id,
        agent_id=agent.id,
        provider=provider,
        parent_id=after,
    )
    return turn.id


def save_answer(
    memory: Memory,
    project: Project,
    task: Task,
    agent: Agent,
    stream: AnswerStream,
    validation: Validation,
    parent_id: int | None,
    tier: Tier,
    tier_reason: str,
    keyframe_every: int = 50,
    request: str | None = None,
    band: tuple[str, str] | None = None,
    language: str | None = None,
) -> int:
    """The answer as it ended (complete, failed or cancelled), with usage and checklist,
    and the project state at it (one transaction: the turn and its snapshot, or neither).
    `request`: the design request it answers, when the message saved before it says
    something else ("2" picking a method, "make it shorter"), for the report; `band`: how
    sure the method was (HIGH, MEDIUM, LOW) and why it was chosen, for the page's footer;
    `language`: the one the answer was asked in (it indexes the answer; None: told from
    its text)."""
    usage = stream.usage
    tokens = None
    if usage and (usage.input_tokens is not None or usage.output_tokens is not None):
        tokens = (usage.input_tokens or 0) + (usage.output_tokens or 0)
    checklist = {
        **validation.model_dump(),
        "score": validation.score,
        "tier_reason": tier_reason,
        "truncated": stream.truncated,  # cut at the answer limit (providers/run.py)
    }
    if request:
        checklist["request"] = request
    if band:
        checklist["band"], checklist["reason"] = band
    turn = memory.add_turn(
        project.id,
        "agent",
        stream.text,
        task_id=task.id,
        agent_id=agent.id,
        provider=stream.provider,
        model=stream.model,
        status=stream.status,
        tokens=tokens,
        cost=usage.cost_usd if usage else None,
        validation=checklist,
        parent_id=parent_id,
        tier=tier,
        state=project_state(memory, project, task, parent_id, stream),
        keyframe_every=keyframe_every,
        language=language,
    )
    record_figures(memory.db, turn.id, _figures(stream))  # usage.py: tokens in/out, timings
    return turn.id


def _figures(stream: AnswerStream) -> TurnFigures:
    """Tokens in and out and the timings of an answer, as its provider reported them."""
    usage, done = stream.usage, stream.done
    first = stream.first_token_seconds
    return TurnFigures(
        tokens_in=usage.input_tokens if usage else None,
        tokens_out=usage.output_tokens if usage else None,
        first_token_ms=round(first * 1000) if first is not None else None,
        total_ms=round(done.seconds * 1000) if done is not None else None,
    )


def project_state(
    memory: Memory, project: Project, task: Task, parent_id: int | None, stream: AnswerStream
) -> ProjectState:
    """What the conversation has built at this answer: the decisions so far on its path,
    the method, the project's facts and the decisions it proposes (not yet kept)."""
    so_far = memory.decisions_on_path(parent_id) if parent_id is not None else []
    facts = {k: v for k, v in memory.metadata(project.id).items() if k not in PRIVATE_METADATA}
    proposed = stream.decisions if stream.status == "complete" else []
    return ProjectState(
        decisions=[
            StateDecision(id=d.id, decision=d.decision, rationale=d.rationale) for d in so_far
        ],
        task_id=task.id,
        metadata=facts,
        pending=[Proposal(decision=d.decision, rationale=d.rationale) for d in proposed],
    )


# Not part of the conversation: moving in the tree (the tree itself shows it), deleting a
# project (its question would change the counts it asks about), and the question after
# /compare (its two answers are the record).
NOT_RECORDED = ("tree.", "projects.delete")
# Replies whose data the page needs again after a reload (a report's download link).
KEEP_DATA = frozenset({"projects.report"})


def record_exchange(
    memory: Memory, turn: TurnState, result: ActionResult, said: list[ActionDone]
) -> int | None:
    """A meta-request and its reply (with any question put again after it), saved as an
    exchange where the conversation is; the reply's turn id, or None when not recorded."""
    done, project = result.done, turn.project
    if done is None or project is None or done.action.startswith(NOT_RECORDED):
        return None
    if isinstance(result.pending, CompareChoice):
        return None
    reply = "\n\n".join(m for m in [done.message, *(d.message for d in said)] if m)
    extra: dict[str, Any] = {"data": done.data} if done.action in KEEP_DATA else {}
    asks = next((d.asks for d in [done, *said] if d.asks), None) or (
        done.message if done.needs_confirmation else None
    )
    if asks:
        extra["asks"] = asks
    node = turn.conversation.node
    _, agent = save_exchange(
        memory, project, turn.request.message, reply, node, kind=done.action, extra=extra
    )
    if node is not None:  # a conversation moved by /goto or /fork follows its own branch
        turn.conversation.node = agent
    return agent
