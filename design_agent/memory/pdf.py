"""The text of a PDF, with the work bounded (documents.py says why).

pypdf parses a page's whole drawing program before it extracts any text, and
a few kilobytes of compressed instructions can draw millions of characters.
So each page's program is cut to `Limits.page_bytes` before extraction, and
pypdf's per-operation hook stops the page once the character cap or the
deadline is reached; what was extracted until then is kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from io import BytesIO
from typing import TYPE_CHECKING, Any

from design_agent.core.errors import UsageError
from design_agent.core.logs import route_library_warnings

if TYPE_CHECKING:
    from pypdf import PageObject, PdfReader


@dataclass(frozen=True)
class Limits:
    """How much of a file is read: characters kept; a PDF's pages, bytes per page, seconds."""

    chars: int = 200_000
    pages: int = 300
    page_bytes: int = 512 * 1024
    seconds: float = 10.0


class _Stop(Exception):
    """Raised inside pypdf's extraction when a limit is reached."""


@dataclass
class _Budget:
    limits: Limits
    deadline: float
    chars: int = 0

    def check(self, pending: int = 0) -> None:
        if time.monotonic() >= self.deadline or self.chars + pending >= self.limits.chars:
            raise _Stop


def pdf_text(name: str, data: bytes, limits: Limits) -> tuple[str, bool]:
    """The text of the PDF `data`, and whether a limit cut it short."""
    reader = _open(name, data)
    budget = _Budget(limits, time.monotonic() + limits.seconds)
    total = _page_count(name, reader)
    texts: list[str] = []
    for index in range(min(total, limits.pages)):
        try:
            budget.check()
        except _Stop:
            return _joined(texts), True
        text, cut = _page_text(name, reader, index, budget)
        texts.append(text)
        budget.chars += len(text)
        if cut:
            return _joined(texts), True
    return _joined(texts), total > limits.pages


def _page_text(name: str, reader: PdfReader, index: int, budget: _Budget) -> tuple[str, bool]:
    pieces: list[str] = []
    seen = [0]

    def collect(text: str, *_: Any) -> None:
        pieces.append(text)
        seen[0] += len(text)

    def before(*_: Any) -> None:
        budget.check(seen[0])

    try:
        page = reader.pages[index]
        cut = _bound_contents(page, reader, budget.limits.page_bytes)
        text = page.extract_text(visitor_operand_before=before, visitor_text=collect)
    except _Stop:
        return "".join(pieces), True
    except Exception as e:  # pypdf raises many kinds of errors on damaged files
        raise UsageError(f"{name} is not a readable PDF: {e}") from e
    return text or "", cut


def _bound_contents(page: PageObject, reader: PdfReader, limit: int) -> bool:
    """Cut the page's drawing program to `limit` bytes (at a line end); True if cut."""
    from pypdf.generic import ContentStream, NameObject

    contents = page.get_contents()
    if contents is None:
        return False
    data = contents.get_data()
    if len(data) <= limit:
        return False
    head = data[:limit]
    stream = ContentStream(None, reader)
    stream.set_data(head[: head.rfind(b"\n") + 1] or head)
    page[NameObject("/Contents")] = stream
    return True


def _open(name: str, data: bytes) -> PdfReader:
    from pypdf import PdfReader

    route_library_warnings()  # a hostile PDF's names reach pypdf's warnings
    try:
        reader = PdfReader(BytesIO(data))
        encrypted = reader.is_encrypted
    except Exception as e:  # as above: any damage is "not readable"
        raise UsageError(f"{name} is not a readable PDF: {e}") from e
    if encrypted:
        raise UsageError(f"{name} is an encrypted PDF; save an unlocked copy first")
    return reader


def _page_count(name: str, reader: PdfReader) -> int:
    try:
        return len(reader.pages)
    except Exception as e:
        raise UsageError(f"{name} is not a readable PDF: {e}") from e


def _joined(texts: list[str]) -> str:
    return "\n\n".join(text.strip() for text in texts if text.strip())
