"""Gemini CLI: `gemini -o stream-json`.

Assistant text arrives as `message` events with `"delta": true`; the final
`result` carries token counts (no text, no cost) and `status` decides
success. `error` events are warnings unless the result says otherwise.
"""

from __future__ import annotations

from typing import Any

from design_agent.providers.events import ParsedEvent, StreamDone, StreamError, TextDelta, Usage
from design_agent.providers.parsers.base import (
    JsonLinesParser,
    as_dict,
    as_int,
    as_text,
    error_text,
)


class GeminiStreamParser(JsonLinesParser):
    label = "gemini stream-json"

    def __init__(self) -> None:
        super().__init__()
        self._any_text = False

    def on_event(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        kind = obj.get("type")
        if kind == "message" and obj.get("role") == "assistant":
            return self._on_message(obj)
        if kind == "result":
            return self._on_result(obj)
        if kind == "error":
            return [StreamError(message=error_text(obj.get("message") or obj), terminal=False)]
        return []  # init, the user's message, tool events and unknown events

    def _on_message(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        text = as_text(obj.get("content"))
        # A whole (non-delta) message repeats what the deltas already gave.
        if not text or (not obj.get("delta") and self._any_text):
            return []
        self._any_text = True
        return [TextDelta(text=text)]

    def _on_result(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        stats = as_dict(obj.get("stats"))
        usage = Usage(
            input_tokens=as_int(stats.get("input_tokens")),
            output_tokens=as_int(stats.get("output_tokens")),
        )
        if obj.get("status") != "success":
            message = error_text(obj.get("error")) or f"gemini status '{obj.get('status')}'"
            return [usage, StreamError(message=message)]
        return [usage, StreamDone()]
