"""Survey statistics computed in code, never by a model: NPS, SUS, Likert distributions
and top-two box, per-question counts, and cross-tabs by a column. The prompt gives them
to the model as facts; the offline answer prints them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from design_agent.core.evidence import SurveyQuestion
from design_agent.core.lexicon import lexicon
from design_agent.core.text import fold


class QuestionStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str
    text: str
    kind: str
    answered: int
    counts: dict[str, int] = Field(default_factory=dict)
    nps: float | None = None
    promoters: int | None = None
    detractors: int | None = None
    top_two_box: float | None = None
    mean: float | None = None


class SurveyStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    responses: int
    questions: list[QuestionStats]
    sus_mean: float | None = None
    sus_answered: int = 0
    by: str | None = None
    crosstab: dict[str, dict[str, Any]] = Field(default_factory=dict)


def nps(scores: Sequence[int]) -> tuple[float, int, int]:
    """Net Promoter Score (promoters 9-10 minus detractors 0-6, in % of answers)."""
    promoters = sum(s >= 9 for s in scores)
    detractors = sum(s <= 6 for s in scores)
    return round(100 * (promoters - detractors) / len(scores), 1), promoters, detractors


def sus_score(answers: Sequence[int]) -> float:
    """One respondent's SUS (0-100): odd items score x-1, even items 5-x, times 2.5."""
    return 2.5 * sum((a - 1) if i % 2 == 0 else (5 - a) for i, a in enumerate(answers))


def question_stats(q: SurveyQuestion, rows: Sequence[dict[str, Any]]) -> QuestionStats:
    values: list[Any] = [r.get(q.key) for r in rows if r.get(q.key) not in (None, "", [])]
    base: dict[str, Any] = {"key": q.key, "text": q.text, "kind": q.kind, "answered": len(values)}
    if q.kind == "multi":
        ticks = Counter(o for v in values for o in v)
        return QuestionStats(**base, counts={o: ticks.get(o, 0) for o in q.options})
    if not values:
        return QuestionStats(**base)
    if q.kind == "nps":
        score, promoters, detractors = nps([int(v) for v in values])
        counts = Counter(str(v) for v in values)
        return QuestionStats(
            **base,
            counts=dict(sorted(counts.items(), key=lambda kv: int(kv[0]))),
            nps=score,
            promoters=promoters,
            detractors=detractors,
        )
    if q.kind == "likert":
        return _likert(q, values, base)
    counts = Counter(str(v) for v in values)
    mean = None
    if q.kind in ("rating", "sus"):
        mean = round(sum(int(v) for v in values) / len(values), 2)
    return QuestionStats(**base, counts=dict(counts.most_common()), mean=mean)


def _likert(q: SurveyQuestion, values: list[Any], base: dict[str, Any]) -> QuestionStats:
    scale = lexicon().merged_table("likert_scale")
    counts = Counter(str(v) for v in values)
    ordered = {o: counts.get(o, 0) for o in q.options}
    top = max(int(scale[fold(o)]) for o in q.options)
    size = 5 if top <= 5 else top
    box = sum(n for o, n in ordered.items() if int(scale[fold(o)]) >= size - 1)
    return QuestionStats(**base, counts=ordered, top_two_box=round(100 * box / len(values), 1))


def survey_stats(
    questions: Sequence[SurveyQuestion], rows: Sequence[dict[str, Any]], by: str | None = None
) -> SurveyStats:
    """Every question's statistics, the SUS mean, and a cross-tab by the question `by`
    (its key or words of its text; by default the first choice question of 2 to 6 answers)."""
    shown = [q for q in questions if q.kind != "meta"]
    stats = [question_stats(q, rows) for q in shown if q.kind != "sus"]
    sus_items = [q for q in shown if q.kind == "sus"]
    sus_mean, answered = _sus(sus_items, rows)
    group = _group_question(shown, rows, by)
    crosstab = _crosstab(group, shown, rows) if group else {}
    return SurveyStats(
        responses=len(rows),
        questions=stats,
        sus_mean=sus_mean,
        sus_answered=answered,
        by=group.text if group else None,
        crosstab=crosstab,
    )


def _sus(items: list[SurveyQuestion], rows: Sequence[dict[str, Any]]) -> tuple[float | None, int]:
    if len(items) != 10:
        return None, 0
    scores = [
        sus_score([int(r[q.key]) for q in items])
        for r in rows
        if all(isinstance(r.get(q.key), int) for q in items)
    ]
    return (round(sum(scores) / len(scores), 1), len(scores)) if scores else (None, 0)


def _group_question(
    questions: list[SurveyQuestion], rows: Sequence[dict[str, Any]], by: str | None
) -> SurveyQuestion | None:
    if by:
        wanted = fold(by)
        return next((q for q in questions if fold(q.key) == wanted or wanted in fold(q.text)), None)
    for q in [q for q in questions if q.kind == "choice"]:
        distinct = {str(r.get(q.key)) for r in rows if r.get(q.key)}
        if 2 <= len(distinct) <= 6:
            return q
    return None


def _crosstab(
    group: SurveyQuestion, questions: list[SurveyQuestion], rows: Sequence[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Per answer of `group`: how many, and each NPS, Likert or choice question's figures."""
    out: dict[str, dict[str, Any]] = {}
    for value in sorted({str(r.get(group.key)) for r in rows if r.get(group.key)}):
        subset = [r for r in rows if str(r.get(group.key)) == value]
        cell: dict[str, Any] = {"responses": len(subset)}
        for q in questions:
            if q is group or q.kind not in ("nps", "likert", "choice", "multi"):
                continue
            figures = question_stats(q, subset)
            cell[q.key] = (
                figures.nps
                if q.kind == "nps"
                else (figures.top_two_box if q.kind == "likert" else figures.counts)
            )
        out[value] = cell
    return out
