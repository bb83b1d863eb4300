"""The one-line status the terminal shows while a turn waits on a model's side call.

A turn may wait several seconds on the provider's fast model (choosing the
method, reading a reply; providers/side_call.py announces it with `Working`).
On a terminal that wait is one line, a small spinner, the label and a dim hint
that Ctrl-C cancels, redrawn in place and erased when the wait ends (rich's
transient Live), so nothing of it stays in the scrollback. Off a terminal (a
pipe, a file, a script) nothing is printed: the output stays the transcript.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from design_agent.core.text import clean_text

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live

# A spinner needs no more: each redraw is one short line.
REFRESH_PER_SECOND = 10


class StatusLine:
    """A spinner and a label on one line, until `stop()` (which is idempotent)."""

    def __init__(self, console: Console, label: str, hint: str = "") -> None:
        self._live: Live | None = None
        if console.is_terminal and not console.is_dumb_terminal:
            self._live = _start(console, label, hint)

    @property
    def shown(self) -> bool:
        return self._live is not None

    def stop(self) -> None:
        """Erase the line (the cursor goes back to where it was). A terminal that is gone
        (EIO, EPIPE) changes nothing: the redraw thread is stopped before the last write."""
        live, self._live = self._live, None
        if live is not None:
            with contextlib.suppress(OSError):
                live.stop()


def _start(console: Console, label: str, hint: str) -> Live:
    from rich.live import Live
    from rich.spinner import Spinner
    from rich.text import Text

    text = Text(clean_text(label, one_line=True))
    if hint:
        text.append(f"  ({clean_text(hint, one_line=True)})", style="dim")
    # No redirection of stdout or stderr: the server's `ask` fast path draws this on a
    # client's screen, and must not capture its own process's output into it.
    live = Live(
        Spinner("dots", text, style="cyan"),
        console=console,
        transient=True,
        refresh_per_second=REFRESH_PER_SECOND,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    live.start()
    return live
