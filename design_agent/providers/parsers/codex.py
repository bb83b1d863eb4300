"""Codex: `codex exec --json`.

Text comes as whole `agent_message` items (no token deltas); an `item` of
type `error` is usually a harmless warning, and top-level `error` events are
retries ("Reconnecting... 2/5"). `turn.failed` fails the request;
`turn.completed` ends it with token counts.
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


class CodexJsonParser(JsonLinesParser):
    label = "codex --json"

    def __init__(self) -> None:
        super().__init__()
        self._emitted: dict[str, str] = {}
        self._last_item: str | None = None

    def on_event(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        kind = obj.get("type")
        if kind in {"item.started", "item.updated", "item.completed"}:
            item = obj.get("item")
            return self._on_item(item) if isinstance(item, dict) else []
        if kind == "error":
            return [StreamError(message=error_text(obj.get("message") or obj), terminal=False)]
        if kind == "turn.failed":
            return [StreamError(message=error_text(obj.get("error")) or "codex turn failed")]
        if kind == "turn.completed":
            usage = as_dict(obj.get("usage"))
            tokens = Usage(
                input_tokens=as_int(usage.get("input_tokens")),
                output_tokens=as_int(usage.get("output_tokens")),
            )
            return [tokens, StreamDone()]
        return []  # thread.started, turn.started, unknown events

    def _on_item(self, item: dict[str, Any]) -> list[ParsedEvent]:
        if item.get("type") == "error":
            return [StreamError(message=error_text(item.get("message")), terminal=False)]
        text = as_text(item.get("text"))
        if item.get("type") != "agent_message" or not text:
            return []
        item_id = str(item.get("id"))
        before = self._emitted.get(item_id, "")
        # Items may be re-sent as they grow; only what is new is emitted.
        new = text[len(before) :] if text.startswith(before) else ""
        if not new:
            return []
        separator = "\n\n" if not before and self._emitted and self._last_item != item_id else ""
        self._emitted[item_id] = text
        self._last_item = item_id
        return [TextDelta(text=separator + new)]
