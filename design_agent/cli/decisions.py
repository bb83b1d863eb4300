"""`design-agent decisions`: record, list, search, edit and retire a project's decisions.

An edit never overwrites: it adds a new version that replaces the old one, which stays
in the history (`list --history`, "why did we ...?"); retiring keeps the decision too.
`list` shows the current decisions on the branch the conversation is on, each with the
turn and branch it was made on; `--all-branches` shows every branch's.
"""

from __future__ import annotations

from collections.abc import Callable

import click

from design_agent.cli import team_commands
from design_agent.cli.options import WholeNumber, app_of, json_option, project_option
from design_agent.cli.output import echo, print_json, print_table
from design_agent.cli.projects import when
from design_agent.cli.team import team_of
from design_agent.core.messages import say
from design_agent.memory.models import Decision, DecisionCounts, ListedDecision
from design_agent.understanding.conversation import conversation_node


@click.group()
def decisions() -> None:
    """Record the project's decisions with their rationale, and list or search them.

    Decisions change as the team changes its mind: `edit` adds a new version that
    replaces one, `retire` takes one out of the current decisions; both keep the
    history, and "why did we ...?" answers with the current version and what it
    replaced.

    \b
    Examples:
      design-agent decisions add "Moderated usability testing" --why "we need to ask why"
      design-agent decisions search "why did we choose moderated testing"
      design-agent decisions edit 3 --decision "Valencia goes first" --why "partners signed"
      design-agent decisions retire 4 --why "the pilot was cancelled"
    """


@decisions.command("add")
@click.argument("decision")
@click.option("--why", "rationale", default="", help="The rationale: why this was decided.")
@click.option("--turn", "turn_id", type=WholeNumber(), help="Id of the turn where it was decided.")
@project_option
@json_option
@click.pass_context
def decisions_add(
    ctx: click.Context,
    decision: str,
    rationale: str,
    turn_id: int | None,
    project_name: str | None,
    as_json: bool,
) -> None:
    """Record DECISION in the project.

    \b
    Example:
      design-agent decisions add "Ship guest checkout" --why "40% abandon at sign-up"
    """
    if (team := team_of(app_of(ctx))) is not None:
        team_commands.decisions_add(team, project_name, decision, rationale, as_json)
        return
    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    recorded = memory.add_decision(project.id, decision, rationale, turn_id)
    if as_json:
        print_json(recorded)
        return
    echo(f"Recorded decision {recorded.id} in '{project.name}'.")


@decisions.command("list")
@click.option("-n", "limit", type=WholeNumber(), help="Only the last N decisions.")
@click.option(
    "--all-branches",
    is_flag=True,
    help="Every branch's decisions, not only the branch the conversation is on.",
)
@click.option(
    "--history",
    is_flag=True,
    help="Also the decisions replaced by a newer version or retired, with their status.",
)
@project_option
@json_option
@click.pass_context
def decisions_list(
    ctx: click.Context,
    limit: int | None,
    all_branches: bool,
    history: bool,
    project_name: str | None,
    as_json: bool,
) -> None:
    """List the current decisions on this branch, newest first, each with the turn and
    the branch it was made on.

    This branch is where the conversation is (after /goto or "go back to turn 4",
    that turn's branch). A decision made after the fork, on another branch, is not
    on this one: the listing says how many there are elsewhere.

    \b
    Examples:
      design-agent decisions list -n 5
      design-agent decisions list --all-branches --history --json
    """
    if (team := team_of(app_of(ctx))) is not None:
        team_commands.decisions_list(team, project_name, limit, all_branches, history, as_json)
        return
    app = app_of(ctx)
    memory = app.memory
    project = memory.resolve_project(project_name)
    node = None if all_branches else conversation_node(memory, project.id)
    found = (
        memory.decisions_on_path(node, limit, history)
        if node is not None
        else memory.list_decisions(project.id, limit, history)
    )
    listed = memory.place_decisions(found)
    if as_json:
        print_json(listed)
        return
    language = "es" if app.settings.values.language == "es" else "en"
    counts = memory.decision_counts(project.id, node)
    shown = counts if not history else None
    print_listing(memory.decision_replacement, project.name, listed, shown, language)


Replacement = Callable[[int], "Decision | None"]


def print_listing(
    replacement: Replacement,
    project_name: str,
    listed: list[ListedDecision],
    counts: DecisionCounts | None,
    language: str,
) -> None:
    """The table, then what it leaves out (replaced, retired, other branches);
    `replacement` gives a replaced decision's newer version."""
    if not listed and counts is not None and counts.elsewhere:
        echo(say("decisions_none_here", language, name=project_name, count=counts.elsewhere))
        return
    columns = ["id", "when", "decision", "why", "branch"]
    history = counts is None
    if history:
        columns.append("status")
    rows = [_row(replacement, d, history) for d in listed]
    if any(d.author for d in listed):  # a team's: who recorded each
        columns.insert(2, "by")
        for row, d in zip(rows, listed, strict=True):
            row.insert(2, d.author or "-")
    print_table(None, columns, rows)
    if counts is not None and (counts.superseded or counts.retired):
        echo(say("decisions_changed_note", language, **counts.model_dump()))
    if counts is not None and counts.elsewhere:
        echo(say("decisions_elsewhere_note", language, count=counts.elsewhere))


