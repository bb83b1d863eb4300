"""Survey scales recomputed: SUS (ten items to 0-100), Kano (each attribute's category is
its most frequent answer; better and worse coefficients), NPS (% promoters - %
detractors)."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import cell, close, name_column, numbers, roles, shown
from design_agent.knowledge.review.document import Document, Table, parse_number
from design_agent.knowledge.review.words import phrase_pattern, review_words

KANO = ["attractive", "performance", "must_be", "indifferent", "reverse", "questionable"]
KANO_LETTERS = dict(zip(KANO, "AOMIRQ", strict=True))
_ITEM = re.compile(r"^(?:q|item|p|pregunta)?\s*(\d{1,2})$")
_SUS_SAID = re.compile(r"\bsus\b[^0-9\n]{0,30}?(-?\d+(?:[.,]\d+)?)")


def _item(kind: str, language: str, passed: bool, detail: str, assessed: bool = True) -> CheckItem:
    label = review_words().of(language).labels.tables.format(kind=kind.upper())
    return CheckItem(
        id=f"table_{kind}", label=label, passed=passed, detail=detail, assessed=assessed
    )


def _none(kind: str, doc: Document) -> CheckItem:
    return _item(
        kind, doc.language, True, say("review_no_table", doc.language, kind=kind.upper()), False
    )


# -- SUS ------------------------------------------------------------------------------------


def sus_item(doc: Document) -> CheckItem:
    """Each respondent's ten answers to their score; any SUS score within 0-100."""
    checked = 0
    for table in doc.tables:
        items = {
            int(m.group(1)): i
            for i, h in enumerate(table.header)
            if (m := _ITEM.match(fold(h).strip()))
        }
        score = roles(table, ["sus", "score"])
        column = score.get("sus", score.get("score"))
        if set(range(1, 11)) - set(items) or column is None:
            continue
        name = name_column(table, {**{str(k): v for k, v in items.items()}, "score": column})
        for row in table.rows:
            answers = [doc.number(cell(row, items[k])) for k in range(1, 11)]
            stated = doc.number(cell(row, column))
            given = [a for a in answers if a is not None]
            if stated is None or len(given) < 10:
                continue
            checked += 1
            right = sus_score(given)
            if not close(stated, right, 0.0, 0.6):
                detail = say(
                    "review_table_score",
                    doc.language,
                    kind="SUS",
                    name=cell(row, name),
                    right=shown(right, doc.language),
                    stated=cell(row, column),
                    ranking="",
                )
                return _item("sus", doc.language, False, detail)
    for sentence in doc.sentences:
        problem = _sus_in_prose(doc, sentence)
        checked += problem is not None
        if problem:
            return _item("sus", doc.language, False, problem)
    for match in _SUS_SAID.finditer(fold(doc.text)):
        value = parse_number(match.group(1), doc.language)
        checked += 1
        if value is not None and not 0 <= value <= 100:
            detail = say("review_sus_range", doc.language, stated=match.group(1))
            return _item("sus", doc.language, False, detail)
    if not checked:
        return _none("sus", doc)
    return _item("sus", doc.language, True, say("review_tables_ok", doc.language, count=checked))


_TEN_ANSWERS = re.compile(r"(?<![\d.,])([1-5](?:\s*,\s*[1-5]){9})(?![\d])")
_RESULT = re.compile(r"=\s*(\d{1,3}(?:[.,]\d{1,2})?)(?![\d])")


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


# -- Kano -----------------------------------------------------------------------------------


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
        return _item("kano", doc.language, False, problem)
    if not counted:
        return _none("kano", doc)
    detail = say("review_tables_ok", doc.language, count=len(counted))
    return _item("kano", doc.language, True, detail)


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


# -- NPS ------------------------------------------------------------------------------------

_PERCENT = re.compile(r"(-?\d+(?:[.,]\d+)?)\s?%")
_NPS_SAID = re.compile(
    r"\bnps\b[^0-9\n=]{0,40}?(?:=\s*)?([-−+]?\d+(?:[.,]\d+)?)(?!\s?%|\s*-\s*\d|\d)"
)


def nps_item(doc: Document) -> CheckItem:
    """% promoters - % detractors against the NPS the answer states."""
    columns = review_words().columns
    promoters = phrase_pattern(columns["promoters"])
    detractors = phrase_pattern(columns["detractors"])
    found: dict[str, tuple[float, str]] = {}
    for line in doc.lines:
        folded = fold(line)
        for role, pattern in (("promoters", promoters), ("detractors", detractors)):
            hit = pattern.search(folded)
            if hit and role not in found:
                percent = _nearest_percent(folded, hit.start())
                if percent is not None:
                    found[role] = (percent, line)
        if "nps" not in found and not (promoters.search(folded) or detractors.search(folded)):
            tail = folded.rsplit("=", 1)[-1] if "=" in folded and "nps" in folded else folded
            said = _NPS_SAID.search(folded if tail is folded else "nps " + tail)
            if said:
                value = parse_number(said.group(1), doc.language)
                if value is not None and -100 <= value <= 100:
                    found["nps"] = (value, said.group(1))
    if not {"promoters", "detractors", "nps"} <= set(found):
        return _none("nps", doc)
    right = found["promoters"][0] - found["detractors"][0]
    stated, text = found["nps"]
    if close(stated, right, 0.0, 1.01):
        return _item("nps", doc.language, True, say("review_tables_ok", doc.language, count=1))
    detail = say(
        "review_nps",
        doc.language,
        right=shown(right, doc.language),
        promoters=shown(found["promoters"][0], doc.language),
        detractors=shown(found["detractors"][0], doc.language),
        stated=text,
    )
    return _item("nps", doc.language, False, detail)


def _nearest_percent(folded: str, at: int) -> float | None:
    """The percentage just after the word ("promoters: 45 %"), else the nearest before it
    ("45 % promoters")."""
    after = _PERCENT.search(folded[at : at + 40])
    hits = [after] if after else list(_PERCENT.finditer(folded[max(0, at - 30) : at]))[-1:]
    if not hits:
        return None
    raw = hits[0].group(1)
    return parse_number(raw, "en" if "." in raw else "es")
