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
the caller may ask the fast model (clarify.py); `decided` says whether it must.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.models import Task
from design_agent.core.text import fold

Reading = Literal["follow_up", "new_request"]
_WORD = re.compile(r"[a-z0-9ñ]+(?:'[a-z]+)?")
SHORT_WORDS = 6
FRAGMENT_WORDS = 4
EDIT_ALONE_WORDS = 10
# How far after an edit verb the thing it edits may come ("add a line to it").
EDIT_REACH = 6
MAX_PHRASE = 4
# Weights of the evidence for a new method: the band of the best other method.
BAND_WEIGHT = {"HIGH": 3.0, "MEDIUM": 1.6, "LOW": 0.4}
# A reading wins clearly by this much; closer, the model may decide (when there is one).
CLEAR_MARGIN = 1.0


@dataclass(frozen=True)
class Weighed:
    """The evidence for each reading, and the one it points to."""

    follow_up: float
    new_request: float
    reasons: tuple[str, ...] = ()

    @property
    def reading(self) -> Reading:
        return "follow_up" if self.follow_up > self.new_request else "new_request"

    @property
    def decided(self) -> bool:
        """Whether one reading wins clearly (else a model may settle it)."""
        return abs(self.follow_up - self.new_request) >= CLEAR_MARGIN


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
    words = _without_lead(_WORD.findall(fold(message).replace("’", "'")), cues)
    follow, reasons = _going_on(words, cues, last)
    new = BAND_WEIGHT.get(other_band or "", 0.0)
    if new:
        reasons.append(f"another method scores {other_band}")
    if _phrase_at(words, 0, cues.request_openings) and not _edit_of_answer(words, cues):
        new += 1.0
        reasons.append("asked as a request of its own")
    return Weighed(round(follow, 2), round(new, 2), tuple(reasons))


def _without_lead(words: list[str], cues: _Cues) -> list[str]:
    """The words after "ok, now", "y ahora", "vale": they neither continue nor ask."""
    start = 0
    while start < len(words) - 1 and words[start] in cues.leads:
        start += 1
    return words[start:]


def _going_on(words: list[str], cues: _Cues, last: Task) -> tuple[float, list[str]]:
    follow, reasons = 0.0, []
    if _edit_of_answer(words, cues):
        follow += 2.5
        reasons.append("an edit of the answer")
    elif words and words[0] in cues.edit_verbs and len(words) <= EDIT_ALONE_WORDS:
        follow += 1.0  # "split the biggest one in two", "añade una pregunta sobre ..."
        reasons.append("asks for a change")
    if _phrase_at(words, 0, cues.continuations):
        # "and the screener?", "y el guion?": a fragment that only makes sense after the answer
        fragment = len(words) <= FRAGMENT_WORDS
        follow += 2.0 if fragment else 1.0
        reasons.append("continues the answer" if fragment else "continues the conversation")
    if any(_phrase_at(words, i, cues.adjustments) for i in range(len(words))):
        follow += 1.0
        reasons.append("says how to change it")
    if set(words) & _deliverable_words(last.id, tuple(_parts(last))):
        follow += 0.7
        reasons.append("names a part of the last answer")
    if len(words) <= SHORT_WORDS:
        follow += 0.5
        reasons.append("short")
    return follow, reasons


def _edit_of_answer(words: list[str], cues: _Cues) -> bool:
    """An edit verb with the answer (a back-reference) or an adjustment soon after it:
    "make it shorter", "add a line to the plan", "hazlo más corto"."""
    for index, word in enumerate(words):
        if word not in cues.edit_verbs:
            continue
        if word in cues.clitic_edits:
            return True  # "hazlo", "ponlo", "acortalo": the answer is in the verb
        reach = range(index + 1, min(len(words), index + 1 + EDIT_REACH))
        if any(
            _phrase_at(words, i, cues.back_references) or _phrase_at(words, i, cues.adjustments)
            for i in reach
        ):
            return True
    return False


def _phrase_at(words: list[str], start: int, phrases: frozenset[str]) -> bool:
    return any(
        " ".join(words[start : start + size]) in phrases
        for size in range(1, min(MAX_PHRASE, len(words) - start) + 1)
    )


def _parts(task: Task) -> list[str]:
    return [*task.expected_output, *(task.es.expected_output if task.es else [])]


@cache
def _deliverable_words(task_id: str, parts: tuple[str, ...]) -> frozenset[str]:
    """The words naming the parts of a method's deliverable ("screener", "tasks")."""
    return frozenset(w for part in parts for w in _WORD.findall(fold(part)) if len(w) > 4)


@dataclass(frozen=True)
class _Cues:
    back_references: frozenset[str]
    edit_verbs: frozenset[str]
    clitic_edits: frozenset[str]
    continuations: frozenset[str]
    adjustments: frozenset[str]
    request_openings: frozenset[str]
    leads: frozenset[str]


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
    )
