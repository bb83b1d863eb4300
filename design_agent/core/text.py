"""Text basics every layer shares: folding (case and accents) and words for comparing what
a person typed with what design-agent knows, token estimates for prompt budgets, text
that is always valid Unicode, text safe for a terminal or a log, the bounded part of a
message that is read, and a database URL without its password. Which words mean what,
per language, is data: the lexicon (design_agent/lexicon/<language>/*.yaml, read by
core/lexicon.py and understanding/)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# A message is read (its language, its method) on its first and last characters only: a
# request sits at the start or the end of what was pasted, and the reading time grows with
# the text (about 3 ms per 1,000 characters to match). The whole text is stored and sent.
READ_HEAD_CHARS = 800
READ_TAIL_CHARS = 250

# Escape sequences, 7-bit and 8-bit: CSI (colours, cursor, clear screen); OSC, DCS, SOS,
# PM and APC up to their terminator or the end (title, clipboard); any other ESC pair.
_SEQUENCES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?"
    r"|[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# What is left of C0 and C1 but tab and newline (a bare CR, BEL, a lone ESC, DEL).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def estimate_tokens(text: str) -> int:
    """A provider-neutral token estimate: about four characters per token."""
    return max(1, (len(text) + 3) // 4)


def valid_unicode(text: str) -> str:
    """`text` with each lone surrogate (a JSON `"\\ud800"` decodes to one) replaced by U+FFFD,
    and a surrogate pair joined into its character, so it can always be encoded as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def clean_text(text: str, one_line: bool = False) -> str:
    """`text` safe for a terminal: escape sequences and control characters dropped (tab and
    newline kept, CRLF read as a newline). `one_line` (a table cell, a name) also shows each
    line break as a visible ␤, so a value can never split a row."""
    text = _CONTROLS.sub("", _SEQUENCES.sub("", text.replace("\r\n", "\n")))
    if one_line:
        text = text.replace("\n", "␤").replace("\t", " ")
    return text


def reading_of(message: str) -> str:
    """`message` cut to its first and last characters when it is long (READ_HEAD_CHARS),
    each cut made between words: the work of reading a message is bounded, however long."""
    if len(message) <= READ_HEAD_CHARS + READ_TAIL_CHARS:
        return message
    head = message[:READ_HEAD_CHARS]
    tail = message[-READ_TAIL_CHARS:]
    head = head[: head.rfind(" ")] if " " in head else head
    tail = tail[tail.find(" ") + 1 :] if " " in tail else tail
    return f"{head}\n…\n{tail}"


class _MarkStripper(dict[int, int | None]):
    """Code point -> None for a combining mark, itself otherwise, filled as characters are
    met: `str.translate` then strips accents at C speed, not one Python call a character."""

    def __missing__(self, code: int) -> int | None:
        if len(self) >= MARK_CACHE_LIMIT:
            self.clear()
        kept = None if unicodedata.combining(chr(code)) else code
        self[code] = kept
        return kept


MARK_CACHE_LIMIT = 16384
_STRIP_MARKS = _MarkStripper()


def fold(text: str) -> str:
    """Casefold and strip accents: "Straße" -> "strasse", "Próxima" -> "proxima"."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return unicodedata.normalize("NFC", decomposed.translate(_STRIP_MARKS))


def fold_mapped(text: str) -> tuple[str, list[int]]:
    """`fold(text)` and, for each folded character, the index of the original one it came
    from, so a span found in the folded text can be cut from the original."""
    if text.isascii():  # most messages: one folded character per original one
        return text.lower(), list(range(len(text)))
    pieces = [_fold_char(char) for char in text]
    return "".join(pieces), [index for index, piece in enumerate(pieces) for _ in piece]


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    return fold(char)


def original_span(text: str, origin: list[int], start: int, end: int) -> str:
    """The part of `text` that the folded span [start, end) came from."""
    if start >= end or not origin:
        return ""
    last = origin[end - 1] + 1
    return text[origin[start] : last]


_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def words(text: str) -> list[str]:
    """The folded words of `text`, in order."""
    return _WORD.findall(fold(text))


def word_set(text: str, min_length: int = 3) -> set[str]:
    """Distinct folded words of at least `min_length` letters (drops most function words)."""
    return {w for w in words(text) if len(w) >= min_length}


def short_stems(text: str, min_length: int = 3) -> set[str]:
    """Word stems for loose relevance: the first six letters ('recruit' ~ 'recruiting')."""
    return {w[:6] for w in word_set(text, min_length)}


def word_list(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text` (long word lists read better as prose)."""
    return frozenset(text.split())


AB_TEST = re.compile(r"\ba\s*/\s*b\b")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize(text: str) -> str:
    """Folded, with only letters and digits left, separated by single spaces."""
    plain = fold(text)
    # "A/B" would otherwise split into two one-letter words that mean nothing.
    plain = AB_TEST.sub("ab", plain)
    return _NON_WORD.sub(" ", plain).strip()


def split_words(normalized: str) -> list[str]:
    return normalized.split()


_PASSWORD = re.compile(r"(?P<user>://[^:/@?#]*):[^@/?#]*@|(?P<sep>[?&])password=[^&#]*&?")


def hide_password(url: str) -> str:
    """A database URL as it may be shown: without its password (in the user part, or as a
    `password=` parameter)."""
    return _PASSWORD.sub(lambda m: f"{m['user']}@" if m["user"] else m["sep"], url).rstrip("?&")
