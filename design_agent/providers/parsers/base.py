"""What every stream parser shares: the parser protocol and JSON-lines framing.

A parser is fed one complete line (or, for plain text, one decoded chunk) at
a time and returns the events it implies; it does no I/O, so the same lines
always give the same events. Lines that are not JSON objects are noise: they
are counted, a few are kept for error messages, and they are logged.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from typing import Any, Literal, Protocol

from design_agent.providers.events import ParsedEvent

log = logging.getLogger("design_agent.providers")
NOISE_KEPT = 5


class StreamParser(Protocol):
    """The interface the runner drives; one instance per run."""

    framing: Literal["lines", "chunks"]
    needs_result: bool
    valid_lines: int
    noise_lines: int
    noise_sample: deque[str]

    def feed(self, item: str) -> list[ParsedEvent]: ...

    def end(self) -> list[ParsedEvent]: ...


class JsonLinesParser:
    """Base for one-JSON-object-per-line formats; subclasses implement `on_event`."""

    framing: Literal["lines", "chunks"] = "lines"
    needs_result = True
    label = "JSON lines"

    def __init__(self) -> None:
        self.valid_lines = 0
        self.noise_lines = 0
        self.noise_sample: deque[str] = deque(maxlen=NOISE_KEPT)

    def feed(self, item: str) -> list[ParsedEvent]:
        line = item.strip()
        if not line:
            return []
        obj = _json_object(line)
        if obj is None:
            self._noise(line)
            return []
        self.valid_lines += 1
        return self.on_event(obj)

    def end(self) -> list[ParsedEvent]:
        return []

    def on_event(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        raise NotImplementedError

    def _noise(self, line: str) -> None:
        self.noise_lines += 1
        shown = line if len(line) <= 300 else line[:300] + "…"
        self.noise_sample.append(shown)
        log.info("ignoring a non-JSON line in a %s stream: %r", self.label, shown)


def _json_object(line: str) -> dict[str, Any] | None:
    if not line.startswith("{"):  # cheap rejection of plain-text noise
        return None
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def as_int(value: Any) -> int | None:
    """An integer token count, or None when absent or not a number."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def as_dict(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def error_text(value: Any) -> str:
    """The message of an error that may be a string or an object with `message`."""
    if isinstance(value, dict):
        return as_text(value.get("message")) or json.dumps(value, ensure_ascii=False)[:300]
    return as_text(value)
