"""Task matching: which design task a message asks for, scored 0-100 and calibrated.

A message is read by `language.read_request`: its words, which of them form the
head of the request and which are details or material the person already has,
which sit in the scope of a negation ("without visuals"), and which are false
friends without support (Spanish "personas" meaning people). Each content word
is stemmed and looked up in an index built once per catalogue: exact stems
first, then typo-tolerant neighbours and shared long prefixes.

Three kinds of evidence make a task's score:

- its best keyword or name phrase (how much of the phrase the message covers,
  weighted by how rare each word is across the catalogue and by the word's role
  in the request, and whether the words come in order);
- the other words it shares with the message;
- weaker evidence from what the task is for, in prose: its description,
  expected output and its guide's "When to use" section (Spanish words reach
  that English text through a small glossary), so a need described without
  the method's name still finds the method.

Words in a negation's scope are evidence against the tasks they name. The
score is then calibrated: HIGH needs a clear margin over the runner-up, not
only a high score, because a close second means the message is ambiguous.

Nothing here reads a file while matching: the index holds everything, so
matching a message costs dictionary look-ups over the words it contains.
"""

from __future__ import annotations

import heapq
import itertools
import math
import re
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field
from rapidfuzz import fuzz

from design_agent.language import (
    FALSE_FRIENDS,
    GENERIC_WORDS,
    GLOSSARY_ES_EN,
    STOP_WORDS,
    STOP_WORDS_EN,
    STOP_WORDS_ES,
    SYNONYMS,
    Language,
    Word,
    detect_language,
    is_content,
    negation_pairs,
    normalize,
    read_request,
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
# HIGH also needs this lead over the runner-up: a close second means the message could
# be asking for either, and a wrong method at HIGH is the costliest mistake.
HIGH_MARGIN = 16.0
# ... and a keyword or name phrase of the task, mostly present: evidence from what the
# task is for, in prose, ranks tasks but never makes one certain.
HIGH_PHRASE_MIN = 0.6
# Two candidates closer than this are a coin toss: the user should choose.
AMBIGUOUS_GAP = 5.0
# Alternates also include LOW candidates this close to the best one.
ALTERNATE_GAP = 10.0
# A recent task only breaks near-ties; it never lifts a task from nothing.
RECENT_BONUS = 3.0

# Weights of the kinds of evidence in the final score.
PHRASE_WEIGHT = 0.80
BAG_WEIGHT = 0.15
# What a task is for, in prose: enough to rank a task that no keyword names, never
# enough on its own for HIGH.
PURPOSE_WEIGHT = 0.6
# Shared words beyond this much rarity-weighted evidence add nothing more.
BAG_SCALE = 2.0
PURPOSE_SCALE = 1.5
# How much each source of purpose text counts: the description and expected output
# say what the task is; the guide's "When to use" also mentions situations and others.
DESCRIPTION_SOURCE = 1.0
USAGE_SOURCE = 0.6
# A word in more than this share of the tasks' purpose texts says nothing about any.
PURPOSE_MAX_SHARE = 0.5
# Words in the scope of a negation: a task they name fully loses this share of its score.
REJECTION_PENALTY = 0.6
# How much a word counts by its role in the request: the head is what is asked for;
# details and material the person already has point at other methods, more weakly.
ROLE_WEIGHTS = {"head": 1.0, "object": 0.65, "detail": 0.4, "material": 0.3}
# When the head names no method, these roles carry the request instead.
PROMOTED_ROLES = frozenset({"detail", "object"})
# Below this rarity-weighted evidence the head names no method ("Context: ..."),
# so the details are the request.
HEAD_MIN_EVIDENCE = 0.35
# Everyday words (language.GENERIC_WORDS) count this share of their catalogue rarity,
# and a phrase made only of them is at most this strong.
GENERIC_FACTOR = 0.35
GENERIC_PHRASE_CAP = 0.5
# A stop word inside a phrase ("how might we") still counts, a little; in a
# phrase with a single content word ("cuestionario SUS", "given when then")
# the stop words carry the meaning, so together they weigh this much.
STOP_WEIGHT = 0.2
LONE_WORD_STOP_WEIGHT = 1.0
# Words of a phrase still count as in order with this many words between them.
ORDER_GAP = 2
# A partly covered phrase is worth its coverage to this power: one common word of a
# three-word phrase ("review" of "visual design review") is little evidence.
PARTIAL_EXPONENT = 1.5
# A complete phrase with more, rarer words beats a shorter complete one, up to this.
STRENGTH_CAP = 1.5
# Above this raw value scores approach 100 smoothly instead of clipping, so the
# order of strong candidates survives on the 0-100 scale.
SATURATION_START = 0.8
# All of a phrase's words present but scattered: weaker than the phrase itself.
SCATTERED_FACTOR = 0.9
# Evidence from a typo or a shared prefix counts less than an exact word.
PREFIX_WEIGHT = 0.8
# Purpose text also meets the message on word families: the first FAMILY_LENGTH letters
# of a stem, weighted down (sharing a start is weaker evidence than sharing the word).
FAMILY_LENGTH = 6
FAMILY_WEIGHT = 0.3
# A Spanish word reaching English purpose text through the glossary counts this much.
GLOSSARY_WEIGHT = 0.9
# An everyday word standing for a catalogue word ("rivals" -> competitors) counts this much.
SYNONYM_WEIGHT = 0.75
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
# Bumped whenever the index layout changes, so a pickled matcher of an older
# layout is rebuilt instead of used (see __setstate__).
INDEX_FORMAT = 2

_USAGE_SECTION = re.compile(r"^##\s+When to use\s*$(.*?)(?=^##\s|\Z)", re.MULTILINE | re.DOTALL)
# A guide's summary: the prose between its title and its first section.
_SUMMARY = re.compile(r"\A(?:#[^#\n][^\n]*\n)?(.*?)(?=^##\s|\Z)", re.MULTILINE | re.DOTALL)


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


def usage_notes(catalogue: Catalogue) -> dict[str, str]:
    """The summary and "When to use" section of the guide each task names first, by name."""
    notes: dict[str, str] = {}
    for task in catalogue.tasks.values():
        name = task.guides[0]
        if name not in notes:
            notes[name] = usage_of(catalogue.guide_text(name))
    return notes


def usage_of(guide: str) -> str:
    """A guide's summary paragraph and its "When to use" section, as one text."""
    summary = _SUMMARY.search(guide)
    usage = _USAGE_SECTION.search(guide)
    return " ".join(part.group(1).strip() for part in (summary, usage) if part)


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
    # value of a partly covered phrase = amount ** PARTIAL_EXPONENT * partial_factor
    partial_factor: float
    # (word, weight) of the common words not in the index (see SKIPPABLE_SHARE)
    unindexed: tuple[tuple[str, float], ...]


# term -> (how surely the message has it, the weight of its role in the request)
_Terms = dict[str, tuple[float, float]]
# a word of the message and the vocabulary terms it stands for, with their certainty
_Found = tuple[Word, tuple[tuple[str, float], ...]]
_Weighted = tuple[str, float]


@dataclass(frozen=True, slots=True)
class _Message:
    """One message, analysed: evidence for tasks, evidence against them, word order."""

    language: Language
    keywords: list[str]
    matched: _Terms
    rejected: _Terms
    sequence: tuple[str, ...]
    full_sequence: tuple[str, ...]
    purpose: dict[str, float]
    # for each specific (not generic) word, every term it stands for, in either index
    support: tuple[frozenset[str], ...]
    # term -> tasks it is no evidence for: a false friend in its everyday sense says
    # nothing about the method named by it ("personas" meaning people)
    blocked: dict[str, frozenset[int]]


_CACHE: dict[int, tuple[weakref.ref[Catalogue], Matcher]] = {}


class Matcher:
    """Scores messages against every task of a catalogue; build once, match many times.

    `usage` maps a guide's file name to its "When to use" text (see `usage_notes`);
    tasks whose guide has none are matched on their description alone.
    """

    def __init__(self, tasks: Iterable[Task], usage: Mapping[str, str] | None = None) -> None:
        self._format = INDEX_FORMAT
        self._task_ids: list[str] = []
        self._positions: dict[str, int] = {}
        self._phrases: list[_Phrase] = []
        self._stop_phrases: list[tuple[int, tuple[str, ...], float]] = []
        self._postings: dict[str, list[int]] = {}
        self._task_postings: dict[str, list[int]] = {}
        self._purpose_postings: dict[str, list[tuple[int, float]]] = {}
        self._idf: dict[str, float] = {}
        self._generic = frozenset(stem(w) for w in GENERIC_WORDS)
        self._glossary = {
            stem(es): tuple(dict.fromkeys(stem(en) for en in english))
            for es, english in GLOSSARY_ES_EN.items()
        }
        self._synonyms: dict[str, tuple[str, ...]] = {}
        self._named_by: dict[str, frozenset[int]] = {}
        self._task_vocabulary: list[frozenset[str]] = []
        self._exempt: frozenset[tuple[str, str]] = frozenset()
        self._vocabulary: set[str] = set()
        self._deletions: dict[str, list[str]] = {}
        self._prefixes: dict[str, list[str]] = {}
        self._lookups: dict[str, tuple[tuple[str, float], ...]] = {}
        self._build(list(tasks), usage or {})

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> Matcher:
        """The matcher of this catalogue object, built on first use and then reused."""
        key = id(catalogue)
        cached = _CACHE.get(key)
        if cached is not None and cached[0]() is catalogue:
            return cached[1]
        matcher = cls(catalogue.tasks.values(), usage_notes(catalogue))
        _CACHE[key] = (weakref.ref(catalogue, lambda _ref: _CACHE.pop(key, None)), matcher)
        return matcher

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A pickle of another index layout fails to load, so the cache builds afresh.
        if state.get("_format") != INDEX_FORMAT:
            raise ValueError("matcher index of another format; rebuild it")
        self.__dict__.update(state)

    @property
    def task_ids(self) -> list[str]:
        """The ids of the indexed tasks, in catalogue order."""
        return list(self._task_ids)

    def clear_cache(self) -> None:
        """Forget per-word look-ups (benchmarks use it to time a cold start)."""
        self._lookups.clear()

    # ----------------------------------------------------------------- build

    def _build(self, tasks: list[Task], usage: Mapping[str, str]) -> None:
        raw: list[tuple[int, list[str], frozenset[str]]] = []
        task_terms: list[set[str]] = []
        exempt: set[tuple[str, str]] = set()
        for index, task in enumerate(tasks):
            self._positions[task.id] = index
            self._task_ids.append(task.id)
            phrases = _task_phrases(task)
            raw.extend((index, words, stops) for words, stops in phrases)
            task_terms.append(
                {stem(w) for words, stops in phrases for w in words if is_content(w, stops)}
            )
            for words, _stops in phrases:
                exempt |= negation_pairs(words)
        self._exempt = frozenset(exempt)
        self._named_by = _named_by(tasks)
        self._idf = self._damp_generic(_idf_table(task_terms, len(tasks)))
        self._task_vocabulary = [frozenset(terms) for terms in task_terms]
        self._index_purposes(tasks, usage)
        # Typos are forgiven against every word the tasks use, purpose texts included.
        self._vocabulary = set(self._idf) | set(self._purpose_postings)
        for term in sorted(self._vocabulary):
            self._index_vocabulary(term)
        self._synonyms = {
            word: tuple(t for t in (stem(x) for x in targets) if t in self._vocabulary)
            for word, targets in SYNONYMS.items()
        }
        for index, terms in enumerate(task_terms):
            for term in terms:
                self._task_postings.setdefault(term, []).append(index)
        for index, words, stops in raw:
            self._add_phrase(index, words, stops)

    def _damp_generic(self, idf: dict[str, float]) -> dict[str, float]:
        return {t: w * GENERIC_FACTOR if t in self._generic else w for t, w in idf.items()}

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
        if all(term in self._generic for term in content):  # "something went wrong"
            strength = min(strength, GENERIC_PHRASE_CAP)
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
                partial / total**PARTIAL_EXPONENT,
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

    def _index_purposes(self, tasks: list[Task], usage: Mapping[str, str]) -> None:
        """What each task is for, in prose: rarity-weighted stems of its texts."""
        documents = [_purpose_terms(task, usage.get(task.guides[0], "")) for task in tasks]
        idf = self._damp_generic(_idf_table([set(d) for d in documents], len(tasks)))
        frequency: dict[str, int] = {}
        for document in documents:
            for term in document:
                frequency[term] = frequency.get(term, 0) + 1
        limit = max(2.0, PURPOSE_MAX_SHARE * len(tasks))
        self._task_vocabulary = [
            frozenset(document) | self._task_vocabulary[i] for i, document in enumerate(documents)
        ]
        for index, document in enumerate(documents):
            for term, weight in document.items():
                if frequency[term] <= limit:
                    self._purpose_postings.setdefault(term, []).append((index, idf[term] * weight))

    # ----------------------------------------------------------------- match

    def match(
        self, message: str, *, recent_task_ids: Sequence[str] = (), limit: int = 5
    ) -> MatchResult:
        """Rank the tasks for `message`; `recent_task_ids` nudge near-ties toward them."""
        analysed = self._analyse(message)
        scores, phrases = self._score(analysed)
        recent = {self._positions[t] for t in recent_task_ids if t in self._positions}
        for task in recent & scores.keys():
            scores[task] = min(100.0, scores[task] + RECENT_BONUS)
        # At least two, so ambiguity does not depend on how many the caller shows.
        ranked = heapq.nsmallest(max(2, limit), scores.items(), key=lambda i: (-i[1], i[0]))
        shift = self._calibration_shift(ranked, phrases, analysed)
        candidates = [
            TaskScore(task_id=self._task_ids[t], score=round(s - shift, 1), band=band_of(s - shift))
            for t, s in ranked
            if s - shift >= 0.05
        ]
        return _result(analysed, candidates, max(1, limit))

    def _calibration_shift(
        self, ranked: list[tuple[int, float]], phrases: dict[int, float], message: _Message
    ) -> float:
        """How far to lower every score so that the best one's band is earned.

        HIGH needs a clear lead over the runner-up and a phrase that names the task;
        a task that one word alone points to, without naming it, stays LOW ("how do I
        make a sourdough starter" is not about empty states' starter content).
        Everyone moves by the same amount: the order and the gaps (ambiguity) stay.
        """
        if not ranked:
            return 0.0
        task, best = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        named = phrases.get(task, 0.0)
        ceiling = 100.0
        if named < HIGH_PHRASE_MIN and self._support_of(task, message) <= 1:
            ceiling = MEDIUM_MIN - 0.1
        elif best - runner_up < HIGH_MARGIN or named < HIGH_PHRASE_MIN:
            ceiling = HIGH_MIN - 0.1
        return max(0.0, best - ceiling)

    def _support_of(self, task: int, message: _Message) -> int:
        """How many specific words of the message are evidence for `task`."""
        vocabulary = self._task_vocabulary[task]
        return sum(not vocabulary.isdisjoint(terms) for terms in message.support)

    def _analyse(self, message: str) -> _Message:
        language = detect_language(message)
        stops = STOP_WORDS[language]
        words = read_request(message, language, self._exempt)
        content = [w for w in words if is_content(w.text, stops)]
        found = [(w, self._terms_of(w)) for w in content]
        matched, rejected = self._evidence(found)
        self._join_split_words(content, matched)
        kept = [(w, t) for w, t in found if not w.negated]
        purpose, support = self._purposes(kept)
        return _Message(
            language=language,
            keywords=list(dict.fromkeys(w.text for w in content)),
            matched=matched,
            rejected=rejected,
            sequence=tuple(t[0][0] if t else stem(w.text) for w, t in kept),
            full_sequence=tuple(stem(w.text) for w in words if len(w.text) > 1),
            purpose=purpose,
            support=tuple(support),
            blocked=self._blocked(found),
        )

    def _evidence(self, found: list[_Found]) -> tuple[_Terms, _Terms]:
        """Terms for the tasks (each with its certainty and role weight) and terms against
        them (in a negation's scope)."""
        details_lead = self._details_lead(found)
        matched: _Terms = {}
        rejected: _Terms = {}
        for word, terms in found:
            target = rejected if word.negated else matched
            promoted = details_lead and word.role in PROMOTED_ROLES
            role = 1.0 if promoted else ROLE_WEIGHTS[word.role]
            for term, weight in terms:
                known = target.get(term, (0.0, 0.0))
                target[term] = (max(weight, known[0]), max(role, known[1]))
        return matched, rejected

    def _purposes(self, kept: list[_Found]) -> tuple[dict[str, float], list[frozenset[str]]]:
        """Terms to look up in the purpose index, and each specific word's terms."""
        purpose: dict[str, float] = {}
        support: list[frozenset[str]] = []
        for word, terms in kept:
            own = self._purpose_of(word, terms)
            role = ROLE_WEIGHTS[word.role]
            for term, weight in own:
                purpose[term] = max(purpose.get(term, 0.0), weight * role)
            if stem(word.text) not in self._generic:
                support.append(frozenset(t for t, _w in (*terms, *own)))
        return purpose, support

    def _blocked(self, found: list[_Found]) -> dict[str, frozenset[int]]:
        """For each false friend without support, the terms it gave and the tasks its method
        sense names: those terms are no evidence for those tasks."""
        blocked: dict[str, frozenset[int]] = {}
        for word, terms in found:
            named = self._named_by.get(word.text) if word.unsupported else None
            if named:
                own = stem(word.text)
                for term in [*(t for t, _w in terms), own, *self._glossary.get(own, ())]:
                    blocked[term] = blocked.get(term, frozenset()) | named
        return blocked

    def _details_lead(self, found: list[_Found]) -> bool:
        """True when the head names no method, so the details carry the request."""
        head = sum(
            self._idf.get(term, 0.0) * weight
            for word, terms in found
            if word.role == "head" and not word.negated
            for term, weight in terms[:1]
        )
        return head < HEAD_MIN_EVIDENCE

    def _join_split_words(self, content: list[Word], matched: _Terms) -> None:
        """ "mood board" -> "moodboard", when the catalogue spells it as one word."""
        for first, second in itertools.pairwise(content):
            if first.negated or second.negated:
                continue
            joined = stem(first.text + second.text)
            if joined in self._idf:
                matched[joined] = (1.0, ROLE_WEIGHTS[first.role])

    def _purpose_of(self, word: Word, looked_up: tuple[tuple[str, float], ...]) -> list[_Weighted]:
        """The stems one word looks up in the purpose index, with weights before its role."""
        candidates = [(stem(word.text), 1.0), *looked_up]
        # A Spanish word, or the known word it is a form of ("cambian" -> "cambi"),
        # reaches the English purpose text through the glossary.
        translated = [
            (english, GLOSSARY_WEIGHT * weight)
            for term, weight in candidates
            for english in self._glossary.get(term, ())
        ]
        if translated and word.unsupported:  # a false friend, in its everyday sense only
            candidates = []
        candidates += translated
        candidates += [(_family(t), w) for t, w in candidates if len(t) > FAMILY_LENGTH]
        return candidates

    def _terms_of(self, word: Word) -> tuple[tuple[str, float], ...]:
        """The vocabulary stems a word of the message is evidence for, with weights."""
        if word.unsupported and word.text not in self._named_by:
            return ()  # a false friend whose method sense no task name holds: no evidence
        found = self._lookup(stem(word.text))
        synonyms = self._synonyms.get(word.text)
        if synonyms:
            found += tuple((term, SYNONYM_WEIGHT) for term in synonyms)
        return found

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

    # ----------------------------------------------------------------- score

    def _score(self, message: _Message) -> tuple[dict[int, float], dict[int, float]]:
        """0-100 for every task with any evidence (the others cannot leave LOW), and the
        value of each task's best phrase (how surely the message names the task)."""
        phrase = self._phrase_scores(message.matched, message)
        extra = self._shared_words(message, phrase)
        purpose = self._purpose_scores(message)
        against = self._phrase_scores(message.rejected, message) if message.rejected else {}
        scores: dict[int, float] = {}
        for task in phrase.keys() | purpose.keys():
            value = phrase[task][0] if task in phrase else 0.0
            bag = extra.get(task, 0.0) / BAG_SCALE
            described = purpose.get(task, 0.0) / PURPOSE_SCALE
            raw = (
                PHRASE_WEIGHT * value
                + BAG_WEIGHT * (bag if bag < 1.0 else 1.0)
                + PURPOSE_WEIGHT * (described if described < 1.0 else 1.0)
            )
            if task in against:
                raw *= max(0.0, 1.0 - REJECTION_PENALTY * min(1.0, against[task][0]))
            scores[task] = _saturate(raw)
        return scores, {task: value for task, (value, _used) in phrase.items()}

    def _phrase_scores(self, matched: _Terms, message: _Message) -> dict[int, tuple[float, float]]:
        """Each task's best phrase: (its value, the word evidence it used).

        A phrase counts in full when its words are in the head of the request; one
        made of details or material counts as much as their role.
        """
        amounts, counts, roled = self._phrase_amounts(matched, message)
        best: dict[int, tuple[float, float]] = {}
        for phrase_id, amount in amounts.items():
            phrase = self._phrases[phrase_id]
            present, with_roles = counts[phrase_id], roled[phrase_id]
            for term, idf in phrase.unindexed:  # the common words left out of the index
                found = matched.get(term)
                if found is not None:
                    amount += idf * found[0]
                    with_roles += idf * found[0] * found[1]
                    present += 1
            # The roles of its words, weighted by rarity: "lluvia de ideas" said as the
            # source of the ideas counts little even if "ideas" is also in the head.
            role = with_roles / amount if amount > 0.0 else 0.0
            current = best.get(phrase.task, (0.0, 0.0))[0]
            if present < len(phrase.content):  # inlined: most candidates are partial
                value = amount**PARTIAL_EXPONENT * phrase.partial_factor * role
            else:
                value = _complete_value(phrase, amount, message, current / role) * role
            if value > current:
                best[phrase.task] = (value, amount * role)
        if matched is message.matched:
            self._add_stop_phrases(message, best)
        return best

    def _phrase_amounts(
        self, matched: _Terms, message: _Message
    ) -> tuple[dict[int, float], dict[int, int], dict[int, float]]:
        """Per indexed phrase: evidence, words present, and evidence weighted by role."""
        amounts: dict[int, float] = {}
        counts: dict[int, int] = {}
        roled: dict[int, float] = {}
        for term, (weight, role) in matched.items():
            evidence = self._idf.get(term, 0.0) * weight
            blocked = message.blocked.get(term)
            for phrase_id in self._postings.get(term, ()):
                if blocked and self._phrases[phrase_id].task in blocked:
                    continue
                amounts[phrase_id] = amounts.get(phrase_id, 0.0) + evidence
                counts[phrase_id] = counts.get(phrase_id, 0) + 1
                roled[phrase_id] = roled.get(phrase_id, 0.0) + evidence * role
        return amounts, counts, roled

    def _add_stop_phrases(self, message: _Message, best: dict[int, tuple[float, float]]) -> None:
        for task, words, strength in self._stop_phrases:
            if strength > best.get(task, (0.0, 0.0))[0] and _in_order(words, message.full_sequence):
                best[task] = (strength, 0.0)

    def _shared_words(
        self, message: _Message, phrase: dict[int, tuple[float, float]]
    ) -> dict[int, float]:
        """Evidence from the task's other words, beyond those its best phrase used."""
        shared = {task: -used for task, (_value, used) in phrase.items()}
        for term, (weight, role) in message.matched.items():
            evidence = self._idf.get(term, 0.0) * weight * role
            blocked = message.blocked.get(term, ())
            for task in self._task_postings.get(term, ()):
                if task in shared and task not in blocked:
                    shared[task] += evidence
        return {task: value if value > 0.0 else 0.0 for task, value in shared.items()}

    def _purpose_scores(self, message: _Message) -> dict[int, float]:
        found: dict[int, float] = {}
        for term, weight in message.purpose.items():
            blocked = message.blocked.get(term, ())
            for task, evidence in self._purpose_postings.get(term, ()):
                if task not in blocked:
                    found[task] = found.get(task, 0.0) + evidence * weight
        return found


def _named_by(tasks: list[Task]) -> dict[str, frozenset[int]]:
    """For every false friend, the tasks whose name it is part of (its method sense)."""
    words = {w for friends in FALSE_FRIENDS.values() for w in friends}
    names = [
        {stem(w) for text in (t.name.en, t.name.es, t.id) for w in split_words(normalize(text))}
        for t in tasks
    ]
    named = {w: frozenset(i for i, n in enumerate(names) if stem(w) in n) for w in words}
    return {w: tasks for w, tasks in named.items() if tasks}


def _purpose_terms(task: Task, usage: str) -> dict[str, float]:
    """Stems of what the task is for, each weighted by its strongest source and repeats."""
    sources = (
        (" ".join([task.name.en, task.description, *task.expected_output]), DESCRIPTION_SOURCE),
        (usage, USAGE_SOURCE),
    )
    counts: dict[str, float] = {}
    for text, weight in sources:
        for word in split_words(normalize(text)):
            # Numbers in prose ("12 or more interviews") say nothing about a request's need.
            if is_content(word, STOP_WORDS_EN) and not word.isdigit():
                term = stem(word)
                counts[term] = counts.get(term, 0.0) + weight
    # Word families meet on their first letters ("expect", "expectations"), more weakly.
    for term, count in list(counts.items()):
        if len(term) > FAMILY_LENGTH:
            family = _family(term)
            counts[family] = max(counts.get(family, 0.0), count * FAMILY_WEIGHT)
    # Repeats raise a term's weight with diminishing returns (0.67, 0.8, 0.86 ...).
    return {term: count / (count + 0.5) for term, count in counts.items()}


def _family(term: str) -> str:
    """The key that a term's word family shares in the purpose index ("~expect")."""
    return "~" + term[:FAMILY_LENGTH]


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
