"""One stream parser per adapter output format, and a pure helper to run one.

claude-stream-json   ClaudeStreamParser
gemini-stream-json   GeminiStreamParser
codex-json           CodexJsonParser
text                 PlainTextParser
"""

from __future__ import annotations

from collections.abc import Iterable

from design_agent.providers.events import ParsedEvent
from design_agent.providers.parsers.base import StreamParser
from design_agent.providers.parsers.claude import ClaudeStreamParser
from design_agent.providers.parsers.codex import CodexJsonParser
from design_agent.providers.parsers.gemini import GeminiStreamParser
from design_agent.providers.parsers.plain import PlainTextParser

PARSERS: dict[str, type[StreamParser]] = {
    "claude-stream-json": ClaudeStreamParser,
    "gemini-stream-json": GeminiStreamParser,
    "codex-json": CodexJsonParser,
    "text": PlainTextParser,
}


def make_parser(output_format: str) -> StreamParser:
    """A fresh parser for `output_format` (an adapter's `output`)."""
    try:
        return PARSERS[output_format]()
    except KeyError:
        raise ValueError(f"no stream parser for output format '{output_format}'") from None


def parse_lines(output_format: str, items: Iterable[str]) -> list[ParsedEvent]:
    """Every event `items` (lines, or chunks for plain text) imply, end of stream included."""
    parser = make_parser(output_format)
    events: list[ParsedEvent] = []
    for item in items:
        events.extend(parser.feed(item))
    events.extend(parser.end())
    return events


__all__ = ["PARSERS", "StreamParser", "make_parser", "parse_lines"]
