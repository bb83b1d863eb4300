"""What design-agent knows: "what methods do you know?", the methods grouped by persona
(one line per persona, in the user's language); and the answer to "which of these methods
did you mean?"."""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, AnswerAgain, action, answers
from design_agent.actions.decisions import out_of_range
from design_agent.understanding.conversation import MethodChoice
from design_agent.understanding.inputs import NoInput
from design_agent.understanding.replies import Reply


@action("catalogue", "methods", NoInput)
def methods(data: NoInput, ctx: ActionContext) -> ActionResult:
    """Every method, grouped by the persona that answers it."""
    catalogue = ctx.services.catalogue
    language = ctx.language
    lines: list[str] = []
    groups: dict[str, list[str]] = {}
    for agent in catalogue.agents.values():
        tasks = catalogue.tasks_of(agent.id)
        if not tasks:
            continue
        names = [task.name.get(language) for task in tasks]
        groups[agent.id] = [task.id for task in tasks]
        lines.append(f"- {agent.role.get(language)}: {', '.join(names)}")
    done = ctx.done(
        "catalogue.methods",
        "methods",
        {"personas": groups},
        count=sum(len(ids) for ids in groups.values()),
        personas=len(groups),
        lines="\n".join(lines),
    )
    return ActionResult(done)


# -- "which method did you mean?" ---------------------------------------------------------------

# A reply naming a method ("the journey map one") is this short; longer is a request.
NAMED_MAX_WORDS = 7
# An option named in words needs at least this score among the options.
OPTION_MIN_SCORE = 35.0


@answers("choice")
def answer_method_choice(
    message: str, reply: Reply | None, pending: MethodChoice, ctx: ActionContext
) -> ActionResult | None:
    """ "2", "the second one", "la de personas": the request asked before is answered with
    that method (the reply is never joined to it); "none": the question is dropped."""
    if reply is not None and reply.kind in ("no", "none", "cancel", "skip"):
        dropped = ctx.done("conversation.cancel", "pending_dropped", {"dropped": pending.kind})
        return ActionResult(dropped)
    if reply is not None and reply.out_of_range and not reply.picks:
        return out_of_range(reply, pending, ctx)
    picked = _picked_method(message, reply, pending, ctx)
    if picked is None:
        return None
    return ActionResult(None, then=AnswerAgain(pending.message, picked))


def _picked_method(
    message: str, reply: Reply | None, pending: MethodChoice, ctx: ActionContext
) -> str | None:
    if reply is not None:
        return pending.options[reply.picks[0] - 1] if len(reply.picks) == 1 else None
    if len(message.split()) > NAMED_MAX_WORDS:
        return None  # a request of its own, answered as one
    result = ctx.services.matcher.match(message, recent_task_ids=pending.options)
    in_options = [c for c in result.candidates if c.task_id in pending.options]
    return in_options[0].task_id if in_options and in_options[0].score >= OPTION_MIN_SCORE else None
