"""Decisions that change by talking: "we changed our mind: Valencia goes first because the
port partners signed", "forget the Madrid decision", "borra la última decisión".

Nothing changes before the person says so: the question names the decision concerned
(yes / no) or, when it is not clear which one is meant, numbers the candidates (the
number / no). The change is made where the conversation is (tree.current_node), so a
branch that forked before it keeps the decision as it was; the old version stays in the
history, and "why did we ...?" says what the current one replaced.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.actions.decisions import out_of_range
from design_agent.actions.tree import current_node
from design_agent.core.events import ActionDone
from design_agent.core.text import words
from design_agent.memory.models import Decision, Project
from design_agent.understanding.conversation import DecisionChange
from design_agent.understanding.inputs import ReplaceDecision, RetireDecision
from design_agent.understanding.language import (
    DECISION_WORDS,
    STOP_WORDS_EN,
    STOP_WORDS_ES,
    is_content,
    stem,
)
from design_agent.understanding.replies import Reply

MAX_CANDIDATES = 5


@action("decisions", "supersede", ReplaceDecision)
def supersede(data: ReplaceDecision, ctx: ActionContext) -> ActionResult:
    """A new version of a decision: which one it replaces is asked, never guessed silently."""
    project = ctx.require_project()
    current = current_decisions(ctx, project)
    if not current:
        return _none_to_change(ctx, project)
    found, sure = candidates(current, data.target or data.decision, data.last)
    pending = DecisionChange(
        language=ctx.pending_language,
        change="supersede",
        candidates=[d.id for d in found],
        decision=data.decision,
        rationale=data.rationale,
    )
    return _ask(pending, found, sure, ctx)


@action("decisions", "retire", RetireDecision)
def retire(data: RetireDecision, ctx: ActionContext) -> ActionResult:
    """A decision no longer current: which one is confirmed (or chosen) first."""
    project = ctx.require_project()
    current = current_decisions(ctx, project)
    if not current:
        return _none_to_change(ctx, project)
    found, sure = candidates(current, data.target or "", data.last)
    pending = DecisionChange(
        language=ctx.pending_language,
        change="retire",
        candidates=[d.id for d in found],
        rationale=data.rationale,
    )
    return _ask(pending, found, sure, ctx)


def current_decisions(ctx: ActionContext, project: Project) -> list[Decision]:
    """The current decisions where the conversation is, newest first."""
    memory, node = ctx.services.memory, current_node(ctx)
    if node is None:
        return memory.list_decisions(project.id)
    return memory.decisions_on_path(node)


def candidates(current: list[Decision], hint: str, last: bool) -> tuple[list[Decision], bool]:
    """The decisions `hint` may name, and whether it names exactly one: the latest one
    (`last`), the one sharing the most words with it, else the latest few to choose from."""
    if last or len(current) == 1:
        return current[:1], True
    wanted = stems(hint)
    scores = [_score(wanted, d) for d in current]
    best = max(scores)
    if best == 0:
        return current[:MAX_CANDIDATES], False
    found = [d for d, score in zip(current, scores, strict=True) if score == best]
    return found[:MAX_CANDIDATES], len(found) == 1


def stems(text: str) -> set[str]:
    """The stems of the words that say what a decision is about."""
    stops = STOP_WORDS_EN.now() | STOP_WORDS_ES.now() | DECISION_WORDS.now()
    return {stem(w) for w in words(text) if is_content(w, stops)}


def _score(wanted: set[str], decision: Decision) -> int:
    # Words of the decision itself count double: "the Madrid decision" is about its text.
    return 2 * len(wanted & stems(decision.decision)) + len(wanted & stems(decision.rationale))


def _ask(
    pending: DecisionChange, found: list[Decision], sure: bool, ctx: ActionContext
) -> ActionResult:
    """The question that names the decision (sure) or numbers the candidates."""
    if sure:
        question = _confirm_question(pending, found[0], ctx)
    else:
        lines = "\n".join(
            f"  {n}. {d.decision} ({d.timestamp.date().isoformat()})"
            for n, d in enumerate(found, 1)
        )
        key = f"decision_{pending.change}_which"
        question = ctx.say(key, lines=lines, decision=pending.decision)
    pending = pending.model_copy(update={"question": question})
    done = ActionDone(
        action=f"decisions.{pending.change}",
        message=question,
        data={"candidates": [d.model_dump(mode="json") for d in found], "sure": sure},
        needs_confirmation=True,
        asks=question,
    )
    return ActionResult(done, pending)


def _confirm_question(pending: DecisionChange, old: Decision, ctx: ActionContext) -> str:
    why = ctx.say("decision_change_why", why=pending.rationale) if pending.rationale else ""
    return ctx.say(
        f"decision_{pending.change}_confirm",
        old=old.decision,
        date=old.timestamp.date().isoformat(),
        decision=pending.decision,
        why=why,
    )


def _none_to_change(ctx: ActionContext, project: Project) -> ActionResult:
    """Nothing current here to change: say so, and whether other branches have some."""
    node = current_node(ctx)
    elsewhere = ctx.services.memory.decision_counts(project.id, node).elsewhere
    key = "decision_change_none_here" if elsewhere else "decision_change_none"
    out = {"elsewhere": elsewhere}
    return ActionResult(ctx.done("decisions.change", key, out, name=project.name, count=elsewhere))


def ask_about_conflict(
    decision_id: int, answer: str, request: str, ctx: ActionContext
) -> ActionResult | None:
    """After an answer planned against a recorded decision (the review flagged it): "has
    that decision changed?" A yes supersedes it with the answer's sentence that planned
    otherwise (the same reader as any change by talking); a no leaves it. None when the
    decision is no longer current, or the answer no longer plans against it."""
    from design_agent.knowledge.review.decisions import RecordedDecision, find_conflict
    from design_agent.knowledge.review.document import Document

    project = ctx.require_project()
    old = ctx.services.memory.get_decision(decision_id, project.id)
    conflict = find_conflict(Document(answer, ctx.language), RecordedDecision(old.id, old.decision))
    if old.status != "current" or conflict is None:
        return None
    found, sentence = conflict.found, conflict.sentence
    date = old.timestamp.date().isoformat()
    question = ctx.say("review_decision_question", found=found, decision=old.decision, date=date)
    pending = DecisionChange(
        language=ctx.pending_language,
        change="supersede",
        candidates=[old.id],
        decision=sentence.strip()[:1000],
        rationale=ctx.say("review_decision_why", request=request.strip()[:200])[:1000],
        question=question,
    )
    done = ActionDone(
        action="decisions.supersede",
        message=question,
        data={"candidates": [old.model_dump(mode="json")], "sure": True, "conflict": found},
        needs_confirmation=True,
        asks=question,
    )
    return ActionResult(done, pending)


@answers("decision_change")
def answer_change(
    message: str, reply: Reply | None, pending: DecisionChange, ctx: ActionContext
) -> ActionResult | None:
    """ "yes, go ahead", "sí, cámbiala", the number ("the second one", "la 2"): the change is
    made; "no", "no, leave it", "ninguna": nothing changes; else not an answer."""
    if reply is None:
        return None
    if reply.kind in ("no", "none", "skip"):
        return ActionResult(ctx.done(f"decisions.{pending.change}", "decision_change_no"))
    count = len(pending.candidates)
    if reply.out_of_range and not reply.picks:
        return out_of_range(reply, pending, ctx)
    if len(reply.picks) == 1:
        return apply_change(pending, pending.candidates[reply.picks[0] - 1], ctx)
    if reply.kind in ("yes", "all") and count == 1:
        return apply_change(pending, pending.candidates[0], ctx)
    if reply.kind == "yes":
        return _which_number(pending, ctx)
    return None


def _which_number(pending: DecisionChange, ctx: ActionContext) -> ActionResult | None:
    """ "yes" to a numbered question: which one is asked once more."""
    if pending.reasked:
        return None
    done = ctx.done(f"decisions.{pending.change}", "decision_change_which_number")
    message = f"{done.message}\n{pending.question}"
    again = pending.model_copy(update={"reasked": True})
    return ActionResult(done.model_copy(update={"message": message, "asks": message}), again)


def apply_change(pending: DecisionChange, decision_id: int, ctx: ActionContext) -> ActionResult:
    """Replace or retire the decision chosen, where the conversation is."""
    project = ctx.require_project()
    memory = ctx.services.memory
    old = memory.get_decision(decision_id, project.id)
    action_name = f"decisions.{pending.change}"
    if old.status != "current":
        return ActionResult(ctx.done(action_name, "decision_change_gone", old=old.decision))
    node = current_node(ctx)
    if pending.change == "retire":
        retired = memory.retire_decision(old.id, pending.rationale, node)
        out = {"retired": retired.model_dump(mode="json")}
        why = pending.rationale or "-"
        return ActionResult(
            ctx.done(
                action_name, "decision_retired", out, name=project.name, old=old.decision, why=why
            )
        )
    with memory.transaction():
        new = memory.supersede_decision(old.id, pending.decision, pending.rationale, node)
        memory.add_process_memory(project.name, new.decision, new.rationale, project_id=project.id)
    out = {"replaced": old.model_dump(mode="json"), "decision": new.model_dump(mode="json")}
    done = ctx.done(
        action_name,
        "decision_superseded",
        out,
        name=project.name,
        old=old.decision,
        decision=new.decision,
        why=new.rationale or "-",
    )
    return ActionResult(done)
