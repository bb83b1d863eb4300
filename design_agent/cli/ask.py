"""`design-agent ask`: one turn of the pipeline from the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from design_agent.cli.options import app_of, json_option, project_option
from design_agent.cli.output import echo
from design_agent.cli.signals import cancelling_signals
from design_agent.cli.stdin import require_stdin
from design_agent.cli.team import ask_team, team_of
from design_agent.cli.turn_view import TurnView
from design_agent.core.errors import DesignAgentError, UsageError
from design_agent.core.stdio import input_text

if TYPE_CHECKING:
    from design_agent.turn.pipeline import Pipeline, TurnRequest
    from design_agent.turn.session import Services


@click.command()
@click.argument("message", required=False)
@project_option
@click.option("--provider", metavar="NAME", help="Provider for this answer only (e.g. gemini).")
@click.option(
    "--tier",
    type=click.Choice(["fast", "deep"]),
    help="Model tier for this answer (default: routed by the request).",
)
@click.option(
    "--file",
    "files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Add this brief (text, markdown or PDF) to the project first; repeatable.",
)
@json_option
@click.option("--events", is_flag=True, help="Print every pipeline event as a JSON line.")
@click.option(
    "--from",
    "from_turn",
    metavar="TURN",
    help="Continue from this turn of the project (its number in 'history --tree'); the "
    "answer starts a branch there when later turns exist.",
)
@click.option(
    "--branch",
    metavar="NAME",
    help="Continue from the latest turn of this branch (see /branches).",
)
@click.option(
    "--continue",
    "continuing",
    is_flag=True,
    help="Continue where the project's conversation was left (the default), and say where "
    "on standard error.",
)
@click.option(
    "--show-prompt",
    is_flag=True,
    help="Print what would be sent (command line, system prompt, standard input, tokens "
    "per block) without running the provider or saving anything.",
)
@click.option(
    "--no-server",
    is_flag=True,
    help="Run the turn in this process even when 'design-agent serve' is running (by "
    "default the turn is sent to it, which starts faster).",
)
@click.option(
    "--over-budget",
    is_flag=True,
    help="Send it even when the project's monthly budget (budget.monthly_usd) is spent; "
    "without it such a turn sends nothing and exits 7. Only providers that report a cost "
    "(Claude Code) count; offline never does.",
)
@click.pass_context
def ask(
    ctx: click.Context,
    message: str | None,
    project_name: str | None,
    provider: str | None,
    tier: str | None,
    files: tuple[Path, ...],
    as_json: bool,
    events: bool,
    from_turn: str | None,
    branch: str | None,
    continuing: bool,
    show_prompt: bool,
    no_server: bool,
    over_budget: bool,
) -> None:
    """Ask one design question; the answer streams, then a footer line.

    MESSAGE may be '-' or left out to read it from standard input. Meta-requests
    work too: "switch to Enterprise Dashboard", "why did we choose moderated
    testing?", "use gemini from now on".

    \b
    Examples:
      design-agent ask "Plan a usability test for the new checkout"
      design-agent ask "¿por qué decidimos hacer pruebas moderadas?" --json
      echo "journey map for first-time buyers" | design-agent ask --events
      design-agent ask --show-prompt "plan a usability test" --provider gemini
      design-agent ask --from 2 "plan an unmoderated test instead"
      design-agent ask --no-server "plan a diary study"
    """
    from design_agent.turn.budget import held_error
    from design_agent.turn.pipeline import Pipeline, TurnRequest

    text = message_text(input_text(_read_message(message)))
    check_start(from_turn, branch, continuing)
    app = app_of(ctx)
    if (team := team_of(app)) is not None:  # logged in: the team's server answers, as you
        if show_prompt or no_server:
            raise UsageError(
                f"this home is logged in to {team.url}: ask goes there (--show-prompt and "
                "--no-server are for this computer's own home: design-agent logout first)"
            )
        parsed = {
            "message": text, "project": project_name, "provider": provider, "tier": tier,
            "from_turn": from_turn, "branch": branch, "continuing": continuing,
            "over_budget": over_budget, "as_json": as_json, "events": events,
        }  # fmt: skip
        code = ask_team(team, parsed, files)
        if code:
            ctx.exit(code)
        return
    services = app.services()
    check_names(services, provider, project_name)
    if continuing:
        echo(continue_line(services, project_name), err=True)
    if show_prompt:
        if files:
            raise UsageError("--show-prompt saves nothing: add the --file briefs first")
        request = TurnRequest(text, project_name, provider, tier, from_turn or branch)
        _show_prompt(Pipeline(services), request, as_json)
        return
    for path in files:
        _add_file(services, project_name, path)
    pipeline = Pipeline(services)
    view = TurnView(mode="events" if events else "json" if as_json else "text")
    request = TurnRequest(text, project_name, provider, tier, from_turn or branch, over_budget)
    with cancelling_signals(pipeline.cancel, last=True) as signals:  # Ctrl-C, SIGTERM, SIGHUP
        # A request held by the spent budget (budget.py) sent nothing: exit 7, saying how on.
        signals.end(_show_turn(pipeline, request, view) or held_error(view.finished))


def _show_turn(pipeline: Pipeline, request: TurnRequest, view: TurnView) -> DesignAgentError | None:
    """Show the turn; the error it ended with, if any (the view is closed either way)."""
    try:
        for event in pipeline.run(request):
            view.show(event)
    except DesignAgentError as e:
        view.close()
        return e
    view.close()
    return None


def _show_prompt(pipeline: Pipeline, request: TurnRequest, as_json: bool) -> None:
    from design_agent.cli.output import print_json
    from design_agent.cli.prompt_view import render_preview

    preview = pipeline.preview(request)
    if as_json:
        print_json(preview)
    else:
        click.echo(render_preview(preview))


def _read_message(message: str | None) -> str:
    if message in (None, "-"):
        example = 'design-agent ask "plan a usability test"'
        require_stdin(f"give the message as an argument, e.g. {example}")
        if sys.stdin.isatty():
            raise UsageError(f"give a message, e.g. {example}")
        message = sys.stdin.read()
    return message or ""


# The checks below are shared with the server's `ask` fast path (server/ask_route.py), so
# that a turn sent to a running server fails with the same message and exit code.


def message_text(message: str) -> str:
    """The message to ask, stripped (UsageError when nothing is left)."""
    message = message.strip()
    if not message:
        raise UsageError("the message is empty")
    return message


def check_start(from_turn: str | None, branch: str | None, continuing: bool) -> None:
    """At most one of --from, --branch and --continue."""
    if sum(map(bool, (from_turn, branch, continuing))) > 1:
        raise UsageError("give one of --from TURN, --branch NAME and --continue")


def check_names(services: Services, provider: str | None, project_name: str | None) -> None:
    """An unknown provider or project fails before anything is saved (exit 2 / 6)."""
    from design_agent.providers.resolve import check_provider_name

    if provider:
        check_provider_name(provider, services.adapters)
    if project_name:
        services.memory.find_project(project_name)


def continue_line(services: Services, project_name: str | None) -> str:
    """What --continue says on standard error: the project, turn and branch it goes on from."""
    from design_agent.turn.pipeline import Pipeline

    return Pipeline(services).continue_point(project_name)


def _add_file(services: Services, project_name: str | None, path: Path) -> None:
    memory = services.memory
    project = memory.find_project(project_name) if project_name else memory.active_project()
    if project is None:
        from design_agent.turn.pipeline import default_project

        project = default_project(memory)
    added = memory.add_file(project.id, path)
    state = "already there" if added.duplicate else "added"
    state += " (truncated)" if added.truncated else ""
    echo(f"{added.file.filename}: {state} to {project.name}", err=True)
