"""Start-up without the cyclic garbage collector; then what start-up built is frozen.

A command's start-up (imports, pydantic's validators, the unpickled catalogue and
matcher, the opened database) builds objects that live as long as the process.
The cyclic collector would walk them again at each of its thresholds and free
nothing: about a twelfth of an offline `ask`'s CPU. So the console script turns
it off first thing (entry.py), and `ready()` is called before any real work: when
a command first reaches the home's data (cli/context.py: a turn, the shell's
loop), and where a long-running command starts without it (the server, `server
logs --follow`). It moves every object that exists into the permanent generation
(gc.freeze, never scanned again) and turns the collector back on. A command that
never calls it (`--help`, `--version`, the `ask` fast path, which only relays a
stream) is short and ends without collecting.

Standard library only: entry.py imports this before choosing the command.
"""

from __future__ import annotations

import gc


def begin() -> None:
    """Called first by the console script: no cyclic collection until `ready()`."""
    gc.disable()


def ready() -> None:
    """Start-up is over: freeze what it built and collect from now on. Only after
    `begin()`: a process that never turned the collector off (a test importing the CLI)
    keeps its own."""
    if gc.isenabled():
        return
    gc.freeze()
    gc.enable()
