"""Reading a file the user adds to a project: text, markdown or PDF, nothing else.

A brief goes into every prompt, so what is read is checked and bounded:

- the type comes from the extension (.md, .markdown, .txt, .text, .pdf, any
  case) AND the content: text must be UTF-8 without NUL bytes, a PDF must
  start with `%PDF-`. No extension, or any other one, is refused: keys
  (`id_ed25519`), `.env`, spreadsheets, images;
- a symbolic link is followed only while it stays in the folder the user
  named (`brief.md -> v2.md`), never out of it (`-> /etc/shadow`), and so is
  every folder link on the way to the file (`shared/notes.md` with `shared ->
  ~/private` is refused);
- at most `Limits.chars` characters are kept; a longer text is cut and says
  so, in the stored text and in the reply ("truncated");
- a PDF is read for at most `Limits.pages` pages, `Limits.page_bytes` of each
  page's drawing instructions and `Limits.seconds`, checked between drawing
  operations, and extraction stops at the character cap: a 16 KB PDF can
  otherwise expand to millions of characters and minutes of work.
"""

from __future__ import annotations

import contextlib
import hashlib
import stat
from dataclasses import dataclass
from pathlib import Path

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory.pdf import Limits, pdf_text

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_TEXT_CHARS = Limits().chars
TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".text"})
PDF_SUFFIX = ".pdf"
ACCEPTED = "text (.txt), markdown (.md) or PDF (.pdf)"
TRUNCATED_NOTE = "\n\n[truncated by design-agent: only the beginning of {name} is kept]"
HEAD_BYTES = 8192

__all__ = ["MAX_FILE_BYTES", "MAX_TEXT_CHARS", "Document", "Limits", "read_document"]


@dataclass(frozen=True)
class Document:
    """The text of a file and the sha256 of its bytes (to detect the same file twice)."""

    filename: str
    text: str
    sha256: str
    truncated: bool = False


def read_document(
    path: Path, max_bytes: int = MAX_FILE_BYTES, limits: Limits | None = None
) -> Document:
    """Read `path` as text or PDF; UsageError for anything else, links out of its folder,
    empty or oversized files. The text is capped at `limits.chars` (then `truncated`)."""
    limits = limits or Limits()
    real = _inside_its_folder(path)
    data = _read_bytes(real, path, max_bytes)
    kind = _kind(path, real, data)
    if kind == "pdf":
        text, cut = pdf_text(path.name, data, limits)
    else:
        text, cut = _plain_text(path, data), False
    if not text.strip():
        raise UsageError(_no_text(path.name, cut, limits))
    if len(text) > limits.chars:
        text, cut = text[: limits.chars], True
    if cut:
        text += TRUNCATED_NOTE.format(name=path.name)
    return Document(path.name, text, hashlib.sha256(data).hexdigest(), cut)


def _no_text(name: str, cut: bool, limits: Limits) -> str:
    if cut:
        return (
            f"{name}: no text could be read within the limits ({limits.pages} pages, "
            f"{limits.seconds:g} seconds); add a text or markdown export of it"
        )
    return f"{name} has no text to add (a scanned PDF needs OCR first)"


def _inside_its_folder(path: Path) -> Path:
    """The file `path` names; no symbolic link on the way to it (the file's or a folder's)
    may lead out of the folder it is in."""
    if not path.exists():
        raise NotFoundError(f"no such file: {path}")
    _check_links(path)
    real = path.resolve(strict=True)
    if not stat.S_ISREG(real.stat().st_mode):
        raise UsageError(f"{path} is not a regular file; add {ACCEPTED}")
    return real


def _check_links(path: Path) -> None:
    """Walk `path` as typed, one component at a time: each symbolic link met must lead
    inside the folder that holds it, or the file is not where the path says.

    Checking only the file's own link let `shared/notes.md` through when `shared` linked
    to a private folder elsewhere. The walk starts where the user's own places end: a
    relative path at the current folder (the system gives it without links), a path in
    the home after the home itself (`/home/me -> /data/me` is how the system set it up)."""
    absolute = path.absolute()
    current = _trusted_start(absolute)
    for part in absolute.relative_to(current).parts:
        current = current / part
        if part == ".." or not current.is_symlink():
            continue
        folder, real = current.parent.resolve(), current.resolve()
        if not real.is_relative_to(folder):
            raise UsageError(
                f"{_whose(current, path)} is a symbolic link to {real}, outside the folder "
                f"{folder}; add the file itself, not a link to it"
            )


def _trusted_start(absolute: Path) -> Path:
    """The home when `absolute` is in it (as spelled: `~/x.md`), else the root."""
    with contextlib.suppress(RuntimeError, KeyError):
        home = Path.home()
        if absolute.is_relative_to(home) and absolute != home:
            return home
    return Path(absolute.anchor)


def _whose(link: Path, path: Path) -> str:
    """The link's name as the message shows it: the file's, or "FILE: its folder X"."""
    if link.name == path.name and link == path.absolute():
        return path.name
    return f"{path.name}: its folder {link.name}"


def _read_bytes(real: Path, path: Path, max_bytes: int) -> bytes:
    size = real.stat().st_size
    if size > max_bytes:
        raise UsageError(
            f"{path.name} is {size / 1_048_576:.1f} MB; the limit is "
            f"{max_bytes / 1_048_576:.1f} MB. Add a shorter excerpt or split it."
        )
    return real.read_bytes()


def _kind(path: Path, real: Path, data: bytes) -> str:
    """The kind, text or pdf, from the extensions of the name given and of the file."""
    kinds = {_kind_of_name(p.name, data) for p in (path, real)}
    if kinds == {"pdf"}:
        if not data.startswith(b"%PDF-"):
            raise UsageError(f"{path.name} is not a PDF (it has no %PDF- header); add {ACCEPTED}")
        return "pdf"
    if kinds != {"text"}:
        raise UsageError(f"{path.name} and the file it links to are not the same kind")
    return "text"


def _kind_of_name(name: str, data: bytes) -> str:
    suffix = Path(name).suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return "text"
    if suffix == PDF_SUFFIX:
        return "pdf"
    if b"\x00" in data[:HEAD_BYTES]:
        raise UsageError(
            f"{name} looks like a binary file ({suffix or 'no extension'}); add {ACCEPTED}"
        )
    what = f"'{suffix}' files are" if suffix else "a file with no file extension is"
    raise UsageError(
        f"{name} was not added: {what} not read (keys, settings and data files never go "
        f"into a prompt); add {ACCEPTED}"
    )


def _plain_text(path: Path, data: bytes) -> str:
    # A NUL byte never appears in text; undecodable bytes mean an image, archive, ...
    if b"\x00" in data[:HEAD_BYTES]:
        raise UsageError(f"{path.name} looks like a binary file; add {ACCEPTED}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(
            f"{path.name} is not UTF-8 text (byte {e.start}); add {ACCEPTED}, "
            "or convert it to UTF-8 first"
        ) from e
    return text.replace("\r\n", "\n")
