"""Task matching: which design task a message asks for, scored 0-100.

A message is normalised (lowercase, accents stripped), split into words, its
language guessed from function words, and its stop words dropped. Each
remaining word is stemmed and looked up in an index built once per catalogue:
exact stems first, then typo-tolerant neighbours (a one-deletion neighbourhood
narrows the candidates, rapidfuzz scores them) and shared long prefixes (so
"prioritize" meets "prioritization", "evaluar" meets "evaluación").

A task scores by its best keyword or name phrase (how much of the phrase the
message covers, weighted by how rare each word is across the catalogue, and
whether the words come in order), plus smaller amounts for every other word
it shares with the message and for words in its description. Nothing here
reads a file: the index holds everything, so matching one message costs only
dictionary look-ups over the words the message actually contains.
"""

from __future__ import annotations

import heapq
import itertools
import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field
from rapidfuzz import fuzz

from design_agent.language import (
    STOP_WORDS,
    STOP_WORDS_EN,
    STOP_WORDS_ES,
    Language,
    detect_language,
    is_content,
    normalize,
    split_words,
    stem,
    word_list,
)

if TYPE_CHECKING:
    from design_agent.models import Task
    from design_agent.registry import Catalogue

Band = Literal["HIGH", "MEDIUM", "LOW"]


HIGH_MIN = 80.0
MEDIUM_MIN = 50.0
# Two candidates closer than this are a coin toss: the user should choose.
AMBIGUOUS_GAP = 5.0
# Alternates also include LOW candidates this close to the best one.
ALTERNATE_GAP = 10.0
# A recent task only breaks near-ties; it never lifts a task from nothing.
RECENT_BONUS = 3.0

# Weights of the three kinds of evidence in the final score (they sum to 1).
PHRASE_WEIGHT = 0.80
BAG_WEIGHT = 0.15
DESCRIPTION_WEIGHT = 0.05
# Shared words beyond this much rarity-weighted evidence add nothing more.
BAG_SCALE = 2.0
DESCRIPTION_SCALE = 2.0
# A stop word inside a phrase ("how might we") still counts, a little; in a
# phrase with a single content word ("cuestionario SUS", "given when then")
# the stop words carry the meaning, so together they weigh this much.
STOP_WEIGHT = 0.2
LONE_WORD_STOP_WEIGHT = 1.0
# Words of a phrase still count as in order with this many words between them.
ORDER_GAP = 2
# A complete phrase with more, rarer words beats a shorter complete one, up to this.
STRENGTH_CAP = 1.5
# Above this raw value scores approach 100 smoothly instead of clipping, so the
# order of strong candidates survives on the 0-100 scale.
SATURATION_START = 0.8
# All of a phrase's words present but scattered: weaker than the phrase itself.
SCATTERED_FACTOR = 0.9
# Evidence from a typo or a shared prefix counts less than an exact word.
PREFIX_WEIGHT = 0.8
# rapidfuzz ratio needed to take a word for a typo of another: short words may
# only gain or lose a letter (a substitution in 5 letters is a different word,
# "round"/"sound"); longer ones may also swap or change one.
FUZZY_CUTOFF_SHORT = 88.0
FUZZY_CUTOFF_LONG = 84.0
FUZZY_LONG_LENGTH = 7
FUZZY_MIN_LENGTH = 5
PREFIX_MIN_LENGTH = 5
# Endings that turn a word into its relatives in either language, as left by
# stem(): prioritiz|ation, estimat|ion, evalua|r / evalua|cion, design|er.
DERIVATIONS = word_list(
    """e r s ar er ir or al ual ion tion ation cion acion sion ment mient amient
    imient iv ity idad dad iz is ization isation izacion ad ist ic ical an en"""
) | {""}
# A phrase is indexed under its rarer words only: its commonest words, up to
# this share of its weight, are left out of the index (a phrase that only they
# cover is at most half covered, too weak to matter), which keeps the posting
# lists of words like "user" or "design" short in a large catalogue.
SKIPPABLE_SHARE = 0.35
# Per-word look-ups are cached; words repeat across messages of a session.
CACHE_LIMIT = 8192


class TaskScore(BaseModel):
    """One task's score for a message."""

    model_config = ConfigDict(frozen=True)

    task_id: str
    score: float = Field(ge=0.0, le=100.0)
    band: Band


