"""A turn's events as a server-sent event stream (text/event-stream).

Each event is preceded by a `: t=<ns> a=<ns>` comment (when it was sent and
when the pipeline gave it, on the system's monotonic clock, for benchmarks;
clients ignore comments), then
`id: <seq>`, `event: <kind>` and `data: <the event's JSON>`, exactly the
object `ask --events` prints. The stream ends with an `end` event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from design_agent.server.turns import FollowedTurn

KEEP_ALIVE_SECONDS = 15.0


async def sse_events(
    record: FollowedTurn, after: int = 0, wait: float = KEEP_ALIVE_SECONDS
) -> AsyncIterator[str]:
    """The SSE messages of `record` after seq `after`, live until the turn ends: no thread
    waits per client; the turn's thread
    wakes the stream (call_soon_threadsafe) when an event comes."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def listener() -> None:
        if wake.is_set():  # already woken: one wake-up covers a burst of events
            return
        with contextlib.suppress(RuntimeError):  # the loop closed: the server is stopping
            loop.call_soon_threadsafe(wake.set)

    record.listen(listener)
    seq = max(0, after)
    try:
        yield "retry: 1000\n\n"
        while True:
            wake.clear()
            batch, done = record.after(seq)
            if batch:
                messages = [message(record, seq + i + 1, e) for i, e in enumerate(batch)]
                seq += len(batch)
                yield "".join(messages)
            elif done:
                break
            else:
                try:
                    await asyncio.wait_for(wake.wait(), wait)
                except TimeoutError:
                    yield ": keep-alive\n\n"
    finally:
        record.unlisten(listener)
    yield end_message(record)


def message(record: FollowedTurn, seq: int, event: Any) -> str:
    """One event as an SSE message, after its `: t=<sent ns> a=<appended ns>` comment."""
    stamps = f"t={time.monotonic_ns()} a={record.stamp(seq)}"
    kind = getattr(event, "kind", "event")
    return f": {stamps}\nid: {seq}\nevent: {kind}\ndata: {event.model_dump_json()}\n\n"


def end_message(record: FollowedTurn) -> str:
    return f"event: end\ndata: {json.dumps(record.end_data())}\n\n"


def parse_after(last_event_id: str | None, after: int | None) -> int:
    """Where a reattaching client resumes: `Last-Event-ID` wins over `?after=`."""
    for value in (last_event_id, after):
        if value is None:
            continue
        try:
            return max(0, int(value))
        except ValueError:
            continue
    return 0