def _row(replacement: Replacement, d: ListedDecision, history: bool) -> list[str]:
    row = [str(d.id), when(d.timestamp), d.decision, d.rationale or "-", branch_cell(d)]
    return [*row, status_cell(replacement, d)] if history else row


def branch_cell(d: ListedDecision) -> str:
    """ "remote (turn 7)", "unnamed (turn 7)", or "every branch"."""
    if d.turn is None or d.branch is None:
        return "every branch"
    return f"{d.branch.name or 'unnamed'} (turn {d.turn})"


def status_cell(replacement: Replacement, d: Decision) -> str:
    """ "current", "replaced by 12 (2025-06-02)" or "retired (2025-06-02)"."""
    if d.status == "current":
        return "current"
    changed = d.changed_at.date().isoformat() if d.changed_at else "-"
    newer = replacement(d.id) if d.status == "superseded" else None
    return f"replaced by {newer.id} ({changed})" if newer else f"retired ({changed})"


@decisions.command("search")
@click.argument("query")
@project_option
@json_option
@click.pass_context
def decisions_search(
    ctx: click.Context, query: str, project_name: str | None, as_json: bool
) -> None:
    """Find the project's decisions about QUERY, best match first (replaced and retired
    ones too, with their status).

    \b
    Example:
      design-agent decisions search "why did we choose moderated testing"
    """
    if (team := team_of(app_of(ctx))) is not None:
        team_commands.decisions_search(team, project_name, query, as_json)
        return
    memory = app_of(ctx).memory
    found = memory.search_decisions(memory.resolve_project(project_name).id, query)
    if as_json:
        print_json(found)
        return
    rows = [
        [
            str(s.item.id),
            s.item.decision,
            s.item.rationale or "-",
            status_cell(memory.decision_replacement, s.item),
        ]
        for s in found
    ]
    columns = ["id", "decision", "why", "status"]
    if any(s.item.author for s in found):  # a team's: who recorded each
        columns.insert(1, "by")
        for row, s in zip(rows, found, strict=True):
            row.insert(1, s.item.author or "-")
    print_table(None, columns, rows)


@decisions.command("edit")
@click.argument("decision_id", metavar="ID", type=WholeNumber())
@click.option(
    "--decision",
    "text",
    required=True,
    help="The new version's text (the old version stays in the history).",
)
@click.option(
    "--why",
    "rationale",
    default=None,
    help="Why the new version was decided (default: the old version's rationale).",
)
@project_option
@json_option
@click.pass_context
def decisions_edit(
    ctx: click.Context,
    decision_id: int,
    text: str,
    rationale: str | None,
    project_name: str | None,
    as_json: bool,
) -> None:
    """Replace decision ID with a new version: the old one is kept, superseded.

    The new version gets a new id and is made where the old one was (on the same
    branch). An ID already replaced or retired is refused: edit its newest version.

    \b
    Examples:
      design-agent decisions edit 3 --decision "Valencia goes first" --why "partners signed"
      design-agent decisions edit 3 --decision "Valencia goes first in May" --json
    """
    if (team := team_of(app_of(ctx))) is not None:
        team_commands.decisions_edit(team, project_name, decision_id, text, rationale, as_json)
        return
    app = app_of(ctx)
    memory = app.memory
    project = memory.resolve_project(project_name)
    old = memory.get_decision(decision_id, project.id)
    new = memory.supersede_decision(old.id, text, rationale)
    if as_json:
        print_json({"decision": new, "replaced": memory.get_decision(old.id)})
        return
    language = "es" if app.settings.values.language == "es" else "en"
    echo(
        say(
            "decision_edited",
            language,
            old_id=old.id,
            id=new.id,
            name=project.name,
            decision=new.decision,
            why=new.rationale or "-",
        )
    )


@decisions.command("retire")
@click.argument("decision_id", metavar="ID", type=WholeNumber())
@click.option("--why", "reason", default="", help="Why it no longer holds.")
@project_option
@json_option
@click.pass_context
def decisions_retire(
    ctx: click.Context, decision_id: int, reason: str, project_name: str | None, as_json: bool
) -> None:
    """Retire decision ID: it no longer counts as decided, and stays in the history.

    \b
    Examples:
      design-agent decisions retire 4 --why "the Madrid pilot was cancelled"
      design-agent decisions retire 4 --json
    """
    if (team := team_of(app_of(ctx))) is not None:
        team_commands.decisions_retire(team, project_name, decision_id, reason, as_json)
        return
    app = app_of(ctx)
    memory = app.memory
    project = memory.resolve_project(project_name)
    old = memory.get_decision(decision_id, project.id)
    retired = memory.retire_decision(old.id, reason)
    if as_json:
        print_json({"decision": retired})
        return
    language = "es" if app.settings.values.language == "es" else "en"
    echo(say("decision_retired_cli", language, id=old.id, name=project.name, decision=old.decision))