class MatchResult(BaseModel):
    """What a message asks for: ranked tasks, the best one, and whether to ask the user."""

    model_config = ConfigDict(frozen=True)

    language: Language
    keywords: list[str]
    candidates: list[TaskScore]
    best: TaskScore | None
    band: Band
    ambiguous: bool
    alternates: list[TaskScore]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def needs_choice(self) -> bool:
        """True when the user should pick: nothing matched well, or two tasks tie."""
        return self.band == "LOW" or self.ambiguous


def band_of(score: float) -> Band:
    """HIGH (>= 80), MEDIUM (50-79) or LOW (< 50)."""
    if score >= HIGH_MIN:
        return "HIGH"
    if score >= MEDIUM_MIN:
        return "MEDIUM"
    return "LOW"


@dataclass(frozen=True, slots=True)
class _Phrase:
    """A keyword or name of one task, as stems, with its precomputed weights."""

    task: int
    content: tuple[str, ...]
    weights: tuple[float, ...]
    stops: tuple[str, ...]
    raw: tuple[str, ...]
    stop_weight: float
    total: float
    strength: float
    # value of a partly covered phrase = amount ** 1.5 * partial_factor
    partial_factor: float
    # (word, weight) of the common words not in the index (see SKIPPABLE_SHARE)
    unindexed: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class _Message:
    """One message, analysed: matched vocabulary stems and the content sequence."""

    language: Language
    keywords: list[str]
    matched: dict[str, float]
    sequence: tuple[str, ...]
    full_sequence: tuple[str, ...]
    description_stems: frozenset[str]


_CACHE: dict[int, tuple[weakref.ref[Catalogue], Matcher]] = {}


