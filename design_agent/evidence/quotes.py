"""The quotes an answer makes: each quoted passage with the segment id it cites (the prompt
asks for `"words" [S03.T047]`; a blockquote line ending with an id counts too), and the
theme (the heading) it sits under."""

from __future__ import annotations

import re
from dataclasses import dataclass

SEGMENT_ID = r"S\d{2,}\.T\d{3,}"
QUOTED = re.compile(
    rf"[\"“«„](?P<quote>[^\"“”«»„\n]{{3,800}})[\"”»“]"
    rf"(?P<tail>[^\n\"“”«»]{{0,80}}?\b(?P<id>{SEGMENT_ID})\b)?"
)
BLOCK = re.compile(
    rf"^\s*>\s*(?P<quote>[^\"“”«»\n]{{12,800}}?)\s*[-—–(\[]*\s*(?:[A-Z]\d+,?\s*)?"
    rf"\[?(?P<id>{SEGMENT_ID})\]?\)?\s*$",
    re.MULTILINE,
)
HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s+(?P<h>.+?)\s*#*|\*\*(?P<b>[^*\n]{3,120})\*\*:?)\s*$")
MIN_UNCITED_WORDS = 6


@dataclass(frozen=True)
class Quote:
    """A quoted passage as the answer wrote it, the id it cites, and where."""

    text: str
    cited: str | None
    theme: str
    offset: int


def quotes_in(answer: str) -> list[Quote]:
    """Every quote of `answer`, in order; an uncited one only when it is long enough to be
    a participant's words rather than a term in quotes."""
    found: dict[int, Quote] = {}
    themes = _themes(answer)
    for match in QUOTED.finditer(answer):
        text, cited = match.group("quote").strip(), match.group("id")
        if cited or len(text.split()) >= MIN_UNCITED_WORDS:
            found[match.start()] = Quote(
                text, cited, _theme_at(themes, match.start()), match.start()
            )
    for match in BLOCK.finditer(answer):
        if not any(q.offset >= match.start() and q.offset < match.end() for q in found.values()):
            text = match.group("quote").strip().rstrip("—–-,( ").strip()
            theme = _theme_at(themes, match.start())
            found[match.start()] = Quote(text, match.group("id"), theme, match.start())
    return [found[k] for k in sorted(found)]


def _themes(answer: str) -> list[tuple[int, str]]:
    out, offset = [], 0
    for line in answer.splitlines(keepends=True):
        heading = HEADING.match(line.rstrip("\n"))
        if heading:
            out.append((offset, (heading.group("h") or heading.group("b") or "").strip()))
        offset += len(line)
    return out


def _theme_at(themes: list[tuple[int, str]], offset: int) -> str:
    before = [name for at, name in themes if at <= offset]
    return before[-1] if before else ""


def when(seconds: float | None) -> str:
    """12:04, or 1:02:03 past an hour ("" when the file gave no time)."""
    if seconds is None:
        return ""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
