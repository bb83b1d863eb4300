"""A team's own method, by talking: "I want to add our own method for pricing page reviews".

The same questions as `design-agent methods new`, one at a time, each answer kept in the
open question (MethodDraftQuestion): its English name, its Spanish one ("skip" leaves it
out), what it is for, the specialist (numbered), the deliverable's parts, its length,
and, when it has a Spanish name, whether to write its Spanish guide. Then the entry and
the guide are written into the home (knowledge/authoring.py), check runs and three sample
requests are routed (understanding/method_review.py): the reply says it all. "cancel"
stops at any step with nothing written; a question asked meanwhile is answered as such.
"""

from __future__ import annotations

import re
from dataclasses import replace

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.core.events import ActionDone
from design_agent.knowledge.plain import did_you_mean, identifier
from design_agent.understanding.conversation import DraftStep, MethodDraftQuestion
from design_agent.understanding.inputs import NewMethod
from design_agent.understanding.replies import Reply

ACTION = "catalogue.new_method"
LENGTHS = ("short", "medium", "long")
LENGTH_WORDS = {
    "short": "short",
    "corto": "short",
    "corta": "short",
    "medium": "medium",
    "medio": "medium",
    "media": "medium",
    "long": "long",
    "largo": "long",
    "larga": "long",
}
QUESTION_KEYS: dict[str, str] = {
    "name": "method_q_name",
    "name_es": "method_q_name_es",
    "description": "method_q_description",
    "outputs": "method_q_outputs",
    "length": "method_q_length",
}


@action("catalogue", "new_method", NewMethod)
def new_method(data: NewMethod, ctx: ActionContext) -> ActionResult:
    """Start the questions: what it is called, in English."""
    draft = MethodDraftQuestion(language=ctx.pending_language, about=data.about)
    intro = (
        ctx.say("method_intro_about", about=data.about)
        if data.about
        else ctx.say("method_intro", path=ctx.services.home.tasks_file)
    )
    return _ask(draft, ctx, lead=intro)


@answers("method_draft")
def answer_method_draft(
    message: str, reply: Reply | None, pending: MethodDraftQuestion, ctx: ActionContext
) -> ActionResult | None:
    """Keep the answer to the step asked and put the next question, or write the method.
    The questions stay in the language they were started in: a name in English is no
    reason to go on in English."""
    ctx = replace(ctx, language=pending.language)
    text = " ".join(message.split())
    if not text or text.endswith("?") or text.startswith("¿"):
        return None  # a question of the person's own: answered as such, this one put again
    taken = _take(pending, text, reply, ctx)
    if isinstance(taken, str):  # not an answer to this step: said why, asked again
        return _ask(pending, ctx, lead=taken)
    step = _next_step(taken)
    if step is None:
        return _write(taken, ctx)
    return _ask(taken.model_copy(update={"step": step}), ctx)


def _ask(draft: MethodDraftQuestion, ctx: ActionContext, lead: str = "") -> ActionResult:
    if draft.step == "agent" and not draft.agents:
        draft = draft.model_copy(update={"agents": _agent_order(ctx)})
    question = _question(draft, ctx)
    message = f"{lead}\n{question}" if lead else question
    fresh = draft.model_copy(update={"question": question, "language": ctx.pending_language})
    done = ActionDone(action=ACTION, message=message, asks=question, data={"step": draft.step})
    return ActionResult(done, fresh)


def _question(draft: MethodDraftQuestion, ctx: ActionContext) -> str:
    if draft.step == "agent":
        catalogue = ctx.services.catalogue
        options = "\n".join(
            f"{n}. {catalogue.agents[a].role.get(ctx.language)} ({a})"
            for n, a in enumerate(draft.agents, 1)
        )
        best = _suggested(draft, ctx)
        hint = ctx.say("method_suggested", number=best) if best else ""
        return ctx.say("method_q_agent", options=options, suggested=hint)
    if draft.step == "spanish":
        path = ctx.services.home.guides_dir / "es" / f"{identifier(draft.name)}.md"
        return ctx.say("method_q_spanish", path=path)
    return ctx.say(QUESTION_KEYS[draft.step])


def _agent_order(ctx: ActionContext) -> list[str]:
    agents = ctx.services.catalogue.agents.values()
    return [a.id for a in sorted(agents, key=lambda a: a.role.get(ctx.language))]


def _suggested(draft: MethodDraftQuestion, ctx: ActionContext) -> int | None:
    """The number of the persona whose methods are closest to the description."""
    best = ctx.services.matcher.match(draft.description or draft.name).best
    if best is None:
        return None
    agent = ctx.services.catalogue.tasks[best.task_id].agent
    return draft.agents.index(agent) + 1 if agent in draft.agents else None


