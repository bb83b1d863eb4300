"""The `design-agent` command: one click group whose subcommands load lazily.

`--version` and `--help` must stay fast, so this module imports only click;
each command group lives in its own module and is imported when it runs.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

import click

from design_agent import __version__

if TYPE_CHECKING:
    from design_agent.core.errors import DesignAgentError

# name -> (module:attribute, one-line help shown by `design-agent --help`)
COMMANDS: dict[str, tuple[str, str]] = {
    "agents": (
        "design_agent.cli.catalogue:agents",
        "List and show the specialist personas that answer design tasks.",
    ),
    "ask": (
        "design_agent.cli.ask:ask",
        "Ask one design question; the answer streams, then a footer line.",
    ),
    "audit": (
        "design_agent.cli.users:audit",
        "Show the team's audit log, newest first: who shared, deleted, decided, changed roles.",
    ),
    "check": (
        "design_agent.cli.catalogue:check",
        "Validate agents, tasks, guides, materials, adapters and the lexicon, bundled and yours.",
    ),
    "config": (
        "design_agent.cli.config:config",
        "Show and change settings (stored in settings.yaml in the home).",
    ),
    "db": (
        "design_agent.cli.database:db",
        "The memory's database: status, migrate, and copy a home between SQLite and PostgreSQL.",
    ),
    "decisions": (
        "design_agent.cli.decisions:decisions",
        "Record the project's decisions with their rationale, and list or search them.",
    ),
    "evidence": (
        "design_agent.cli.evidence:evidence",
        "Research evidence: interview transcripts, notes, survey exports and reviews.",
    ),
    "files": (
        "design_agent.cli.memory:files",
        "Add briefs and other documents to a project, and list them.",
    ),
    "history": (
        "design_agent.cli.memory:history",
        "Show the project's latest conversation turns, oldest first.",
    ),
    "login": (
        "design_agent.cli.team:login",
        "Log this home in to the team's server at URL, as you.",
    ),
    "logout": (
        "design_agent.cli.team:logout",
        "Forget this home's login to a team's server (its token ends on the server too).",
    ),
    "match": (
        "design_agent.cli.match:match",
        "Show which design tasks MESSAGE asks for, best first, scored 0-100.",
    ),
    "mcp": (
        "design_agent.mcp.commands:mcp",
        "Serve design-agent to your AI agent over MCP (stdio), or register it with one.",
    ),
    "methods": (
        "design_agent.cli.methods:methods",
        "List, show, add, edit and remove the design methods, bundled and your team's.",
    ),
    "projects": (
        "design_agent.cli.projects:projects",
        "Create, list, switch, rename, delete, share, export and import projects.",
    ),
    "search": (
        "design_agent.cli.memory:search",
        "Search the project's conversations, files and decisions for QUERY.",
    ),
    "providers": (
        "design_agent.cli.providers:providers",
        "List, check, choose and try the AI CLI providers.",
    ),
    "serve": (
        "design_agent.server.commands:serve",
        "Run the web page and HTTP API for this home until Ctrl-C (or `server stop`).",
    ),
    "server": (
        "design_agent.server.commands:server",
        "Status, stop and logs of the server `design-agent serve` started for this home.",
    ),
    "usage": (
        "design_agent.cli.usage:usage",
        "Show what the answers used: turns, tokens in/out, cost and time, per group.",
    ),
    "users": (
        "design_agent.cli.users:users",
        "Add, list and disable the people of a team, and give them invite links and tokens.",
    ),
}

# Older names that still work, not listed: `tasks` is `methods`.
ALIASES = {"tasks": "methods"}


class LazyGroup(click.Group):
    """A group whose commands are imported only when used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(ALIASES.get(cmd_name, cmd_name))
        if target is None:
            return None
        module_name, _, attribute = target[0].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Uses the table's help lines so `--help` imports no command module.
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        """The error edge: domain errors become one line on stderr and their exit code."""
        from design_agent.core.errors import DesignAgentError, ExitCode
        from design_agent.core.stdio import PIPE_CLOSED_EXIT, output_closed, was_output_closed

        try:
            result = super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except DesignAgentError as e:
            _report(ctx, f"Error: {e.message}")
            ctx.exit(int(e.exit_code))
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): stop quietly, with SIGPIPE's code.
            output_closed()
            ctx.exit(PIPE_CLOSED_EXIT)
        except KeyboardInterrupt:
            _report(ctx, "Cancelled.")
            ctx.exit(int(ExitCode.CANCELLED))
        except Exception as e:
            known = _storage_error(ctx, e)
            if known is not None:  # a full disk or a damaged database, said as such
                _report(ctx, f"Error: {known.message}")
                ctx.exit(int(known.exit_code))
            _report(ctx, f"Error: unexpected {type(e).__name__}: {e} (rerun with --debug)")
            ctx.exit(int(ExitCode.UNEXPECTED))
        if was_output_closed():  # the work was done and saved; nobody read all of it
            ctx.exit(PIPE_CLOSED_EXIT)
        return result


def _storage_error(ctx: click.Context, error: Exception) -> DesignAgentError | None:
    """The DesignAgentError a database failure means (memory/faults.py), or None."""
    from design_agent.cli.context import AppContext
    from design_agent.memory.faults import storage_error

    app = ctx.find_object(AppContext)
    return None if app is None else storage_error(error, app.home.database_file)


def _report(ctx: click.Context, line: str) -> None:
    if getattr(ctx.obj, "debug", False):
        import traceback

        traceback.print_exc()
    from design_agent.cli.output import echo

    echo(line, err=True)  # an error may quote a name or a model's words: cleaned


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="design-agent")
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=str),
    envvar="DESIGN_AGENT_HOME",
    help="Folder for the database, settings and your own tasks/guides/adapters "
    "(default: the platform's user config dir; env DESIGN_AGENT_HOME).",
)
@click.option("--debug", is_flag=True, help="Show the full traceback when something fails.")
@click.option(
    "--continue",
    "continuing",
    is_flag=True,
    help="Open the conversation where it was left (the default), and say where.",
)
@click.pass_context
def cli(ctx: click.Context, home: str | None, debug: bool, continuing: bool) -> None:
    """design-agent: a product-design assistant for the terminal.

    Tell it what you need in plain English or Spanish; it picks the design
    method and specialist, loads the method's guide and has the AI CLI you
    already use (Claude Code, Gemini CLI, Codex) write the answer. Run it
    with no command to start a conversation.

    \b
    Examples:
      design-agent
      design-agent ask "plan a usability test for the new checkout"
      design-agent check
      design-agent methods list --agent research_analyst
      design-agent config set provider claude
    """
    from design_agent.cli.context import AppContext

    ctx.obj = AppContext(home_flag=home, debug=debug)
    ctx.call_on_close(ctx.obj.close)
    if ctx.invoked_subcommand is None and ctx.obj.team_login is not None:
        from design_agent.cli.team import team_of
        from design_agent.cli.team_shell import run_team_shell

        team = team_of(ctx.obj)  # logged in: the conversation is on the team's server
        assert team is not None
        ctx.exit(run_team_shell(team))
    if ctx.invoked_subcommand is None:
        from design_agent.cli.shell import run_shell

        ctx.obj.left_out_said = True  # the shell's banner says what was left out
        code = run_shell(ctx.obj.services(), announce=continuing)
        if code:
            ctx.exit(code)  # ended by SIGTERM or SIGHUP: 128 + the signal


def main() -> None:
    """Console-script entry point."""
    sys.exit(cli.main(prog_name="design-agent"))
