"""Standard input, output and error when they are not there or not what they should be:
the terminal has gone away, fd 0 was closed before we started, the reader of the output
left, the input is not UTF-8 (standard library only: the `ask` fast path uses it too).

A closed standard output (`design-agent ask ... | head -1`, a pager quit early) never
stops a turn: what would have been printed goes to /dev/null, the turn is finished and
saved, and the process then exits 141, as a shell reports a command ended by SIGPIPE.
"""

from __future__ import annotations

import contextlib
import os

PIPE_CLOSED_EXIT = 141  # 128 + SIGPIPE
UNDECODABLE_NOTE = (
    "Note: your input had bytes that are not UTF-8 text; each was replaced by \ufffd "
    "(save the text as UTF-8 to keep those characters)."
)
_output_closed = False
_undecodable_noted = False


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


def output_closed() -> None:
    """The reader of standard output went away (EPIPE): later writes go to /dev/null, and
    the process ends with PIPE_CLOSED_EXIT once its work is saved."""
    global _output_closed
    _output_closed = True
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.dup2(devnull, 1)
    os.close(devnull)


def was_output_closed() -> bool:
    """Whether standard output's reader went away during this process."""
    return _output_closed


def input_text(text: str) -> str:
    """Text read from the command line or standard input, where Python keeps each byte
    that is not UTF-8 as a lone surrogate (\\udcff): each such byte becomes U+FFFD, so the
    text can be stored, sent and printed. The first time, a note on stderr says so."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text
    raw = text.encode("utf-8", "surrogateescape") if _escaped_only(text) else None
    fixed = (
        raw.decode("utf-8", "replace")
        if raw is not None
        else text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    )
    _note_undecodable()
    return fixed


def _escaped_only(text: str) -> bool:
    """Whether every lone surrogate is one of surrogateescape's (one byte each)."""
    try:
        text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return False
    return True


def _note_undecodable() -> None:
    global _undecodable_noted
    if _undecodable_noted:
        return
    _undecodable_noted = True
    with contextlib.suppress(OSError, ValueError):
        os.write(2, (UNDECODABLE_NOTE + "\n").encode("utf-8"))
