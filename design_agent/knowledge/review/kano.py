"""Kano recomputed: each attribute's stated category against its most frequent answer
(attractive, performance, must-be, indifferent, reverse, questionable), its better
((A + O) / (A + O + M + I)) and worse ((O + M) / (A + O + M + I)) coefficients, in the
counts' table or a table of their own naming the attribute."""

from __future__ import annotations

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import (
    cell,
    name_column,
    nothing_to_recompute,
    numbers,
    roles,
    shown,
    table_item,
)
from design_agent.knowledge.review.document import Document, Table
from design_agent.knowledge.review.words import phrase_pattern, review_words

KANO = ["attractive", "performance", "must_be", "indifferent", "reverse", "questionable"]


def kano_item(doc: Document) -> CheckItem:
    """Each attribute's stated category against its most frequent answer; its better and
    worse coefficients (in the same table or another one naming it) against the counts."""
    counted: dict[str, dict[str, float]] = {}
    problem = ""
    for table in doc.tables:
        columns = roles(table, ["category", *KANO, "better", "worse"])
        counts = {k: columns[k] for k in KANO if k in columns}
        if not {"attractive", "performance", "must_be", "indifferent"} <= set(counts):
            continue
        for row in table.rows:
            values = numbers(doc, row, counts)
            if values is not None:
                counted[fold(cell(row, name_column(table, columns)))] = values
                problem = problem or _kano_row(doc, table, row, columns, values)
    for table in doc.tables:
        columns = roles(table, ["better", "worse"])
        if not columns or roles(table, ["attractive"]):
            continue
        for row in table.rows:
            values = counted.get(fold(cell(row, name_column(table, columns))))
            if values is not None:
                problem = problem or _coefficients(doc, table, row, columns, values)
    if problem:
        return table_item("kano", doc.language, False, problem)
    if not counted:
        return nothing_to_recompute("kano", doc.language)
    detail = say("review_tables_ok", doc.language, count=len(counted))
    return table_item("kano", doc.language, True, detail)


def _kano_row(
    doc: Document, table: Table, row: list[str], columns: dict[str, int], values: dict[str, float]
) -> str:
    who = cell(row, name_column(table, columns))
    top = max(values, key=lambda k: values[k])
    stated_category = cell(row, columns.get("category"))
    said = _category_of(stated_category)
    if stated_category and said is not None and said != top and values[said] < values[top]:
        right = review_words().of(doc.language).kano.get(top, top)
        return say(
            "review_kano_category", doc.language, name=who, right=right, stated=stated_category
        )
    return _coefficients(doc, table, row, columns, values)


def _coefficients(
    doc: Document, table: Table, row: list[str], columns: dict[str, int], values: dict[str, float]
) -> str:
    a, o, m, i = (values[k] for k in ("attractive", "performance", "must_be", "indifferent"))
    base = a + o + m + i
    if not base:
        return ""
    who = cell(row, name_column(table, columns))
    for role, right in (("better", (a + o) / base), ("worse", (o + m) / base)):
        stated = doc.number(cell(row, columns.get(role)))
        if stated is None:
            continue
        value = abs(stated) / 100 if abs(stated) > 1.001 else abs(stated)
        if abs(value - right) > 0.015:
            header = cell(table.header, columns[role]) or role
            sign = "-" if stated < 0 else ""
            return say(
                "review_kano_coefficient", doc.language, coefficient=header, name=who,
                right=sign + shown(round(right, 2), doc.language), stated=cell(row, columns[role]),
            )  # fmt: skip
    return ""


def _category_of(text: str) -> str | None:
    """The Kano role a category cell names first ("Must-be", "Indiferente, cerca de
    atractiva": indifferent)."""
    folded = fold(text)
    found = []
    for role in KANO:
        names = [n for n in review_words().columns[role] if len(n) > 1]
        hit = phrase_pattern(names).search(folded)
        if hit:
            found.append((hit.start(), role))
    return min(found)[1] if found else None
