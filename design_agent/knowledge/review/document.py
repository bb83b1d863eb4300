"""An answer's markdown as the checks read it: its headings (and the parts under them),
its tables, its sentences, and numbers written the English or the Spanish way."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from design_agent.core.text import fold

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s{0,3}(?:\d+[.)]\s+)?\*\*([^*\n]{2,100}?)\*\*:?\s*$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_RULE_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
# Arithmetic in prose is read in sentences up to this long: a longer "sentence" is a list
# or a table gone flat, and reading it would cost more than it could tell.
SHORT_SENTENCE = 600
_NUMBER = re.compile(r"[-−]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,])|[-−]?\d[\d.,]*\d|[-−]?\d")


@dataclass(frozen=True)
class Part:
    """A heading and the text under it, up to the next heading of its level or above."""

    heading: str
    level: int
    body: str


@dataclass(frozen=True)
class Table:
    """A markdown table: its header cells and its rows' cells, as written."""

    header: list[str]
    rows: list[list[str]]

    def column(self, *names: str) -> int | None:
        """The first column whose header holds one of `names` (folded, whole words)."""
        for index, cell in enumerate(self.header):
            words = set(re.findall(r"[a-z0-9+#]+", fold(cell)))
            if any(set(name.split()) <= words for name in names):
                return index
        return None


class Document:
    """One answer, read once."""

    def __init__(self, text: str, language: str) -> None:
        self.text = text
        self.language = language
        self.lines = text.splitlines()

    @cached_property
    def parts(self) -> list[Part]:
        marks: list[tuple[int, int, str]] = []  # (line, level, heading)
        for number, line in enumerate(self.lines):
            if match := _HEADING.match(line):
                marks.append((number, len(match.group(1)), _plain(match.group(2))))
            elif match := _BOLD_LINE.match(line):
                marks.append((number, 7, _plain(match.group(1))))
        parts = []
        for i, (start, level, heading) in enumerate(marks):
            end = next((n for n, lv, _ in marks[i + 1 :] if lv <= level), len(self.lines))
            parts.append(Part(heading, level, "\n".join(self.lines[start + 1 : end]).strip()))
        return parts

    @cached_property
    def tables(self) -> list[Table]:
        tables: list[Table] = []
        block: list[list[str]] = []
        for line in [*self.lines, ""]:
            if _TABLE_ROW.match(line):
                block.append(_cells(line))
                continue
            if len(block) >= 3 and all(_RULE_CELL.match(c) for c in block[1] if c):
                tables.append(Table(block[0], [r for r in block[2:] if any(r)]))
            block = []
        return tables

    @cached_property
    def sentences(self) -> list[str]:
        """The answer's sentences and list items, table rows left out."""
        prose = "\n".join(line for line in self.lines if not _TABLE_ROW.match(line))
        return [s.strip() for s in _SENTENCE_END.split(prose) if s and s.strip()]

    @cached_property
    def short_sentences(self) -> list[str]:
        """The sentences arithmetic is read in (see SHORT_SENTENCE)."""
        return [s for s in self.sentences if len(s) <= SHORT_SENTENCE]

    def number(self, cell: str) -> float | None:
        """The one number a cell holds ("1,200", "1.200", "0,8", "80 %"), or None."""
        return parse_number(cell, self.language)


def parse_number(text: str, language: str) -> float | None:
    """The first number in `text`, read the way `language` writes it."""
    text = _plain(text)
    match = _NUMBER.search(text)
    if match is None:
        return None
    raw = re.sub(r"[\s\u00a0\u202f]", "", match.group(0)).replace("−", "-")
    if "," in raw and "." in raw:
        decimal = "," if raw.rfind(",") > raw.rfind(".") else "."
    elif raw.count(",") + raw.count(".") == 1:
        mark = "," if "," in raw else "."
        after = raw.split(mark)[1]
        thousands = len(after) == 3 and (mark == ("." if language == "es" else ","))
        decimal = "" if thousands else mark
    else:
        decimal = ""  # several of one mark: thousands separators
    group = {",": ".", ".": ","}.get(decimal, "")
    cleaned = raw.replace(group, "") if group else raw.replace(",", "").replace(".", "")
    if decimal:
        cleaned = cleaned.replace(decimal, ".")
    try:
        return float(cleaned)
    except ValueError:
        return None


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [_plain(cell) for cell in inner.split("|")]


def _plain(text: str) -> str:
    """Markdown emphasis and code marks taken off."""
    return re.sub(r"[*_`]+", "", text).strip()
