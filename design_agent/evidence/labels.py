"""Speaker labels in plain text (Otter exports, markdown notes, a PDF's text, Word files):
what a name looks like, and the line shapes that introduce a turn."""

from __future__ import annotations

import re

from design_agent.core.evidence import ParsedSegment
from design_agent.evidence.turns import merged, require_speakers, seconds

# A speaker's name: one to four words that start with a capital or a digit ("Dana Brooks",
# "Speaker 2", "P3", "María José"), no sentence punctuation.
NAME = r"[^\W\d_][\w'’.-]*(?:\s[\w'’.-]+){0,3}"
STAMP = r"\d{1,2}(?::\d{2}){1,2}(?:[.,]\d{1,3})?"
# "Dana Brooks  0:05" or "Dana Brooks   00:01:23" alone on a line: the text follows.
HEADER = re.compile(rf"^(?P<name>{NAME})(?:\s{{2,}}|\t|\s+\|\s+)(?P<time>{STAMP})\s*$")
# One line with the speaker and the words: "**Dana** (00:02:10): text", "Dana (00:01:23):
# text", "[00:01:23] Dana: text", "00:01:23 Dana: text", "Dana: text", "- Dana: text".
INLINE = re.compile(
    rf"^(?:[-*]\s+)?(?:\[?(?P<before>{STAMP})\]?\s+)?\**(?P<name>{NAME})\**"
    rf"(?:\s*[(\[](?P<after>{STAMP})[)\]])?\s*\**:\**\s+(?P<text>\S.*)$"
)
HEADING = re.compile(r"^#{1,6}\s")
MAX_NAME_WORDS = 4


def read_labelled(source: str, text: str) -> list[ParsedSegment]:
    """The turns of a text whose speakers are labelled, one way or the other."""
    pieces: list[ParsedSegment] = []
    current: ParsedSegment | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or HEADING.match(line):
            current = None if HEADING.match(line) else current
            continue
        header, inline = HEADER.match(line), INLINE.match(line)
        if header and _is_name(header.group("name")):
            current = ParsedSegment(
                speaker=header.group("name"),
                start=seconds(header.group("time")),
                text="",
                line=number,
            )
            pieces.append(current)
        elif inline and _is_name(inline.group("name")):
            time = inline.group("before") or inline.group("after")
            current = ParsedSegment(
                speaker=inline.group("name").strip(),
                start=seconds(time) if time else None,
                text=inline.group("text"),
                line=number,
            )
            pieces.append(current)
        elif current is not None:  # a wrapped line, or the text under a header
            current = current.model_copy(update={"text": f"{current.text} {line}".strip()})
            pieces[-1] = current
    turns = merged(pieces)
    require_speakers(source, turns)
    return turns


def _is_name(name: str) -> bool:
    words = name.split()
    return 0 < len(words) <= MAX_NAME_WORDS and (name[0].isupper() or name[0].isdigit())
