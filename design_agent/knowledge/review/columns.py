"""Which column of a table plays which role (reach, effort, a score, a rank), from the
column names of words.yaml; and numbers as the review shows them."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.document import Document, Table
from design_agent.knowledge.review.words import review_words


def roles(table: Table, wanted: list[str]) -> dict[str, int]:
    """Role -> column index for each role of `wanted` found, each column used once, the
    roles taken in the order given (name the specific ones, "rice", before "score")."""
    names = review_words().columns
    headers = [set(re.findall(r"[a-z0-9+#-]+", fold(cell))) for cell in table.header]
    found: dict[str, int] = {}
    for role in wanted:
        for index, words in enumerate(headers):
            if index in found.values():
                continue
            if any(set(name.split()) <= words for name in names[role]):
                found[role] = index
                break
    return found


def is_role(cell: str, role: str) -> bool:
    """The cell (a row's label) names `role`: "Total", "Media"."""
    words = set(re.findall(r"[a-z0-9+#-]+", fold(cell)))
    return any(set(name.split()) <= words for name in review_words().columns[role])


def name_column(table: Table, used: dict[str, int]) -> int:
    """The column naming each row: the "name" role, else the first column not in `used`."""
    found = roles(table, ["name"]).get("name")
    if found is not None and found not in used.values():
        return found
    return next((i for i in range(len(table.header)) if i not in used.values()), 0)


def cell(row: list[str], index: int | None) -> str:
    return row[index] if index is not None and index < len(row) else ""


def numbers(doc: Document, row: list[str], columns: dict[str, int]) -> dict[str, float] | None:
    """The row's number in each role's column; None when one is missing."""
    values: dict[str, float] = {}
    for role, index in columns.items():
        value = doc.number(cell(row, index))
        if value is None:
            return None
        values[role] = value
    return values


def shown(value: float, language: str) -> str:
    """A recomputed number as the answer's language writes it: 1333.3, 0,45."""
    text = f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.2f}".rstrip("0")
    return text.replace(".", ",") if language == "es" else text


def close(stated: float, computed: float, relative: float = 0.02, absolute: float = 0.6) -> bool:
    """Equal but for rounding."""
    return abs(stated - computed) <= max(absolute, relative * abs(computed))


def table_item(
    kind: str, language: str, passed: bool, detail: str, assessed: bool = True
) -> CheckItem:
    """The item of one recomputed kind ("SUS scores recomputed")."""
    label = review_words().of(language).labels.tables.format(kind=kind.upper())
    return CheckItem(
        id=f"table_{kind}", label=label, passed=passed, detail=detail, assessed=assessed
    )


def nothing_to_recompute(kind: str, language: str) -> CheckItem:
    """Not assessed: the answer has no such table."""
    detail = say("review_no_table", language, kind=kind.upper())
    return table_item(kind, language, True, detail, assessed=False)
