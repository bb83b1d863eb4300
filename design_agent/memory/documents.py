"""Reading a file the user adds to a project: text, markdown or PDF, never binaries.

The database stores the text, so this module turns a path into (text, sha256)
or refuses it with an error that says what is accepted.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from design_agent.errors import NotFoundError, UsageError

MAX_FILE_BYTES = 10 * 1024 * 1024
ACCEPTED = "text (.txt), markdown (.md) or PDF (.pdf)"


@dataclass(frozen=True)
class Document:
    """The text of a file and the sha256 of its bytes (to detect the same file twice)."""

    filename: str
    text: str
    sha256: str


def read_document(path: Path, max_bytes: int = MAX_FILE_BYTES) -> Document:
    """Read `path` as text or PDF; UsageError for binaries, empty or oversized files."""
    data = _read_bytes(path, max_bytes)
    text = _pdf_text(path, data) if data.startswith(b"%PDF-") else _plain_text(path, data)
    if not text.strip():
        raise UsageError(f"{path.name} has no text to add (a scanned PDF needs OCR first)")
    return Document(path.name, text, hashlib.sha256(data).hexdigest())


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    if not path.is_file():
        raise NotFoundError(f"no such file: {path}")
    size = path.stat().st_size
    if size > max_bytes:
        raise UsageError(
            f"{path.name} is {size / 1_048_576:.1f} MB; the limit is "
            f"{max_bytes / 1_048_576:.1f} MB. Add a shorter excerpt or split it."
        )
    return path.read_bytes()


def _plain_text(path: Path, data: bytes) -> str:
    # A NUL byte never appears in text; undecodable bytes mean an image, archive, ...
    if b"\x00" in data[:8192]:
        raise UsageError(f"{path.name} looks like a binary file; add {ACCEPTED}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(
            f"{path.name} is not UTF-8 text (byte {e.start}); add {ACCEPTED}, "
            "or convert it to UTF-8 first"
        ) from e
    return text.replace("\r\n", "\n")


def _pdf_text(path: Path, data: bytes) -> str:
    from io import BytesIO

    from pypdf import PdfReader

    try:
        reader = PdfReader(BytesIO(data))
        encrypted = reader.is_encrypted
        pages = [] if encrypted else [page.extract_text() or "" for page in reader.pages]
    except Exception as e:  # pypdf raises many kinds of errors on damaged files
        raise UsageError(f"{path.name} is not a readable PDF: {e}") from e
    if encrypted:
        raise UsageError(f"{path.name} is an encrypted PDF; save an unlocked copy first")
    return "\n\n".join(page.strip() for page in pages if page.strip())
