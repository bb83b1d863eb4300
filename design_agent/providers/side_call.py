"""A blocking side call to a model, announced: `Working` before it, `WorkDone` after it.

Some decisions in a turn ask the provider's fast model one short question (which
method fits, is this a follow-up or a new request): one strict JSON call with a
timeout of several seconds. A step that makes such a call wraps it here, in one
line, so that the shell, `ask --events` and the web page show the wait instead
of a blank screen:

    choice = yield from side_call("choosing_method", language, lambda: ask_the_model(...))

The step must itself be a generator of the turn's events (its caller uses
`yield from` too). A cancel of the turn while the call runs (Ctrl-C, SIGTERM,
the web page's Cancel) stops the call's run through the turn's RunGroup
(runner.py), like a streamed answer's; then `WorkDone(status="cancelled")` is
given and CancelledError raised: the user asked to stop, so the turn ends
there, with nothing answered or saved, rather than going on to a decision the
user did not wait for. A call that fails or times out by itself is not a
cancel: its result (usually None) is returned and the caller falls back to the
deterministic decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import TypeVar

from design_agent.core.errors import CancelledError
from design_agent.core.events import WorkDone, Working, WorkKind
from design_agent.core.messages import say
from design_agent.providers.runner import scope_cancelled

T = TypeVar("T")

SideCallEvents = Generator[Working | WorkDone, None, T]


def side_call(
    work: WorkKind,
    language: str,
    call: Callable[[], T],
    provider: str | None = None,
    timeout: float | None = None,
) -> SideCallEvents[T]:
    """Yield `Working`, run `call` (blocking), yield `WorkDone`; return what `call` returned.

    Raises CancelledError, after `WorkDone(status="cancelled")`, when the turn was
    cancelled during the call; before it, nothing is run or shown."""
    if scope_cancelled():
        raise _cancelled(work, language)
    label = say(f"work_{work}", language)
    yield Working(work=work, label=label, provider=provider, timeout=timeout)
    started = time.monotonic()
    result = call()
    cancelled = scope_cancelled()
    ms = round((time.monotonic() - started) * 1000, 1)
    yield WorkDone(work=work, ms=ms, status="cancelled" if cancelled else "done")
    if cancelled:
        raise _cancelled(work, language)
    return result


def _cancelled(work: WorkKind, language: str) -> CancelledError:
    doing = say(f"work_doing_{work}", language)
    return CancelledError(say("work_cancelled", language, doing=doing))
