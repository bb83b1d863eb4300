"""Spanish imperatives with the object joined to the verb: "revísala", "redúcelo",
"tradúcelas", "ponle". The pronoun is the answer, so an edit verb the lexicon lists bare
("revisa", "reduce", "pon") edits it with any pronoun joined, written accent or not: the
joined forms need not be listed. A verb that does another method on the answer
("audítalo", "prepárale una guía") is not an edit verb, so it stays a request.

The pronouns and the endings that only look like one ("título", "fórmula") are the
lexicon's (lexicon/es/follow_ups.yaml: enclitic_pronouns, not_enclitic_endings).
"""

from __future__ import annotations

import re
from functools import cache

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.text import fold

_WORD = re.compile(r"\w+")


def enclitic_edits(message: str, verbs: frozenset[str]) -> frozenset[str]:
    """The folded words of `message` that are an imperative with a pronoun joined; `verbs`
    are the listed edit verbs (folded), whose bare forms take a pronoun without an accent."""
    pronouns, not_endings = _words(lexicon())
    found = set()
    for word in _WORD.findall(message.lower()):
        pronoun = next((p for p in pronouns if word.endswith(p) and len(word) >= len(p) + 3), "")
        if not pronoun or any(word.endswith(e) for e in not_endings):
            continue
        stem = word[: -len(pronoun)]
        if fold(stem) in verbs:
            found.add(fold(word))
    return frozenset(found)


@cache
def _words(words: Lexicon) -> tuple[tuple[str, ...], tuple[str, ...]]:
    # Longest first, so "las" is read before "la".
    pronouns = sorted(words.union("enclitic_pronouns"), key=len, reverse=True)
    return tuple(pronouns), tuple(words.union("not_enclitic_endings"))
