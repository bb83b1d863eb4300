"""Streaming markdown in the terminal without flicker, at a cost that does not grow with the answer.

The answer is cut into blocks where markdown allows it (`BlockSplitter`): a
finished block is rendered and printed once; only the block still being
written, the live tail, is rendered again, at most every 1/fps seconds, and
only its last few lines are redrawn (the approach of aider's mdstream, with
the tail bounded). Finished lines of the tail are printed as soon as they can
no longer change; a table is held until it ends, since a wider row changes
every line of it. Off a terminal, text is written as it arrives, plain.

A block is rendered after a one-line stand-in for the block before it (see
`anchor_for`), so the blank lines rich puts between blocks come out exactly
as in a render of the whole answer.

Rendered lines are shown through `AnsiLines`, exactly as rich shows them
decoded back into a Text, without decoding and wrapping them again at each
redraw: what is left of a redraw's cost is rich rendering the live tail.
"""

from __future__ import annotations

import contextlib
import copy
import io
import re
import threading
import time
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.live import Live
    from rich.markdown import Markdown
    from rich.text import Text

LIVE_WINDOW = 6
# The live tail is cut once it is longer than this: the most any redraw renders.
LIVE_LIMIT = 2048
FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
LIST_ITEM = re.compile(r"([-+*]|\d{1,9}[.)])([ \t]|$)")
TABLE_DELIMITER = re.compile(r" {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
THEMATIC_BREAK = re.compile(r" {0,3}([-*_])( *\1){2,} *$")


@dataclass(frozen=True)
class Block:
    """A piece of the answer to render on its own.

    `anchor` is the one-line stand-in rendered before it (None for the first
    block); `head_trim` / `tail_trim` drop the seam lines of a block cut in the
    middle (a code block's padding, the blank line between two pieces).
    """

    text: str
    anchor: str | None = None
    head_trim: int = 0
    tail_trim: int = 0
    held: bool = False  # a table: not printed until it ends


def anchor_for(text: str) -> str:
    """What stands for `text` before the next block: a rule after a rule, else a paragraph.

    rich puts a blank line after every block but a horizontal rule.
    """
    lines = text.rstrip().splitlines()
    if not lines or not THEMATIC_BREAK.match(lines[-1]):
        return "x"
    setext = lines[-1].lstrip()[0] == "-" and len(lines) > 1 and lines[-2].strip() != ""
    return "x" if setext else "---"  # "Title\n---" is a heading, not a rule


def _starts_block(line: str) -> bool:
    """Whether a line after a blank one surely starts a new top-level block.

    Indented lines and list items may belong to the list above (a loose list,
    an item's second paragraph), so they never start one here.
    """
    return bool(line) and not line[0].isspace() and not LIST_ITEM.match(line)


class BlockSplitter:
    """Cuts a growing markdown text into finished blocks and the live tail."""

    def __init__(self) -> None:
        self.tail = ""
        self._scanned = 0  # characters of the tail already read as whole lines
        self._fence: tuple[str, int] | None = None  # the open fence's character and length
        self._fence_line = ""
        self._comment = False  # inside an HTML comment, which may hold blank lines
        self._blank = False  # the last whole line was blank
        self._previous = ""  # the last non-blank whole line
        self._table_head = ""  # header and delimiter rows of the table being written
        self._anchor: str | None = None
        self._head_trim = 0

    @property
    def live(self) -> Block:
        """The block still being written."""
        return Block(self.tail, self._anchor, self._head_trim, 0, bool(self._table_head))

    def feed(self, text: str) -> list[Block]:
        """Add text; the blocks it finished, in order."""
        self.tail += text
        done: list[Block] = []
        while (end := self.tail.find("\n", self._scanned)) >= 0:
            start, self._scanned = self._scanned, end + 1
            if self._read_line(self.tail[start:end], start):
                done.append(self._commit(start))
        return done

    def finish(self) -> Block:
        """The last block, once the answer has ended."""
        block = Block(self.tail, self._anchor, self._head_trim)
        self.tail = ""
        return block

    def _read_line(self, line: str, start: int) -> bool:
        """Read one whole line; True when a new block begins at `start`."""
        if self._fence is not None or self._comment:
            self._read_inside(line)
            return False
        if not line.strip():
            self._blank, self._table_head, self._previous = True, "", ""
            return False
        begins = self._blank and start > 0 and _starts_block(line)
        self._blank = False
        self._read_opening(line)
        header = self._previous
        if not self._table_head and "|" in line and "|" in header and TABLE_DELIMITER.match(line):
            self._table_head = f"{header}\n{line}\n"
        self._previous = line
        return begins

    def _read_inside(self, line: str) -> None:
        if self._comment:
            self._comment = "-->" not in line
            return
        assert self._fence is not None
        char, length = self._fence
        stripped = line.strip()
        indent = len(line) - len(line.lstrip(" "))
        if indent <= 3 and len(stripped) >= length and stripped == char * len(stripped):
            self._fence = None

    def _read_opening(self, line: str) -> None:
        match = FENCE.match(line)
        if match and not (match.group(1)[0] == "`" and "`" in line[match.end() :]):
            self._fence = (match.group(1)[0], len(match.group(1)))
            self._fence_line = line
        elif line.lstrip().startswith("<!--") and "-->" not in line:
            self._comment = True

    def _commit(self, start: int) -> Block:
        """End the tail's block just before `start`; what follows becomes the tail."""
        text = self.tail[:start]
        block = Block(text, self._anchor, self._head_trim)
        self.tail = self.tail[start:]
        self._scanned -= start
        self._anchor, self._head_trim = anchor_for(text), 0
        self._table_head = ""
        return block

    def cut(self, width: int) -> Block:
        """End an over-long tail where it stands (see `_cut_point`); what is left goes on.

        Called when nothing of the tail past the cut has been printed: the
        printed lines stop a live window short of its end.
        """
        at = self._cut_point(width)
        text, rest = self.tail[:at], self.tail[at:]
        if self._fence is not None:  # close it here, open it again in the next piece
            text += ("" if text.endswith("\n") else "\n") + self._fence[0] * self._fence[1]
            block = Block(text + "\n", self._anchor, self._head_trim, tail_trim=1)
            reopened = self._fence_line + "\n"
            self.tail, self._scanned = reopened + rest, len(reopened) + self._scanned - at
            self._anchor, self._head_trim = "x", 2
            return block
        block = Block(text, self._anchor, self._head_trim, held=bool(self._table_head))
        head = self._table_head  # a table goes on under its header again
        self.tail, self._scanned = head + rest, len(head) + max(0, self._scanned - at)
        self._anchor, self._head_trim = "x", 0 if head else 1
        return block

    def _cut_point(self, width: int) -> int:
        """Where to cut the tail: after its last whole row in a table, else after its last
        line break or space; at its end if its last word is long. Either way within the
        last two lines drawn, below everything already printed."""
        if self._table_head and self._fence is None:
            head_end = self.tail.find(self._table_head) + len(self._table_head)
            if self._scanned > head_end:
                return self._scanned
        end, short = len(self.tail), width
        line = self.tail.rfind("\n") + 1
        if line > 0 and end - line <= short:
            return line
        space = max(self.tail.rfind(" "), line - 1) + 1
        return space if space > 0 and end - space <= short else end


class MarkdownStream:
    """Feed the answer with `feed(text)` as it arrives; call `finish()` once at the end.

    Text that came within 1/fps of the last redraw is drawn by a timer once
    that time is up, so the last words before a pause are never left unshown.
    """

    def __init__(self, console: Console, fps: float = 12.0) -> None:
        self._console = console
        self._interval = 1.0 / fps
        self._last = 0.0
        self._blocks = BlockSplitter()
        self._done: list[Block] = []  # finished blocks not printed yet
        self._shown = 0  # lines of the live block already printed
        self._live: Live | None = None
        self._ends_with_newline = False
        self._lock = threading.Lock()  # the timer's redraw against feed and finish
        self._timer: threading.Timer | None = None
        self._finished = False

    def feed(self, text: str) -> None:
        if not text:
            return
        self._ends_with_newline = text.endswith("\n")
        if not self._console.is_terminal:
            self._console.file.write(text)
            self._console.file.flush()
            return
        with self._lock:
            self._done += self._blocks.feed(text)
            wait = self._last + self._interval - time.monotonic()
            if wait <= 0:
                self._draw()
            elif self._timer is None:
                self._timer = threading.Timer(wait, self._draw_late)
                self._timer.daemon = True
                self._timer.start()

    def finish(self) -> None:
        if not self._console.is_terminal:
            if not self._ends_with_newline:
                self._console.file.write("\n")
            self._console.file.flush()
            return
        with self._lock:
            self._finished = True
            if self._timer is not None:
                self._timer.cancel()
            self._done.append(self._blocks.finish())
            self._print_done()
            if self._live is not None:
                self._live.stop()
                self._live = None

    def _draw_late(self) -> None:
        with self._lock:
            self._timer = None
            if not self._finished:
                with contextlib.suppress(OSError):  # the terminal was closed meanwhile
                    self._draw()

    def _draw(self) -> None:
        self._last = time.monotonic()
        self._print_done()
        if len(self._blocks.tail) > LIVE_LIMIT:
            self._done.append(self._blocks.cut(self._console.width))
            self._print_done()
        block = self._blocks.live
        lines = self.render(block)
        stable = self._shown if block.held else max(0, len(lines) - LIVE_WINDOW)
        if stable > self._shown:
            self._print_lines(lines[self._shown : stable])
            self._shown = stable
        height = max(LIVE_WINDOW, self._console.height - 2)
        visible = lines[self._shown :][-height:]
        self._ensure_live().update(AnsiLines(visible), refresh=True)

    def _print_done(self) -> None:
        # In one print: each print through the Live erases and redraws the live window.
        lines: list[str] = []
        for block in self._done:
            lines += self.render(block)[self._shown :]
            self._shown = 0
        self._print_lines(lines)
        self._done = []

    def _print_lines(self, lines: list[str]) -> None:
        if lines:
            self._ensure_live().console.print(AnsiLines(lines))

    def _ensure_live(self) -> Live:
        if self._live is None:
            from rich.live import Live

            self._live = Live(console=self._console, auto_refresh=False, transient=True)
            self._live.start()
        return self._live

    def render(self, block: Block) -> list[str]:
        """The block's lines as they appear in a render of the whole answer."""
        width = self._console.width
        if block.anchor is None:
            lines = render_markdown(block.text, width)
        else:
            lines = render_markdown(f"{block.anchor}\n\n{block.text}", width)
            lines = lines[len(_anchor_lines(block.anchor, width)) :]
        lines = lines[block.head_trim :]
        return lines[: len(lines) - block.tail_trim]


@cache
def _anchor_lines(anchor: str, width: int) -> tuple[str, ...]:
    return tuple(render_markdown(anchor, width))


def render_markdown(text: str, width: int) -> list[str]:
    """`text` rendered by rich as markdown, as lines with ANSI styles."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, color_system="truecolor")
    console.print(_markdown(text))
    return buffer.getvalue().splitlines()


def _markdown(text: str) -> Markdown:
    """rich's `Markdown(text)`, parsed by one shared parser: rich builds a parser for each
    Markdown, which costs about as much as rendering a short block."""
    markdown = copy.copy(_blank_markdown())
    markdown.markup, markdown.parsed = text, _parser().parse(text)
    return markdown


@cache
def _blank_markdown() -> Markdown:
    from rich.markdown import Markdown

    return Markdown("")


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")  # as rich's Markdown builds it


class AnsiLines:
    """Lines of `render_markdown`, shown exactly as rich shows `Text.from_ansi` of them.

    That Text is decoded again at each redraw and wrapped again by rich, which costs as
    much as rendering the markdown. Here a line is decoded once (the live window shows the
    same lines redraw after redraw) and, when no line would be wrapped, padded, expanded or
    read on from the line before, its segments are given as they are.
    """

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines or [""]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment
        from rich.text import Text

        decoded = [_decoded(line) for line in self.lines]
        if (
            max(line.cells for line in decoded) > options.max_width
            or options.justify not in (None, "default")
            or not all(line.closed for line in decoded[:-1])
        ):
            yield Text.from_ansi("\n".join(self.lines))
            return
        newline = Segment("\n")
        for line in decoded:
            yield from line.text.render(console)
            yield newline


class _DecodedLine(NamedTuple):
    text: Text  # as Text.from_ansi reads the line
    cells: int  # its width; a tab counts as too wide, since Text.from_ansi would expand it
    closed: bool  # no style is left open for the next line (rich closes each one)


@lru_cache(maxsize=512)
def _decoded(line: str) -> _DecodedLine:
    from rich.ansi import AnsiDecoder

    decoder = AnsiDecoder()
    text = decoder.decode_line(line)
    cells = 1 << 30 if "\t" in line else text.cell_len
    return _DecodedLine(text, cells, not decoder.style)
