"""How closely a quote matches a segment's words: normalised (quotes, dashes, spaces, case,
accents, punctuation), then exact, then the pieces of an elided quote in order, then a
fuzzy alignment (rapidfuzz's partial ratio), 0-100."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

ELISION = re.compile(r"\s*(?:\.\.\.+|…|\[\s*(?:\.\.\.|…|\.\.)\s*\]|\(\s*(?:\.\.\.|…)\s*\))\s*")
PUNCTUATION = re.compile(r"[^\w\s']", re.UNICODE)
APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'"})


def normalise(text: str) -> str:
    """Lower case, accents folded, apostrophes straightened, other punctuation (quotes,
    dashes, commas) as spaces, spaces collapsed."""
    folded = unicodedata.normalize("NFKD", text.translate(APOSTROPHES))
    plain = "".join(c for c in folded if not unicodedata.combining(c)).casefold()
    return " ".join(PUNCTUATION.sub(" ", plain).split())


def pieces(quote: str) -> list[str]:
    """The normalised pieces of a quote, split where it elides words ("...", "[…]")."""
    return [p for p in (normalise(part) for part in ELISION.split(quote)) if p]


def words(quote: str) -> int:
    return sum(len(p.split()) for p in pieces(quote))


@dataclass(frozen=True)
class Match:
    score: float  # 0-100
    how: str  # exact, elided, fuzzy


def match(quote: str, segment: str) -> Match:
    """How `quote` matches `segment`: 100 when its words are there as they are (or its
    elided pieces, in order), else the weakest piece's fuzzy alignment."""
    parts, source = pieces(quote), normalise(segment)
    if not parts or not source:
        return Match(0.0, "fuzzy")
    if len(parts) == 1 and _within(parts[0], source):
        return Match(100.0, "exact")
    if len(parts) > 1 and _in_order(parts, source):
        return Match(100.0, "elided")
    scores = [
        fuzz.partial_ratio(p, source) if len(p) <= len(source) else fuzz.ratio(p, source)
        for p in parts
    ]
    return Match(float(min(scores)), "fuzzy")


def _within(piece: str, source: str) -> bool:
    return f" {piece} " in f" {source} "


def _in_order(parts: list[str], source: str) -> bool:
    padded, at = f" {source} ", 0
    for part in parts:
        found = padded.find(f" {part} ", at)
        if found < 0:
            return False
        at = found + len(part) + 1
    return True


def span(quote: str, segment: str) -> str:
    """The segment's own words for a quote: the whole segment's matching stretch, as the
    source wrote them (its case and punctuation)."""
    parts = pieces(quote)
    if not parts:
        return ""
    tokens = segment.split()
    normalised = [normalise(t) for t in tokens]
    found = [_window(part, normalised) for part in parts]
    if any(f is None for f in found):
        return segment.strip()
    texts = [" ".join(tokens[a:b]) for a, b in found]  # type: ignore[misc]
    return " … ".join(texts)


def _window(part: str, normalised: list[str]) -> tuple[int, int] | None:
    """The stretch of tokens whose words best align with `part`."""
    size = len(part.split())
    best: tuple[float, int] | None = None
    for start in range(max(1, len(normalised) - size + 1)):
        window = " ".join(w for w in normalised[start : start + size] if w)
        score = fuzz.ratio(part, window)
        if best is None or score > best[0]:
            best = (score, start)
    if best is None:
        return None
    return best[1], min(len(normalised), best[1] + size)
