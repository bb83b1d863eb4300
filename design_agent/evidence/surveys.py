"""Survey exports read with the standard csv module: Qualtrics (three header rows: ids,
question texts, import ids), SurveyMonkey (two: questions, then each column's answer or
checkbox option) and Google Forms (one, with a timestamp column). Each question gets its
kind (NPS, SUS, Likert, rating, choice, checkboxes, open text); open answers become turns,
so they are searched and quoted like an interview's."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from design_agent.core.evidence import ParsedSegment, QuestionKind, SurveyQuestion
from design_agent.core.lexicon import LexiconWords, lexicon
from design_agent.core.text import fold

META = LexiconWords("survey_meta_columns")
NPS_WORDS = LexiconWords("nps_words")
SUS_WORDS = LexiconWords("sus_words")
TIMESTAMP = {"timestamp", "marca temporal"}
MAX_CHOICES = 12


@dataclass(frozen=True)
class Table:
    """A survey's questions, its rows (question key -> answer) and its open answers."""

    format: str
    questions: list[SurveyQuestion]
    rows: list[dict[str, object]]
    respondents: list[str]


def read_rows(text: str) -> list[list[str]]:
    """The CSV's rows (a BOM dropped, ragged rows padded to the header's width)."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    width = max((len(r) for r in rows), default=0)
    return [r + [""] * (width - len(r)) for r in rows if any(cell.strip() for cell in r)]


def dialect(rows: list[list[str]]) -> str | None:
    """qualtrics, surveymonkey, google_forms, or None (not a survey export we know)."""
    if len(rows) >= 3 and sum(c.startswith('{"ImportId"') for c in rows[2]) >= len(rows[2]) // 2:
        return "qualtrics"
    first = [fold(c.strip()) for c in rows[0]] if rows else []
    if "respondent id" in first and len(rows) >= 2:
        return "surveymonkey"
    if first and first[0] in TIMESTAMP:
        return "google_forms"
    return None


def read_survey(rows: list[list[str]], kind: str) -> Table:
    """The questions and answers of a survey export in dialect `kind`."""
    if kind == "qualtrics":
        ids, texts, body = rows[0], rows[1], rows[3:]
        groups = [([i], ids[i], texts[i]) for i in range(len(ids))]
    elif kind == "surveymonkey":
        groups, body = _monkey_groups(rows[0], rows[1]), rows[2:]
    else:
        groups, body = [([i], rows[0][i], rows[0][i]) for i in range(len(rows[0]))], rows[1:]
    questions = _sus(_questions(groups, body, rows[1] if kind == "surveymonkey" else None, body))
    answers = [_answers(questions, row) for row in body]
    respondents = [f"R{n}" for n in range(1, len(body) + 1)]
    return Table(kind, questions, answers, respondents)


def _monkey_groups(first: list[str], second: list[str]) -> list[tuple[list[int], str, str]]:
    """A question's text over its first column, blank over its other checkbox columns."""
    groups: list[tuple[list[int], str, str]] = []
    for i, text in enumerate(first):
        if text.strip() or not groups:
            groups.append(([i], text, text))
        else:
            groups[-1][0].append(i)
    return groups


def _questions(groups, body, options_row, rows) -> list[SurveyQuestion]:  # type: ignore[no-untyped-def]
    out = []
    for columns, key, text in groups:
        if len(columns) > 1:
            options = [options_row[c] for c in columns] if options_row else []
            out.append(
                SurveyQuestion(key=key, text=text, kind="multi", options=options, columns=columns)
            )
            continue
        values = [row[columns[0]].strip() for row in body if row[columns[0]].strip()]
        kind = "meta" if _is_meta(key, text, columns[0]) else _kind(text, values)
        out.append(
            SurveyQuestion(
                key=key,
                text=text,
                kind=kind,
                columns=columns,
                options=_scale(values) if kind == "likert" else [],
            )
        )
    return out


def _is_meta(key: str, text: str, column: int) -> bool:
    names = {fold(key.strip()), fold(text.strip())}
    return bool(names & set(META)) or (column == 0 and bool(names & TIMESTAMP))


def _kind(text: str, values: list[str]) -> QuestionKind:
    numbers = [int(v) for v in values if v.lstrip("-").isdigit()]
    words = set(fold(text).replace("?", " ").split())
    if values and len(numbers) == len(values):
        if min(numbers) >= 0 and max(numbers) <= 10 and max(numbers) > 5 and words & NPS_WORDS:
            return "nps"
        if min(numbers) >= 0 and max(numbers) <= 10:
            return "rating"
    scale = lexicon().merged_table("likert_scale")
    if values and all(fold(v) in scale for v in values):
        return "likert"
    distinct = set(values)
    wordy = sum(len(v.split()) for v in values) >= 4 * len(values)  # sentences, not options
    if values and not wordy and len(distinct) <= MAX_CHOICES and len(distinct) * 2 <= len(values):
        return "choice"
    return "text"


def _scale(values: list[str]) -> list[str]:
    """A Likert question's answers in the scale's order."""
    scale = lexicon().merged_table("likert_scale")
    return sorted(set(values), key=lambda v: int(scale[fold(v)]))


def _sus(questions: list[SurveyQuestion]) -> list[SurveyQuestion]:
    """Ten 1-5 questions in a row, most of them worded like the SUS items: the SUS."""
    out = list(questions)
    for start in range(len(out) - 9):
        run = out[start : start + 10]
        worded = sum(bool(set(fold(q.text).split()) & SUS_WORDS) for q in run)
        if all(q.kind == "rating" for q in run) and worded >= 6:
            for i, q in enumerate(run):
                out[start + i] = q.model_copy(update={"kind": "sus"})
            break
    return out


def _answers(questions: list[SurveyQuestion], row: list[str]) -> dict[str, object]:
    answers: dict[str, object] = {}
    for q in questions:
        if q.kind == "multi":
            answers[q.key] = [row[c].strip() for c in q.columns if row[c].strip()]
        else:
            value = row[q.columns[0]].strip()
            answers[q.key] = int(value) if q.kind in ("nps", "sus", "rating") and value else value
    return answers


def open_answers(table: Table) -> list[ParsedSegment]:
    """Each open answer as a turn of its respondent (R1, R2...): quotable, searchable."""
    texts = [q for q in table.questions if q.kind == "text"]
    out = []
    for respondent, row in zip(table.respondents, table.rows, strict=True):
        for q in texts:
            said = str(row.get(q.key) or "").strip()
            if said:
                out.append(ParsedSegment(speaker=respondent, text=said))
    return out
