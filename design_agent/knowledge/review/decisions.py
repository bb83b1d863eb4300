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
from design_agent.knowledge.review.words import phrase_pattern, review_words

# Words around a term that negate it, looked for this far from it, within its clause.
NEGATION_WINDOW = 40
_CLAUSE = re.compile(r"[;:,.()\[\]]|\s(?:but|pero|and then|y luego)\s")
_AFTER = re.compile(r"[;,.()\[\]]|\s(?:but|pero|and then|y luego)\s")  # "Incentives: none"


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
    targets = _opposites_of(folded)
    wanted = _ruled_out(folded)
    rows = [" | ".join(row) for table in doc.tables for row in table.rows]
    whole = fold(doc.text)
    for sentence in [*doc.sentences, *rows]:
        said = fold(sentence)
        for target in targets:
            match = target.search(said)
            if match and not _negated(said, match.start(), match.end()):
                found = sentence[match.start() : match.end()] or match.group(0)
                return Conflict(decision, found, sentence)
        for stems in wanted:
            span = _names_all(said, stems) or _names_its_object(said, stems, whole)
            if span:
                return Conflict(decision, sentence[span[0] : span[1]], sentence)
    return None


def _names_its_object(sentence: str, stems: list[str], whole: str) -> tuple[int, int] | None:
    """What an activity rules out on an object ("No experiments on the annual plan
    checkout"), planned by a sentence naming the object in an answer that is about the
    activity (an A/B plan whose variant "includes the annual plan checkout")."""
    if len(stems) < 3 or _names_all(whole, stems[:1]) is None:
        return None
    return _names_all(sentence, stems[1:])


def _opposites_of(decision: str) -> list[re.Pattern[str]]:
    """The other side of every pair one of whose sides the decision names (not negated)."""
    found = []
    for side, other in _pairs():
        match = side.search(decision)
        if match and not _negated(decision, match.start(), match.end()):
            found.append(other)
    return found


def _ruled_out(decision: str) -> list[list[str]]:
    """What a decision rules out, as alternatives of stems an answer must name together:
    after a forbidding word ("No incentives", "nunca por sucursal") or before a ruling-out
    phrase ("Offline mode is out of scope"), split at "and" / "y" and commas."""
    clauses: list[str] = []
    for clause in re.split(r"[;.]", decision):
        forbid = _forbids().search(clause) or _forbids_inside().search(clause)
        if forbid:
            clauses.append(clause[forbid.end() :])
        ruled = _ruled_out_phrase().search(clause)
        if ruled:
            clauses.append(clause[: ruled.start()])
    generic = _generic()
    alternatives = []
    for clause in clauses:
        for part in re.split(r",|\band\b|\by\b|\bor\b|\bo\b", clause):
            stems = [w[:5] for w in words(part) if len(w) > 2 and w not in generic]
            if stems:
                alternatives.append(stems[:3])
    return alternatives


def _names_all(sentence: str, stems: list[str]) -> tuple[int, int] | None:
    """Where the sentence names every stem (as a word's start), none of them negated."""
    spans = []
    for stem_ in stems:
        match = re.search(rf"(?<![\w-]){re.escape(stem_)}[\w-]*", sentence)
        if match is None or _negated(sentence, match.start(), match.end()):
            return None
        spans.append((match.start(), match.end()))
    return min(s for s, _ in spans), max(e for _, e in spans)


def _negated(text: str, start: int, end: int) -> bool:
    """A negation in the term's own clause, just before it or just after it ("not
    unmoderated", "unmoderated tools are ruled out")."""
    before = _CLAUSE.split(text[max(0, start - NEGATION_WINDOW) : start])[-1]
    after = _AFTER.split(text[end : end + NEGATION_WINDOW])[0]
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
    """A forbidding word at a clause's start or after "only ... ," ("nunca por sucursal")."""
    found = [w for lang in review_words().languages for w in lang.forbids]
    return re.compile(r"(?:^|,)\W*" + phrase_pattern([*found, "nunca", "never"]).pattern)


@cache
def _forbids_inside() -> re.Pattern[str]:
    return phrase_pattern([w for lang in review_words().languages for w in lang.forbids_inside])


@cache
def _ruled_out_phrase() -> re.Pattern[str]:
    return phrase_pattern([w for lang in review_words().languages for w in lang.ruled_out])


@cache
def _generic() -> frozenset[str]:
    """Words of a decision that do not say what it rules out: stop words, the review's
    generic words and people ("participants", "buyers")."""
    found: set[str] = set()
    for lang in review_words().languages:
        found |= {fold(w) for w in [*lang.stop_words, *lang.generic, *lang.participants]}
        found |= {fold(w)[:-1] for w in lang.participants if w.endswith("s")}
    return frozenset(found)
