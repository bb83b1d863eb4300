"""Survey statistics as lines of facts: what the prompt gives the model (it must not
compute them) and what `evidence show` and the offline answer print."""

from __future__ import annotations

from design_agent.evidence.stats import QuestionStats, SurveyStats


def survey_lines(stats: SurveyStats) -> list[str]:
    """One line per figure, computed in code."""
    lines = [f"Responses: {stats.responses}"]
    for q in stats.questions:
        line = question_line(q)
        if line:
            lines.append(line)
    if stats.sus_mean is not None:
        lines.append(f"SUS: mean {stats.sus_mean} of 100 ({stats.sus_answered} complete answers)")
    if stats.by and stats.crosstab:
        lines.append(f"By '{stats.by}':")
        texts = {q.key: q.text for q in stats.questions}
        for value, cell in stats.crosstab.items():
            figures = "; ".join(
                f"{_short(texts.get(k, k))}: {v}" for k, v in cell.items() if k != "responses"
            )
            lines.append(f"  {value} ({cell['responses']} responses): {figures}")
    return lines


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def question_line(q: QuestionStats) -> str:
    if q.kind == "text" or not q.answered:
        return f"{q.text}: {q.answered} open answers" if q.kind == "text" else ""
    counts = ", ".join(f"{k}: {v}" for k, v in q.counts.items())
    if q.kind == "nps":
        return (
            f"{q.text}: NPS {q.nps:+g} ({q.promoters} promoters, {q.detractors} detractors, "
            f"{q.answered} answers)"
        )
    if q.kind == "likert":
        return f"{q.text}: top-two box {q.top_two_box}% ({counts}; {q.answered} answers)"
    mean = f"mean {q.mean}; " if q.mean is not None else ""
    return f"{q.text}: {mean}{counts} ({q.answered} answers)"