def _next_step(draft: MethodDraftQuestion) -> DraftStep | None:
    order: list[DraftStep] = ["name", "name_es", "description", "agent", "outputs", "length"]
    if draft.name_es:
        order.append("spanish")
    at = order.index(draft.step) if draft.step in order else len(order)
    return order[at + 1] if at + 1 < len(order) else None


# -- reading each answer ---------------------------------------------------------------------


def _take(
    draft: MethodDraftQuestion, text: str, reply: Reply | None, ctx: ActionContext
) -> MethodDraftQuestion | str:
    """The draft with this step's answer, or what is wrong with the answer."""
    skipped = reply is not None and reply.kind in ("skip", "no", "none")
    step = draft.step
    if step == "name":
        return _named(draft, text, ctx)
    if step == "name_es":
        return draft.model_copy(update={"name_es": "" if skipped else text[:120]})
    if step == "description":
        return draft.model_copy(update={"description": text[:1000]})
    if step == "agent":
        return _agent_taken(draft, text, reply, ctx)
    if step == "outputs":
        parts = [p.strip(" .") for p in re.split(r"[,;\n]", text) if p.strip(" .")]
        return (
            draft.model_copy(update={"outputs": parts[:20]})
            if parts
            else ctx.say("method_needed", question=ctx.say("method_q_outputs"))
        )
    if step == "length":
        return _length_taken(draft, text, reply, ctx)
    return _spanish_taken(draft, reply, ctx)


def _named(draft: MethodDraftQuestion, text: str, ctx: ActionContext) -> MethodDraftQuestion | str:
    """The English name; one the home or the catalogue already has is asked again."""
    name = text.strip("\"'“”«»")[:120]
    method_id = identifier(name)
    catalogue = ctx.services.catalogue
    if method_id in catalogue.tasks:
        return ctx.say("method_taken", id=method_id)
    return draft.model_copy(update={"name": name})


def _agent_taken(
    draft: MethodDraftQuestion, text: str, reply: Reply | None, ctx: ActionContext
) -> MethodDraftQuestion | str:
    if reply is not None and len(reply.picks) == 1:
        return draft.model_copy(update={"agent": draft.agents[reply.picks[0] - 1]})
    catalogue = ctx.services.catalogue
    by_role = {catalogue.agents[a].role.get(ctx.language).lower(): a for a in draft.agents}
    by_role.update({catalogue.agents[a].role.en.lower(): a for a in draft.agents})
    close = did_you_mean(text.lower(), [*draft.agents, *by_role])
    if close is None:
        return ctx.say("method_bad_agent", answer=text[:60], count=len(draft.agents))
    return draft.model_copy(update={"agent": by_role.get(close, close)})


def _length_taken(
    draft: MethodDraftQuestion, text: str, reply: Reply | None, ctx: ActionContext
) -> MethodDraftQuestion | str:
    if reply is not None and reply.kind == "skip":
        return draft
    if reply is not None and len(reply.picks) == 1:
        return draft.model_copy(update={"length": LENGTHS[reply.picks[0] - 1]})
    words = re.findall(r"[a-z]+", text.lower())
    found = next((LENGTH_WORDS[w] for w in words if w in LENGTH_WORDS), None)
    if found is None:
        return ctx.say("method_bad_length")
    return draft.model_copy(update={"length": found})


def _spanish_taken(
    draft: MethodDraftQuestion, reply: Reply | None, ctx: ActionContext
) -> MethodDraftQuestion | str:
    if reply is None or reply.kind not in ("yes", "no", "skip", "none"):
        return ctx.say("method_yes_no")
    return draft.model_copy(update={"spanish_guide": reply.kind == "yes"})


# -- writing it ------------------------------------------------------------------------------


def _write(draft: MethodDraftQuestion, ctx: ActionContext) -> ActionResult:
    """Write the method into the home, then say what was written, check's word on it and
    where three sample requests go."""
    from design_agent.knowledge.authoring import MethodDraft, add_method
    from design_agent.knowledge.registry import load_catalogue_cached
    from design_agent.understanding.method_review import review, review_lines, written_lines
    from design_agent.understanding.overlap import matcher_of

    home = ctx.services.home
    method = MethodDraft(
        name=draft.name,
        name_es=draft.name_es or None,
        description=draft.description,
        agent=draft.agent,
        outputs=tuple(draft.outputs),
        length=draft.length,
        keywords=(draft.about,) if draft.about else (),
        spanish_guide=draft.spanish_guide,
    )
    written = add_method(home, load_catalogue_cached(home), method)
    after = load_catalogue_cached(home)
    found = review(after, matcher_of(home, after), written.task.id)
    lines = [*written_lines(written, ctx.language), *review_lines(found, ctx.language)]
    data = {"method": written.task.id, "files": [str(p) for p in written.guides]}
    return ActionResult(ActionDone(action=ACTION, message="\n".join(lines), data=data))
