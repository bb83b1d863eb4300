"""Research evidence added by talking ("here are my transcripts: ./interviews/"), with what
a file needs asked in the conversation rather than through a flag: which speaker moderates
("Which speaker is the moderator in interview-3.vtt: Ana or P1?" - "Ana", "la primera",
"none"), which column of a reviews CSV holds the text, whether a transcript without speaker
labels is one participant's notes. Each answer is kept in the question for the rest of the
folder (a name said once moderates every file it speaks in; a header's columns hold for
every file with that header, and for later ones); the folder is read again with them, and
nothing is stored before every file reads, so "cancel" leaves nothing behind."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from design_agent.actions.base import ActionContext, ActionResult, answers
from design_agent.core.errors import EvidenceNeedsAnswer, NotFoundError
from design_agent.core.events import ActionDone
from design_agent.core.evidence import EvidenceAnswers
from design_agent.core.text import fold
from design_agent.understanding.conversation import EvidenceQuestion

if TYPE_CHECKING:
    from design_agent.understanding.replies import Reply

QUOTES = "\"'“”‘’`"


def add_evidence(typed: str, ctx: ActionContext) -> ActionResult:
    """Transcripts, notes, a survey export or a folder of them: `evidence add`, asking what
    a file needs."""
    path = Path(typed.strip().strip(QUOTES)).expanduser()
    if not path.exists():
        raise NotFoundError(ctx.say("file_missing", path=str(path)))
    return add_with(str(path), EvidenceAnswers(), ctx)


def add_with(path: str, said: EvidenceAnswers, ctx: ActionContext) -> ActionResult:
    """The folder read with the answers so far: stored, or the next question."""
    from design_agent.evidence.ingest import add_evidence as ingest

    project = ctx.require_project()
    try:
        added = ingest(ctx.services.memory, project.id, [Path(path)], answers=said)
    except EvidenceNeedsAnswer as e:
        return _ask(path, e, said, ctx)
    fresh = [a.session for a in added if not a.duplicate]
    if not added:
        return ActionResult(ctx.done("evidence.add", "evidence_nothing_left", {"path": path}))
    if not fresh:
        first = added[0].session
        done = ctx.done(
            "evidence.add", "evidence_duplicate", {}, source=first.source, code=first.code
        )
        return ActionResult(done)
    listed = "; ".join(
        f"{s.code} {s.source} ({s.segments} segments"
        + (f", {s.responses} responses" if s.responses else "")
        + ")"
        for s in fresh
    )
    out = {"sessions": [s.code for s in fresh], "path": path}
    done = ctx.done(
        "evidence.add", "evidence_added", out, count=len(fresh), project=project.name,
        sessions=listed,
    )  # fmt: skip
    return ActionResult(done)


def _ask(
    path: str, need: EvidenceNeedsAnswer, said: EvidenceAnswers, ctx: ActionContext
) -> ActionResult:
    if need.ask == "labels":
        question = ctx.say("evidence_ask_labels", file=need.source)
    elif need.ask == "columns":
        lines = "\n".join(f"  {n}. {c}" for n, c in enumerate(need.options, 1))
        question = ctx.say("evidence_ask_columns", file=need.source, lines=lines)
    else:
        question = ctx.say("evidence_ask_moderator", file=need.source, options=_or(need, ctx))
    pending = EvidenceQuestion(
        language=ctx.pending_language,
        question=question,
        path=path,
        file=need.source,
        ask=need.ask,  # type: ignore[arg-type]  # one of the three EvidenceNeedsAnswer raises
        options=need.options if need.ask != "labels" else [],
        header=need.header,
        answers=said,
    )
    data = {"file": need.source, "asks": need.ask, "options": pending.options}
    done = ActionDone(
        action="evidence.add", message=question, data=data, needs_confirmation=True, asks=question
    )
    return ActionResult(done, pending)


def _or(need: EvidenceNeedsAnswer, ctx: ActionContext) -> str:
    """ "Ana or P1", "Ana, P1 or P2" ("o" in Spanish)."""
    word = " o " if ctx.pending_language == "es" else " or "
    names = need.options
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + word + names[-1]


@answers("evidence_question")
def answer_evidence(
    message: str, reply: Reply | None, pending: EvidenceQuestion, ctx: ActionContext
) -> ActionResult | None:
    """The reply: a number or ordinal ("la primera"), a name or column as written, "none"
    (no moderator), yes or no (notes, or left out). None: not an answer to it."""
    said = answered(message, reply, pending)
    if said is None:
        return None
    return add_with(pending.path, said, ctx)


def answered(
    message: str, reply: Reply | None, pending: EvidenceQuestion
) -> EvidenceAnswers | None:
    """The answers so far with this reply's added; None when it answers nothing."""
    said = pending.answers
    if pending.ask == "labels":
        if reply is not None and reply.kind == "yes":
            return said.model_copy(update={"notes": [*said.notes, pending.file]})
        if reply is not None and reply.kind in ("no", "skip", "none"):
            return said.model_copy(update={"skipped": [*said.skipped, pending.file]})
        return None
    chosen = _option(message, reply, pending.options)
    if pending.ask == "moderator":
        if chosen is None and reply is not None and reply.kind == "none":
            return said.model_copy(update={"no_moderator": [*said.no_moderator, pending.file]})
        if chosen is None:
            return None
        return said.model_copy(update={"moderator_of": {**said.moderator_of, pending.file: chosen}})
    if chosen is None:
        return None
    from design_agent.evidence.reviews import header_key, text_mapping

    mapping = text_mapping(chosen, pending.header).model_dump(exclude_none=True)
    mappings = {**said.mappings, header_key(pending.header): mapping}
    return said.model_copy(update={"mappings": mappings})


def _option(message: str, reply: Reply | None, options: list[str]) -> str | None:
    """The option picked by number or ordinal, or named as written (folded)."""
    if reply is not None and reply.kind == "pick" and len(reply.picks) == 1:
        return options[reply.picks[0] - 1]
    typed = fold(message).strip(" .!?¡¿\"'")
    named = [o for o in options if fold(o) == typed]
    return named[0] if len(named) == 1 else None
