"""Decisions by talking: "we decided X because Y", "what have we decided?", and the answer
to "save these decisions?" after a design answer proposed some.

A decision is stored in the project (with its rationale and, when it came from
an answer, the turn) and in process memory, as `design-agent decisions add`
and a confirmed proposal both do.
"""

from __future__ import annotations

import re

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.actions.inputs import ListDecisions, RecordDecision
from design_agent.actions.tree import current_node
from design_agent.core.events import ActionDone
from design_agent.memory.models import Decision, DecisionCounts, ListedDecision, Project
from design_agent.understanding.conversation import (
    CompareChoice,
    DecisionChange,
    DecisionProposal,
    ProposedDecision,
)
from design_agent.understanding.language import NO, YES, fold, phrase_list, reply_of

LIST_LIMIT = 20
# One answer may propose this many decisions; the rest are shown, not asked about.
MAX_PROPOSED = 5
ALL = phrase_list("all, all of them, both, todas, todos, ambas, ambos, las dos, los dos")
# "1", "1 and 3", "1 y 3", "1, 3", "2 & 3"
NUMBERS = re.compile(r"\d{1,2}(?:\s*(?:,|&|\+|\band\b|\by\b|\be\b)?\s*\d{1,2})*")


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
        where=where_label(d, ctx) if forked else "",
        decision=d.decision,
        rationale=d.rationale or "-",
    )


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
    reply: str, pending: DecisionProposal, ctx: ActionContext
) -> ActionResult | None:
    """yes/all: store every proposed decision; no: drop them; "1 and 3": store those."""
    word = reply_of(reply)
    if word in NO:
        return ActionResult(ctx.done("decisions.record", "decisions_dropped"))
    chosen = chosen_decisions(word, pending.decisions)
    if chosen is None:
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


def chosen_decisions(word: str, proposed: list[ProposedDecision]) -> list[ProposedDecision] | None:
    """The decisions a (folded) reply picks, or None when it picks none of them."""
    if word in YES or word in ALL:
        return list(proposed)
    if not NUMBERS.fullmatch(word):
        return None
    numbers = [int(n) for n in re.findall(r"\d+", word)]
    if not all(1 <= n <= len(proposed) for n in numbers):
        return None
    return [proposed[n - 1] for n in dict.fromkeys(numbers)]


def _context(ctx: ActionContext, project: Project, task_id: str | None) -> str:
    task = ctx.services.catalogue.tasks.get(task_id or "")
    return project.name if task is None else f"{project.name}: {task.name.en}"


# -- the choice after /compare ----------------------------------------------------------------

_BECAUSE = re.compile(r"\b(?:because|since|as|porque|ya que|pues)\b", re.IGNORECASE)


@answers("compare_choice")
def answer_compare(reply: str, pending: CompareChoice, ctx: ActionContext) -> ActionResult | None:
    """ "2 because it covers recruiting", "la de gemini porque...": that answer is kept, the
    conversation goes on from it, and the choice is a decision with the reason given."""
    picked = _picked(reply, pending)
    if picked is None:
        return None
    project = ctx.require_project()
    provider, turn = pending.providers[picked], pending.answers[picked]
    reason = _BECAUSE.split(reply, maxsplit=1)
    rationale = reason[1].strip(" .,:;") if len(reason) == 2 else ""
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


def _picked(reply: str, pending: CompareChoice) -> int | None:
    """The index of the answer a reply keeps: its number, or its provider's name."""
    head = _BECAUSE.split(reply, maxsplit=1)[0]
    numbers = re.findall(r"\b([12])\b", head)
    if len(set(numbers)) == 1:
        return int(numbers[0]) - 1
    named = [i for i, p in enumerate(pending.providers) if p in fold(head)]
    return named[0] if len(named) == 1 else None
