"""Streaming markdown in the terminal without flicker.

Finished lines are printed once and scroll away normally; only the last few
lines, which may still change, are redrawn, and at most every 1/fps seconds
(the approach of aider's mdstream). Off a terminal, text is written as it
arrives, plain.
"""

from __future__ import annotations

import io
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live

LIVE_WINDOW = 6


class MarkdownStream:
    """Feed the growing answer with `update(text)`; call `finish()` once at the end."""

    def __init__(self, console: Console, fps: float = 12.0) -> None:
        self._console = console
        self._interval = 1.0 / fps
        self._last = 0.0
        self._printed = 0
        self._plain_written = 0
        self._live: Live | None = None
        self._text = ""

    def update(self, text: str) -> None:
        self._text = text
        if not self._console.is_terminal:
            self._console.file.write(text[self._plain_written :])
            self._console.file.flush()
            self._plain_written = len(text)
            return
        now = time.monotonic()
        if now - self._last >= self._interval:
            self._last = now
            self._draw(final=False)

    def finish(self) -> None:
        if not self._console.is_terminal:
            if not self._text.endswith("\n"):
                self._console.file.write("\n")
            self._console.file.flush()
            return
        self._draw(final=True)
        if self._live is not None:
            self._live.stop()
            self._live = None

    def _draw(self, final: bool) -> None:
        from rich.text import Text

        lines = self._render_lines()
        stable = len(lines) if final else max(0, len(lines) - LIVE_WINDOW)
        live = self._ensure_live()
        if stable > self._printed:
            live.console.print(Text.from_ansi("\n".join(lines[self._printed : stable])))
            self._printed = stable
        live.update(Text.from_ansi("\n".join(lines[self._printed :])), refresh=True)

    def _ensure_live(self) -> Live:
        if self._live is None:
            from rich.live import Live

            self._live = Live(console=self._console, auto_refresh=False, transient=True)
            self._live.start()
        return self._live

    def _render_lines(self) -> list[str]:
        from rich.console import Console
        from rich.markdown import Markdown

        buffer = io.StringIO()
        width = self._console.width
        Console(file=buffer, width=width, force_terminal=True, color_system="truecolor").print(
            Markdown(self._text)
        )
        return buffer.getvalue().rstrip("\n").splitlines()