class Matcher:
    """Scores messages against every task of a catalogue; build once, match many times."""

    def __init__(self, tasks: Iterable[Task]) -> None:
        self._task_ids: list[str] = []
        self._positions: dict[str, int] = {}
        self._phrases: list[_Phrase] = []
        self._stop_phrases: list[tuple[int, tuple[str, ...], float]] = []
        self._postings: dict[str, list[int]] = {}
        self._task_postings: dict[str, list[int]] = {}
        self._description_postings: dict[str, list[tuple[int, float]]] = {}
        self._idf: dict[str, float] = {}
        self._vocabulary: set[str] = set()
        self._deletions: dict[str, list[str]] = {}
        self._prefixes: dict[str, list[str]] = {}
        self._lookups: dict[str, tuple[tuple[str, float], ...]] = {}
        self._build(list(tasks))

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> Matcher:
        """The matcher of this catalogue object, built on first use and then reused."""
        key = id(catalogue)
        cached = _CACHE.get(key)
        if cached is not None and cached[0]() is catalogue:
            return cached[1]
        matcher = cls(catalogue.tasks.values())
        _CACHE[key] = (weakref.ref(catalogue, lambda _ref: _CACHE.pop(key, None)), matcher)
        return matcher

    @property
    def task_ids(self) -> list[str]:
        """The ids of the indexed tasks, in catalogue order."""
        return list(self._task_ids)

    def clear_cache(self) -> None:
        """Forget per-word look-ups (benchmarks use it to time a cold start)."""
        self._lookups.clear()

    # ----------------------------------------------------------------- build

    def _build(self, tasks: list[Task]) -> None:
        raw: list[tuple[int, list[str], frozenset[str]]] = []
        task_terms: list[set[str]] = []
        for index, task in enumerate(tasks):
            self._positions[task.id] = index
            self._task_ids.append(task.id)
            phrases = _task_phrases(task)
            raw.extend((index, words, stops) for words, stops in phrases)
            task_terms.append(
                {stem(w) for words, stops in phrases for w in words if is_content(w, stops)}
            )
        self._idf = _idf_table(task_terms, len(tasks))
        self._index_descriptions(tasks)
        # Typos are forgiven against every word the tasks use, descriptions included.
        self._vocabulary = set(self._idf) | set(self._description_postings)
        for term in sorted(self._vocabulary):
            self._index_vocabulary(term)
        for index, terms in enumerate(task_terms):
            for term in terms:
                self._task_postings.setdefault(term, []).append(index)
        for index, words, stops in raw:
            self._add_phrase(index, words, stops)

    def _add_phrase(self, task: int, words: list[str], stops: frozenset[str]) -> None:
        content = tuple(dict.fromkeys(stem(w) for w in words if is_content(w, stops)))
        stop_stems = tuple(dict.fromkeys(stem(w) for w in words if w in stops))
        raw = tuple(stem(w) for w in words if len(w) > 1)
        if not content:
            if stop_stems:  # e.g. "how might we": only an exact occurrence counts
                strength = min(1.0, 0.5 + 0.1 * len(words))
                self._stop_phrases.append((task, raw, strength))
            return
        weights = tuple(self._idf[s] for s in content)
        stop_weight = STOP_WEIGHT
        if len(content) == 1 and stop_stems:
            stop_weight = max(STOP_WEIGHT, LONE_WORD_STOP_WEIGHT / len(stop_stems))
        total = sum(weights) + stop_weight * len(stop_stems)
        strength = min(STRENGTH_CAP, 0.35 + 0.65 * sum(weights) + 0.1 * len(stop_stems))
        indexed = _selective_terms(content, weights)
        # A partly covered phrase is scattered by definition (its words cannot be in order).
        partial = min(1.0, strength) * (SCATTERED_FACTOR if len(content) > 1 else 1.0)
        phrase_id = len(self._phrases)
        self._phrases.append(
            _Phrase(
                task,
                content,
                weights,
                stop_stems,
                raw,
                stop_weight,
                total,
                strength,
                partial / total**1.5,
                tuple((t, w) for t, w in zip(content, weights, strict=True) if t not in indexed),
            )
        )
        for term in indexed:
            self._postings.setdefault(term, []).append(phrase_id)

    def _index_vocabulary(self, term: str) -> None:
        if len(term) >= FUZZY_MIN_LENGTH:
            for variant in _deletion_variants(term):
                self._deletions.setdefault(variant, []).append(term)
        if len(term) >= PREFIX_MIN_LENGTH:
            self._prefixes.setdefault(term[:PREFIX_MIN_LENGTH], []).append(term)

    def _index_descriptions(self, tasks: list[Task]) -> None:
        described = [
            {stem(w) for w in split_words(normalize(t.description)) if is_content(w, STOP_WORDS_EN)}
            for t in tasks
        ]
        idf = _idf_table(described, len(tasks))
        for index, terms in enumerate(described):
            for term in terms:
                self._description_postings.setdefault(term, []).append((index, idf[term]))

    # ----------------------------------------------------------------- match

    def match(
        self, message: str, *, recent_task_ids: Sequence[str] = (), limit: int = 5
    ) -> MatchResult:
        """Rank the tasks for `message`; `recent_task_ids` nudge near-ties toward them."""
        analysed = self._analyse(message)
        scores = self._score(analysed)
        recent = {self._positions[t] for t in recent_task_ids if t in self._positions}
        for task in recent & scores.keys():
            scores[task] = min(100.0, scores[task] + RECENT_BONUS)
        # At least two, so ambiguity does not depend on how many the caller shows.
        ranked = heapq.nsmallest(max(2, limit), scores.items(), key=lambda i: (-i[1], i[0]))
        candidates = [
            TaskScore(task_id=self._task_ids[t], score=round(s, 1), band=band_of(s))
            for t, s in ranked
            if s > 0
        ]
        return _result(analysed, candidates, max(1, limit))

    def _analyse(self, message: str) -> _Message:
        language = detect_language(message)
        stops = STOP_WORDS[language]
        words = split_words(normalize(message))
        content = [w for w in words if is_content(w, stops)]
        matched: dict[str, float] = {}
        sequence: list[str] = []
        for word in content:
            found = self._lookup(stem(word))
            for term, weight in found:
                matched[term] = max(weight, matched.get(term, 0.0))
            sequence.append(found[0][0] if found else stem(word))
        for first, second in itertools.pairwise(content):
            joined = stem(first + second)  # "mood board" -> "moodboard"
            if joined in self._idf:
                matched[joined] = 1.0
        return _Message(
            language=language,
            keywords=list(dict.fromkeys(content)),
            matched=matched,
            sequence=tuple(sequence),
            full_sequence=tuple(stem(w) for w in words if len(w) > 1),
            description_stems=frozenset(stem(w) for w in content),
        )

    def _lookup(self, term: str) -> tuple[tuple[str, float], ...]:
        """Vocabulary stems this word stands for, best first, each with its weight."""
        cached = self._lookups.get(term)
        if cached is not None:
            return cached
        if term in self._vocabulary:
            found: tuple[tuple[str, float], ...] = ((term, 1.0),)
        else:
            found = tuple(sorted(self._near(term).items(), key=lambda kv: -kv[1])[:3])
        if len(self._lookups) >= CACHE_LIMIT:
            self._lookups.clear()
        self._lookups[term] = found
        return found

    def _near(self, term: str) -> dict[str, float]:
        """Typo neighbours (rapidfuzz ratio) and long-prefix relatives of an unknown word."""
        near: dict[str, float] = {}
        if len(term) >= FUZZY_MIN_LENGTH:
            cutoff = FUZZY_CUTOFF_LONG if len(term) >= FUZZY_LONG_LENGTH else FUZZY_CUTOFF_SHORT
            for variant in _deletion_variants(term):
                for candidate in self._deletions.get(variant, ()):
                    similarity = fuzz.ratio(term, candidate)
                    if similarity >= cutoff:
                        near[candidate] = max(near.get(candidate, 0.0), similarity / 100.0)
        if len(term) >= PREFIX_MIN_LENGTH:
            for candidate in self._prefixes.get(term[:PREFIX_MIN_LENGTH], ()):
                if candidate not in near and _related_by_prefix(term, candidate):
                    near[candidate] = PREFIX_WEIGHT
        return near

    def _score(self, message: _Message) -> dict[int, float]:
        """0-100 for every task with a phrase in play (the others cannot leave LOW)."""
        phrase = self._phrase_scores(message)
        extra = self._shared_words(message, phrase)
        described = self._description_scores(message, phrase)
        scores: dict[int, float] = {}
        for task, (value, _used) in phrase.items():
            bag = extra[task] / BAG_SCALE
            description = described.get(task, 0.0) / DESCRIPTION_SCALE
            scores[task] = _saturate(
                PHRASE_WEIGHT * value
                + BAG_WEIGHT * (bag if bag < 1.0 else 1.0)
                + DESCRIPTION_WEIGHT * (description if description < 1.0 else 1.0)
            )
        return scores

    def _phrase_scores(self, message: _Message) -> dict[int, tuple[float, float]]:
        """Each task's best phrase: (its value, the word evidence it used)."""
        matched = message.matched
        amounts: dict[int, float] = {}
        counts: dict[int, int] = {}
        for term, weight in matched.items():
            evidence = self._idf.get(term, 0.0) * weight
            for phrase_id in self._postings.get(term, ()):
                amounts[phrase_id] = amounts.get(phrase_id, 0.0) + evidence
                counts[phrase_id] = counts.get(phrase_id, 0) + 1
        best: dict[int, tuple[float, float]] = {}
        for phrase_id, amount in amounts.items():
            phrase = self._phrases[phrase_id]
            present = counts[phrase_id]
            for term, idf in phrase.unindexed:  # the common words left out of the index
                found = matched.get(term)
                if found is not None:
                    amount += idf * found
                    present += 1
            current = best.get(phrase.task, (0.0, 0.0))[0]
            if present < len(phrase.content):  # inlined: most candidates are partial
                value = amount**1.5 * phrase.partial_factor
            else:
                value = _complete_value(phrase, amount, message, current)
            if value > current:
                best[phrase.task] = (value, amount)
        for task, words, strength in self._stop_phrases:
            if strength > best.get(task, (0.0, 0.0))[0] and _in_order(words, message.full_sequence):
                best[task] = (strength, 0.0)
        return best

    def _shared_words(
        self, message: _Message, phrase: dict[int, tuple[float, float]]
    ) -> dict[int, float]:
        """Evidence from the task's other words, beyond those its best phrase used."""
        shared = {task: -used for task, (_value, used) in phrase.items()}
        for term, weight in message.matched.items():
            evidence = self._idf.get(term, 0.0) * weight
            for task in self._task_postings.get(term, ()):
                if task in shared:
                    shared[task] += evidence
        return {task: value if value > 0.0 else 0.0 for task, value in shared.items()}

    def _description_scores(
        self, message: _Message, phrase: dict[int, tuple[float, float]]
    ) -> dict[int, float]:
        found: dict[int, float] = {}
        for term in message.description_stems | message.matched.keys():
            for task, weight in self._description_postings.get(term, ()):
                if task in phrase:
                    found[task] = found.get(task, 0.0) + weight
        return found


