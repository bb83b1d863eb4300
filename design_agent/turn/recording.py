"""Recording turns: the user's message before the provider runs, the answer after it.

Whatever happens to the answer (complete, failed, cancelled), both turns are
saved, with the task, persona, provider, model, tier, tokens, cost and the
checklist (which says `truncated` when the answer was cut at its size
limit). Decisions the model proposed are not stored here: they wait for
the user's confirmation in the conversation state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from design_agent.memory.models import ProjectState, Proposal, StateDecision
from design_agent.memory.usage import TurnFigures, record_figures
from design_agent.turn.grounding import PRIVATE_METADATA

if TYPE_CHECKING:
    from design_agent.core.checklist import Validation
    from design_agent.core.models import Agent, Task
    from design_agent.memory import Memory
    from design_agent.memory.models import Project
    from design_agent.providers.events import Tier
    from design_agent.turn.answer_stream import AnswerStream


def save_exchange(
    memory: Memory, project: Project, message: str, reply: str, after: int | None = None
) -> tuple[int, int]:
    """A message and design-agent's reply (a question, an action's answer), saved together,
    after turn `after` (None: the project's latest)."""
    with memory.transaction():
        user = memory.add_turn(project.id, "user", message, parent_id=after)
        agent = memory.add_turn(project.id, "agent", reply, parent_id=user.id)
    return user.id, agent.id


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
) -> int:
    """The answer as it ended (complete, failed or cancelled), with usage and checklist,
    and the project state at it (one transaction: the turn and its snapshot, or neither)."""
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
