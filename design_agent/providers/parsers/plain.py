"""Plain text (`llm`, `ollama run`, any CLI that just prints its answer).

Text is passed on as it is decoded, not line by line, so a CLI that prints
tokens without newlines still streams. There is no final event: the exit
code decides success.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

from design_agent.providers.events import ParsedEvent, TextDelta
from design_agent.providers.parsers.base import NOISE_KEPT


class PlainTextParser:
    framing: Literal["lines", "chunks"] = "chunks"
    needs_result = False

    def __init__(self) -> None:
        self.valid_lines = 0
        self.noise_lines = 0
        self.noise_sample: deque[str] = deque(maxlen=NOISE_KEPT)

    def feed(self, item: str) -> list[ParsedEvent]:
        if not item:
            return []
        self.valid_lines += 1
        return [TextDelta(text=item)]

    def end(self) -> list[ParsedEvent]:
        return []
