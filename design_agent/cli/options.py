"""Option sets shared by several commands, each one decorator."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

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


def app_of(ctx: click.Context) -> AppContext:
    """The AppContext of this invocation (set by the root group)."""
    from design_agent.cli.context import AppContext

    app = ctx.find_object(AppContext)
    if app is None:  # a subcommand invoked on its own, e.g. in a unit test
        app = ctx.ensure_object(AppContext)
    return app
