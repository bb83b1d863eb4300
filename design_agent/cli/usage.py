"""`design-agent usage`: what the answers used, grouped, from the stored turns."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from design_agent.actions.usage_view import text_table
from design_agent.cli.options import app_of, json_option, project_option
from design_agent.cli.output import echo, print_json
from design_agent.core.errors import UsageError
from design_agent.core.messages import say
from design_agent.memory.usage import GROUPS, GroupBy, UsageQuery, parse_since, usage_report

if TYPE_CHECKING:
    from design_agent.memory import Memory
    from design_agent.memory.models import Project


@click.command()
@project_option
@click.option("--all", "all_projects", is_flag=True, help="Count every project's answers.")
@click.option(
    "--by",
    type=click.Choice(GROUPS),
    default="provider",
    show_default=True,
    help="One row per day (UTC), provider, model, project or person (a team's: who asked).",
)
@click.option(
    "--since",
    metavar="DATE",
    help="Only answers from this date on (YYYY-MM-DD, UTC) or from the last N days (7d, 30d).",
)
@json_option
@click.pass_context
def usage(
    ctx: click.Context,
    project_name: str | None,
    all_projects: bool,
    by: GroupBy,
    since: str | None,
    as_json: bool,
) -> None:
    """Show what the answers used: turns, tokens in/out, cost and time, per group.

    Per group: the answers (turns), tokens in and out, the cost, and the p50
    (median) time to the first token and in all. The default is the active
    project, by provider, all time. Cost is shown only where the AI CLI reports
    it (Claude Code does); elsewhere it says "not reported", never 0, and a group
    where only some turns reported it says how many. Turns saved before
    design-agent stored tokens in/out and timings count as not reported there.

    A monthly budget (`config set budget.monthly_usd 20`) counts the same
    reported cost, per project and calendar month (UTC): a warning from 80 %,
    a confirmation before an answer once it is spent. The offline provider and
    CLIs that report no cost never trigger it.

    \b
    Examples:
      design-agent usage
      design-agent usage --by day --since 7d
      design-agent usage --all --by project --json
      design-agent usage --all --by person --since 30d
    """
    app = app_of(ctx)
    memory = app.memory
    language = _language(app.settings.values.language, memory.get_state("last_language"))
    if project_name and all_projects:
        raise UsageError(say("usage_project_and_all", language))
    start = parse_since(since, datetime.now(UTC), language) if since else None
    project = None if all_projects else _project(memory, project_name)
    query = UsageQuery(by=by, project_id=project.id if project else None, since=start)
    report = usage_report(memory.db, query)
    if as_json:
        print_json({"project": project.name if project else None, **report.model_dump(mode="json")})
        return
    scope = (
        say("usage_scope_project", language, name=project.name)
        if project
        else say("usage_scope_all", language)
    )
    # Plain aligned text, never wrapped inside a cell: "$0.0123 (3 of 5 turns reported)".
    echo(text_table(report, scope, language))


def _project(memory: Memory, name: str | None) -> Project | None:
    """The named project, else the active one; None (every project) when none is active."""
    return memory.find_project(name) if name else memory.active_project()


def _language(setting: str, said: object) -> str:
    """The language of the conversation so far (the setting, before anything is said)."""
    if setting in ("en", "es"):
        return setting
    return str(said) if said in ("en", "es") else "en"
