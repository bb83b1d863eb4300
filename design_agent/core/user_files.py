"""Writing a file at a path the user named: `projects export FILE`, `projects report -o FILE`.

Only a new path or an existing regular file is ever written. A symbolic link, a FIFO, a
device node, a socket or a folder at the path is refused, naming it, whatever the flags:
the path is looked at with lstat, so a link is never followed and a FIFO never opened (as
root, writing "over" /dev/full used to turn the device into a regular file). An existing
file is replaced only when the caller says so (the CLI asks, or --force).

The data goes to a temporary file in the same folder, flushed to disk, then renamed over
the path: the path holds the old file or the whole new one, never half of either, and a
failed write (a full disk) leaves no temporary file behind. A new path is taken with a
hard link, which fails if someone created the name meanwhile, so nothing is replaced that
was not checked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from design_agent.core.errors import DiskFullError, UsageError

KINDS = (
    (stat.S_ISDIR, "folder"),
    (stat.S_ISFIFO, "named pipe (FIFO)"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)
# Where a hard link cannot be made (FAT, some network filesystems): a checked rename instead.
NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK}


class TargetExistsError(UsageError):
    """The file exists and the user did not agree to replace it."""


def existing_file(path: Path) -> bool:
    """True if `path` is an existing regular file, False if nothing is there; UsageError
    (naming it) for a link, a FIFO, a device, a socket or a folder."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror}") from e
    if stat.S_ISREG(info.st_mode):
        return True
    if stat.S_ISLNK(info.st_mode):
        raise UsageError(
            f"{path} is a symbolic link (to {_link_target(path)}); nothing was written: "
            "give the path of a regular file, or remove the link first"
        )
    kind = next((name for test, name in KINDS if test(info.st_mode)), "special file")
    raise UsageError(
        f"{path} is a {kind}, not a regular file; nothing was written: give the path of "
        "a new or a regular file"
    )


def exists_error(path: Path) -> TargetExistsError:
    """The refusal when `path` exists and nobody said to replace it."""
    return TargetExistsError(f"{path} already exists; pass --force to replace it")


def write_file(path: Path, data: bytes, *, replace: bool = False, mode: int | None = None) -> None:
    """Write `data` to `path` atomically (see the module). `replace`: an existing regular file
    may be replaced. `mode`: the file's mode (default: a replaced file keeps its own, a new
    one gets the usual 0666 less the umask)."""
    exists = existing_file(path)
    if exists and not replace:
        raise exists_error(path)
    if mode is None:
        mode = stat.S_IMODE(os.lstat(path).st_mode) if exists else _umasked(0o666)
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise write_error(path, e) from e
    temporary = Path(name)
    try:
        _fill(fd, data, mode)
        _put(temporary, path, exists)
    except OSError as e:
        raise write_error(path, e) from e
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()


def write_error(path: Path, error: OSError) -> UsageError | DiskFullError:
    """A failed write of `path` as the user reads it: a full disk said as such."""
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFullError(
            f"the disk is full: {path} could not be written ({error.strerror}); nothing "
            "was written and what was there is unchanged: free some space or choose "
            "another folder",
            path,
        )
    return UsageError(f"cannot write {path}: {error.strerror}; nothing was written")


def _fill(fd: int, data: bytes, mode: int) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
        os.fchmod(handle.fileno(), mode)


def _put(temporary: Path, path: Path, exists: bool) -> None:
    """Move the written file to `path`: over the file checked a moment ago, or to a name
    that must still be free."""
    if exists:
        existing_file(path)  # still a regular file (a link swapped in is refused)
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path)
    except FileExistsError as e:
        raise exists_error(path) from e
    except OSError as e:
        if e.errno not in NO_LINKS:
            raise
        if existing_file(path):
            raise exists_error(path) from e
        os.replace(temporary, path)


def _umasked(mode: int) -> int:
    """`mode` less this process's umask (read by setting it and putting it back)."""
    umask = os.umask(0o077)
    os.umask(umask)
    return mode & ~umask


def _link_target(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "somewhere unreadable"