def _complete_value(phrase: _Phrase, amount: float, message: _Message, to_beat: float) -> float:
    """Every content word present: the phrase's specificity counts if it is written in order.

    Returns 0 early when even the best case cannot beat `to_beat`, sparing the
    order checks.
    """
    strength = phrase.strength if phrase.strength < 1.0 else 1.0
    bonus = phrase.strength - 1.0 if phrase.strength > 1.0 else 0.0
    most = (amount + phrase.stop_weight * len(phrase.stops)) / phrase.total
    if most**1.5 * strength + (bonus if most >= 0.999 else 0.0) <= to_beat:
        return 0.0
    # Stop words count only where the phrase is written as such ("explain
    # how to do", not "how do we explain to users").
    stop_hits = 0
    if phrase.stops and _in_order(phrase.raw, message.full_sequence, ORDER_GAP):
        stop_hits = len(phrase.stops)
    coverage = (amount + phrase.stop_weight * stop_hits) / phrase.total
    value: float = coverage**1.5 * strength
    if len(phrase.content) > 1 and not _in_order(phrase.content, message.sequence, ORDER_GAP):
        return value * SCATTERED_FACTOR
    return value + (bonus if coverage >= 0.999 else 0.0)


def _selective_terms(content: tuple[str, ...], weights: tuple[float, ...]) -> list[str]:
    """The phrase's words minus its commonest ones, up to SKIPPABLE_SHARE of its weight.

    The rarest word is always kept, so every phrase stays reachable.
    """
    limit = SKIPPABLE_SHARE * sum(weights)
    skipped = 0.0
    kept: list[str] = []
    for weight, term in sorted(zip(weights, content, strict=True)):
        if kept or skipped + weight > limit:
            kept.append(term)
        else:
            skipped += weight
    return kept


