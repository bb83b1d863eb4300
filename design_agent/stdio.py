"""Standard output and error when the terminal has gone away (standard library only: the
`ask` fast path uses it too)."""

from __future__ import annotations

import os


def write_nowhere() -> None:
    """The terminal was closed: writing to it fails (EIO), so write to /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for fd in (1, 2):
        try:
            os.dup2(devnull, fd)
        except OSError:
            continue
    os.close(devnull)
