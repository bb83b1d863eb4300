"""Stopping a turn from outside: Ctrl-C (SIGINT), SIGTERM, and a closed terminal (SIGHUP).

While a turn runs, each of them cancels it the way Ctrl-C always has: the
provider's process group is stopped (within 2 s), the partial answer is saved
as cancelled, and `ask` exits 128 + the signal's number (130, 143, 129: see
`ExitCode`); the shell carries on after Ctrl-C and ends after the others.
A second signal while the first one's cancel is under way changes nothing:
an exception raised in the middle of saving would lose the answer. After
SIGHUP the terminal is gone, so output goes to /dev/null from then on.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

from design_agent.core.errors import CancelledError, DesignAgentError, ExitCode
from design_agent.core.stdio import write_nowhere
from design_agent.providers.pump import STOP_SIGNALS  # blocked there in the reader thread


class TurnSignals:
    """What arrived while the turn ran, and what it means for the command's end."""

    def __init__(self, cancel: Callable[[], None]) -> None:
        self._cancel = cancel
        self.received: list[int] = []

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The handler: note the signal and cancel the turn (again: it is idempotent)."""
        if signum == signal.SIGHUP and signum not in self.received:
            write_nowhere()
        self.received.append(signum)
        self._cancel()

    @property
    def signum(self) -> int | None:
        """The signal that decides the exit code: SIGTERM or SIGHUP over Ctrl-C."""
        ending = [s for s in self.received if s != signal.SIGINT]
        first = ending or self.received
        return first[0] if first else None

    @property
    def ending(self) -> bool:
        """Whether the process must end after this turn (SIGTERM or SIGHUP came)."""
        return self.signum not in (None, signal.SIGINT)

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode(128 + (self.signum or signal.SIGINT))

    def outcome(self, error: DesignAgentError | None) -> DesignAgentError | None:
        """The error the command ends with: a cancel carries the signal's exit code, and a
        turn that finished anyway still ends as cancelled when a signal came."""
        signum = self.signum
        if signum is None:
            return error
        if error is None or isinstance(error, CancelledError):
            message = error.message if error else f"stopped by {signal.Signals(signum).name}"
            return CancelledError(message, signum)
        return error

    def end(self, error: DesignAgentError | None) -> None:
        """Raise the error the command ends with (see `outcome`), if any."""
        ended = self.outcome(error)
        if ended is not None:
            raise ended


@contextmanager
def cancelling_signals(cancel: Callable[[], None], last: bool) -> Iterator[TurnSignals]:
    """While the block runs, SIGINT, SIGTERM and SIGHUP call `cancel` (main thread only).

    `last`: the process ends after this turn (`ask`). Once a signal has ended
    the turn and the process is ending, the signals are ignored: a late Ctrl-C
    must not interrupt its last words, nor kill it while Python shuts down
    (which puts back the default action of every signal a Python function
    handles, but leaves an ignored one ignored). Otherwise the previous
    handlers come back.
    """
    signals = TurnSignals(cancel)
    if threading.current_thread() is not threading.main_thread():
        yield signals
        return
    previous = {s: signal.signal(s, signals.handle) for s in STOP_SIGNALS}
    try:
        yield signals
    finally:
        ending = signals.ending or (last and bool(signals.received))
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_IGN if ending else handler)
