"""Decisions by talking: "we decided X because Y", "what have we decided?", and the answer
to "save these decisions?" after a design answer proposed some.

A decision is stored in the project (with its rationale and, when it came from
an answer, the turn) and in process memory, as `design-agent decisions add`
and a confirmed proposal both do.
"""

from __future__ import annotations

from datetime import UTC, datetime

from design_agent.actions.base import ActionContext, ActionResult, NoInput, action, answers
from design_agent.actions.inputs import RecordDecision
from design_agent.actions.tree import current_node
from design_agent.core.events import ActionDone
from design_agent.core.text import fold
from design_agent.memory.models import Decision, Project
from design_agent.understanding.conversation import (
    CompareChoice,
    DecisionProposal,
    Pending,
    ProposedDecision,
)
from design_agent.understanding.replies import Reply, named_option, reason_in

LIST_LIMIT = 20
# One answer may propose this many decisions; the rest are shown, not asked about.
MAX_PROPOSED = 5


def store(
    ctx: ActionContext,
    project: Project,
    decision: str,
    rationale: str,
    turn_id: int | None = None,
    context: str | None = None,
) -> Decision:
    """Record one decision in the project and in process memory, at the turn it belongs to
    (the answer that proposed it, or where the conversation is): only that turn's branch
    has it "so far"."""
    memory = ctx.services.memory
    node = turn_id if turn_id is not None else current_node(ctx)
    with memory.transaction():
        stored = memory.add_decision(project.id, decision, rationale, turn_id, node_id=node)
        memory.add_process_memory(
            context or project.name, decision, rationale, project_id=project.id
        )
    return stored


@action("decisions", "record", RecordDecision)
def record(data: RecordDecision, ctx: ActionContext) -> ActionResult:
    """Record what the user says was decided, and why."""
    project = ctx.require_project()
    stored = store(ctx, project, data.decision.strip(), data.rationale.strip())
    done = ctx.done(
        "decisions.record",
        "decision_recorded",
        {"decision": stored.model_dump(mode="json")},
        name=project.name,
        decision=stored.decision,
        rationale=stored.rationale or "-",
    )
    return ActionResult(done)


@action("decisions", "list", NoInput)
def list_decisions(data: NoInput, ctx: ActionContext) -> ActionResult:
    """The project's decisions, newest first."""
    project = ctx.require_project()
    memory, node = ctx.services.memory, current_node(ctx)
    found = (
        memory.decisions_on_path(node, LIST_LIMIT)
        if node is not None
        else memory.list_decisions(project.id, LIST_LIMIT)
    )
    if not found:
        return ActionResult(ctx.done("decisions.list", "decisions_none", name=project.name))
    lines = "\n".join(
        ctx.say(
            "decision_line",
            date=d.timestamp.date().isoformat(),
            decision=d.decision,
            rationale=d.rationale or "-",
        )
        for d in found
    )
    out = {"decisions": [d.model_dump(mode="json") for d in found]}
    return ActionResult(
        ctx.done("decisions.list", "decisions", out, name=project.name, lines=lines)
    )


def propose(
    proposed: list[tuple[str, str]], turn_id: int, task_id: str, ctx: ActionContext
) -> ActionResult | None:
    """Decisions a model wrote in its answer, as one question; nothing is stored until 'yes'.

    At most MAX_PROPOSED are asked about; ones the project already keeps ("make it
    shorter" repeats the answer's tags) are not asked again."""
    project = ctx.require_project()
    kept_already = {
        fold(d.decision).strip() for d in ctx.services.memory.list_decisions(project.id)
    }
    fresh = [
        ProposedDecision(decision=decision[:500].strip(), rationale=rationale[:2000].strip())
        for decision, rationale in proposed
        if decision.strip() and fold(decision[:500]).strip() not in kept_already
    ][:MAX_PROPOSED]
    if not fresh:
        return None
    lines = "\n".join(
        f"  {i}. {d.decision}" + (f" ({d.rationale})" if d.rationale else "")
        for i, d in enumerate(fresh, 1)
    )
    question = ctx.say("propose_decisions", lines=lines)
    pending = DecisionProposal(
        decisions=fresh,
        turn_id=turn_id,
        task_id=task_id,
        language=ctx.language,  # type: ignore[arg-type]
        question=question,
    )
    done = ActionDone(
        action="decisions.propose",
        message=question,
        data={"proposed": [d.model_dump() for d in fresh]},
        needs_confirmation=True,
        asks=question,
    )
    return ActionResult(done, pending)


