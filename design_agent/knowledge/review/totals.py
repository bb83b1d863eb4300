"""Totals and averages in any table: a "Total" row is the sum of the rows above it, an
"Average" row their mean, column by column."""

from __future__ import annotations

import re
from functools import cache

from design_agent.core.checklist import CheckItem
from design_agent.core.lexicon import lexicon
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import close, is_role, roles, shown
from design_agent.knowledge.review.document import Document, Table
from design_agent.knowledge.review.equations import equations_item
from design_agent.knowledge.review.words import review_words


def totals_item(doc: Document) -> CheckItem:
    """The first total or average that recomputes differently (a table's Total row, or a
    count and its parts in prose: "12 issues (3 + 4 + 4)"); not assessed when the answer
    has neither."""
    label = review_words().of(doc.language).labels.sums
    wrong = equations_item(doc)
    if wrong is not None:
        return wrong.model_copy(update={"id": "totals"})
    checked = 0
    for sentence in doc.short_sentences:
        problem, count = _inline_problem(doc, sentence)
        checked += count
        if problem:
            return CheckItem(id="totals", label=label, passed=False, detail=problem)
    for table in doc.tables:
        problem, count = _table_problem(doc, table)
        checked += count
        if problem:
            return CheckItem(id="totals", label=label, passed=False, detail=problem)
    if not checked:
        return CheckItem(id="totals", label=label, passed=True, assessed=False)
    detail = say("review_tables_ok", doc.language, count=checked)
    return CheckItem(id="totals", label=label, passed=True, detail=detail)


def _table_problem(doc: Document, table: Table) -> tuple[str, int]:
    skip = set(roles(table, ["rank"]).values())
    body = [row for row in table.rows if row and not _summary(row[0])]
    checked = 0
    for row in table.rows:
        if not row or not _summary(row[0]):
            continue
        average = is_role(row[0], "average") and not is_role(row[0], "total")
        for index in range(1, len(row)):
            stated = doc.number(row[index])
            values = [doc.number(r[index]) if index < len(r) else None for r in body]
            if index in skip or stated is None or len(values) < 2 or None in values:
                continue
            numbers = [v for v in values if v is not None]
            right = sum(numbers) / len(numbers) if average else sum(numbers)
            checked += 1
            if not close(stated, right, 0.01, 0.6):
                column = table.header[index] if index < len(table.header) else str(index)
                key = "review_average" if average else "review_total"
                return say(
                    key, doc.language, column=column, right=shown(right, doc.language),
                    stated=row[index],
                ), checked  # fmt: skip
    return "", checked


_PART = r"(\d{1,6})(?:\s+(?!(?:and|y)\b)[a-zà-ÿ-]+){0,2}"
# "12 issues (3 + 4 + 4)", "12 hallazgos (4 críticos, 5 graves, 2 leves)",
# "De los 12 hallazgos, 4 son críticos, 5 graves y 2 leves".
_BREAKDOWN = re.compile(
    rf"(?<![\w.,])(?P<of>(?:of the|of|de los|de las)\s+)?(\d{{1,6}}|⟪count⟫)\s+"
    rf"([a-zà-ÿ-]+(?:\s+(?:in total|en total|in all))?)\s*(?P<sep>\(|:\s*|,\s*)"
    rf"({_PART}(?:\s*(?:\+|,|\by\b|\band\b)\s*(?:son\s+|are\s+)?{_PART}){{1,12}})"
    rf"(?=\s*(?:\)|[.;]|$))",
)
_NUMBER_IN = re.compile(r"(?<![\w.,])\d{1,6}(?![\w.,%])")


@cache
def _breakdown() -> tuple[re.Pattern[str], dict[str, int]]:
    """The breakdown pattern, its count spelled in digits or in words (the lexicon's)."""
    table = lexicon().merged_table("number_words")
    numbers = {fold(k): int(v) for k, v in table.items() if " " not in k and int(v) > 1}
    numbers.update({k: v for k, v in review_words().counts.items() if " " not in k and v > 1})
    spelled = "|".join(re.escape(k) for k in sorted(numbers, key=len, reverse=True))
    return re.compile(_BREAKDOWN.pattern.replace("⟪count⟫", spelled or "(?!)")), numbers


def _inline_problem(doc: Document, sentence: str) -> tuple[str, int]:
    """A count followed by its parts, whose parts do not add up to it."""
    folded = fold(sentence)
    pattern, spelled = _breakdown()
    for match in pattern.finditer(folded):
        parts = [int(n) for n in _NUMBER_IN.findall(match.group(5))]
        raw = match.group(2)
        stated = int(raw) if raw.isdigit() else spelled[raw]
        # "8 losses, 6 wins, 4 no-decisions" is a list; "of the 12 findings, 4 are ..." and
        # "12 issues (3 + 4 + 4)" are a count and its parts, each part smaller than it.
        listed = match.group("sep").startswith(",") and not match.group("of")
        if len(parts) < 2 or listed or max(parts) >= stated:
            continue
        if re.search(r"\b(?:of|de|out|sobre)\b\s+\d", match.group(5)):
            continue
        if sum(parts) != stated:
            shown_parts = " + ".join(str(p) for p in parts)
            return say(
                "review_inline_sum", doc.language, parts=shown_parts, right=sum(parts),
                stated=f"{raw} {match.group(3)}",
            ), 1  # fmt: skip
        return "", 1
    return "", 0


def _summary(label: str) -> bool:
    return is_role(label, "total") or is_role(label, "average")
