"""A file uploaded to the server: read as it streams, counted, kept in the home.

Starlette's form parser writes the whole body (to memory, then to a file in
TMPDIR) before a route sees it: a chunked upload, which declares no length,
was read in full (1.6 GB) before the 10 MB limit answered 413. Here each chunk
goes to python-multipart's streaming parser as it arrives; the bytes are
counted as they come, and at the limit the upload stops with 413 and the rest
of the body is never read (the answer closes the connection).

The file is written to `<home>/uploads/<random>/NAME` (0700 folders, a 0600
file) and removed after the request. A server killed mid-upload leaves its
folder there, in the user's private home rather than a shared TMPDIR, and the
next server start empties `uploads/`.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from design_agent.core.errors import ConfigError
from design_agent.core.fsutil import FILE_MODE, ensure_private_dir
from design_agent.core.paths import HomeLayout
from design_agent.server.api_errors import ApiError

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

# Room for the multipart framing and the small fields beside the file.
ENVELOPE = 64 * 1024
FIELD_MAX = 1024
BAD_NAME_CHARS = frozenset('/\\\0:*?"<>|')
# The answer that stops an upload also ends the connection: the rest is never read.
CLOSE = {"connection": "close"}


@dataclass
class Upload:
    """What a multipart body held: its one file (written to `path`) and its small fields."""

    path: Path | None = None
    fields: dict[str, str] = field(default_factory=dict)


def safe_filename(name: str) -> str:
    """The upload's name if it is a plain file name; 400 for a path or a hidden name."""
    clean = name.strip()
    if (
        not clean
        or clean.startswith(".")
        or any(c in BAD_NAME_CHARS or ord(c) < 32 for c in clean)
        or len(clean) > 200
    ):
        raise ApiError(400, "bad_request", "the file name must be a plain name, without a path")
    return clean


def too_large(limit: int) -> ApiError:
    message = f"the file is larger than {limit // (1024 * 1024)} MB"
    return ApiError(413, "too_large", message, headers=CLOSE)


async def receive(
    chunks: AsyncIterator[bytes], content_type: str, folder: Path, limit: int
) -> Upload:
    """Parse a multipart body from `chunks` into `folder`, its file at most `limit` bytes
    (413 as soon as it is more, the body then left unread)."""
    kind, options = parse_options_header(content_type)
    boundary = options.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise ApiError(400, "bad_request", "send the file as multipart/form-data")
    parts = _Parts(folder, limit)
    parser = MultipartParser(boundary, parts.callbacks())
    received = 0
    try:
        async for chunk in chunks:
            received += len(chunk)
            if received > limit + ENVELOPE:
                raise too_large(limit)
            parser.write(chunk)
        parser.finalize()
    except MultipartParseError as e:
        raise ApiError(400, "bad_request", f"the upload is not valid multipart data ({e})") from e
    finally:
        parts.close()
    return parts.upload


class _Parts:
    """The parser's callbacks: one file part written to disk as it comes (direct writes of
    at most a chunk each, fast enough for the event loop), small fields kept in memory."""

    def __init__(self, folder: Path, limit: int) -> None:
        self.upload = Upload()
        self._folder, self._limit = folder, limit
        self._header, self._value, self._disposition = b"", b"", b""
        self._field: bytearray | None = None
        self._name = ""
        self._file: BinaryIO | None = None
        self._written = 0

    def callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self._begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_done,
            "on_part_data": self._data,
            "on_part_end": self._end,
        }

    def _begin(self) -> None:
        self._disposition, self._field = b"", None

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        if self._header.lower() == b"content-disposition":
            self._disposition = self._value
        self._header, self._value = b"", b""

    def _headers_done(self) -> None:
        _, options = parse_options_header(self._disposition)
        name = options.get(b"name", b"").decode("utf-8", "replace")
        if b"filename" not in options:
            self._field, self._name = bytearray(), name
            return
        if name != "file" or self.upload.path is not None:
            raise ApiError(400, "bad_request", "send one file, in the field 'file'")
        filename = safe_filename(options[b"filename"].decode("utf-8", "replace"))
        self.upload.path = self._folder / filename
        fd = os.open(self.upload.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        self._file = os.fdopen(fd, "wb")

    def _data(self, data: bytes, start: int, end: int) -> None:
        if self._field is not None:
            self._field += data[start:end]
            if len(self._field) > FIELD_MAX:
                raise ApiError(400, "bad_request", f"a form field is longer than {FIELD_MAX} bytes")
        elif self._file is not None:
            self._written += end - start
            if self._written > self._limit:
                raise too_large(self._limit)  # before a byte more reaches the disk
            self._file.write(data[start:end])

    def _end(self) -> None:
        if self._field is not None:
            self.upload.fields[self._name] = self._field.decode("utf-8", "replace")
            self._field = None
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


# -- the folder ---------------------------------------------------------------------------------


def upload_folder(home: HomeLayout) -> Path:
    """A new private folder for one upload, in `<home>/uploads/`."""
    root = _own_folder(home.uploads_dir)
    return Path(tempfile.mkdtemp(prefix="upload-", dir=root))


def clean_uploads(home: HomeLayout) -> None:
    """Empty `<home>/uploads/` of what a server killed mid-upload left (at server start,
    when no other server serves this home). A folder that is not ours is left alone."""
    root = home.uploads_dir
    try:
        _own_folder(root)
    except ConfigError:
        return
    for entry in os.scandir(root):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            Path(entry.path).unlink(missing_ok=True)


def _own_folder(root: Path) -> Path:
    """`root`, created 0700 if missing; ConfigError when it is a link or another user's
    (its contents are removed: never through a link someone planted)."""
    try:
        found = root.lstat()
    except FileNotFoundError:
        return ensure_private_dir(root)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
        raise ConfigError(
            f"{root} is not a folder of yours (a link, a file or another user's); "
            "remove it, then upload again"
        )
    return root
