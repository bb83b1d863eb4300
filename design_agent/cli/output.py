"""The one console: every command prints through these helpers."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console


@cache
def console() -> Console:
    """A rich console on stdout; plain text when stdout is not a terminal."""
    from rich.console import Console

    # soft_wrap: the terminal wraps long lines, so a message is never split by us.
    return Console(highlight=False, soft_wrap=True)


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

    table = Table(title=title, show_edge=False, header_style="bold", box=None, pad_edge=False)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    console().print(table)
