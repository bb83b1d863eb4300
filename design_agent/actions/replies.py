"""A bare "yes", "no" or "skip" that no open question's reader took.

It is not a design request either: "no" and "skip" drop the question left open,
and with none open (or it lapsed) the reply says so rather than guess a method.
Every design turn asks this first, so it lives apart from the handlers (see
base.load_handlers) and loads none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from design_agent.actions.base import ActionContext, ActionResult
from design_agent.understanding.conversation import PENDING_MINUTES
from design_agent.understanding.language import NO, SKIP, YES, reply_of

if TYPE_CHECKING:
    from design_agent.understanding.conversation import Pending


def stray_reply(message: str, pending: Pending | None, ctx: ActionContext) -> ActionResult | None:
    """A bare yes / no / skip its question's reader did not take: "no" and "skip" drop the
    question; with none open (or it lapsed), say so rather than guess a method."""
    word = reply_of(message)
    if pending is None and word in YES | NO | SKIP:
        done = ctx.done("conversation.cancel", "nothing_to_answer", minutes=PENDING_MINUTES)
        return ActionResult(done)
    if pending is not None and word in NO | SKIP:
        done = ctx.done("conversation.cancel", "pending_dropped", {"dropped": pending.kind})
        return ActionResult(done)
    return None
