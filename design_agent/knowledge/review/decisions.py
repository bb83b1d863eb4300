"""The project's recorded decisions against the answer: an answer that plans what a
decision rules out ("unmoderated" when the decision is "Moderated remote sessions only";
"a $50 incentive" when it is "No incentives") is flagged, naming the decision.

Two readings, both from words.yaml: a decision naming one side of a pair of opposites is
planned against by a sentence naming the other side; a decision that forbids ("no X",
"sin X") is planned against by a sentence naming X. A sentence that negates what it
names ("not unmoderated", "instead of a lab") plans nothing against it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold, words
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import phrase_pattern, review_words, stem

# Words around a term that negate it, looked for this far from it, within its clause.
NEGATION_WINDOW = 40
_CLAUSE = re.compile(r"[;:,.()\[\]]|\s(?:but|pero|and then|y luego)\s")


@dataclass(frozen=True)
class RecordedDecision:
    """A decision as the review reads it."""

    id: int
    text: str
    date: str = ""


@dataclass(frozen=True)
class Conflict:
    decision: RecordedDecision
    found: str  # the answer's words that plan against it
    sentence: str


def decision_items(doc: Document, decisions: list[RecordedDecision]) -> list[CheckItem]:
    """One failed item per decision the answer plans against, or one passed item."""
    if not decisions:
        return []
    vocabulary = review_words().of(doc.language)
    items = []
    for decision in decisions:
        conflict = find_conflict(doc, decision)
        if conflict is None:
            continue
        detail = say(
            "review_decision", doc.language, found=conflict.found, decision=decision.text,
            date=decision.date,
        ).replace(" ()", "")  # fmt: skip
        label = vocabulary.labels.decision.format(decision=decision.text)
        items.append(
            CheckItem(
                id=f"decision_{decision.id}",
                label=label,
                passed=False,
                detail=detail,
                evidence=conflict.sentence[:300],
                decision_id=decision.id,
            )
        )
    if items:
        return items
    detail = say("review_decisions_ok", doc.language, count=len(decisions))
    return [
        CheckItem(id="decisions", label=vocabulary.labels.decisions, passed=True, detail=detail)
    ]


def find_conflict(doc: Document, decision: RecordedDecision) -> Conflict | None:
    """The first sentence of the answer that plans against `decision`, if any."""
    folded = fold(decision.text)
    targets = [*_opposites_of(folded), *_forbidden(folded)]
    for sentence in doc.sentences:
        said = fold(sentence)
        for target in targets:
            match = target.search(said)
            if match and not _negated(said, match.start(), match.end()):
                return Conflict(
                    decision, sentence[match.start() : match.end()] or match.group(0), sentence
                )
    return None


def _opposites_of(decision: str) -> list[re.Pattern[str]]:
    """The other side of every pair one of whose sides the decision names (not negated)."""
    found = []
    for side, other in _pairs():
        match = side.search(decision)
        if match and not _negated(decision, match.start(), match.end()):
            found.append(other)
    return found


def _forbidden(decision: str) -> list[re.Pattern[str]]:
    """ "No incentives", "Sin grabación de vídeo": what follows the forbidding word, as a
    pattern matching its content words' stems in that order."""
    match = _forbids().search(decision)
    if match is None:
        return []
    stops = _stop_words()
    content = [w for w in words(decision[match.end() :]) if w not in stops and len(w) > 2]
    if not content:
        return []
    stems = [re.escape(stem(w)) for w in content[:3]]
    return [re.compile(r"\b" + r"\w*\W+(?:\w+\W+){0,3}?".join(stems) + r"\w*")]


def _negated(text: str, start: int, end: int) -> bool:
    """A negation in the term's own clause, just before it or just after it ("not
    unmoderated", "unmoderated tools are ruled out")."""
    before = _CLAUSE.split(text[max(0, start - NEGATION_WINDOW) : start])[-1]
    after = _CLAUSE.split(text[end : end + NEGATION_WINDOW])[0]
    return bool(_negations().search(before) or _negations().search(after))


@cache
def _pairs() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    pairs = []
    for language in review_words().languages:
        for side, other in language.opposites:
            pairs.append((phrase_pattern(side), phrase_pattern(other)))
    return pairs


@cache
def _negations() -> re.Pattern[str]:
    return phrase_pattern([w for lang in review_words().languages for w in lang.negations])


@cache
def _forbids() -> re.Pattern[str]:
    found = [w for lang in review_words().languages for w in lang.forbids]
    return re.compile(r"^\W*" + phrase_pattern(found).pattern)


@cache
def _stop_words() -> frozenset[str]:
    return frozenset(fold(w) for lang in review_words().languages for w in lang.stop_words)
