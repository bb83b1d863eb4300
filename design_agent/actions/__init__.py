"""Meta-requests: typed `{module, method, input}` envelopes and the handlers that carry them out.

Each handler module registers its actions beside their input models (see
base.py); importing this package imports them all, so the tables are full.
The pipeline calls `run_action` for an envelope and `answer_pending` for a
reply to a question left open; neither saves state or converts errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from design_agent.actions import (  # noqa: F401  (registration by import)
    catalogue,
    conversation,
    decisions,
    files,
    memory,
    projects,
    providers,
    report,
    tree,
    usage,
)
from design_agent.actions.base import (
    ANSWERERS,
    HANDLERS,
    ActionContext,
    ActionResult,
)
from design_agent.actions.conversation import stray_reply
from design_agent.actions.envelope import ActionEnvelope

if TYPE_CHECKING:
    from design_agent.conversation import Pending

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
    handler = HANDLERS[(envelope.module, envelope.method)]
    return handler(envelope.typed_input(), ctx)


def answer_pending(message: str, pending: Pending, ctx: ActionContext) -> ActionResult | None:
    """Read `message` as the reply to `pending`; None when it is not a reply to it."""
    answerer = ANSWERERS.get(pending.kind)
    return answerer(message, pending, ctx) if answerer else None
