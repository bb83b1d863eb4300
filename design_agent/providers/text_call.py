"""One blocking request whose whole text is wanted (a research session's highlights): run
through the same runner as an answer, cancelled after `timeout` seconds; None on any
failure, cancel or timeout."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from design_agent.core.errors import ProviderError
from design_agent.providers.events import Done, RunEvent, TextDelta
from design_agent.providers.request import ProviderRequest
from design_agent.providers.runner import start

if TYPE_CHECKING:
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec


def run_text(
    spec: AdapterSpec,
    request: ProviderRequest,
    settings: Settings,
    environ: Mapping[str, str] | None,
    timeout: float,
) -> str | None:
    """The whole text of a successful run, or None."""
    try:
        run = start(spec, request, settings, environ)
    except (ProviderError, OSError):
        return None
    timer = threading.Timer(timeout, run.cancel)
    timer.daemon = True
    events = iter(run)
    timer.start()
    try:
        return _collect(events)
    except (ProviderError, OSError):
        return None
    finally:
        timer.cancel()
        close = getattr(events, "close", None)
        if close is not None:
            close()


def _collect(events: Iterator[RunEvent]) -> str | None:
    texts: list[str] = []
    for event in events:
        if isinstance(event, TextDelta):
            texts.append(event.text)
        elif isinstance(event, Done):
            return (event.text or "".join(texts)) if event.status == "ok" else None
    return None
