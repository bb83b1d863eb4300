"""SUS recomputed: each respondent's ten answers (a table with items 1-10, or a sentence
listing them) to their score, odd items (answer - 1) and even ones (5 - answer) summed
and times 2.5; any SUS score stated within 0-100."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import (
    cell,
    close,
    name_column,
    nothing_to_recompute,
    roles,
    shown,
    table_item,
)
from design_agent.knowledge.review.document import Document, Table, parse_number

_ITEM = re.compile(r"^(?:q|item|p|pregunta)?\s*(\d{1,2})$")
_SUS_SAID = re.compile(r"\bsus\b[^0-9\n]{0,30}?(-?\d+(?:[.,]\d+)?)")
_TEN_ANSWERS = re.compile(r"(?<![\d.,])([1-5](?:\s*,\s*[1-5]){9})(?![\d])")
_RESULT = re.compile(r"=\s*(\d{1,3}(?:[.,]\d{1,2})?)(?![\d])")


def sus_item(doc: Document) -> CheckItem:
    """The first SUS score that recomputes differently, or is outside 0-100."""
    checked = 0
    for table in doc.tables:
        problem, count = _table_problem(doc, table)
        checked += count
        if problem:
            return table_item("sus", doc.language, False, problem)
    for sentence in doc.short_sentences:
        said = _sus_in_prose(doc, sentence)
        checked += said is not None
        if said:
            return table_item("sus", doc.language, False, said)
    for match in _SUS_SAID.finditer(fold(doc.text)):
        value = parse_number(match.group(1), doc.language)
        checked += 1
        if value is not None and not 0 <= value <= 100:
            detail = say("review_sus_range", doc.language, stated=match.group(1))
            return table_item("sus", doc.language, False, detail)
    if not checked:
        return nothing_to_recompute("sus", doc.language)
    detail = say("review_tables_ok", doc.language, count=checked)
    return table_item("sus", doc.language, True, detail)


def _table_problem(doc: Document, table: Table) -> tuple[str, int]:
    """A respondents' table with items 1-10 and a score column, row by row."""
    items = {
        int(m.group(1)): i
        for i, h in enumerate(table.header)
        if (m := _ITEM.match(fold(h).strip()))
    }
    score = roles(table, ["sus", "score"])
    column = score.get("sus", score.get("score"))
    if set(range(1, 11)) - set(items) or column is None:
        return "", 0
    name = name_column(table, {**{str(k): v for k, v in items.items()}, "score": column})
    checked = 0
    for row in table.rows:
        answers = [doc.number(cell(row, items[k])) for k in range(1, 11)]
        stated = doc.number(cell(row, column))
        given = [a for a in answers if a is not None]
        if stated is None or len(given) < 10:
            continue
        checked += 1
        right = sus_score(given)
        if not close(stated, right, 0.0, 0.6):
            return say(
                "review_table_score", doc.language, kind="SUS", name=cell(row, name),
                right=shown(right, doc.language), stated=cell(row, column), ranking="",
            ), checked  # fmt: skip
    return "", checked


def _sus_in_prose(doc: Document, sentence: str) -> str | None:
    """ "P3 answered 3, 2, 4, 1, 4, 2, 3, 2, 4, 3: ... = 77.5": the ten answers recomputed
    against the last result the sentence gives; None when it has no such pair."""
    run = _TEN_ANSWERS.search(sentence)
    results = list(_RESULT.finditer(sentence[run.end() :])) if run else []
    if run is None or not results:
        return None
    answers = [float(a) for a in re.findall(r"[1-5]", run.group(1))]
    right, said = sus_score(answers), results[-1].group(1)
    stated = parse_number(said, doc.language)
    if stated is None or close(stated, right, 0.0, 0.6):
        return ""
    who = sentence[: run.start()].rstrip(" :,").split(",")[-1].strip()[-40:] or "?"
    return say("review_table_score", doc.language, kind="SUS", name=who,
               right=shown(right, doc.language), stated=said, ranking="")  # fmt: skip


def sus_score(answers: list[float]) -> float:
    """One respondent's SUS score: odd items count (answer - 1), even ones (5 - answer)."""
    return 2.5 * sum((a - 1) if k % 2 == 0 else (5 - a) for k, a in enumerate(answers))
