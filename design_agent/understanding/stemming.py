"""A light stemmer shared by every language the lexicon holds, so word forms meet.

Both sides of every comparison (a message's words, a catalogue's phrases) go through
`stem`, so it only has to be consistent, not linguistically right. The words it must
leave whole are the lexicon's (`unstemmed` in lexicon/<language>/words.yaml).
"""

from __future__ import annotations

import re
from functools import lru_cache

from design_agent.core.lexicon import Lexicon, lexicon

_CLITIC = re.compile(r"(?<=[aei]r)(?:lo|la|los|las|le|les|me)$")
CLITIC_MIN_LENGTH = 7
STEM_CACHE = 65536
# The lexicon in use when `stem` last looked, and its unstemmed words.
_stemmed_for: list[Lexicon | None] = [None]
_unstemmed: list[frozenset[str]] = [frozenset()]


def stem(word: str) -> str:
    """A light stem shared by English and Spanish, so word forms meet.

    Takes off Spanish verb endings (-amos, -ar, -ir: "priorizamos", "priorizar"
    -> "prioriz"; not -er, which would turn "screener" into "screen"), plurals,
    -ing/-ed and a final vowel ("guides" and "guide" -> "guid"). The lexicon's
    `unstemmed` words stay whole: "persona" (the method) must not become "person".
    """
    words = lexicon()
    if words is not _stemmed_for[0]:  # another home's words
        _unstemmed[0] = words.union("unstemmed")
        _stemmed_for[0] = words
    return word if word in _unstemmed[0] else _stem(word)


@lru_cache(maxsize=STEM_CACHE)
def _stem(word: str) -> str:
    if len(word) <= 3 or word.isdigit():
        return word
    word = _without_clitic(word)
    if word.endswith(("amos", "emos", "imos")) and len(word) >= 7:
        return word[:-4]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith(("ar", "ir")) and len(word) >= 5:
        return word[:-2]
    if word.endswith("ing") and len(word) >= 7:
        word = word[:-3]
        if word[-1] == word[-2]:  # planning -> plann -> plan
            word = word[:-1]
    elif word.endswith("ed") and len(word) >= 6:
        word = word[:-2]
    if len(word) > 4 and word[-1] in "aeo":  # not "site" -> "sit"
        word = word[:-1]
    return word


def _without_clitic(word: str) -> str:
    """A Spanish infinitive without the pronoun joined to it: "ordenarlas" -> "ordenar",
    "revisarlo" -> "revisar" ("nos", "se" and "te" stay: "internos", "diverse")."""
    if len(word) < CLITIC_MIN_LENGTH:
        return word
    return _CLITIC.sub("", word)
