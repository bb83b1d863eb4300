"""Talk about the conversation itself: help, small talk, "cancel that", "make it shorter".

None of these creates a project or asks the provider anything. "Make it shorter"
is answered by the pipeline when there is a last answer to redo; this handler
only replies when there is none. (A bare "yes", "no" or "skip" that answers no
open question is read in replies.py.)
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, NoInput, action
from design_agent.actions.inputs import Compare, Rerender, SmallTalk


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
    """Reached only when there is no last answer to redo (the pipeline redoes one)."""
    return ActionResult(ctx.done("conversation.rerender", "rerender_none"))


@action("conversation", "compare", Compare)
def compare(data: Compare, ctx: ActionContext) -> ActionResult:
    """Reached only when there is no last request to compare (the pipeline compares one)."""
    return ActionResult(ctx.done("conversation.compare", "compare_nothing"))
