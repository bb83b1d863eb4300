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

from design_agent.core.models import InputNeed
from design_agent.core.text import fold


def is_given(need: InputNeed, text: str, metadata: Mapping[str, str]) -> bool:
    """Whether `need` is given by a metadata key or by a cue in `text` (already folded)."""
    if any(str(metadata.get(key, "")).strip() for key in need.metadata):
        return True
    return any(_cue(cue).search(text) for cue in [*need.cues.en, *need.cues.es])


def _cue(cue: str) -> re.Pattern[str]:
    """A cue that starts with a letter or digit matches at the start of a word only."""
    folded = fold(cue)
    start = r"(?<![a-z0-9])" if folded[:1].isalnum() else ""
    return re.compile(start + re.escape(folded))


def missing_needs(
    needs: Sequence[InputNeed], texts: Iterable[str], metadata: Mapping[str, str]
) -> list[InputNeed]:
    """The inputs in `needs` that neither `texts` nor `metadata` give."""
    folded = fold(" ".join(texts))
    return [need for need in needs if not is_given(need, folded, metadata)]
