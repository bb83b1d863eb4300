"""The one console: every command prints through these helpers.

Text that came from a model, a file or an import goes through `clean_text`
before text mode prints it: colour codes come from our own renderer only,
never from the data (JSON output keeps the data, JSON-escaped).
"""

from __future__ import annotations

import json
from functools import cache
from typing import IO, TYPE_CHECKING, Any

import click

from design_agent.core.stdio import output_closed
from design_agent.core.text import clean_text

if TYPE_CHECKING:
    from rich.console import Console

    from design_agent.cli.render import MarkdownStream
    from design_agent.cli.status_line import StatusLine


@cache
def console() -> Console:
    """A rich console on stdout; plain text when stdout is not a terminal."""
    from rich.console import Console

    class StdoutConsole(Console):
        def on_broken_pipe(self) -> None:
            """The reader went away (`| head -1`): rich would exit(1) at once, mid-turn; we
            go on unseen, so the turn is finished and saved (design_agent.core.stdio)."""
            output_closed()

    # soft_wrap: the terminal wraps long lines, so a message is never split by us.
    return StdoutConsole(highlight=False, soft_wrap=True)


class Screen:
    """Where a turn's view prints: a rich console, and a text stream for plain lines.

    By default this process's own (`console()` and stdout). The server's `ask`
    fast path gives each request a screen of its own, built for the client's
    terminal, so the view renders there exactly what it renders here.
    """

    def __init__(self, rich_console: Console | None = None, file: IO[str] | None = None) -> None:
        self._console = rich_console
        self.file = file

    @property
    def console(self) -> Console:
        return self._console or console()

    def line(self, text: str) -> None:
        """One line of data as it is (an event or a JSON object): no cleaning, no style."""
        click.echo(text, file=self.file)

    def markdown_stream(self) -> MarkdownStream:
        """A streamed answer's renderer on this screen's console."""
        from design_agent.cli.render import MarkdownStream

        return MarkdownStream(self.console)

    def status_line(self, label: str, hint: str = "") -> StatusLine:
        """A one-line status with a spinner, shown until stopped (nothing off a terminal)."""
        from design_agent.cli.status_line import StatusLine

        return StatusLine(self.console, label, hint)


def echo(text: str, err: bool = False) -> None:
    """A message that names data (a project, a file), cleaned, on stdout (or stderr)."""
    click.echo(clean_text(text), err=err)


def print_json(data: Any) -> None:
    """Print `data` as indented UTF-8 JSON (pydantic models are dumped first)."""
    click.echo(json.dumps(_plain(data), ensure_ascii=False, indent=2, default=str))


def _plain(data: Any) -> Any:
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json", by_alias=True)
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_plain(v) for v in data]
    return data


def print_table(title: str | None, columns: list[str], rows: list[list[str]]) -> None:
    """A simple table; plain aligned text when not on a terminal."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_edge=False, header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(Text(clean_text(cell, one_line=True)) for cell in row))
    console().print(table)
