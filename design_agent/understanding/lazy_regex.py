"""Regular expressions compiled on first need, and not tried where they cannot match.

intents.py reads every message against some 170 patterns, and compiling them
all cost every process tens of milliseconds, though a design request matches
none of them. A `LazyPattern` is compiled the first time it is tried on a text
it could match: for `fullmatch` and `match`, one that starts (where it is
tried) with one of its `starts`; for any method, one that holds one of its
`needles`. Both are necessary conditions stated beside the pattern, so the
result is the pattern's own; tests/test_intent_patterns.py proves each of them
from the pattern's syntax tree.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from functools import cached_property


class LazyPattern:
    """One regex, compiled on first use; `starts` and `needles` (empty: no condition) say
    what every text it matches begins with and holds."""

    def __init__(
        self,
        source: str,
        *,
        starts: tuple[str, ...] = (),
        needles: tuple[str, ...] = (),
        flags: int = 0,
    ) -> None:
        self.source = source
        self.starts = starts
        self.needles = needles
        self.flags = flags

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        return re.compile(self.source, self.flags)

    def fullmatch(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.fullmatch(text, pos) if self._may_start(text, pos) else None

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.compiled.match(text, pos) if self._may_start(text, pos) else None

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(text, pos, endpos) if self._may_hold(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(text) if self._may_hold(text) else iter(())

    def _may_start(self, text: str, pos: int) -> bool:
        if self.starts and not text.startswith(self.starts, pos):
            return False
        return self._may_hold(text)

    def _may_hold(self, text: str) -> bool:
        return not self.needles or any(needle in text for needle in self.needles)
