"""Option sets shared by several commands, each one decorator."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import click

from design_agent.core.errors import UsageError
from design_agent.core.numbers import MAX_NUMBER, parse_whole

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of text."
)

force_option = click.option(
    "--force",
    "-f",
    is_flag=True,
    help="Replace FILE if it exists, without asking (a link, FIFO or device is never written).",
)

project_option = click.option(
    "--project",
    "-p",
    "project_name",
    metavar="NAME",
    help="Project to use instead of the active one (name or slug, case-insensitive).",
)


class WholeNumber(click.IntRange):
    """Every whole-number option and argument: LOW to HIGH (at most MAX_NUMBER), so a key
    held down gives one line and exit 2, never an overflow deep in SQLite."""

    def __init__(self, low: int = 1, high: int = MAX_NUMBER) -> None:
        super().__init__(min=low, max=high)
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        try:
            number = value if isinstance(value, int) else parse_whole(str(value))
        except UsageError:  # more digits than any count: not read as an int at all
            self.fail(f"{_cut(str(value))} is too large (at most {self.high:,})", param, ctx)
        if number is None:
            self.fail(f"{_cut(str(value))!r} is not a whole number", param, ctx)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is out of range: give {self.low} to {self.high:,}", param, ctx)
        return number


class Seconds(click.FloatRange):
    """A time in seconds: more than 0, at most HIGH (an hour); 'nan' and 'inf' refused
    (click's FloatRange lets 'nan' through)."""

    def __init__(self, high: float = 3600.0) -> None:
        super().__init__(min=0, max=high, min_open=True)
        self.high = high

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{_cut(str(value))!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value} is not a finite number of seconds", param, ctx)
        if not 0 < seconds <= self.high:
            self.fail(
                f"{value} is out of range: give more than 0, at most {self.high:g}", param, ctx
            )
        return seconds


def _cut(text: str) -> str:
    """A value as an error line shows it: at most 24 characters."""
    return text if len(text) <= 24 else f"{text[:24]}… ({len(text)} characters)"


def app_of(ctx: click.Context) -> AppContext:
    """The AppContext of this invocation (set by the root group)."""
    from design_agent.cli.context import AppContext

    app = ctx.find_object(AppContext)
    if app is None:  # a subcommand invoked on its own, e.g. in a unit test
        app = ctx.ensure_object(AppContext)
    return app
