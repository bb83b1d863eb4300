"""Standard input, output and error when they are not there: the terminal has gone away,
or fd 0 was closed before we started (standard library only: the `ask` fast path uses it
too)."""

from __future__ import annotations

import os


def hold_closed_stdin() -> None:
    """fd 0 closed (`design-agent ask - <&-`): put /dev/null there, so that no file or pipe
    opened later takes fd 0 and is read, or handed to a child, as standard input. Python
    has already set `sys.stdin` to None, which the commands take as "closed" (exit 2)."""
    try:
        os.fstat(0)
    except OSError:
        try:
            fd = os.open(os.devnull, os.O_RDONLY)  # the lowest free fd: 0
        except OSError:
            return
        if fd != 0:
            os.dup2(fd, 0)
            os.close(fd)


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