@answers("decision_proposal")
def answer_proposal(
    message: str, reply: Reply | None, pending: DecisionProposal, ctx: ActionContext
) -> ActionResult | None:
    """ "yes" / "both": store every proposed decision; "no" / "none": drop them; "keep the
    second one", "1 and 3", "todas menos la última": store those."""
    if reply is None:
        return None
    if reply.kind in ("no", "none", "skip", "cancel"):
        return ActionResult(ctx.done("decisions.record", "decisions_dropped"))
    if reply.out_of_range and not reply.picks:
        return out_of_range(reply, pending, ctx)
    chosen = [pending.decisions[n - 1] for n in reply.chosen(len(pending.decisions))]
    if not chosen:
        return None
    project = ctx.require_project()
    context = _context(ctx, project, pending.task_id)
    stored = [
        store(ctx, project, d.decision, d.rationale, pending.turn_id, context) for d in chosen
    ]
    done = ctx.done(
        "decisions.record",
        "decisions_saved",
        {"decisions": [d.model_dump(mode="json") for d in stored]},
        count=len(stored),
        lines="\n".join(f"- {d.decision}" for d in stored),
    )
    return ActionResult(done)


def out_of_range(reply: Reply, pending: Pending, ctx: ActionContext) -> ActionResult:
    """ "The third one" of two: say how many there are and ask the same question again."""
    count = pending.choices or 0
    number = reply.out_of_range[0]
    message = ctx.say("reply_out_of_range", number=number, count=count)
    again = pending.model_copy(update={"asked_at": datetime.now(UTC)})
    done = ActionDone(
        action="conversation.reask",
        message=f"{message}\n{pending.question}".strip(),
        asks=pending.question,
    )
    return ActionResult(done, again)


def _context(ctx: ActionContext, project: Project, task_id: str | None) -> str:
    task = ctx.services.catalogue.tasks.get(task_id or "")
    return project.name if task is None else f"{project.name}: {task.name.en}"


# -- the choice after /compare ----------------------------------------------------------------


@answers("compare_choice")
def answer_compare(
    message: str, reply: Reply | None, pending: CompareChoice, ctx: ActionContext
) -> ActionResult | None:
    """ "2 because it covers recruiting", "la de gemini porque...": that answer is kept, the
    conversation goes on from it, and the choice is a decision with the reason given."""
    picked = _picked(message, reply, pending)
    if picked is None:
        return None
    project = ctx.require_project()
    provider, turn = pending.providers[picked], pending.answers[picked]
    rationale = reply.reason if reply is not None else reason_in(message)
    decision = ctx.say("compare_decision", provider=provider, task=pending.task_name)
    stored = store(ctx, project, decision, rationale, turn_id=turn)
    recorded = ctx.say(
        "decision_recorded",
        name=project.name,
        decision=stored.decision,
        rationale=stored.rationale or "-",
    )
    out = {"kept": turn, "provider": provider, "decision": stored.model_dump(mode="json")}
    done = ctx.done(
        "conversation.compare", "compare_kept", out, provider=provider, recorded=recorded
    )
    return ActionResult(done, node=turn)


def _picked(message: str, reply: Reply | None, pending: CompareChoice) -> int | None:
    """The index of the answer a reply keeps: by its number, or its provider's name."""
    if reply is not None and len(reply.picks) == 1:
        return reply.picks[0] - 1
    named = named_option(message, pending.providers)
    return named - 1 if named is not None else None
