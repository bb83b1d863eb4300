"""`/compare claude gemini`: one request answered by two providers at once.

Each provider gets its own request (its own context budget), its own process
group and its own cancel (a Ctrl-C cancels both, keeping what each wrote). The
answers are gathered, then shown one after the other, each with a footer, and
saved as two answers to the same request: two sibling branches of the tree.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from design_agent.providers.runner import start
from design_agent.turn.answer_stream import AnswerStream

if TYPE_CHECKING:
    from collections.abc import Mapping

    from design_agent.core.checklist import Validation
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec
    from design_agent.turn.request_builder import BuiltRequest

# Each side gets this long at most beyond its own adapter's timeouts (a safety net).
JOIN_SLACK_SECONDS = 5.0


@dataclass
class Side:
    """One provider's half of a comparison."""

    spec: AdapterSpec
    request: BuiltRequest
    stream: AnswerStream | None = None
    seconds: float = 0.0
    validation: Validation | None = None
    turn_id: int | None = None


def run_both(sides: list[Side], settings: Settings, environ: Mapping[str, str] | None) -> None:
    """Run every side concurrently, each to its end (complete, failed or cancelled)."""
    threads = [
        threading.Thread(target=_run, args=(side, settings, environ), daemon=True) for side in sides
    ]
    for thread in threads:
        thread.start()
    for side, thread in zip(sides, threads, strict=True):
        thread.join(side.spec.timeouts.total + JOIN_SLACK_SECONDS)


def _run(side: Side, settings: Settings, environ: Mapping[str, str] | None) -> None:
    started = time.perf_counter()
    run = start(side.spec, side.request.built, settings, environ)
    stream = AnswerStream(run, scan_tags=not side.spec.is_offline)
    side.stream = stream
    for _event in stream.events():
        pass  # gathered: the text, usage and status are kept on the stream
    side.seconds = time.perf_counter() - started


def footer(side: Side) -> str:
    """provider/model · tokens · cost · seconds · checklist, as the turn footer has them."""
    stream = side.stream
    assert stream is not None
    parts = ["/".join(p for p in (stream.provider, stream.model) if p)]
    usage = stream.usage
    if usage and (usage.input_tokens or usage.output_tokens):
        parts.append(f"{(usage.input_tokens or 0) + (usage.output_tokens or 0)} tokens")
    if usage and usage.cost_usd:
        parts.append(f"${usage.cost_usd:.4f}")
    parts.append(f"{side.seconds:.1f} s")
    if side.validation is not None:
        parts.append(f"checklist {side.validation.score}")
    if stream.status != "complete":
        parts.append(stream.status)
    return "── " + " · ".join(parts)
