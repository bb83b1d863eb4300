"""Token estimates for prompt budgets, text that is always valid Unicode, and text that is
safe for a terminal or a log (text comparison lives in language.py)."""

from __future__ import annotations

import re

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
