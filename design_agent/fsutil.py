"""Private files and directories: everything design-agent writes is 0600/0700."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents) with mode 0700 and tighten it if it already exists."""
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    os.chmod(path, DIR_MODE)
    return path


def write_private_text(path: Path, text: str) -> None:
    """Write `text` atomically to `path` with mode 0600, so a crash never leaves half a file."""
    write_private_bytes(path, text.encode("utf-8"))


def write_private_bytes(path: Path, data: bytes) -> None:
    """Write `data` atomically to `path` with mode 0600."""
    ensure_private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def touch_private(path: Path) -> Path:
    """Create `path` empty if missing, and make sure it is 0600."""
    ensure_private_dir(path.parent)
    fd = os.open(path, os.O_CREAT | os.O_APPEND | os.O_WRONLY, FILE_MODE)
    os.close(fd)
    os.chmod(path, FILE_MODE)
    return path
