"""Does a message go on from the last answer, or ask for something new? Weighed, not keyed.

"make it shorter", "and the screener?", "ahora para los farmacéuticos" go on from the last
answer; "now I need an interview guide for the finance directors who sign off on it" and
"prioritise these backlog items with RICE" ask for a method of their own, though they say
"it", "now" or "these". Small words alone decide nothing: each reading gets its evidence,
and the stronger one wins.

- For going on: an edit said of the answer ("make it", "add ... to the plan", "hazlo más
  corto"), an opening that continues ("and the ...", "y el ...", "now for ..."), an
  adjustment ("shorter", "más detalle"), a part of the last deliverable named ("the
  screener" after a test plan), a short message.
- For something new: the best method for the message itself, when it is another one (HIGH
  weighs most), and a request opening ("I need", "plan", "necesito") that is not an edit
  of the answer.

Its words are in lexicon/<language>/follow_ups.yaml. When neither reading clearly wins,
the caller may ask the fast model (clarify.py); `settled` says whether it need not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.models import Task
from design_agent.core.text import fold
from design_agent.understanding.enclitics import enclitic_edits
from design_agent.understanding.matching import MatchResult
from design_agent.understanding.statement import is_statement
from design_agent.understanding.stemming import stem

Reading = Literal["follow_up", "new_request"]
_WORD = re.compile(r"[a-z0-9ñ]+(?:'[a-z]+)?")
# Where a clause ends: an edit verb after one is said as one ("they work nights, adapt it").
_CLAUSE_END = re.compile(r"[,.;:!?¿¡\n]+")
# An item of the answer pointed at by its number ("insight 2", "la número 4", "#3"): a small
# number after a word, ending the message or its question ("5 participants" counts people).
_NUMBERED_ITEM = re.compile(r"(?:[a-z]\s+#?|#)\d{1,2}(?=\s*(?:[?!)]|$))")
SHORT_WORDS = 6
FRAGMENT_WORDS = 4
FRAGMENT_CONTENT_WORDS = 2
EDIT_ALONE_WORDS = 10
# How far after an edit verb the thing it edits may come ("add a line to it").
EDIT_REACH = 6
MAX_PHRASE = 4
# Weights of the evidence for a new method: the band of the best other method.
BAND_WEIGHT = {"HIGH": 3.0, "MEDIUM": 1.6, "LOW": 0.4}
# A reading wins clearly by this much; closer, the model may decide (when there is one).
CLEAR_MARGIN = 1.0
# Against a method the message half-names (MEDIUM), going on must win by this much.
MEDIUM_MARGIN = 0.5
# Something put into the answer ("add a survey question at the end of each task") weighs as
# an edit of it.
INSERTED_WEIGHT = 2.0
# An edit verb further into the message than this is read only after a linking word.
VERB_REACH = 3
# How far after an adding verb the piece it adds may come ("add a short warm-up block").
PIECE_REACH = 4
# A question that asks why the answer is as it is ("why 5 participants?", "¿por qué no
# usuarios activos diarios?", "explícame el cambio de ...") weighs as much as an edit.
CHALLENGE_WEIGHT = 2.5
# A question that names nothing of the answer and is not short ("how do I teach the devs to
# test with a screen reader themselves?") weighs this much: it may as well ask for a method.
LOOSE_QUESTION_WEIGHT = 0.5
QUESTION_WEIGHT = 1.5
FRAGMENT_WEIGHT = 2.0  # "and the screener?"
CONTINUES_WEIGHT = 1.0  # "and what should the dashboard look like after ...?"
SHORT_WEIGHT = 0.3
STATEMENT_WEIGHT = 2.0  # "solo somos cuatro diseñadores": the situation the answer must fit


@dataclass(frozen=True)
class Weighed:
    """The evidence for each reading, and the one it points to."""

    follow_up: float
    new_request: float
    reasons: tuple[str, ...] = ()

    # Another method scores HIGH or MEDIUM for the message on its own: only an edit said of
    # the answer itself ("make it ...", "add ... to the plan") keeps it a follow-up.
    strong_other: bool = False
    edits_answer: bool = False

    @property
    def reading(self) -> Reading:
        if self.strong_other and not self.edits_answer:
            return "new_request"
        return "follow_up" if self.follow_up > self.new_request else "new_request"

    @property
    def settled(self) -> bool:
        """Whether the evidence settles it (else a model may): one reading wins clearly, or
        another method scores HIGH or MEDIUM and nothing edits the answer (then it is new
        whatever the weights say)."""
        if self.strong_other and not self.edits_answer:
            return True
        return abs(self.follow_up - self.new_request) >= CLEAR_MARGIN


def goes_on(message: str, last: Task, result: MatchResult, language: str = "en") -> Weighed:
    """How `message` reads after an answer made with `last`, given how it matches on its own
    (`result`): a follow-up when the evidence for going on outweighs the evidence for the
    best other method. A message that names `last` itself at HIGH goes on with it too."""
    best = result.best
    if best is not None and best.task_id == last.id and best.band == "HIGH":
        return Weighed(1.0, 0.0, ("names the same method",))  # answered with it either way
    other = best.band if best is not None and best.task_id != last.id else None
    return weigh(message, last, other, language)


def weigh(
    message: str,
    last: Task,
    other_band: str | None,
    language: str = "en",
) -> Weighed:
    """The evidence that `message` goes on from an answer made with `last` against the
    evidence that it asks for another method, whose best band is `other_band` (None when
    the best method for the message is `last` itself, or there is none)."""
    cues = _cues(lexicon())
    joined = enclitic_edits(message, cues.edit_verbs)
    if joined - cues.clitic_edits:  # "revísala", "redúcelo": an edit verb, the answer in it
        verbs = cues.edit_verbs | joined
        cues = replace(cues, edit_verbs=verbs, clitic_edits=cues.clitic_edits | joined)
    folded = fold(message).replace("’", "'")
    said = _WORD.findall(folded)
    body = _without_lead(said, cues)
    starts = _clause_starts(folded, len(said) - len(body))
    answer = _answer_words(last.id, tuple(_parts(last)))
    follow, reasons = _going_on(said, body, cues, last, answer, starts)
    # Evidence that only says the talk goes on (a long "and ...", a question, a short
    # message), not that the answer itself is meant: it cannot keep a method the message
    # half-names (MEDIUM) from being answered.
    loose = _loose(said, body, cues)
    if _challenges(said, cues):
        follow += CHALLENGE_WEIGHT
        reasons.append("asks why the answer is so")
    elif _asks_about_it(message, said, cues):
        # "how do I take notes in the interviews?" names the answer but asks for a way of
        # doing something: another method's, as likely as this one's.
        how_to = len(said) > SHORT_WORDS and _phrase_at(body, 0, cues.how_to)
        # A fragment ("¿y el tamaño de la muestra?") is about the answer: it says nothing alone.
        names = not how_to and (
            _phrase_at(said, 0, cues.hypotheticals)
            or (_continues(said, body, cues) and _fragment(said, cues))
            or _names_answer(body, cues, last, answer)
        )
        about = names or len(said) <= SHORT_WORDS or _continues(said, body, cues)
        weight = QUESTION_WEIGHT if about else LOOSE_QUESTION_WEIGHT
        follow += weight
        # A question that names the answer makes its "and ..." about the answer too.
        loose = 0.0 if names else loose + weight
        reasons.append("a question about the answer" if about else "a question")
    if _NUMBERED_ITEM.search(folded):
        follow += QUESTION_WEIGHT
        reasons.append("points at an item of the answer by its number")
    if _directive(message, cues):
        follow += QUESTION_WEIGHT
        reasons.append("says how the answer should be")
    # "es remota y solo 45 minutos", "our users are nurses on night shifts": a statement asks
    # for no method; after an answer it is the situation the answer must fit.
    situation = is_statement(message)
    if situation:
        follow += STATEMENT_WEIGHT
        reasons.append("says what the situation is")
    new = BAND_WEIGHT.get(other_band or "", 0.0)
    if new:
        reasons.append(f"another method scores {other_band}")
    asked = _phrase_at(said, 0, cues.request_openings) or _phrase_at(body, 0, cues.request_openings)
    if asked and not _edit_of_answer(body, cues, answer, starts):
        new += 1.0
        reasons.append("asked as a request of its own")
    elif _next_step(said, body, cues, answer):
        new += 1.0
        reasons.append("the next piece of work")
    # A method of its own named (HIGH) is a new request unless it is put into the answer
    # ("add an executive summary at the top"); one half-named (MEDIUM) unless the answer
    # is edited ("add a survey question to each task").
    strong = other_band in ("HIGH", "MEDIUM")
    inserted = _inserted(body, cues, _deliverable_words(last.id, tuple(_parts(last))))
    if inserted:
        follow += INSERTED_WEIGHT
        reasons.append("puts something into the answer")
    clearly = follow - loose >= new + MEDIUM_MARGIN
    # "turn it into personas": the answer made into another method's deliverable.
    converts = strong and _converts(body, cues)
    said_of_answer = _said_of_answer(body, cues, answer)
    edits = inserted or (not converts and (said_of_answer or (other_band == "MEDIUM" and clearly)))
    return Weighed(round(follow, 2), round(new, 2), tuple(reasons), strong, edits)


def _without_lead(words: list[str], cues: _Cues) -> list[str]:
    """The words after "ok, now", "y ahora", "vale": they neither continue nor ask."""
    start = 0
    while start < len(words) - 1 and words[start] in cues.leads:
        start += 1
    return words[start:]


def _going_on(
    said: list[str],
    body: list[str],
    cues: _Cues,
    last: Task,
    answer: frozenset[str],
    starts: frozenset[int] = frozenset(),
) -> tuple[float, list[str]]:
    follow, reasons = 0.0, []
    if _edit_of_answer(body, cues, answer, starts):
        follow += 2.5
        reasons.append("an edit of the answer")
    elif len(body) <= EDIT_ALONE_WORDS and any(
        body[i] in cues.edit_verbs and not _makes_new(body, i, cues)
        for i in {0} | starts
        if i < len(body)
    ):
        # "add a guardrail metric for refunds", "trabajan de noche, adapta la logística"
        follow += 1.5
        reasons.append("asks for a change")
    if _continues(said, body, cues):
        # "and the screener?", "y el guion?": a fragment that only makes sense after the answer
        fragment = _fragment(said, cues)
        follow += FRAGMENT_WEIGHT if fragment else CONTINUES_WEIGHT
        reasons.append("continues the answer" if fragment else "continues the conversation")
    if any(_phrase_at(body, i, cues.adjustments) for i in range(len(body))):
        follow += 1.0
        reasons.append("says how to change it")
    if any(_phrase_at(body, i, cues.complaints) for i in range(min(len(body), 6))):
        follow += 1.5
        reasons.append("says what is wrong with it")
    if set(body) & _deliverable_words(last.id, tuple(_parts(last))):
        follow += 0.7
        reasons.append("names a part of the last answer")
    if len(said) <= SHORT_WORDS:
        follow += SHORT_WEIGHT
        reasons.append("short")
    return follow, reasons


def _fragment(said: list[str], cues: _Cues) -> bool:
    """A few words that only make sense after the answer ("and the screener?", "¿y el tamaño
    de la muestra?"): articles and prepositions do not count."""
    return len(said) <= FRAGMENT_WORDS or (
        len(said) <= 2 * FRAGMENT_WORDS
        and sum(w not in cues.stop_words for w in said) <= FRAGMENT_CONTENT_WORDS
    )


def _makes_new(words: list[str], index: int, cues: _Cues) -> bool:
    """A verb making something new rather than changing the answer: "haz un test de concepto",
    "make a journey map" (an adding verb puts the new thing into the answer instead)."""
    following = words[index + 1 : index + 3]
    if not following or following[0] not in cues.indefinites:
        return False
    # "make a version for sales", "haz una versión sin fechas": another piece of the answer.
    return words[index] not in cues.adding_verbs and not set(following[1:]) & cues.pieces


def _loose(said: list[str], body: list[str], cues: _Cues) -> float:
    """The weight _going_on gave a long continuation and a short message."""
    loose = SHORT_WEIGHT if len(said) <= SHORT_WORDS else 0.0
    if _continues(said, body, cues) and not _fragment(said, cues):
        loose += CONTINUES_WEIGHT
    return loose


def _next_step(said: list[str], body: list[str], cues: _Cues, answer: frozenset[str]) -> bool:
    """ "now write stories for ...", "ahora prioriza los hallazgos ...": a step after the
    answer, not a change to it (no edit said of the answer)."""
    after_now = len(body) < len(said) and said[0] in cues.next_words
    if not after_now or _continues(said, body, cues):
        return False
    return not _edit_of_answer(body, cues, answer) and not _inserted(body, cues)


def _continues(said: list[str], body: list[str], cues: _Cues) -> bool:
    """ "and the screener?", "now do the same for Android", "ahora lo mismo para ..." """
    return _phrase_at(said, 0, cues.continuations) or _phrase_at(body, 0, cues.continuations)


def _said_of_answer(body: list[str], cues: _Cues, answer: frozenset[str]) -> bool:
    """An edit whose object is the answer itself and that makes nothing else of it:
    "tradúcela al español", "make it shorter", or a message that opens with how to change it
    ("más corto todavía, 5 viñetas"); "turn it into personas" makes another deliverable."""
    if _converts(body, cues):
        return False
    if body and body[0] in cues.clitic_edits:
        return True
    opening = next((size for size in (3, 2) if " ".join(body[:size]) in cues.adjustments), 0)
    return bool(opening) or _edit_of_answer(body, cues, answer)


def _converts(body: list[str], cues: _Cues) -> bool:
    return any(_phrase_at(body, i, cues.conversions) for i in range(len(body)))


def _inserted(words: list[str], cues: _Cues, parts: frozenset[str] = frozenset()) -> bool:
    """Something put into the answer: an adding verb first (after "can you", "please"), and
    where it goes in the answer ("add X at the top", "for each task", "añade X al final", "a
    cada riesgo") or a piece of a deliverable as what is added ("include a brainstorming
    block", "add a fake door version", "mete una pregunta de NPS"), or a part of the last
    deliverable (`parts`: "añade los tokens del modo oscuro" after a handoff spec), or more of
    what the answer has ("add the case where the link expired", "add one for the admin")."""
    start = 0
    while start < len(words) and _phrase_at(words, start, cues.polite):
        start += next(
            size
            for size in range(MAX_PHRASE, 0, -1)
            if " ".join(words[start : start + size]) in cues.polite
        )
    if start >= len(words) or words[start] not in cues.adding_verbs:
        return False
    pieces = words[start + 1 : start + 1 + PIECE_REACH]
    if set(pieces) & (cues.pieces | parts):
        return True
    # "add the case where ..." is more of the answer; "put the must-haves into a roadmap"
    # makes another deliverable of it.
    if _phrase_at(words, start + 1, cues.added_objects) and not _converts(words, cues):
        return True
    return any(_phrase_at(words, i, cues.places) for i in range(start + 1, len(words)))


def _asks_about_it(message: str, said: list[str], cues: _Cues) -> bool:
    """A question about what was answered ("what if we only get 3 participants?", "which of
    these are blockers?"), not one asking for something ("can you plan ...?")."""
    question = message.rstrip().endswith("?") or _phrase_at(said, 0, cues.question_openings)
    return question and not _phrase_at(said, 0, cues.request_openings)


def _challenges(said: list[str], cues: _Cues) -> bool:
    """A question about why the answer is as it is: "why 5 participants?", "i don't get why
    ...", "¿por qué no usuarios activos diarios?", "explícame el esfuerzo de la número 4"."""
    return _phrase_at(said, 0, cues.challenges) or _phrase_at(
        _without_lead(said, cues), 0, cues.challenges
    )


def _names_answer(body: list[str], cues: _Cues, last: Task, answer: frozenset[str]) -> bool:
    """Whether a message points back at the answer or names a part of it."""
    parts = _deliverable_stems(last.id, tuple(_parts(last)))
    return bool({stem(w) for w in body} & parts) or any(
        _reference_at(body, i, cues, answer) == "answer" for i in range(len(body))
    )


def _directive(message: str, cues: _Cues) -> bool:
    """A wish said of the answer, not a question: "que dure dos horas", "que puedan mandar
    audios" (Spanish "que" with a subjunctive; "qué ...?" asks)."""
    if "?" in message:
        return False
    first = message.strip().lstrip("¡\"'«").split(maxsplit=1)
    return bool(first) and first[0].lower() in cues.directive_openings


def _clause_starts(folded: str, lead: int) -> frozenset[int]:
    """Where each clause after the first begins, as an index into the message's body (its
    words after `lead` leading words)."""
    starts, count = set(), 0
    for clause in _CLAUSE_END.split(folded)[:-1]:
        count += len(_WORD.findall(clause))
        starts.add(count - lead)
    return frozenset(i for i in starts if i > 0)


def _edit_of_answer(
    words: list[str], cues: _Cues, answer: frozenset[str], starts: frozenset[int] = frozenset()
) -> bool:
    """An edit verb with the answer (a back-reference) or an adjustment soon after it:
    "make it shorter", "add a line to the plan", "hazlo más corto". A verb whose object
    heads another deliverable's name ("haz el mapa de viaje de la primera", after personas)
    makes that deliverable: it edits nothing."""
    for index, word in enumerate(words):
        if word not in cues.edit_verbs or not (index in starts or _verb_at(words, index, cues)):
            continue
        if word in cues.clitic_edits:
            return True  # "hazlo", "ponlo", "acortalo": the answer is in the verb
        for i in range(index + 1, min(len(words), index + 1 + EDIT_REACH)):
            found = _reference_at(words, i, cues, answer)
            if found == "other":
                break
            if found == "answer" or _phrase_at(words, i, cues.adjustments):
                return True
    return False


def _verb_at(words: list[str], index: int, cues: _Cues) -> bool:
    """Whether an edit verb at `index` is said as one: near the start ("make it shorter",
    "can you make it shorter") or after "and", "then", "to"; after "a" or "the" it is a noun,
    and deep in a request ("we need a card sort to validate this") it is another's."""
    if index and words[index - 1] in cues.determiners:
        return False  # "a card sort", "un resumen"
    return index <= VERB_REACH or words[index - 1] in cues.verb_links


def _reference_at(
    words: list[str], start: int, cues: _Cues, answer: frozenset[str]
) -> Literal["answer", "other"] | None:
    """What a back-reference at `start` points to: the answer (a pronoun, "eso", or a noun
    phrase such as "the plan", "la lista"), or another deliverable, when the noun heads a
    name the answer does not have ("el mapa de viaje" after personas)."""
    for size in range(1, min(MAX_PHRASE, len(words) - start) + 1):
        phrase = words[start : start + size]
        if " ".join(phrase) not in cues.back_references:
            continue
        after = start + size
        compound = after + 1 < len(words) and words[after] in cues.compound_links
        if size == 1 or phrase[-1] in answer or not compound:
            return "answer"
        return "other"
    return None


def _phrase_at(words: list[str], start: int, phrases: frozenset[str]) -> bool:
    return any(
        " ".join(words[start : start + size]) in phrases
        for size in range(1, min(MAX_PHRASE, len(words) - start) + 1)
    )


def _parts(task: Task) -> list[str]:
    """What names a method's deliverable and its parts, in both languages."""
    spanish = task.es.expected_output if task.es else []
    return [task.name.en, task.name.es or "", *task.expected_output, *spanish]


@cache
def _answer_words(task_id: str, parts: tuple[str, ...]) -> frozenset[str]:
    """Every word naming a method's deliverable or its parts, short ones too ("map")."""
    return frozenset(w for part in parts for w in _WORD.findall(fold(part)) if len(w) > 2)


@cache
def _deliverable_words(task_id: str, parts: tuple[str, ...]) -> frozenset[str]:
    """The words naming the parts of a method's deliverable ("screener", "tasks")."""
    return frozenset(w for part in parts for w in _WORD.findall(fold(part)) if len(w) > 4)


@cache
def _deliverable_stems(task_id: str, parts: tuple[str, ...]) -> frozenset[str]:
    """The stems of the words naming the parts of a method's deliverable ("visit")."""
    return frozenset(stem(w) for w in _deliverable_words(task_id, parts))


@dataclass(frozen=True)
class _Cues:
    back_references: frozenset[str]
    edit_verbs: frozenset[str]
    clitic_edits: frozenset[str]
    continuations: frozenset[str]
    adjustments: frozenset[str]
    request_openings: frozenset[str]
    leads: frozenset[str]
    question_openings: frozenset[str]
    adding_verbs: frozenset[str]
    next_words: frozenset[str]
    places: frozenset[str]
    complaints: frozenset[str]
    compound_links: frozenset[str]
    polite: frozenset[str]
    pieces: frozenset[str]
    conversions: frozenset[str]
    determiners: frozenset[str]
    verb_links: frozenset[str]
    challenges: frozenset[str]
    directive_openings: frozenset[str]
    how_to: frozenset[str]
    hypotheticals: frozenset[str]
    indefinites: frozenset[str]
    stop_words: frozenset[str]
    added_objects: frozenset[str]


@cache
def _cues(words: Lexicon) -> _Cues:
    verbs = words.union("edit_verbs")
    # A Spanish edit verb with the pronoun joined ("hazlo", "acortalo") names the answer.
    clitics = frozenset(v for v in verbs if re.search(r"(?:lo|la|los|las)$", v) and len(v) > 4)
    return _Cues(
        words.union("back_references"),
        verbs,
        clitics,
        words.union("continuations"),
        words.union("adjustments"),
        words.union("request_openings"),
        words.union("leads"),
        words.union("question_openings"),
        words.union("adding_verbs"),
        words.union("next_words"),
        words.union("places"),
        words.union("complaints"),
        words.union("compound_links"),
        words.union("polite_openings"),
        words.union("answer_pieces"),
        words.union("conversions"),
        words.union("determiners"),
        words.union("verb_links"),
        words.union("challenges"),
        words.union("directive_openings"),
        words.union("how_to_openings"),
        words.union("hypotheticals"),
        words.union("indefinites"),
        words.union("stop_words"),
        words.union("added_objects"),
    )
