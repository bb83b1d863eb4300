"""`design-agent mcp` (serve over stdio) and `design-agent mcp install|uninstall CLIENT`.

The SDK is imported only when the server starts; install and uninstall never load it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from design_agent.cli.options import app_of
from design_agent.mcp.clients import CLIENTS, Change

client_argument = click.argument("client", type=click.Choice(CLIENTS, case_sensitive=False))
print_option = click.option(
    "--print", "dry", is_flag=True, help="Show what would be written or run; change nothing."
)


@click.group(invoke_without_command=True)
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve design-agent to your AI agent over MCP (stdio), or register it with one.

    With no subcommand, serves the Model Context Protocol on standard input and
    output, as Claude Code, Gemini CLI, Codex and Cursor start it. Its tools:
    find_method, method_brief, review_answer, project_context, record_decision,
    retire_decision, search_memory, list_projects, switch_project; every guide
    section and each project's decisions as resources; each method as a prompt.
    `design-agent serve` serves the same at /mcp over HTTP (with its token).

    \b
    Examples:
      design-agent mcp install claude      register it with Claude Code
      design-agent mcp install codex --print
      design-agent mcp uninstall gemini
      design-agent mcp                      serve over stdio (what the agents run)
    """
    if ctx.invoked_subcommand is not None:
        return
    from design_agent.core import startup
    from design_agent.mcp.stdio import serve_stdio

    app = app_of(ctx)
    home, database = app.verified_home, app.database
    if sys.stdin.isatty():  # a person, not an agent: say what this is, on stderr
        click.echo(
            "design-agent mcp serves the Model Context Protocol on this terminal's input and "
            "output, for an agent to start (design-agent mcp install claude registers it); "
            "Ctrl-D ends it.",
            err=True,
        )
    startup.ready()  # serving is the work: the collector back on
    serve_stdio(home, database)


@mcp.command("install")
@client_argument
@print_option
@click.pass_context
def mcp_install(ctx: click.Context, client: str, dry: bool) -> None:
    """Register design-agent's MCP server with CLIENT (claude, gemini, codex, cursor).

    claude runs `claude mcp add --scope user design-agent -- ...` (Claude Code's own
    command); gemini adds it to ~/.gemini/settings.json, codex to
    ~/.codex/config.toml (or $CODEX_HOME), cursor to ~/.cursor/mcp.json, keeping
    everything else in the file. The server runs with this home (--home is
    registered when you give one). Then, in the agent, ask for what you need ("plan
    a usability test for the checkout"): it finds the method, loads its brief,
    and records decisions in this project.

    \b
    Examples:
      design-agent mcp install claude
      design-agent --home ~/work/design mcp install cursor
      design-agent mcp install gemini --print
    """
    from design_agent.mcp.clients import install, server_command

    command = server_command(_given_home(ctx))
    change = install(client.lower(), command, dry)
    _say(change, "Would register" if dry else "Registered", client)


@mcp.command("uninstall")
@client_argument
@print_option
@click.pass_context
def mcp_uninstall(ctx: click.Context, client: str, dry: bool) -> None:
    """Remove design-agent's MCP server from CLIENT's configuration (the rest stays).

    \b
    Examples:
      design-agent mcp uninstall claude
      design-agent mcp uninstall codex --print
    """
    from design_agent.mcp.clients import uninstall

    change = uninstall(client.lower(), dry)
    if not change.changed:
        click.echo(f"design-agent is not registered in {change.where}; nothing changed.")
        return
    _say(change, "Would remove" if dry else "Removed", client)


def _given_home(ctx: click.Context) -> Path | None:
    """The home, when one was given (--home or DESIGN_AGENT_HOME): the agent must use it."""
    given = ctx.find_root().params.get("home")
    return app_of(ctx).home.root.resolve() if given else None


def _say(change: Change, verb: str, client: str) -> None:
    if change.where == "claude":
        click.echo(f"{verb} design-agent with Claude Code: {change.shown}")
        return
    click.echo(f"{verb} design-agent in {change.where}:")
    click.echo(change.shown.rstrip("\n"))
