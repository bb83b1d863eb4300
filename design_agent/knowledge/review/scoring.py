"""Scored tables recomputed: RICE (reach x impact x confidence / effort), ICE (impact x
confidence x ease, or their mean) and a pricing study's revenue index (price x the share
who would buy), each row's score and the ranking."""

from __future__ import annotations

from collections.abc import Callable

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.knowledge.review.columns import cell, close, name_column, numbers, roles, shown
from design_agent.knowledge.review.document import Document, Table
from design_agent.knowledge.review.words import review_words

Formula = Callable[[dict[str, float]], float]


def _confidence(value: float) -> float:
    return value / 100 if value > 1 else value


def _rice(v: dict[str, float]) -> float:
    return v["reach"] * v["impact"] * _confidence(v["confidence"]) / v["effort"]


def _ice_product(v: dict[str, float]) -> float:
    return v["impact"] * v["confidence"] * v["ease"]


def _ice_mean(v: dict[str, float]) -> float:
    return (v["impact"] + v["confidence"] + v["ease"]) / 3


def _revenue(v: dict[str, float]) -> float:
    return v["price"] * (v["share"] / 100 if v["share"] > 1 else v["share"])


KINDS: dict[str, tuple[list[str], list[Formula]]] = {
    "revenue": (["price", "share"], [_revenue]),
    "rice": (["reach", "impact", "confidence", "effort"], [_rice]),
    "ice": (["impact", "confidence", "ease"], [_ice_product, _ice_mean]),
}


def scoring_item(doc: Document, kind: str) -> CheckItem:
    """Every row of the answer's `kind` tables recomputed: the first wrong score (and
    whether it changes the ranking), or a rank that its score does not give."""
    label = review_words().of(doc.language).labels.tables.format(kind=kind.upper())
    inputs, formulas = KINDS[kind]
    checked = 0
    for table in doc.tables:
        columns = roles(table, [*inputs, kind, "score", "rank"])
        if not set(inputs) <= set(columns) or not ({kind, "score"} & set(columns)):
            continue
        problem, count = _table_problem(doc, table, columns, kind, formulas)
        checked += count
        if problem:
            return CheckItem(id=f"table_{kind}", label=label, passed=False, detail=problem)
    if not checked:
        detail = say("review_no_table", doc.language, kind=kind.upper())
        return CheckItem(
            id=f"table_{kind}", label=label, passed=True, assessed=False, detail=detail
        )
    detail = say("review_tables_ok", doc.language, count=checked)
    return CheckItem(id=f"table_{kind}", label=label, passed=True, detail=detail)


def _table_problem(
    doc: Document, table: Table, columns: dict[str, int], kind: str, formulas: list[Formula]
) -> tuple[str, int]:
    score = columns.get(kind, columns.get("score"))
    inputs = {r: i for r, i in columns.items() if r in KINDS[kind][0]}
    name = name_column(table, columns)
    rows = []  # (name, stated text, stated, computed by each formula)
    for row in table.rows:
        values = numbers(doc, row, inputs)
        stated = doc.number(cell(row, score))
        if values is None or stated is None or values.get("effort", 1) == 0:
            continue
        rows.append((cell(row, name), cell(row, score), stated, [f(values) for f in formulas]))
    if not rows:
        return "", 0
    # The formula most rows follow is the one the table uses (ICE: a product or a mean).
    best = max(range(len(formulas)), key=lambda f: sum(close(r[2], r[3][f]) for r in rows))
    stated_order = _order([r[2] for r in rows])
    computed_order = _order([r[3][best] for r in rows])
    for who, text, stated, computed in rows:
        if not close(stated, computed[best]):
            ranking = say("review_ranking_changes", doc.language)
            return say(
                "review_table_score", doc.language, kind=kind.upper(), name=who,
                right=shown(computed[best], doc.language), stated=text,
                ranking=ranking if stated_order != computed_order else "",
            ), len(rows)  # fmt: skip
    return _rank_problem(doc, table, columns, kind, rows, best), len(rows)


def _rank_problem(
    doc: Document,
    table: Table,
    columns: dict[str, int],
    kind: str,
    rows: list[tuple[str, str, float, list[float]]],
    best: int,
) -> str:
    """A rank column that the scores do not give (ties may share a rank)."""
    if "rank" not in columns:
        return ""
    by_name = {r[0]: r for r in rows}
    ranks = {}
    for row in table.rows:
        who = cell(row, name_column(table, columns))
        value = doc.number(cell(row, columns["rank"]))
        if who in by_name and value is not None:
            ranks[who] = int(value)
    scores = {who: r[3][best] for who, r in by_name.items() if who in ranks}
    for who, rank in ranks.items():
        higher = sum(1 for s in scores.values() if s > scores[who] + 1e-9)
        ties = sum(1 for s in scores.values() if abs(s - scores[who]) <= 1e-9)
        if not higher + 1 <= rank <= higher + ties:
            return say(
                "review_rank_wrong", doc.language, name=who, stated=rank, right=higher + 1,
                kind=kind.upper(),
            )  # fmt: skip
    return ""


def _order(values: list[float]) -> list[int]:
    return sorted(range(len(values)), key=lambda i: -values[i])
