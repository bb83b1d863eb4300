"""Percentages of a whole (task completion, a share of participants) cannot pass 100 %;
percentages of change (a 150 % increase) can, and are left alone."""

from __future__ import annotations

import re
from functools import cache

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.document import Document, parse_number
from design_agent.knowledge.review.words import phrase_pattern, review_words

_PERCENT = re.compile(r"(\d[\d.,]*)\s?(?:%|por ciento|percent\b)")
CONTEXT_CHARS = 60


def percentage_item(doc: Document) -> CheckItem:
    """Failed on the first percentage over 100 whose context says it is of a whole."""
    label = review_words().of(doc.language).labels.percentages
    for value, context, shown in _percentages(doc):
        if value > 100 and _of_a_whole(context):  # the context is read only past 100
            detail = say("review_percentage", doc.language, value=shown, context=context.strip())
            return CheckItem(id="percentages", label=label, passed=False, detail=detail)
    return CheckItem(id="percentages", label=label, passed=True)


def _percentages(doc: Document) -> list[tuple[float, str, str]]:
    found: list[tuple[float, str, str]] = []
    for sentence in doc.sentences:
        for match in _PERCENT.finditer(sentence):
            value = parse_number(match.group(1), doc.language)
            start, end = match.start(), match.end()
            context = sentence[max(0, start - CONTEXT_CHARS) : end + CONTEXT_CHARS]
            if value is not None:
                found.append((value, context, match.group(0)))
    for table in doc.tables:
        for row in table.rows:
            for index, cell in enumerate(row):
                hit = _PERCENT.search(cell)
                value = parse_number(hit.group(1), doc.language) if hit else None
                if hit and value is not None:
                    header = table.header[index] if index < len(table.header) else ""
                    found.append((value, f"{row[0]} {header} {cell}", hit.group(0)))
    return found


@cache
def _contexts() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What a percentage of a whole is said beside, and what a change is."""
    words = review_words()
    bounded = phrase_pattern([w for lang in words.languages for w in lang.bounded])
    change = phrase_pattern([w for lang in words.languages for w in lang.change])
    return bounded, change


def _of_a_whole(context: str) -> bool:
    bounded, change = _contexts()
    folded = fold(context)
    return bool(bounded.search(folded)) and not change.search(folded)
