"""Private files and directories: everything design-agent creates is 0600/0700.

Only what we create is made private. A folder that already exists is never
chmodded: the home may be a shared folder (`--home /tmp`, a 1777 team folder)
whose mode and sticky bit others rely on. Opening the database warns on stderr,
once per home and mode, when others can read or write the home, and carries on.

A file or folder we cannot write raises NotWritableError (one line naming the
path), never a bare OSError.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from design_agent.core.errors import ConfigError, ExitCode

FILE_MODE = 0o600
DIR_MODE = 0o700
SHARED_BITS = 0o066  # read or write for the group or for others
_warned: set[Path] = set()


class NotWritableError(ConfigError, OSError):
    """design-agent could not create or write a file or folder it needs.

    Also an OSError, so code that carries on without a cache or a log still does. A full
    disk is said as such, with exit 8 (ExitCode.DISK_FULL) instead of 3."""

    def __init__(self, path: Path, error: OSError) -> None:
        reason = error.strerror or type(error).__name__
        super().__init__(f"cannot write to {path}: {reason}")
        self.path = path
        self.reason = reason
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            self.exit_code = ExitCode.DISK_FULL
            self.message = f"the disk is full: cannot write to {path} ({reason}); free some space"


def ensure_private_dir(path: Path) -> Path:
    """Create `path` and its missing parents as 0700; an existing folder is left as it is."""
    missing: list[Path] = []
    current = path
    while not current.is_dir():
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:
            continue  # another process made it (or it is a file: the next mkdir says so)
        except OSError as e:
            raise NotWritableError(folder, e) from e
        os.chmod(folder, DIR_MODE)  # ours: exactly 0700, whatever the umask
    return path


def shared_mode(folder: Path) -> int | None:
    """The mode of `folder` when others may read or write it, else None (or unreadable)."""
    try:
        mode = stat.S_IMODE(folder.stat().st_mode)
    except OSError:
        return None
    return mode if mode & SHARED_BITS else None


def warn_shared(folder: Path, mode: int) -> None:
    """Say once per process, on stderr, that others may read or write `folder`."""
    if folder in _warned:
        return
    _warned.add(folder)
    sys.stderr.write(
        f"Warning: {folder} (mode {mode:o}) can be read or written by other users; "
        "design-agent leaves it as it is, but keep your home in a private folder.\n"
    )


def write_private_text(path: Path, text: str) -> None:
    """Write `text` atomically to `path` with mode 0600, so a crash never leaves half a file."""
    write_private_bytes(path, text.encode("utf-8"))


def write_private_bytes(path: Path, data: bytes) -> None:
    """Write `data` atomically to `path` with mode 0600."""
    ensure_private_dir(path.parent)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise NotWritableError(path.parent, e) from e
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise NotWritableError(path, e) from e
        raise


def touch_private(path: Path) -> Path:
    """Create `path` empty if missing, and make sure it is 0600."""
    ensure_private_dir(path.parent)
    try:
        fd = os.open(path, os.O_CREAT | os.O_APPEND | os.O_WRONLY, FILE_MODE)
        os.close(fd)
        os.chmod(path, FILE_MODE)
    except OSError as e:
        raise NotWritableError(path, e) from e
    return path


def create_private(path: Path) -> bool:
    """Create `path` empty with mode 0600 if it does not exist; True if we created it.

    An existing file is left exactly as it is (its mode too): the caller checks
    what it is first."""
    ensure_private_dir(path.parent)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, FILE_MODE)
    except FileExistsError:
        return False
    except OSError as e:
        raise NotWritableError(path, e) from e
    os.close(fd)
    os.chmod(path, FILE_MODE)
    return True
