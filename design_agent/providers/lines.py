"""From raw pipe reads to text: complete lines, or decoded chunks for plain text.

A read may end in the middle of a JSON object or of a multi-byte UTF-8
character; both are safe here because a line is decoded only once it is
complete, and chunks go through an incremental decoder. A line of several
megabytes is accumulated without rescanning (only each new chunk is searched
for a newline) up to `max_line` bytes.
"""

from __future__ import annotations

import codecs

MAX_LINE_BYTES = 256 * 1024 * 1024


class LineTooLongError(Exception):
    """A single output line exceeded the limit; the output is not a sane stream."""


class LineSplitter:
    """Feed bytes, get back complete lines (without their newline), decoded as UTF-8."""

    def __init__(self, max_line: int = MAX_LINE_BYTES) -> None:
        self._pending = bytearray()
        self._max_line = max_line

    def feed(self, chunk: bytes) -> list[str]:
        if b"\n" not in chunk:
            self._pending += chunk
            if len(self._pending) > self._max_line:
                raise LineTooLongError(f"an output line is longer than {self._max_line} bytes")
            return []
        parts = chunk.split(b"\n")
        if self._pending:
            parts[0] = bytes(self._pending) + parts[0]
        self._pending = bytearray(parts.pop())
        return [_decode(part) for part in parts]

    def flush(self) -> list[str]:
        """The last line when the stream ended without a newline."""
        if not self._pending:
            return []
        rest, self._pending = bytes(self._pending), bytearray()
        return [_decode(rest)]


class ChunkDecoder:
    """Feed bytes, get back whatever text is complete so far (for plain-text streams)."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, chunk: bytes) -> list[str]:
        text = self._decoder.decode(chunk)
        return [text] if text else []

    def flush(self) -> list[str]:
        text = self._decoder.decode(b"", final=True)
        return [text] if text else []


def _decode(line: bytes) -> str:
    # Invalid bytes become U+FFFD rather than failing the whole answer.
    return line.removesuffix(b"\r").decode("utf-8", errors="replace")
