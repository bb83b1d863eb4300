"""Meta-requests: typed `{module, method, input}` envelopes and the handlers that carry them out.

Each handler module registers its actions beside their input models (see
base.py). They are imported on first need (`load_handlers`), not with this
package: a design request never runs one. The pipeline calls `run_action` for
an envelope and `answer_pending` for a reply to a question left open; neither
saves state or converts errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from design_agent.actions.base import (
    ANSWERERS,
    HANDLERS,
    ActionContext,
    ActionResult,
    load_handlers,
)
from design_agent.actions.replies import stray_reply
from design_agent.understanding.envelope import ActionEnvelope
from design_agent.understanding.replies import read_reply

if TYPE_CHECKING:
    from design_agent.understanding.conversation import Pending

__all__ = [
    "ActionContext",
    "ActionEnvelope",
    "ActionResult",
    "answer_pending",
    "run_action",
    "stray_reply",
]


def run_action(envelope: ActionEnvelope, ctx: ActionContext) -> ActionResult:
    """Carry out `envelope`; domain errors propagate to the interface."""
    load_handlers()
    handler = HANDLERS[(envelope.module, envelope.method)]
    return handler(envelope.typed_input(), ctx)


def answer_pending(message: str, pending: Pending, ctx: ActionContext) -> ActionResult | None:
    """Read `message` as the reply to `pending` (the one reply reader for every question,
    understanding/replies.py); None when it is not a reply to it."""
    load_handlers()
    answerer = ANSWERERS.get(pending.kind)
    if answerer is None:
        return None
    choices = pending.choices
    reply = read_reply(message, choices) if choices is not None else read_reply(message)
    if reply is not None and reply.kind == "cancel":  # "forget it", "olvídalo": any question
        dropped = ctx.done("conversation.cancel", "pending_dropped", {"dropped": pending.kind})
        return ActionResult(dropped)
    return answerer(message, reply, pending, ctx)
