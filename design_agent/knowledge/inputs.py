"""What a method works from, and which of it the request and the project leave out.

A task names its inputs (`inputs:` in tasks.yaml, each defined in config/inputs.yaml
with its cue words). An input is given when a project metadata key holds it or one of
its cues starts a word of the request, the project's facts, briefs, decisions or the
recent conversation; the prompt names the others, so the model asks for one once or
states an assumption for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from design_agent.core.models import InputNeed
from design_agent.core.text import fold


def missing_needs(
    needs: Sequence[InputNeed], texts: Iterable[str], metadata: Mapping[str, str]
) -> list[InputNeed]:
    """The inputs in `needs` that neither `texts` nor `metadata` give."""
    text = fold(" ".join(texts))
    return [need for need in needs if not _given(need, text, metadata)]


def _given(need: InputNeed, text: str, metadata: Mapping[str, str]) -> bool:
    """Whether a metadata key or a cue at the start of a word of `text` gives `need`."""
    if any(str(metadata.get(key, "")).strip() for key in need.metadata):
        return True
    return any(_starts_a_word(cue, text) for cue in _folded((*need.cues.en, *need.cues.es)))


def _starts_a_word(cue: str, text: str) -> bool:
    """Whether `cue` occurs in `text` at the start of a word (anywhere, when it starts with
    neither a letter nor a digit). One `str.find` per cue: a regex of every cue tried at
    every position cost 1.4 ms a turn on a two-thousand-character context."""
    if not cue:
        return False
    at = text.find(cue)
    while at >= 0:
        if at == 0 or not cue[0].isalnum() or not _WORD.match(text[at - 1]):
            return True
        at = text.find(cue, at + 1)
    return False


@cache
def _folded(cues: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(fold(cue) for cue in cues)


_WORD = re.compile("[a-z0-9]")
