"""Claude Code: `claude -p --output-format stream-json --verbose [--include-partial-messages]`.

With partial messages, text arrives in `stream_event` content_block_delta
events and the later `assistant` event repeats it (so it is skipped);
without them, each `assistant` event carries new text. The final `result`
decides success: `is_error` (even with subtype "success", as when not
logged in) is a failure.
"""

from __future__ import annotations

from typing import Any

from design_agent.providers.events import ParsedEvent, StreamDone, StreamError, TextDelta, Usage
from design_agent.providers.parsers.base import JsonLinesParser, as_dict, as_int, as_text

HTTP_REASONS = {401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests", 529: "Overloaded"}


class ClaudeStreamParser(JsonLinesParser):
    label = "claude stream-json"

    def __init__(self) -> None:
        super().__init__()
        self._streaming_id: str | None = None
        self._streamed_ids: set[str | None] = set()
        self._last_message_id: str | None = None
        self._any_text = False

    def on_event(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        kind = obj.get("type")
        if kind == "stream_event" and isinstance(obj.get("event"), dict):
            return self._on_stream_event(obj["event"])
        if kind == "assistant" and isinstance(obj.get("message"), dict):
            return self._on_assistant(obj, obj["message"])
        if kind == "result":
            return self._on_result(obj)
        return []  # system/user/unknown events carry no answer text

    def _on_stream_event(self, event: dict[str, Any]) -> list[ParsedEvent]:
        if event.get("type") == "message_start":
            message = event.get("message")
            self._streaming_id = message.get("id") if isinstance(message, dict) else None
            return []
        delta = event.get("delta")
        if event.get("type") != "content_block_delta" or not isinstance(delta, dict):
            return []
        text = as_text(delta.get("text")) if delta.get("type") == "text_delta" else ""
        if not text:
            return []
        self._streamed_ids.add(self._streaming_id)
        self._last_message_id = self._streaming_id
        self._any_text = True
        return [TextDelta(text=text)]

    def _on_assistant(self, obj: dict[str, Any], message: dict[str, Any]) -> list[ParsedEvent]:
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        text = "".join(
            as_text(b.get("text"))
            for b in blocks
            if isinstance(b, dict) and b.get("type") == "text"
        )
        if obj.get("error"):  # e.g. authentication_failed: the text is an error, not an answer
            said = f"{obj['error']}: {text}" if text else str(obj["error"])
            return [StreamError(message=said, terminal=False)]
        message_id = message.get("id")
        if message_id in self._streamed_ids or not text:
            return []  # already streamed through partial messages
        separator = "\n\n" if self._any_text and message_id != self._last_message_id else ""
        self._last_message_id = message_id
        self._any_text = True
        return [TextDelta(text=separator + text)]

    def _on_result(self, obj: dict[str, Any]) -> list[ParsedEvent]:
        usage = as_dict(obj.get("usage"))
        cost = obj.get("total_cost_usd")
        events: list[ParsedEvent] = [
            Usage(
                input_tokens=_input_tokens(usage),
                output_tokens=as_int(usage.get("output_tokens")),
                cost_usd=float(cost) if isinstance(cost, int | float) else None,
            )
        ]
        if obj.get("is_error") or obj.get("subtype") != "success":
            return [*events, StreamError(message=_error_message(obj))]
        result = obj.get("result") if isinstance(obj.get("result"), str) else None
        if result and not self._any_text:  # nothing streamed: the result is the answer
            self._any_text = True
            events.insert(0, TextDelta(text=result))
        return [*events, StreamDone(text=result)]


def _input_tokens(usage: dict[str, Any]) -> int | None:
    counts = [
        as_int(usage.get(key))
        for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    ]
    known = [c for c in counts if c is not None]
    return sum(known) if known else None


def _error_message(obj: dict[str, Any]) -> str:
    parts = [as_text(obj.get("result")).strip()]
    status = obj.get("api_error_status")
    if isinstance(status, int):
        parts.append(f"HTTP {status} {HTTP_REASONS.get(status, '')}".strip())
    errors = obj.get("errors")
    if isinstance(errors, list):
        parts.extend(e for e in errors if isinstance(e, str) and not e.startswith("[ede_"))
    reason = as_text(obj.get("terminal_reason"))
    if reason and reason != "completed":
        parts.append(f"terminal reason: {reason}")
    found = [p for p in parts if p]
    return "; ".join(found) or f"claude reported {obj.get('subtype') or 'an error'}"
