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
- evidence from what the task is for: its description, expected output, its
  guide's summary and "When to use" section and, more weakly, its keywords read
  as a bag of words (Spanish words also reach the English text through a
  glossary), so a need described without the method's name still finds the
  method. Measured on such messages this ranks better than partial keyword
  phrases, so it weighs more than them; it never makes a task HIGH on its own.

A phrase counts less when only one of its words is there, when its words are
scattered far apart, or when it needs a negation word the message lacks
("pantallas sin datos"); a long phrase counts even among the details. Words in
a negation's scope are evidence against the tasks they name. The score is then
calibrated: HIGH needs a keyword phrase mostly present, said by the words that
carry the request (not only by what a checking verb puts under test: "test the
new onboarding flow"), and a clear margin over the runner-up, not only a high
score, because a close second means the message is ambiguous. The candidates
shown always include the task whose purpose the message describes best.

Nothing here reads a file while matching: the index holds everything, so
matching a message costs dictionary look-ups over the words it contains.
"""

from __future__ import annotations

import itertools
import math
import re
import weakref
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, cast

from pydantic import BaseModel, ConfigDict, Field, computed_field
from rapidfuzz import fuzz

from design_agent.core.lexicon import Language, Lexicon, lexicon
from design_agent.core.text import normalize, reading_of, split_words, word_list
from design_agent.understanding.language import detect_language, is_content
from design_agent.understanding.request import Word, negation_pairs, read_request
from design_agent.understanding.shapes import ShapeIndex
from design_agent.understanding.statement import is_statement
from design_agent.understanding.stemming import stem

if TYPE_CHECKING:
    from design_agent.core.models import Task
    from design_agent.knowledge.registry import Catalogue

Band = Literal["HIGH", "MEDIUM", "LOW"]


HIGH_MIN = 80.0
MEDIUM_MIN = 50.0
# HIGH also needs this lead over the runner-up: a close second means the message could
# be asking for either, and a wrong method at HIGH is the costliest mistake.
HIGH_MARGIN = 25.0
# ... and the runner-up has at most this share of the best one's evidence: two tasks that
# are both strongly evidenced ("we have the journey map, now what happens backstage")
# are a choice, even when one of them leads.
HIGH_RATIO = 0.6
# ... and a keyword or name phrase of the task, mostly present: evidence from what the
# task is for, in prose, ranks tasks but never makes one certain.
HIGH_PHRASE_MIN = 0.6
# Two candidates closer than this are a coin toss: the user should choose.
AMBIGUOUS_GAP = 5.0
# A list of at least this many candidates always includes the task whose purpose the
# message describes best (see `_with_described`).
DESCRIBED_MIN_LIMIT = 3
# Alternates also include LOW candidates this close to the best one.
ALTERNATE_GAP = 10.0
# A recent task only breaks near-ties; it never lifts a task from nothing.
RECENT_BONUS = 3.0

# Weights of the kinds of evidence in the final score. Measured on messages that
# describe a need without naming its method, what the task is for (its purpose) ranks
# the right task first more often than a keyword phrase does: a phrase of a few words
# is easily half-present by accident, so the phrase counts less than a full purpose.
PHRASE_WEIGHT = 0.5
BAG_WEIGHT = 0.3
# What a task is for, in prose: enough to rank a task that no keyword names, never
# enough on its own for HIGH.
PURPOSE_WEIGHT = 1.25
# Shared words beyond this much rarity-weighted evidence add nothing more.
BAG_SCALE = 2.0
PURPOSE_SCALE = 3.5
# How much each source of purpose text counts: the description and expected output
# say what the task is; the guide's "When to use" also mentions situations and other
# methods; the keywords, read as a bag of words, add the vocabulary of requests in both
# languages (so a Spanish need meets its task without a glossary entry).
DESCRIPTION_SOURCE = 1.0
USAGE_SOURCE = 0.3
SPANISH_SOURCE = 0.7  # the same description again, in Spanish: counted a little less
KEYWORD_SOURCE = 0.15
# A term's weight in a purpose text grows with its repeats: count / (count + REPEAT_K).
REPEAT_K = 0.5
# Purpose evidence below these amounts (per word and task, per task in all) is noise.
PURPOSE_MIN_EVIDENCE = 0.05
PURPOSE_FLOOR = 0.15
PURPOSE_MAX_POSTINGS = 64
# Nor can a task whose best phrase is worth less than this, without purpose evidence.
PHRASE_FLOOR = 0.05
# A word in more than this share of the tasks' purpose texts says nothing about any.
PURPOSE_MAX_SHARE = 0.5
# Words in the scope of a negation: a task they name fully loses this share of its score.
REJECTION_PENALTY = 0.6
# A task whose best possible score is this far below the shown ones is not scored in full
# (see `Matcher._add_shared_words`): more than a recent task's bonus, and the rounding.
SKIP_MARGIN = 2 * RECENT_BONUS / 100.0
# How much a word counts by its role in the request: the head is what is asked for;
# details and material the person already has point at other methods, more weakly.
ROLE_WEIGHTS = {"head": 1.0, "object": 0.65, "checked": 0.65, "detail": 0.4, "material": 0.3}
# A complete phrase of this many content words names its method wherever it stands (in
# the details too; not in material the person already has): it counts at least this much.
LONG_PHRASE = 3
LONG_PHRASE_ROLE = 0.85
# When the head names no method, these roles carry the request instead; never what a
# checking verb puts under test ("test the new onboarding flow": the flow is not asked for).
PROMOTED_ROLES = frozenset({"detail", "object"})
# A phrase said only by words in these roles never makes its task HIGH.
UNCARRIED_ROLES = frozenset({"checked"})
# ... nor one said only by the object of a head that names a method itself.
UNCARRIED_UNDER_HEAD = UNCARRIED_ROLES | {"object"}
# Below this rarity-weighted evidence the head names no method ("Context: ..."),
# so the details are the request.
HEAD_MIN_EVIDENCE = 0.35
# Everyday words (language.GENERIC_WORDS) count this share of their catalogue rarity,
# and a phrase made only of them is at most this strong.
GENERIC_FACTOR = 0.35
GENERIC_PHRASE_CAP = 0.5
# A phrase of one content word names a task only if that word is this rare.
LONE_WORD_MIN_RARITY = 0.5
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
# ... and all of them present but far apart (more than FAR_SLACK words beyond the
# phrase's own between the first and the last): likely unrelated, weaker still.
FAR_FACTOR = 0.5
FAR_SLACK = 3
# Only one word of a phrase of several: this share of what its coverage is worth.
LONE_PARTIAL_FACTOR = 0.7
# A phrase with a negation word ("pantallas sin datos") whose words the message has
# without it ("los datos de las pantallas") names something else: this share.
MISSING_NEGATOR_FACTOR = 0.3
PHRASE_NEGATORS = frozenset(
    {"sin", "without", "no", "not", "never", "nunca", "nada", "ningun", "ninguna"}
)
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
HINT_WEIGHT = 0.5
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
    imient iv ity idad dad iz is ization isation izacion ad ist ic ical an en and iend
    aban aron ieron"""
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
INDEX_FORMAT = 13
# What a method's shape is worth (understanding/shapes.py): as much as a complete phrase
# of two ordinary words that names the task.
SHAPE_VALUE = 1.5
# A word shorter than this without its joined pronoun is not looked up without it.
CLITIC_BASE_MIN = 4

_USAGE_SECTION = re.compile(
    r"^##\s+(?:When to use|Cuándo usarlo)\s*$(.*?)(?=^##\s|\Z)", re.MULTILINE | re.DOTALL
)
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


def usage_notes(catalogue: Catalogue, language: str = "en") -> dict[str, str]:
    """The summary and "When to use" section of the guide each task names first, by name;
    in Spanish, from the guide's Spanish companion ("" where it has none)."""
    notes: dict[str, str] = {}
    for task in catalogue.tasks.values():
        name = task.guides[0]
        if name not in notes:
            text = (
                catalogue.companion_text(name, language)
                if language != "en"
                else catalogue.guide_text(name)
            )
            notes[name] = usage_of(text)
    return notes


def usage_of(guide: str) -> str:
    """A guide's summary paragraph and its "When to use" section, as one text."""
    summary = _SUMMARY.search(guide)
    usage = _USAGE_SECTION.search(guide)
    return " ".join(part.group(1).strip() for part in (summary, usage) if part)


class _Phrase(NamedTuple):
    """A keyword or name of one task, as stems, with its precomputed weights.

    A named tuple, not a slots dataclass: the pickled index holds thousands of them, and
    a tuple loads about four times faster (no `__setstate__` per object)."""

    task: int
    content: tuple[str, ...]
    stops: tuple[str, ...]
    raw: tuple[str, ...]
    stop_weight: float
    total: float
    strength: float
    # value of a partly covered phrase = amount ** PARTIAL_EXPONENT * partial_factor
    partial_factor: float
    # the content words under which the phrase is in the index, and the common ones that
    # are not (see SKIPPABLE_SHARE)
    indexed: tuple[str, ...]
    unindexed: tuple[str, ...]
    # negation words the phrase needs ("pantallas sin datos"): without them it is another
    # thing ("los datos de las pantallas")
    negators: tuple[str, ...]


# term -> (how surely the message has it, the weight of its role in the request)
_Terms = dict[str, tuple[float, float]]
# a word of the message and the vocabulary terms it stands for, with their certainty
_Found = tuple[Word, tuple[tuple[str, float], ...]]
_Weighted = tuple[str, float]
# a term of the message: (its rarity-weighted evidence, that evidence weighted by its role
# in the request, its place among the message's terms)
_TermEvidence = tuple[float, float, int]


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
    # terms that words carrying the request gave (the head, or details that stand in
    # for a head naming no method): only a phrase with one of them makes a task HIGH
    carried: frozenset[str]
    # terms only a hint gave (a place name for localisation): never a task's name
    hinted: frozenset[str] = frozenset()
    # the message only states something ("the card sort finished on Friday"): context,
    # never a request sure enough to start a method
    statement: bool = False
    # the tasks whose shape the message has ("watch five customers try to pay")
    shaped: frozenset[int] = frozenset()


class _Evidence(NamedTuple):
    """A message's evidence for the tasks (see `Matcher._score`)."""

    scores: dict[int, float]
    named: dict[int, float]
    against: set[int]
    described: int | None
    # the phrase that gave each task its best phrase value (-1: a phrase of stop words)
    sources: dict[int, int]


@dataclass(frozen=True)
class MatchWords:
    """The lexicon's words an index is built with (matching.yaml, glossary.yaml, ...)."""

    stop_words: dict[str, frozenset[str]]  # of the catalogue's two languages, en and es
    generic: frozenset[str]  # stems
    glossaries: dict[str, dict[str, tuple[str, ...]]]  # language -> stem -> English stems
    synonyms: dict[str, tuple[str, ...]]
    place_hints: dict[str, tuple[str, ...]]
    false_friends: frozenset[str]  # every language's
    spanish_false_friends: frozenset[str]  # left out of the catalogue's Spanish prose
    clitics: tuple[str, ...]  # pronouns joined to a verb ("sintetízame"), longest first


def match_words(words: Lexicon) -> MatchWords:
    """The lexicon's words for building an index (made once per lexicon)."""
    return words.derived(_match_words)


def _match_words(words: Lexicon) -> MatchWords:
    return MatchWords(
        stop_words={code: words.words("stop_words", code) for code in CATALOGUE_LANGUAGES},
        generic=frozenset(stem(w) for w in words.union("generic_words")),
        glossaries={
            code: _glossary_stems(_pairs(words.table("glossary", code)))
            for code in words.languages
            if words.table("glossary", code)
        },
        synonyms=_merged_pairs(words, "synonyms"),
        place_hints=_merged_pairs(words, "place_hints"),
        false_friends=frozenset().union(
            *(frozenset(words.table("false_friends", code)) for code in words.languages)
        ),
        spanish_false_friends=frozenset(words.table("false_friends", "es")),
        clitics=tuple(sorted(words.union("clitics"), key=len, reverse=True)),
    )


def _pairs(table: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """A table of word -> target or [targets], as word -> (targets,)."""
    return {w: (t,) if isinstance(t, str) else tuple(t) for w, t in table.items()}


def _merged_pairs(words: Lexicon, name: str) -> dict[str, tuple[str, ...]]:
    """Every language's table of word -> targets in one, a word's targets joined."""
    merged: dict[str, tuple[str, ...]] = {}
    for code in words.languages:
        for word, targets in _pairs(words.table(name, code)).items():
            merged[word] = tuple(dict.fromkeys([*merged.get(word, ()), *targets]))
    return merged


# The languages of the catalogue's own text (names, keywords, descriptions).
CATALOGUE_LANGUAGES = ("en", "es")
_CACHE: dict[tuple[int, str], tuple[weakref.ref[Catalogue], Matcher]] = {}
# What a matcher fills as it works, not part of its index: never pickled.
_CACHE_ATTRIBUTES = frozenset({"_lookups", "_vocabulary_sets"})


class Matcher:
    """Scores messages against every task of a catalogue; build once, match many times.

    `usage` maps a guide's file name to its "When to use" text (see `usage_notes`);
    tasks whose guide has none are matched on their description alone.
    """

    def __init__(
        self,
        tasks: Iterable[Task],
        usage: Mapping[str, str] | None = None,
        usage_es: Mapping[str, str] | None = None,
        words: Lexicon | None = None,
    ) -> None:
        self._format = INDEX_FORMAT
        words = words or lexicon()
        # What the index needs of the lexicon, and which one it was (another one: another index).
        self._words, self.lexicon_signature = match_words(words), words.signature
        self._task_ids: list[str] = []
        self._positions: dict[str, int] = {}
        self._phrases: list[_Phrase] = []
        self._stop_phrases: list[tuple[int, tuple[str, ...], float]] = []
        # term -> the phrases indexed under it
        self._postings: dict[str, list[int]] = {}
        # term -> (task, evidence, task, evidence, ...): one flat tuple of atoms per term
        # loads faster than a tuple per pair (Any: ints and floats alternate)
        self._purpose_postings: dict[str, tuple[Any, ...]] = {}
        self._idf: dict[str, float] = {}
        self._generic, self._glossaries = self._words.generic, self._words.glossaries
        self._synonyms: dict[str, tuple[str, ...]] = {}
        self._clitics: tuple[str, ...] = ()
        self._named_by: dict[str, frozenset[int]] = {}
        self._name_words: dict[str, frozenset[str]] = {}
        # Every term of each task (names, keywords, purpose texts) as one space-separated
        # string: only the best task's is ever read, so its set is made when first needed.
        self._task_vocabulary: list[str] = []
        self._name_terms: list[frozenset[str]] = []
        self._exempt: frozenset[tuple[str, str]] = frozenset()
        self._vocabulary: set[str] = set()
        # typo neighbourhood and long prefix -> vocabulary terms, space-separated (strings
        # load much faster than tens of thousands of lists)
        self._deletions: dict[str, str] = {}
        self._prefixes: dict[str, str] = {}
        tasks = list(tasks)
        self._shapes = ShapeIndex.build(tasks, words)

        self._build(tasks, usage or {}, usage_es or {})
        del self._words  # what the index needed of the lexicon is in it now
        self._reset_caches()

    @classmethod
    def from_catalogue(cls, catalogue: Catalogue) -> Matcher:
        """The matcher of this catalogue object and the lexicon in use, built on first use
        and then reused."""
        key = (id(catalogue), lexicon().signature)
        cached = _CACHE.get(key)
        if cached is not None and cached[0]() is catalogue:
            return cached[1]
        matcher = cls(
            catalogue.tasks.values(), usage_notes(catalogue), usage_notes(catalogue, "es")
        )
        _CACHE[key] = (weakref.ref(catalogue, lambda _ref: _CACHE.pop(key, None)), matcher)
        return matcher

    def __getstate__(self) -> dict[str, Any]:
        # Only the index: the caches fill again as messages come.
        return {k: v for k, v in self.__dict__.items() if k not in _CACHE_ATTRIBUTES}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A pickle of another index layout fails to load, so the cache builds afresh.
        if state.get("_format") != INDEX_FORMAT:
            raise ValueError("matcher index of another format; rebuild it")
        self.__dict__.update(state)
        self._reset_caches()

    def _reset_caches(self) -> None:
        self._lookups: dict[str, tuple[tuple[str, float], ...]] = {}
        self._vocabulary_sets: dict[int, frozenset[str]] = {}

    @property
    def task_ids(self) -> list[str]:
        """The ids of the indexed tasks, in catalogue order."""
        return list(self._task_ids)

    def clear_cache(self) -> None:
        """Forget per-word look-ups (benchmarks use it to time a cold start)."""
        self._lookups.clear()
        self.__dict__.pop("_last", None)
        self.__dict__.pop("_matched", None)

    def _analysed(self, message: str) -> _Message:
        """The message read and analysed; the last one is kept, for a turn matches its
        message more than once (is it a reply or a request? which method?)."""
        last = self.__dict__.get("_last")  # absent from a matcher cached before it existed
        if last is not None and last[0] == message:
            return cast(_Message, last[1])
        analysed = self._analyse(reading_of(message))
        self.__dict__["_last"] = (message, analysed)
        return analysed

    # ----------------------------------------------------------------- build

    def _build(
        self, tasks: list[Task], usage: Mapping[str, str], usage_es: Mapping[str, str]
    ) -> None:
        raw: list[tuple[int, list[str], frozenset[str]]] = []
        task_terms: list[set[str]] = []
        exempt: set[tuple[str, str]] = set()
        for index, task in enumerate(tasks):
            self._positions[task.id] = index
            self._task_ids.append(task.id)
            phrases = _task_phrases(task, self._words)
            raw.extend((index, words, stops) for words, stops, _language in phrases)
            task_terms.append(
                {stem(w) for words, stops, _ in phrases for w in words if is_content(w, stops)}
            )
            for words, _stops, language in phrases:
                exempt |= negation_pairs(words, language)
        self._exempt = frozenset(exempt)
        self._named_by, self._name_words = _named_by(tasks, self._words)
        self._idf = self._damp_generic(_idf_table(task_terms, len(tasks)))
        self._name_terms = [frozenset(terms) for terms in task_terms]
        self._index_purposes(tasks, usage, usage_es)
        # Typos are forgiven against every word the tasks use, purpose texts included.
        # ... and against the glossaries' words, so their other forms reach them too.
        glossed = {word for glossary in self._glossaries.values() for word in glossary}
        self._vocabulary = set(self._idf) | set(self._purpose_postings) | glossed
        self._index_vocabulary(sorted(self._vocabulary))
        self._clitics = self._words.clitics
        self._synonyms = {
            word: tuple(t for t in (stem(x) for x in targets) if t in self._vocabulary)
            for word, targets in self._words.synonyms.items()
        }
        self._hints = {
            word: tuple(t for t in (stem(x) for x in targets) if t in self._vocabulary)
            for word, targets in self._words.place_hints.items()
        }
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
        strength = self._strength(content, weights, len(stop_stems))
        indexed = _selective_terms(content, weights)
        # A partly covered phrase is scattered by definition (its words cannot be in order).
        partial = min(1.0, strength) * (SCATTERED_FACTOR if len(content) > 1 else 1.0)
        phrase_id = len(self._phrases)
        self._phrases.append(
            _Phrase(
                task,
                content,
                stop_stems,
                raw,
                stop_weight,
                total,
                strength,
                partial / total**PARTIAL_EXPONENT,
                tuple(indexed),
                tuple(t for t in content if t not in indexed),
                tuple(dict.fromkeys(w for w in words if w in PHRASE_NEGATORS)),
            )
        )
        for term in indexed:
            self._postings.setdefault(term, []).append(phrase_id)

    def _strength(self, content: tuple[str, ...], weights: tuple[float, ...], stops: int) -> float:
        """How strongly a complete phrase names its task: more and rarer words, stronger."""
        strength = min(STRENGTH_CAP, 0.35 + 0.65 * sum(weights) + 0.1 * stops)
        # Only everyday words ("something went wrong"), or one word many tasks share ("a b
        # test", "who should we test with"): not a name for the task.
        lone_common = len(content) == 1 and weights[0] < LONE_WORD_MIN_RARITY
        if lone_common or all(term in self._generic for term in content):
            return min(strength, GENERIC_PHRASE_CAP)
        return strength

    def _index_vocabulary(self, terms: list[str]) -> None:
        # A word longer than this by two letters or more has no typo neighbour here.
        self._longest = max(map(len, terms), default=0)
        deletions: dict[str, list[str]] = {}
        prefixes: dict[str, list[str]] = {}
        for term in terms:
            if len(term) >= FUZZY_MIN_LENGTH:
                for variant in _deletion_variants(term):
                    deletions.setdefault(variant, []).append(term)
            if len(term) >= PREFIX_MIN_LENGTH:
                prefixes.setdefault(term[:PREFIX_MIN_LENGTH], []).append(term)
        self._deletions = {variant: " ".join(found) for variant, found in deletions.items()}
        self._prefixes = {prefix: " ".join(found) for prefix, found in prefixes.items()}

    def _index_purposes(
        self, tasks: list[Task], usage: Mapping[str, str], usage_es: Mapping[str, str]
    ) -> None:
        """What each task is for, in prose: rarity-weighted stems of its texts."""
        documents = [
            _purpose_terms(
                task, usage.get(task.guides[0], ""), usage_es.get(task.guides[0], ""), self._words
            )
            for task in tasks
        ]
        idf = self._damp_generic(_idf_table([set(d) for d in documents], len(tasks)))
        frequency: dict[str, int] = {}
        for document in documents:
            for term in document:
                frequency[term] = frequency.get(term, 0) + 1
        limit = max(2.0, PURPOSE_MAX_SHARE * len(tasks))
        self._task_vocabulary = [
            " ".join(sorted(self._name_terms[i].union(document)))
            for i, document in enumerate(documents)
        ]
        postings: dict[str, list[tuple[int, float]]] = {}
        for index, document in enumerate(documents):
            for term, weight in document.items():
                evidence = idf[term] * weight
                if frequency[term] <= limit and evidence >= PURPOSE_MIN_EVIDENCE:
                    postings.setdefault(term, []).append((index, evidence))
        for term, pairs in postings.items():
            # In a large catalogue a word's posting list keeps only its strongest holders.
            if len(pairs) > PURPOSE_MAX_POSTINGS:
                pairs.sort(key=lambda p: -p[1])
                del pairs[PURPOSE_MAX_POSTINGS:]
            self._purpose_postings[term] = tuple(x for pair in pairs for x in pair)

    # ----------------------------------------------------------------- match

    def match(
        self, message: str, *, recent_task_ids: Sequence[str] = (), limit: int = 5
    ) -> MatchResult:
        """Rank the tasks for `message`; `recent_task_ids` nudge near-ties toward them.
        The last message's results are kept: a turn may ask the same of its message three
        times (a reply to the open question? the interview's answer? which method?)."""
        kept = self.__dict__.get("_matched")  # absent from a matcher cached before it existed
        results: dict[tuple[tuple[str, ...], int], MatchResult]
        if kept is not None and kept[0] == message:
            results = kept[1]
        else:
            results = {}
            self.__dict__["_matched"] = (message, results)
        key = (tuple(recent_task_ids), limit)
        if key not in results:
            results[key] = self._ranked(message, recent_task_ids, limit)
        return results[key]

    def _ranked(self, message: str, recent_task_ids: Sequence[str], limit: int) -> MatchResult:
        analysed = self._analysed(message)
        found = self._score(analysed, max(2, limit))
        evidence = found.scores
        recent = {self._positions[t] for t in recent_task_ids if t in self._positions}
        for task in recent & evidence.keys():
            evidence[task] += RECENT_BONUS / 100.0  # at most RECENT_BONUS points once saturated
        # At least two, so ambiguity does not depend on how many the caller shows; ties go
        # to the earlier task (sorting plain tuples, without a key function, is faster).
        ranked = _top(evidence, max(2, limit))
        ranked = _with_described(ranked, found.described, evidence, limit)
        scores = [(task, min(100.0, _saturate(value))) for task, value in ranked]
        ceiling = self._ceiling(ranked, found, analysed) if scores else 100.0
        shift = max(0.0, scores[0][1] - ceiling) if scores else 0.0
        candidates = [
            TaskScore(task_id=self._task_ids[t], score=round(s - shift, 1), band=band_of(s - shift))
            for t, s in scores
            if s - shift >= 0.05
        ]
        return _result(analysed, candidates, max(1, limit))

    def _ceiling(
        self, ranked: list[tuple[int, float]], found: _Evidence, message: _Message
    ) -> float:
        """The highest score the best task has earned; every score is lowered by the same
        amount to meet it, so the order and the gaps (ambiguity) stay.

        HIGH needs a clear lead over the runner-up, measured on the evidence before it
        is squeezed into 0-100, a phrase that names the task and no negated words that
        name it ("we can't run an A/B test, how else ..."); a task that one word
        alone points to, without naming it, stays LOW ("how do I make a sourdough
        starter" is not about empty states' starter content). The phrase must be said by
        the words that carry the request: "test the new onboarding flow" names the
        flow as what is tested, not as what is asked for.
        """
        task, best = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        named = found.named.get(task, 0.0)
        against = found.against
        if named < HIGH_PHRASE_MIN and self._support_of(task, message) <= 1:
            return MEDIUM_MIN - 0.1
        source = found.sources.get(task, -1)
        if source >= 0 and set(self._phrases[source].content) <= message.hinted:
            return MEDIUM_MIN - 0.1  # only a place name points at it
        clear = 100.0 * (best - runner_up) >= HIGH_MARGIN and runner_up <= HIGH_RATIO * best
        if not clear or named < HIGH_PHRASE_MIN or task in against or message.statement:
            return HIGH_MIN - 0.1
        if not self._carried(task, found.sources.get(task, -1), message):
            return HIGH_MIN - 0.1
        return 100.0

    def _carried(self, task: int, phrase_id: int, message: _Message) -> bool:
        """Whether the words carrying the request name the task: a word of its best phrase,
        or a rare word of its other names ("evaluar la madurez de diseño": the
        assessment is named by the verb, its object by the rest)."""
        if phrase_id < 0 or not message.carried.isdisjoint(self._phrases[phrase_id].content):
            return True
        names = self._name_terms[task]
        return any(
            term in names and self._idf[term] >= LONE_WORD_MIN_RARITY for term in message.carried
        )

    def _support_of(self, task: int, message: _Message) -> int:
        """How many specific words of the message are evidence for `task`."""
        vocabulary = self._vocabulary_sets.get(task)
        if vocabulary is None:
            vocabulary = frozenset(self._task_vocabulary[task].split())
            self._vocabulary_sets[task] = vocabulary
        return sum(not vocabulary.isdisjoint(terms) for terms in message.support)

    def _analyse(self, message: str) -> _Message:
        language = detect_language(message)
        stops = _stop_words(language)
        words = read_request(message, language, self._exempt, self._name_words)
        content = [w for w in words if is_content(w.text, stops)]
        found = [(w, self._terms_of(w)) for w in content]
        hinted = self._hinted(content, found)
        matched, rejected, carried = self._evidence(found)
        carried -= hinted
        self._join_split_words(content, matched, carried)
        kept = [(w, t) for w, t in found if not w.negated]
        purpose, support = self._purposes(kept, language)
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
            carried=frozenset(carried),
            hinted=hinted,
            statement=is_statement(message),
            shaped=self._shapes.tasks_in(message),
        )

    def _hinted(self, content: list[Word], found: list[_Found]) -> frozenset[str]:
        """The terms that only hints gave (no word of the message says them outright)."""
        hints = {term for word in content for term in self._hints.get(word.text, ())}
        if not hints:
            return frozenset()
        said = {
            term
            for word, terms in found
            for term, _weight in terms
            if term not in self._hints.get(word.text, ())
        }
        return frozenset(hints - said)

    def _evidence(self, found: list[_Found]) -> tuple[_Terms, _Terms, set[str]]:
        """Terms for the tasks (each with its certainty and role weight), terms against
        them (in a negation's scope) and the terms of the words carrying the request."""
        details_lead = self._details_lead(found)
        matched: _Terms = {}
        rejected: _Terms = {}
        carried: set[str] = set()
        for word, terms in found:
            target = rejected if word.negated else matched
            promoted = details_lead and word.role in PROMOTED_ROLES
            role = 1.0 if promoted else ROLE_WEIGHTS[word.role]
            # When the head names a method, what the deliverable is about ("recruiting for
            # the focus groups") is its object, not another method asked for.
            uncarried = UNCARRIED_ROLES if details_lead else UNCARRIED_UNDER_HEAD
            if not word.negated and word.role not in uncarried:
                carried.update(term for term, _weight in terms)
            for term, weight in terms:
                known = target.get(term, (0.0, 0.0))
                target[term] = (max(weight, known[0]), max(role, known[1]))
        return matched, rejected, carried

    def _purposes(
        self, kept: list[_Found], language: Language
    ) -> tuple[dict[str, float], list[frozenset[str]]]:
        """Terms to look up in the purpose index, and each specific word's terms."""
        purpose: dict[str, float] = {}
        support: list[frozenset[str]] = []
        for word, terms in kept:
            own = self._purpose_of(word, terms, language)
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
                glossed = [
                    t for glossary in self._glossaries.values() for t in glossary.get(own, ())
                ]
                for term in [*(t for t, _w in terms), own, *glossed]:
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

    def _join_split_words(self, content: list[Word], matched: _Terms, carried: set[str]) -> None:
        """ "mood board" -> "moodboard", when the catalogue spells it as one word."""
        for first, second in itertools.pairwise(content):
            if first.negated or second.negated:
                continue
            joined = stem(first.text + second.text)
            if joined in self._idf:
                matched[joined] = (1.0, ROLE_WEIGHTS[first.role])
                if first.role not in UNCARRIED_ROLES:
                    carried.add(joined)

    def _purpose_of(
        self, word: Word, looked_up: tuple[tuple[str, float], ...], language: Language
    ) -> list[_Weighted]:
        """The stems one word looks up in the purpose index, with weights before its role."""
        candidates = [(stem(word.text), 1.0), *looked_up]
        # A Spanish word, or the known word it is a form of ("cambian" -> "cambi"),
        # reaches the English purpose text through its language's glossary (in a Spanish
        # message: English "actual" is not Spanish "actual"); English needs none.
        glossary = self._glossaries.get(language, {})
        translated = [
            (english, GLOSSARY_WEIGHT * weight)
            for term, weight in candidates
            for english in glossary.get(term, ())
        ]
        if word.unsupported and (translated or word.text not in self._named_by):
            candidates = []  # a false friend (or an idiom), in its everyday sense only
        candidates += translated
        candidates += [(_family(t), w) for t, w in candidates if len(t) > FAMILY_LENGTH]
        return candidates

    def _terms_of(self, word: Word) -> tuple[tuple[str, float], ...]:
        """The vocabulary stems a word of the message is evidence for, with weights."""
        if word.unsupported and word.text not in self._named_by:
            return ()  # an idiom, or a false friend whose method no task name holds
        found = self._lookup(self._without_clitic(word.text))
        synonyms = self._synonyms.get(word.text)
        if synonyms:
            found += tuple((term, SYNONYM_WEIGHT) for term in synonyms)
        hints = self._hints.get(word.text)
        if hints:
            found += tuple((term, HINT_WEIGHT) for term in hints)
        return found

    def _without_clitic(self, word: str) -> str:
        """The word's stem; a verb with a pronoun joined to it ("sintetízame", "ordénalos")
        that the vocabulary lacks is looked up without the pronoun."""
        term = stem(word)
        if term in self._vocabulary:
            return term
        for clitic in self._clitics:
            if word.endswith(clitic) and len(word) - len(clitic) >= CLITIC_BASE_MIN:
                base = stem(word[: -len(clitic)])
                if base in self._vocabulary:
                    return base
        return term

    def _lookup(self, term: str) -> tuple[tuple[str, float], ...]:
        """Vocabulary stems this word stands for, best first, each with its weight."""
        cached = self._lookups.get(term)
        if cached is not None:
            return cached
        if term in self._vocabulary:
            found: tuple[tuple[str, float], ...] = ((term, 1.0),)
        else:
            # Ties go to the earlier stem, so the choice never depends on set order
            # (the hash seed).
            found = tuple(sorted(self._near(term).items(), key=_nearest_first)[:3])
        if len(self._lookups) >= CACHE_LIMIT:
            self._lookups.clear()
        self._lookups[term] = found
        return found

    def _near(self, term: str) -> dict[str, float]:
        """Typo neighbours (rapidfuzz ratio) and long-prefix relatives of an unknown word."""
        near: dict[str, float] = {}
        # Its one-letter deletions are as many as its letters, each as long: a 320,000-letter
        # "word" would take 30 s. No vocabulary term is within one typo of a longer one.
        if FUZZY_MIN_LENGTH <= len(term) <= self._longest + 1:
            cutoff = FUZZY_CUTOFF_LONG if len(term) >= FUZZY_LONG_LENGTH else FUZZY_CUTOFF_SHORT
            for variant in _deletion_variants(term):
                for candidate in self._deletions.get(variant, "").split():
                    similarity = fuzz.ratio(term, candidate)
                    if similarity >= cutoff:
                        near[candidate] = max(near.get(candidate, 0.0), similarity / 100.0)
        if len(term) >= PREFIX_MIN_LENGTH:
            for candidate in self._prefixes.get(term[:PREFIX_MIN_LENGTH], "").split():
                if candidate not in near and _related_by_prefix(term, candidate):
                    near[candidate] = PREFIX_WEIGHT
        return near

    # ----------------------------------------------------------------- score

    def _score(self, message: _Message, count: int = 2) -> _Evidence:
        """The evidence for every task that has enough to be a candidate (1.0 is a full
        name; `_saturate` turns it into 0-100), the value of each task's best phrase (how
        surely the message names the task), the tasks that negated words name, and the
        task that what the message describes fits best.

        Exact for the `count` best tasks and the described one; a task that cannot reach
        the `count` best keeps a lower bound (see `_add_shared_words`)."""
        sources: dict[int, int] = {}
        evidence = _term_evidence(message.matched, self._idf)
        phrase = self._phrase_scores(message.matched, evidence, message, sources)
        for task in message.shaped:  # a shape names its task as a phrase does
            if phrase.get(task, _NO_PHRASE)[0] < SHAPE_VALUE:
                phrase[task] = (SHAPE_VALUE, SHAPE_VALUE)
        purpose, described_by = self._purpose_scores(message)
        against: dict[int, tuple[float, float]] = {}
        if message.rejected:
            rejected = _term_evidence(message.rejected, self._idf)
            against = self._phrase_scores(message.rejected, rejected, message)
        # Only tasks with enough evidence can reach the candidates (PURPOSE_FLOOR,
        # PHRASE_FLOOR). Most have only purpose evidence: their value is its capped amount.
        share = PURPOSE_WEIGHT / PURPOSE_SCALE
        scores = {
            t: PURPOSE_WEIGHT if f >= PURPOSE_SCALE else share * f for t, f in described_by.items()
        }
        # Tasks with a phrase: its value and purpose now, the shared words below.
        pending: dict[int, tuple[float, float, float]] = {}
        for task, (value, used) in phrase.items():
            if value >= PHRASE_FLOOR or task in described_by:
                found = purpose[task]
                pending[task] = (
                    PHRASE_WEIGHT * value,
                    used,
                    PURPOSE_WEIGHT if found >= PURPOSE_SCALE else share * found,
                )
                scores[task] = pending[task][0] + pending[task][2]
        penalties = {task: _penalty(value) for task, (value, _used) in against.items()}
        for task, penalty in penalties.items():
            if task in scores:
                scores[task] *= penalty
        # the most evidence; on a tie the earlier task (list.index finds the first)
        described = purpose.index(max(described_by.values())) if described_by else None
        self._add_shared_words(scores, pending, penalties, (evidence, message), count, described)
        if message.shaped:
            _weigh_shapes(scores, message.shaped)
        named = {task: value for task, (value, _used) in phrase.items()}
        if described in against:
            described = None
        return _Evidence(scores, named, set(against), described, sources)

    def _add_shared_words(
        self,
        scores: dict[int, float],
        pending: dict[int, tuple[float, float, float]],
        penalties: dict[int, float],
        said: tuple[dict[str, _TermEvidence], _Message],
        count: int,
        described: int | None,
    ) -> None:
        """Each pending task's score with the capped evidence of its shared words. Those
        words add at most BAG_WEIGHT: a task even that cannot lift near the count-th best
        score (within SKIP_MARGIN, room for a recent task's bonus) cannot be shown, and
        keeps its score without them, a lower bound; the described task is always exact."""
        evidence, message = said
        threshold = -math.inf
        if len(scores) > count:
            threshold = sorted(scores.values(), reverse=True)[count - 1] - SKIP_MARGIN
        terms = frozenset(evidence)  # a set: intersecting two sets walks the smaller one
        for task, (raw, used, purpose) in pending.items():
            penalty = penalties.get(task, 1.0)
            if ((raw + BAG_WEIGHT) + purpose) * penalty < threshold and task != described:
                continue
            shared = self._shared_words(task, used, evidence, terms, message)
            if shared:
                raw += BAG_WEIGHT * min(1.0, shared / BAG_SCALE)
                value = raw + purpose
                if task in penalties:
                    value *= penalty
                scores[task] = value

    def _phrase_scores(
        self,
        matched: _Terms,
        evidence: dict[str, _TermEvidence],
        message: _Message,
        sources: dict[int, int] | None = None,
    ) -> dict[int, tuple[float, float]]:
        """Each task's best phrase: (its value, the word evidence it used).

        A phrase counts in full when its words are in the head of the request; one
        made of details or material counts as much as their role. `sources` receives the
        phrase that gave each task its value. Phrases are visited term by term, in the
        order the terms came, each once (at its first term): most phrases have only that
        one word in the message, so what depends on the word alone is computed per term.
        """
        best: dict[int, tuple[float, float]] = {}
        found, counts = self._phrase_postings(matched, message.blocked)
        phrases = self._phrases
        visited: set[int] = set()  # phrases with several words in the message
        terms = evidence.keys()
        for term, ids in found:
            word = evidence[term]
            word_role = _role(word[0], word[1])
            word_power = word[0] ** PARTIAL_EXPONENT
            for phrase_id in ids:
                phrase = phrases[phrase_id]
                present = counts[phrase_id]
                # only this word of the phrase (its common words are absent): the usual case
                if present == 1 and terms.isdisjoint(phrase.unindexed):
                    amount, role, power = word[0], word_role, word_power
                else:
                    if phrase_id in visited:
                        continue
                    visited.add(phrase_id)
                    amount, role, present = self._amount_of(
                        phrase, present, word, evidence, message
                    )
                    power = amount**PARTIAL_EXPONENT
                task = phrase.task
                current = best.get(task, _NO_PHRASE)[0]
                if present < len(phrase.content):  # inlined: most candidates are partial
                    value = power * phrase.partial_factor * role
                    if present == 1:
                        value *= LONE_PARTIAL_FACTOR
                else:
                    if len(phrase.content) >= LONG_PHRASE and role >= DETAIL_ROLE:
                        role = max(role, LONG_PHRASE_ROLE)  # "say, think, do and feel" anywhere
                    value = _complete_value(phrase, amount, message, current / role) * role
                if value > current:
                    best[task] = (value, amount * role)
                    if sources is not None:
                        sources[task] = phrase_id
        if matched is message.matched:
            self._add_stop_phrases(message, best, sources)
        return best

    def _amount_of(
        self,
        phrase: _Phrase,
        present: int,
        word: _TermEvidence,
        evidence: dict[str, _TermEvidence],
        message: _Message,
    ) -> tuple[float, float, int]:
        """A phrase's rarity-weighted evidence, the role of its words (weighted by rarity:
        "lluvia de ideas" said as the source of the ideas counts little even if "ideas"
        is also in the head) and how many of its content words the message has."""
        if present > 1:
            amount, with_roles, _rank = self._summed(phrase, evidence, message.blocked)
        else:
            amount, with_roles = word[0], word[1]
        for term in phrase.unindexed:  # the common words left out of the index
            found = evidence.get(term)
            if found is not None:
                amount += found[0]
                with_roles += found[1]
                present += 1
        return amount, _role(amount, with_roles), present

    def _phrase_postings(
        self, matched: _Terms, blocked: Mapping[str, frozenset[int]]
    ) -> tuple[list[tuple[str, Sequence[int]]], Counter[int]]:
        """The phrases indexed under the message's terms, term by term in the order the
        terms came, and how many of its indexed words each phrase has in the message."""
        postings = self._postings
        found: list[tuple[str, Sequence[int]]] = [
            (term, postings[term]) for term in matched if term in postings
        ]
        if blocked:  # a false friend is no evidence for the method it names
            found = [(term, self._unblocked(ids, blocked.get(term))) for term, ids in found]
        return found, Counter(itertools.chain.from_iterable(ids for _term, ids in found))

    def _unblocked(self, ids: Sequence[int], tasks: frozenset[int] | None) -> Sequence[int]:
        return ids if not tasks else [p for p in ids if self._phrases[p].task not in tasks]

    @staticmethod
    def _summed(
        phrase: _Phrase, evidence: dict[str, _TermEvidence], blocked: Mapping[str, frozenset[int]]
    ) -> _TermEvidence:
        """The evidence of a phrase's indexed words, summed in the message's order (floating
        point sums depend on the order)."""
        hits = [evidence[t] for t in phrase.indexed if t in evidence]
        if blocked:
            hits = [
                evidence[t]
                for t in phrase.indexed
                if t in evidence and phrase.task not in blocked.get(t, ())
            ]
        amount = with_roles = 0.0
        for word_amount, word_with_role, _rank in sorted(hits, key=itemgetter(2)):
            amount += word_amount
            with_roles += word_with_role
        return amount, with_roles, 0

    def _add_stop_phrases(
        self,
        message: _Message,
        best: dict[int, tuple[float, float]],
        sources: dict[int, int] | None,
    ) -> None:
        for task, words, strength in self._stop_phrases:
            if strength > best.get(task, (0.0, 0.0))[0] and _in_order(words, message.full_sequence):
                best[task] = (strength, 0.0)
                if sources is not None:
                    sources[task] = -1

    def _shared_words(
        self,
        task: int,
        used: float,
        evidence: dict[str, _TermEvidence],
        terms: frozenset[str],
        message: _Message,
    ) -> float:
        """Evidence from the task's other words, beyond those its best phrase used."""
        shared = -used
        common = self._name_terms[task] & terms
        blocked = message.blocked
        if len(common) == 1 and not blocked:
            (term,) = common
            shared += evidence[term][1]
        elif common:
            # summed in the message's order, as floating point sums depend on it
            for term in sorted(common, key=lambda t: evidence[t][2]):
                if not blocked or task not in blocked.get(term, ()):
                    shared += evidence[term][1]
        return shared if shared > 0.0 else 0.0

    def _purpose_scores(self, message: _Message) -> tuple[list[float], dict[int, float]]:
        """Every task's purpose evidence (by position), and that of the tasks that have at
        least PURPOSE_FLOOR of it."""
        found = [0.0] * len(self._task_ids)
        touched: set[int] = set()
        for term, weight in message.purpose.items():
            flat = self._purpose_postings.get(term)
            if flat is None:
                continue
            pairs = iter(flat)
            blocked = message.blocked.get(term)
            if blocked:
                for task, evidence in zip(pairs, pairs, strict=True):
                    if task not in blocked:
                        found[task] += evidence * weight
            else:  # (a list indexed by task: thousands of postings per message)
                for task, evidence in zip(pairs, pairs, strict=True):
                    found[task] += evidence * weight
            touched.update(flat[::2])
        return found, {task: found[task] for task in touched if found[task] >= PURPOSE_FLOOR}


def _weigh_shapes(scores: dict[int, float], shaped: frozenset[int]) -> None:
    """With a method's shape in the message, the other methods' words are what it is
    applied to ("watch five customers try to PAY"): weighed as a checked object is."""
    checked = ROLE_WEIGHTS["checked"]
    for task in scores.keys() - shaped:
        scores[task] *= checked


def _penalty(rejection: float) -> float:
    """The share of its score a task keeps when negated words name it this much."""
    return max(0.0, 1.0 - REJECTION_PENALTY * min(1.0, rejection))


def _term_evidence(terms: _Terms, idf: Mapping[str, float]) -> dict[str, _TermEvidence]:
    """Each term's evidence, computed once per message for every phrase and task."""
    evidence: dict[str, _TermEvidence] = {}
    for rank, (term, (weight, role)) in enumerate(terms.items()):
        amount = idf.get(term, 0.0) * weight
        evidence[term] = (amount, amount * role, rank)
    return evidence


def _top(evidence: dict[int, float], count: int) -> list[tuple[int, float]]:
    """The `count` tasks of most evidence, best first; ties go to the earlier task. Only
    those at or above the count-th value are sorted (C-level filters, no Python loop over
    hundreds of tasks)."""
    contenders: Iterable[tuple[int, float]] = evidence.items()
    if len(evidence) > count:
        threshold = sorted(evidence.values(), reverse=True)[count - 1]
        contenders = itertools.compress(contenders, map(threshold.__le__, evidence.values()))
    best = sorted([(-value, task) for task, value in contenders])[:count]
    return [(task, -negated) for negated, task in best]


def _with_described(
    ranked: list[tuple[int, float]], described: int | None, scores: dict[int, float], limit: int
) -> list[tuple[int, float]]:
    """The ranked candidates, with the task whose purpose the message describes best in the
    last place shown if its keywords left it out: a need described without any of the
    method's words still reaches the user's choice."""
    if described is None or limit < DESCRIBED_MIN_LIMIT:
        return ranked
    if any(task == described for task, _value in ranked[:limit]):
        return ranked
    return [*ranked[: limit - 1], (described, scores[described])]


def _stop_words(language: str) -> frozenset[str]:
    """`language`'s stop words (English's for a language the lexicon has none for)."""
    words = lexicon()
    return words.words("stop_words", language) or words.words("stop_words", "en")


def _named_by(
    tasks: list[Task], known: MatchWords
) -> tuple[dict[str, frozenset[int]], dict[str, frozenset[str]]]:
    """For every false friend, the tasks whose name it is part of (its method sense), and
    the other content words of those names, which support it beside it ("story mapping",
    "sprint de diseño"; as words, so "personas usuarias" is not "personas de usuario")."""
    friends = known.false_friends
    english, spanish = known.stop_words["en"], known.stop_words["es"]
    names = [
        [
            (w, stops)
            for text, stops in ((t.name.en, english), (t.name.es, spanish))
            for w in split_words(normalize(text))
        ]
        for t in tasks
    ]
    named: dict[str, frozenset[int]] = {}
    rest: dict[str, frozenset[str]] = {}
    for friend in friends:
        own = stem(friend)
        holders = frozenset(
            i for i, name in enumerate(names) if any(_same_family(own, stem(w)) for w, _s in name)
        )
        if holders:
            named[friend] = holders
            rest[friend] = frozenset(
                w
                for i in holders
                for w, stops in names[i]
                if is_content(w, stops) and not _same_family(own, stem(w))
            )
    return named, rest


def _glossary_stems(glossary: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The glossary by stems; forms that share a stem share their translations
    ("experimenta" -> experience and "experimento" -> experiment)."""
    stems: dict[str, tuple[str, ...]] = {}
    for spanish, english in glossary.items():
        key = stem(spanish)
        stems[key] = tuple(dict.fromkeys([*stems.get(key, ()), *(stem(e) for e in english)]))
    return stems


def _same_family(term: str, other: str) -> bool:
    """The same stem, or relatives by derivation ("conversation", "conversational")."""
    return term == other or _related_by_prefix(term, other)


def _purpose_terms(task: Task, usage: str, usage_es: str, known: MatchWords) -> dict[str, float]:
    """Stems of what the task is for, each weighted by its strongest source and repeats.
    The Spanish prose leaves out the words that are false friends of a method's name
    ("personas" is everyday Spanish for people): there they never mean the method."""
    spanish = [task.es.description, *task.es.expected_output] if task.es else []
    sources = (
        (" ".join([task.name.en, task.description, *task.expected_output]), DESCRIPTION_SOURCE),
        (_without_false_friends(" ".join(spanish), known), SPANISH_SOURCE),
        (usage, USAGE_SOURCE),
        (_without_false_friends(usage_es, known), USAGE_SOURCE),
        (" ".join([*task.keywords.en, *task.keywords.es, task.name.es]), KEYWORD_SOURCE),
    )
    counts: dict[str, float] = {}
    for text, weight in sources:
        if weight <= 0.0:
            continue
        for word in split_words(normalize(text)):
            # Numbers in prose ("12 or more interviews") say nothing about a request's need.
            if (
                is_content(word, known.stop_words["en"])
                and is_content(word, known.stop_words["es"])
                and not word.isdigit()
            ):
                term = stem(word)
                counts[term] = counts.get(term, 0.0) + weight
    # Word families meet on their first letters ("expect", "expectations"), more weakly.
    for term, count in list(counts.items()):
        if len(term) > FAMILY_LENGTH:
            family = _family(term)
            counts[family] = max(counts.get(family, 0.0), count * FAMILY_WEIGHT)
    # Repeats raise a term's weight with diminishing returns (0.67, 0.8, 0.86 ...).
    return {term: count / (count + REPEAT_K) for term, count in counts.items()}


def _without_false_friends(text: str, known: MatchWords) -> str:
    friends = known.spanish_false_friends
    return " ".join(w for w in split_words(normalize(text)) if w not in friends)


def _family(term: str) -> str:
    """The key that a term's word family shares in the purpose index ("~expect")."""
    return "~" + term[:FAMILY_LENGTH]


_NO_PHRASE = (0.0, 0.0)
DETAIL_ROLE = ROLE_WEIGHTS["detail"]


def _role(amount: float, with_roles: float) -> float:
    return with_roles / amount if amount > 0.0 else 0.0


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
    if phrase.negators and not all(n in message.full_sequence for n in phrase.negators):
        value *= MISSING_NEGATOR_FACTOR
    if len(phrase.content) > 1 and not _in_order(phrase.content, message.sequence, ORDER_GAP):
        if _span(phrase.content, message.sequence) > len(phrase.content) + FAR_SLACK:
            return value * FAR_FACTOR
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


def _task_phrases(task: Task, known: MatchWords) -> list[tuple[list[str], frozenset[str], str]]:
    """Every phrase that names the task, as words, with the stop words of its language
    and the language."""
    english = [task.name.en, task.id.replace("_", " "), *task.keywords.en]
    spanish = [task.name.es, *task.keywords.es]
    en, es = known.stop_words["en"], known.stop_words["es"]
    phrases = [(split_words(normalize(p)), en, "en") for p in english]
    phrases += [(split_words(normalize(p)), es, "es") for p in spanish]
    return [(words, stops, language) for words, stops, language in phrases if words]


def _idf_table(documents: list[set[str]], count: int) -> dict[str, float]:
    """Rarity of each term in 0-1: 1 for a term of one task, near 0 for one in all."""
    frequency: dict[str, int] = {}
    for terms in documents:
        for term in terms:
            frequency[term] = frequency.get(term, 0) + 1
    scale = math.log(1 + max(count, 1))
    return {term: math.log(1 + count / n) / scale for term, n in frequency.items()}


def _nearest_first(candidate: tuple[str, float]) -> tuple[float, str]:
    """Sort key of typo neighbours: the most similar first, then by stem."""
    return -candidate[1], candidate[0]


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


def _span(words: tuple[str, ...], sequence: tuple[str, ...]) -> int:
    """The length of the shortest stretch of `sequence` that holds every one of `words`."""
    wanted = set(words)
    last: dict[str, int] = {}
    best = len(sequence) + 1
    for position, word in enumerate(sequence):
        if word in wanted:
            last[word] = position
            if len(last) == len(wanted):
                best = min(best, position - min(last.values()) + 1)
    return best


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
