"""Reviews and tickets exported as CSV: any columns, read through a mapping the user gives
once (which column is the text, and optionally the author, the date and the rating); the
mapping is kept for files with the same columns."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict

from design_agent.core.errors import EvidenceInputError, EvidenceNeedsAnswer
from design_agent.core.evidence import ParsedSegment
from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import fold

FIELDS = ("text", "author", "date", "rating")
# A column whose name has one of these words holds that field (a mapping said in words).
REVIEW_COLUMNS = {
    "author": LexiconWords("review_author_columns"),
    "date": LexiconWords("review_date_columns"),
    "rating": LexiconWords("review_rating_columns"),
}


class ColumnMapping(BaseModel):
    """Which column holds what (the names as the header spells them)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    author: str | None = None
    date: str | None = None
    rating: str | None = None


def header_key(header: list[str]) -> str:
    """The state key a mapping is kept under: the header's columns, folded."""
    digest = hashlib.sha256("\x1f".join(fold(c.strip()) for c in header).encode()).hexdigest()
    return f"evidence.mapping.{digest[:16]}"


def parse_mapping(text: str, source: str, header: list[str]) -> ColumnMapping:
    """`text=Review text,author=Reviewer` -> a mapping whose columns the header has."""
    given: dict[str, str] = {}
    for part in text.split(","):
        name, _, column = part.partition("=")
        name = name.strip().lower()
        if name not in FIELDS or not column.strip():
            raise EvidenceInputError(
                f"--map: '{part.strip()}' is not FIELD=COLUMN (fields: {', '.join(FIELDS)})"
            )
        given[name] = column.strip().strip('"')
    if "text" not in given:
        raise EvidenceInputError("--map: say which column holds the text (text=COLUMN)")
    columns = {fold(c.strip()): c.strip() for c in header}
    for name, column in given.items():
        if fold(column) not in columns:
            raise EvidenceInputError(
                f"{source}:1: no column '{column}' for {name}; its columns are "
                f"{', '.join(c.strip() for c in header)}"
            )
        given[name] = columns[fold(column)]
    return ColumnMapping.model_validate(given)


def ask_for_mapping(source: str, header: list[str]) -> EvidenceNeedsAnswer:
    """The one line that asks for the mapping (and how to give it); a conversation asks
    which of the columns holds the text."""
    columns = ", ".join(c.strip() for c in header)
    example = next((c.strip() for c in header if "text" in fold(c) or "comment" in fold(c)), "")
    hint = f'text="{example or header[-1].strip()}"'
    return EvidenceNeedsAnswer(
        f"{source}:1: header not recognised as a survey export ({columns}); say which column "
        f"holds the text, once: design-agent evidence add {source} --map {hint}"
        ",author=COLUMN,date=COLUMN,rating=COLUMN",
        ask="columns",
        source=source,
        options=[c.strip() for c in header if c.strip()][:9],
        header=list(header),
    )


def text_mapping(column: str, header: list[str]) -> ColumnMapping:
    """The mapping of a text column said in conversation; the author, date and rating
    columns taken from the header when their names say so (REVIEW_COLUMNS)."""
    given: dict[str, str] = {"text": column}
    for name, words in REVIEW_COLUMNS.items():
        found = next((c.strip() for c in header if c.strip() != column and
                      set(fold(c).split()) & words), None)  # fmt: skip
        if found:
            given[name] = found
    return ColumnMapping.model_validate(given)


def read_reviews(
    rows: list[list[str]], mapping: ColumnMapping
) -> tuple[list[ParsedSegment], list[dict[str, object]]]:
    """Each row's text as a turn of its author (C1, C2... when there is no author column),
    and the rows as data (rating, date)."""
    header = [c.strip() for c in rows[0]]
    where: Mapping[str, int] = {c: i for i, c in enumerate(header)}
    segments: list[ParsedSegment] = []
    data: list[dict[str, object]] = []
    for number, row in enumerate(rows[1:], start=2):
        text = row[where[mapping.text]].strip()
        if not text:
            continue
        author = row[where[mapping.author]].strip() if mapping.author else ""
        segments.append(
            ParsedSegment(speaker=author or f"Customer {number - 1}", text=text, line=number)
        )
        data.append({f: row[where[c]].strip() for f in FIELDS if (c := getattr(mapping, f))})
    return segments, data