def _saturate(value: float) -> float:
    """Raw evidence -> 0-100: linear up to SATURATION_START, then easing toward 100."""
    if value <= SATURATION_START:
        return 100.0 * value
    room = 100.0 * (1.0 - SATURATION_START)
    return 100.0 - room * math.exp(-(value - SATURATION_START) / (1.0 - SATURATION_START))


def _task_phrases(task: Task) -> list[tuple[list[str], frozenset[str]]]:
    """Every phrase that names the task, as words, with the stop words of its language."""
    english = [task.name.en, task.id.replace("_", " "), *task.keywords.en]
    spanish = [task.name.es, *task.keywords.es]
    phrases = [(split_words(normalize(p)), STOP_WORDS_EN) for p in english]
    phrases += [(split_words(normalize(p)), STOP_WORDS_ES) for p in spanish]
    return [(words, stops) for words, stops in phrases if words]


def _idf_table(documents: list[set[str]], count: int) -> dict[str, float]:
    """Rarity of each term in 0-1: 1 for a term of one task, near 0 for one in all."""
    frequency: dict[str, int] = {}
    for terms in documents:
        for term in terms:
            frequency[term] = frequency.get(term, 0) + 1
    scale = math.log(1 + max(count, 1))
    return {term: math.log(1 + count / n) / scale for term, n in frequency.items()}


def _deletion_variants(term: str) -> set[str]:
    """The word and every copy of it with one letter removed (typo neighbourhood)."""
    return {term} | {term[:i] + term[i + 1 :] for i in range(len(term))}


def _related_by_prefix(term: str, candidate: str) -> bool:
    """Same word family: a shared start and endings that only derive ("estimat"/"estimation")."""
    shared = 0
    for a, b in zip(term, candidate, strict=False):
        if a != b:
            break
        shared += 1
    # "actual" is not a relative of "actualización": the base must be half the word.
    return (
        shared >= PREFIX_MIN_LENGTH
        and shared >= 0.5 * max(len(term), len(candidate))
        and term[shared:] in DERIVATIONS
        and candidate[shared:] in DERIVATIONS
    )


def _in_order(words: tuple[str, ...], sequence: tuple[str, ...], gap: int = 0) -> bool:
    """Whether `words` occur in order in `sequence`, at most `gap` words apart."""
    first = words[0]
    for start, word in enumerate(sequence):
        if word != first:
            continue
        position = start
        for wanted in words[1:]:
            window = sequence[position + 1 : position + 2 + gap]
            if wanted not in window:
                break
            position += 1 + window.index(wanted)
        else:
            return True
    return False


def _result(message: _Message, candidates: list[TaskScore], limit: int) -> MatchResult:
    """Best, band, ambiguity (top two closer than AMBIGUOUS_GAP) and alternates."""
    best = candidates[0] if candidates else None
    band: Band = best.band if best else "LOW"
    second = candidates[1] if len(candidates) > 1 else None
    ambiguous = bool(
        best and second and band != "LOW" and best.score - second.score < AMBIGUOUS_GAP
    )
    shown = candidates[:limit]
    alternates = [
        c for c in shown[1:] if best and (c.band != "LOW" or best.score - c.score <= ALTERNATE_GAP)
    ]
    return MatchResult(
        language=message.language,
        keywords=message.keywords,
        candidates=shown,
        best=best,
        band=band,
        ambiguous=ambiguous,
        alternates=alternates,
    )
