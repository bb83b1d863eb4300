"""Regular expressions written over the lexicon's words: patterns as code, phrases as data.

A template is a regex in which `⟪name⟫` stands for the lexicon's `name` words, every
language's, as one alternation (longest first), so a language's file adds alternatives to
a pattern without touching it:

    "⟪delete_verbs⟫ (?P<name>.+?)"  ->  "(?:eliminar|delete|remove|borra|...) (?P<name>.+?)"

A `PhraseBook` is every template filled for one lexicon. Its patterns are LazyPatterns:
compiled when first tried, and tried only on a text that starts with one of their possible
first words. Those come from each pattern's syntax tree (pattern_starts.py); reading some
170 trees costs ~90 ms, so what `fill` makes is kept in the home's cache by its user
(intents.py), keyed by the lexicon's files and the templates' text: a changed word or
template fills them again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from design_agent.understanding.lazy_regex import LazyPattern
from design_agent.understanding.pattern_starts import starts_of

if TYPE_CHECKING:
    from design_agent.core.lexicon import Lexicon

SLOT = re.compile(r"⟪([a-z][a-z0-9_]*)⟫")
# Bumped when pattern_starts.py reads trees differently: the kept starts are then read again.
STARTS_FORMAT = 1
NEVER = "(?!)"  # the alternation of a name no language gives: matches nothing


@dataclass(frozen=True)
class Template:
    """One group of patterns. `needles` names a lexicon list every match holds a word of
    (the proof is in tests/test_intent_patterns.py); `gated` patterns get their starts."""

    sources: tuple[str, ...]
    needles: str = ""
    flags: int = 0
    gated: bool = True


def alternation(words: Iterable[str]) -> str:
    """The words as one regex group, longest first (so the longest phrase is tried first)."""
    ordered = sorted(set(words), key=lambda word: (-len(word), word))
    if not ordered:
        return NEVER
    return "(?:" + "|".join(re.escape(word) for word in ordered) + ")"


# A filled group: (pattern, its starts, its needles) for each of its patterns.
Filled = tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]


def fill(templates: Mapping[str, Template], words: Lexicon) -> dict[str, Filled]:
    """Every template filled with `words`, each pattern with its starts and needles: what a
    PhraseBook is made of (plain data, so a home's cache can keep it)."""
    alternations: dict[str, str] = {}

    def slot(found: re.Match[str]) -> str:
        name = found.group(1)
        if name not in alternations:
            alternations[name] = alternation(words.entries(name))
        return alternations[name]

    filled: dict[str, Filled] = {}
    for key, template in templates.items():
        needles = tuple(sorted(words.entries(template.needles))) if template.needles else ()
        sources = [SLOT.sub(slot, source) for source in template.sources]
        filled[key] = tuple(
            (source, starts_of(source, template.flags) if template.gated else (), needles)
            for source in sources
        )
    return filled


def digest(templates: Mapping[str, Template]) -> str:
    """A key for these templates as written (and for how their starts are read)."""
    hashed = hashlib.sha256(f"{STARTS_FORMAT}".encode())
    for key, template in sorted(templates.items()):
        hashed.update(f"{key}\0{template}\n".encode())
    return hashed.hexdigest()[:16]


class PhraseBook:
    """Every template filled with one lexicon's words, as LazyPatterns (see `fill`)."""

    def __init__(self, filled: Mapping[str, Filled], flags: Mapping[str, int]) -> None:
        self._groups = {
            key: tuple(
                LazyPattern(source, starts=starts, needles=needles, flags=flags[key])
                for source, starts, needles in group
            )
            for key, group in filled.items()
        }

    def __getitem__(self, key: str) -> tuple[LazyPattern, ...]:
        return self._groups[key]

    def one(self, key: str) -> LazyPattern:
        """The group's only pattern."""
        (pattern,) = self._groups[key]
        return pattern

    def groups(self) -> dict[str, tuple[LazyPattern, ...]]:
        return dict(self._groups)
