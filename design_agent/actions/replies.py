"""A reply to a question that is not open: "yes", "no", "skip", "la primera", "both".

Every design turn asks this first when no question is open (an open one is answered by its
own reader, actions/__init__.answer_pending). Read by the same reader as every question
(understanding/replies.py), such a reply is not a design request either: the answer says
nothing is waiting for it (or that the question lapsed) rather than guess a method. It
lives apart from the handlers (see base.load_handlers) and loads none of them.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult
from design_agent.understanding.conversation import PENDING_MINUTES
from design_agent.understanding.replies import read_reply


def stray_reply(message: str, ctx: ActionContext) -> ActionResult | None:
    """With no question open, a message made only of reply words ("vale, la primera",
    "yes please", "ninguna") is answered with "nothing to answer"; anything else is None."""
    if read_reply(message) is None:
        return None
    done = ctx.done("conversation.cancel", "nothing_to_answer", minutes=PENDING_MINUTES)
    return ActionResult(done)
