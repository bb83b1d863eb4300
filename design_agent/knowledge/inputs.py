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


def is_given(need: InputNeed, text: str, metadata: Mapping[str, str]) -> bool:
    """Whether `need` is given by a metadata key or by a cue in `text` (already folded)."""
    return need in _given([need], text, metadata)


def missing_needs(
    needs: Sequence[InputNeed], texts: Iterable[str], metadata: Mapping[str, str]
) -> list[InputNeed]:
    """The inputs in `needs` that neither `texts` nor `metadata` give."""
    given = _given(needs, fold(" ".join(texts)), metadata)
    return [need for need in needs if need not in given]


def _given(needs: Sequence[InputNeed], text: str, metadata: Mapping[str, str]) -> list[InputNeed]:
    """The needs a metadata key or a cue in `text` gives: the text is read once for every
    cue of every need (a long brief is not scanned once per cue)."""
    given = [n for n in needs if any(str(metadata.get(k, "")).strip() for k in n.metadata)]
    cues = tuple(sorted({fold(c) for n in needs for c in [*n.cues.en, *n.cues.es]}))
    if not cues:
        return given
    # What the cues found, kept apart so that a cue inside a longer one still counts.
    found = " | ".join({m.group(0) for m in _cues(cues).finditer(text)})
    return given + [
        n
        for n in needs
        if n not in given and any(_cues((fold(c),)).search(found) for c in [*n.cues.en, *n.cues.es])
    ]


@cache
def _cues(cues: tuple[str, ...]) -> re.Pattern[str]:
    """Every cue at once, longest first; one that starts with a letter or digit matches at
    the start of a word only."""
    ordered = sorted(cues, key=len, reverse=True)
    parts = [(r"(?<![a-z0-9])" if c[:1].isalnum() else "") + re.escape(c) for c in ordered]
    return re.compile("|".join(parts))
