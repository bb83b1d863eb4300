"""A question left open when the person says something else: kept, put again once, then let go.

While design-agent waits for an answer (which method? keep which decisions? the new
project's users?), a message that is clearly something else (another request, "switch to
acme", "what can you do?") is handled as what it is. The question is then put again, once,
after that reply ("Still open: ..."), unless the reply asked a question of its own; a
second message that does not answer it lets it go. It is never answered by accident,
and a message is never joined to the one before.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

from design_agent.core.events import ActionDone
from design_agent.core.messages import say
from design_agent.turn.types import TurnState


def interrupted(turn: TurnState) -> None:
    """The message did not answer the open question: remember it to put again after the
    reply, or let it go when it was put again already."""
    pending = turn.conversation.pending
    turn.conversation.pending = None
    if pending is not None and not pending.reasked and pending.question:
        turn.interrupted = pending


def reasked(turn: TurnState) -> Iterator[ActionDone]:
    """Put the interrupted question again, once, unless this turn left a question of its own."""
    pending, turn.interrupted = turn.interrupted, None
    if pending is None or turn.conversation.pending is not None:
        return
    turn.conversation.pending = pending.model_copy(
        update={"reasked": True, "asked_at": datetime.now(UTC)}
    )
    message = say("still_open", turn.language, question=pending.question)
    yield ActionDone(action="conversation.reask", message=message, asks=pending.question)
