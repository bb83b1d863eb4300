"""The private scratch folder of each CLI run, and the ones killed runs left behind.

A folder's name carries the pid of the design-agent that made it
(`design-agent-run-<pid>-<random>`, in the temp dir). A run removes its own
folder when it ends; a folder whose owner no longer runs (design-agent was
killed with -9, the machine lost power) still holds a system prompt, so the
next run removes it before it starts.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "design-agent-run-"
_OWNED = re.compile(rf"{PREFIX}(\d+)-[a-z0-9_]+$")


def make_scratch() -> Path:
    """A new private (0700) folder for one run, named after this process."""
    return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))


def remove_stale() -> list[Path]:
    """Remove our scratch folders whose owner process is gone; the ones removed."""
    removed: list[Path] = []
    try:
        entries = os.scandir(tempfile.gettempdir())
    except OSError:
        return removed
    with entries:
        for entry in entries:
            owner = _OWNED.match(entry.name)
            if owner and _is_stale(entry, int(owner.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(Path(entry.path))
    return removed


def _is_stale(entry: os.DirEntry[str], pid: int) -> bool:
    """Ours (a real folder, our uid, never a symlink someone planted) and its owner gone."""
    try:
        mine = entry.is_dir(follow_symlinks=False)
        mine = mine and entry.stat(follow_symlinks=False).st_uid == os.getuid()
    except OSError:
        return False
    return mine and not _running(pid)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process reuses the pid: keep the folder
        return True
    return True
