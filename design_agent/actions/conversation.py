"""Talk about the conversation itself: help, small talk, "cancel that", "make it shorter",
"try that again with gemini", "compare with codex".

None of these creates a project or asks the provider anything itself: "make it shorter"
and "compare" decide what to answer again and with which provider, and return it as a
follow-on (`AnswerAgain`, `CompareAnswers`) for the turn to run. (A bare "yes", "no" or
"skip" that answers no open question is read in replies.py.)
"""

from __future__ import annotations

from design_agent.actions.base import (
    ActionContext,
    ActionResult,
    AnswerAgain,
    CompareAnswers,
    action,
)
from design_agent.actions.providers import require_ready
from design_agent.core.errors import UsageError
from design_agent.core.messages import say
from design_agent.understanding.inputs import Compare, NoInput, Rerender, SmallTalk


@action("conversation", "help", NoInput)
def help_(data: NoInput, ctx: ActionContext) -> ActionResult:
    """What design-agent can do, as examples to type."""
    return ActionResult(ctx.done("conversation.help", "help"))


@action("conversation", "small_talk", SmallTalk)
def small_talk(data: SmallTalk, ctx: ActionContext) -> ActionResult:
    """A short friendly reply and one hint of what to do next."""
    if ctx.project is None:
        hint = ctx.say("hint_no_project")
    else:
        hint = ctx.say("hint_project", name=ctx.project.name)
    reply = ctx.say(f"small_{data.kind}")
    done = ctx.done(
        "conversation.small_talk", "small_talk", {"kind": data.kind}, reply=reply, hint=hint
    )
    return ActionResult(done)


@action("conversation", "cancel", NoInput)
def cancel(data: NoInput, ctx: ActionContext) -> ActionResult:
    """Drop the question left open, if any."""
    pending = ctx.state.live_pending()
    if pending is None:
        return ActionResult(ctx.done("conversation.cancel", "nothing_pending"))
    done = ctx.done("conversation.cancel", "pending_dropped", {"dropped": pending.kind})
    return ActionResult(done, None)


@action("conversation", "rerender", Rerender)
def rerender(data: Rerender, ctx: ActionContext) -> ActionResult:
    """The last request answered again: shorter, longer, in a language, or by another
    provider (a second answer beside the first)."""
    last = ctx.state.last
    if last is None:
        return ActionResult(ctx.done("conversation.rerender", "rerender_none"))
    if data.provider:
        name = require_ready(data.provider, ctx)
        again = AnswerAgain(
            last.request,
            last.task_id,
            reason=f"again, with {name}",
            provider=name,
            same_request=True,
        )
        return ActionResult(None, then=again)
    language = data.language or ctx.language
    instruction = say(f"redo_{data.verbosity or 'language'}", language)
    again = AnswerAgain(
        last.request,
        last.task_id,
        reason="again, as asked",
        instruction=instruction,
        verbosity=data.verbosity,
        language=data.language,
    )
    return ActionResult(None, then=again)


@action("conversation", "compare", Compare)
def compare(data: Compare, ctx: ActionContext) -> ActionResult:
    """The last request answered by two providers at once (one named: the current one and
    it), each checked to be ready first."""
    if ctx.state.last is None:
        return ActionResult(ctx.done("conversation.compare", "compare_nothing"))
    names = [require_ready(name, ctx) for name in data.providers]
    if len(names) == 1:
        names.insert(0, ctx.services.resolve().spec.name)
    if names[0] == names[1]:
        raise UsageError(ctx.say("compare_same", name=names[0]))
    return ActionResult(None, then=CompareAnswers((names[0], names[1])))
