"""Small text helpers shared by matching, knowledge, intents and validation."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def fold(text: str) -> str:
    """Lowercase and strip accents, so 'Próxima' and 'proxima' compare equal."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """The folded words of `text`, in order."""
    return _WORD.findall(fold(text))


def word_set(text: str, min_length: int = 3) -> set[str]:
    """Distinct folded words of at least `min_length` letters (drops most function words)."""
    return {w for w in words(text) if len(w) >= min_length}


def estimate_tokens(text: str) -> int:
    """A provider-neutral token estimate: about four characters per token."""
    return max(1, (len(text) + 3) // 4)


def stems(text: str, min_length: int = 3) -> set[str]:
    """Word stems for loose relevance: the first six letters ('recruit' ~ 'recruiting')."""
    return {w[:6] for w in word_set(text, min_length)}
