"""Step 7: the checklist computed on an answer, stored with the turn.

Every check is measured on the text, not asked of the model: context used,
method applied, confidence stated, limitations noted, sources cited,
terminology consistent, the task's expected-output items, and citations that
point to sections that were really loaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from design_agent.core.checklist import CheckItem, Validation
from design_agent.core.models import Task
from design_agent.core.text import fold, word_set

CITATION = re.compile(r"\[([A-Za-z0-9_.-]+\.(?:md|csv|txt))\s*>\s*([^\]\n]+?)\s*\]")
CONFIDENCE = re.compile(
    r"\b(confidence|confident|certainty|likely|confianza|seguridad|probable)\b", re.IGNORECASE
)
LIMITATIONS = re.compile(
    r"\b(limitations?|assumptions?|caveats?|risks?|unknowns?|limitaci[oó]n(es)?|supuestos?"
    r"|riesgos?|advertencias?)\b",
    re.IGNORECASE,
)


# What an offline answer's text cannot show: it names the method because it quotes it.
UNJUDGEABLE_OFFLINE = frozenset({"method", "terminology"})


def citations_in(text: str) -> list[tuple[str, str]]:
    """(source, heading) of every `[file.md > Heading]` citation, in order, de-duplicated."""
    seen: dict[tuple[str, str], None] = {}
    for match in CITATION.finditer(text):
        seen[(match.group(1), match.group(2).strip())] = None
    return list(seen)


def validate_answer(
    answer: str,
    task: Task,
    language: str,
    loaded_sections: set[tuple[str, str]],
    project_terms: Iterable[str],
    offline: bool = False,
) -> Validation:
    """Compute the checklist; `loaded_sections` holds (source, heading.lower()) pairs.
    `offline`: the answer is the offline skeleton, built from the method's own words, so
    whether the method was applied cannot be judged from the text."""
    cited = citations_in(answer)
    invalid = [f"[{s} > {h}]" for s, h in cited if (s, h.lower()) not in loaded_sections]
    answer_words = word_set(answer)
    items = [
        _context_item(answer_words, set(project_terms)),
        _method_item(answer, task, language),
        CheckItem(
            id="confidence", label="confidence stated", passed=bool(CONFIDENCE.search(answer))
        ),
        CheckItem(
            id="limitations", label="limitations noted", passed=bool(LIMITATIONS.search(answer))
        ),
        CheckItem(
            id="sources",
            label="sources cited",
            passed=bool(cited) and len(invalid) < len(cited),
            detail=f"{len(cited)} citation(s)",
        ),
        _terminology_item(answer, task, language),
        *_expected_output_items(answer_words, task, language),
    ]
    if offline:
        items = [
            _not_assessed(item)
            if item.id in UNJUDGEABLE_OFFLINE or item.id.startswith("output_")
            else item
            for item in items
        ]
    return Validation(
        items=items, citations=[f"[{s} > {h}]" for s, h in cited], invalid_citations=invalid
    )


def _not_assessed(item: CheckItem) -> CheckItem:
    return item.model_copy(
        update={"passed": False, "assessed": False, "detail": "not assessed offline"}
    )


def _context_item(answer_words: set[str], project_terms: set[str]) -> CheckItem:
    if not project_terms:
        return CheckItem(
            id="context", label="project context integrated", passed=True, detail="no context yet"
        )
    used = sorted(answer_words & project_terms)
    return CheckItem(
        id="context",
        label="project context integrated",
        passed=len(used) >= min(2, len(project_terms)),
        detail=", ".join(used[:5]),
    )


def _method_item(answer: str, task: Task, language: str) -> CheckItem:
    folded = fold(answer)
    names = [
        fold(task.name.get(language)),
        fold(task.name.en),
        *map(fold, _keywords(task, language)),
    ]
    hit = next((n for n in names if n and n in folded), None)
    return CheckItem(id="method", label="method applied", passed=hit is not None, detail=hit or "")


def _terminology_item(answer: str, task: Task, language: str) -> CheckItem:
    """The method is named the same way throughout: one preferred term dominates."""
    folded = fold(answer)
    # The name and the leading keywords are the method's names; later keywords are
    # ordinary method vocabulary that a good answer uses freely.
    names = {task.name.get(language), *_keywords(task, language)[:5]}
    counts = {k: folded.count(fold(k)) for k in names}
    used = {k: n for k, n in counts.items() if n}
    top = max(used.values(), default=0)
    consistent = bool(used) and top >= sum(used.values()) / 2
    return CheckItem(
        id="terminology",
        label="terminology consistent",
        passed=consistent,
        detail=", ".join(sorted(used, key=lambda k: -used[k])[:3]),
    )


def _expected_output_items(answer_words: set[str], task: Task, language: str) -> list[CheckItem]:
    # The expected-output parts are written in English; a word check on a Spanish
    # answer would fail for the wrong reason, so they are checked on English answers.
    if language != "en":
        return []
    items: list[CheckItem] = []
    for i, part in enumerate(task.expected_output):
        wanted = word_set(part, min_length=4)
        found = len(wanted & answer_words)
        items.append(
            CheckItem(
                id=f"output_{i + 1}",
                label=part,
                passed=bool(wanted) and found >= max(1, (len(wanted) + 1) // 2),
                detail=f"{found}/{len(wanted)} key words present",
            )
        )
    return items


def _keywords(task: Task, language: str) -> list[str]:
    return list(task.keywords.es if language == "es" else task.keywords.en)
