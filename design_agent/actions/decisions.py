"""Decisions by talking: "we decided X because Y", "what have we decided?", and the answer
to "save these decisions?" after a design answer proposed some.

A decision is stored in the project (with its rationale and, when it came from
an answer, the turn) and in process memory, as `design-agent decisions add`
and a confirmed proposal both do.
"""

from __future__ import annotations

from datetime import UTC, datetime

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.actions.tree import current_node
from design_agent.core.events import ActionDone
from design_agent.core.text import fold
from design_agent.memory import Memory
from design_agent.memory.models import Decision, DecisionCounts, ListedDecision, Project
from design_agent.understanding.conversation import (
    CompareChoice,
    DecisionChange,
    DecisionProposal,
    Pending,
    ProposedDecision,
)
from design_agent.understanding.inputs import ListDecisions, RecordDecision
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
    node = turn_id if turn_id is not None else current_node(ctx)
    memory = ctx.services.memory
    return record_decision(memory, project, decision, rationale, node, turn_id, context)


def record_decision(
    memory: Memory,
    project: Project,
    decision: str,
    rationale: str,
    node: int | None,
    turn_id: int | None = None,
    context: str | None = None,
) -> Decision:
    """Record one decision at `node` of the conversation tree (None: on every path), with
    the same entry in process memory, in one transaction: what the shell does when the user
    says it, and the MCP tool `record_decision` too. Idempotent: a decision the project
    keeps already (the same words, any case or accents), on this path, is that one, not a
    second copy."""
    kept = _kept(memory.decisions_on_path(node) if node else memory.list_decisions(project.id))
    same = kept.get(fold(decision).strip())
    if same is not None:
        return same
    with memory.transaction():
        stored = memory.add_decision(project.id, decision, rationale, turn_id, node_id=node)
        memory.add_process_memory(
            context or project.name, decision, rationale, project_id=project.id
        )
    return stored


def _kept(decisions: list[Decision]) -> dict[str, Decision]:
    """The current decisions by their folded words."""
    return {fold(d.decision).strip(): d for d in decisions if d.status == "current"}


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


@action("decisions", "list", ListDecisions)
def list_decisions(data: ListDecisions, ctx: ActionContext) -> ActionResult:
    """The current decisions on this branch (or every branch's), newest first, with what
    the listing leaves out: the ones replaced or retired, and other branches' decisions."""
    project = ctx.require_project()
    memory, node = ctx.services.memory, current_node(ctx)
    everywhere = data.all_branches or node is None
    found = (
        memory.list_decisions(project.id, LIST_LIMIT)
        if everywhere
        else memory.decisions_on_path(node or 0, LIST_LIMIT)
    )
    counts = memory.decision_counts(project.id, None if everywhere else node)
    placed = memory.place_decisions(found)
    out = {
        "decisions": [d.model_dump(mode="json") for d in placed],
        "counts": counts.model_dump(),
        "all_branches": everywhere,
    }
    notes = _notes(counts, ctx, elsewhere=bool(placed))
    if not placed:
        key = _none_key(counts)
        done = ctx.done("decisions.list", key, out, name=project.name, count=counts.elsewhere)
        return _still_asking(_noted(done, notes), ctx)
    forked = data.all_branches or len(memory.branches(project.id)) > 1
    lines = "\n".join(decision_line(d, forked, ctx) for d in placed)
    key = "decisions_all" if data.all_branches else "decisions"
    done = ctx.done("decisions.list", key, out, name=project.name, lines=lines)
    return _still_asking(_noted(done, notes), ctx)


def _still_asking(done: ActionDone, ctx: ActionContext) -> ActionResult:
    """The listing; a question about changing a decision stays open, put once more: the
    list is what one looks at to answer it."""
    pending = ctx.state.live_pending()
    if not isinstance(pending, DecisionChange) or pending.reasked:
        return ActionResult(done)
    message = f"{done.message}\n{pending.question}"
    asked = done.model_copy(update={"message": message, "asks": pending.question})
    return ActionResult(asked, pending.model_copy(update={"reasked": True}))


def decision_line(d: ListedDecision, forked: bool, ctx: ActionContext) -> str:
    """One decision of a listing; where it was made when the conversation has branches."""
    return ctx.say(
        "decision_line",
        date=d.timestamp.date().isoformat(),
        by=by_label(d.author, ctx),
        where=where_label(d, ctx) if forked else "",
        decision=d.decision,
        rationale=d.rationale or "-",
    )


def by_label(author: str | None, ctx: ActionContext) -> str:
    """ " by Ana" for what a person of a team made; "" in a one-person home."""
    return ctx.say("by_person", name=author) if author else ""


def where_label(d: ListedDecision, ctx: ActionContext) -> str:
    """ " (turn 7, branch 'remote')", or "" for a decision made on every path."""
    if d.turn is None or d.branch is None:
        return ""
    if d.branch.name is None:
        return ctx.say("branch_label_unnamed", number=d.turn)
    return ctx.say("branch_label", number=d.turn, name=d.branch.name)


def _none_key(counts: DecisionCounts) -> str:
    if counts.elsewhere:
        return "decisions_none_here"
    return "decisions_none_current" if counts.superseded or counts.retired else "decisions_none"


def _notes(counts: DecisionCounts, ctx: ActionContext, elsewhere: bool) -> list[str]:
    """What a listing leaves out; the other branches' count unless the reply says it."""
    notes = []
    if counts.superseded or counts.retired:
        notes.append(
            ctx.say("decisions_changed_note", superseded=counts.superseded, retired=counts.retired)
        )
    if counts.elsewhere and elsewhere:
        notes.append(ctx.say("decisions_elsewhere_note", count=counts.elsewhere))
    return notes


def _noted(done: ActionDone, notes: list[str]) -> ActionDone:
    if not notes:
        return done
    return done.model_copy(update={"message": "\n".join([done.message, *notes])})


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
