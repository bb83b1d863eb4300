"""Totals and averages in any table: a "Total" row is the sum of the rows above it, an
"Average" row their mean, column by column."""

from __future__ import annotations

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.knowledge.review.columns import close, is_role, roles, shown
from design_agent.knowledge.review.document import Document, Table
from design_agent.knowledge.review.words import review_words


def totals_item(doc: Document) -> CheckItem:
    """The first total or average that recomputes differently; not assessed when the answer
    has no such row."""
    label = review_words().of(doc.language).labels.sums
    checked = 0
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


def _summary(label: str) -> bool:
    return is_role(label, "total") or is_role(label, "average")
