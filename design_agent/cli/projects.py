"""`design-agent projects`: create, list, switch, rename, delete, show, report, export and
import."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from design_agent.cli.options import app_of, force_option, json_option
from design_agent.cli.output import console, echo, print_json, print_table
from design_agent.cli.stdin import confirm_replace, interactive, require_stdin
from design_agent.cli.team import team_of
from design_agent.core.errors import DesignAgentError, NotFoundError, UsageError
from design_agent.core.input_history import forget_project
from design_agent.core.messages import say
from design_agent.core.text import clean_text
from design_agent.memory.lookup import ProjectLookup
from design_agent.memory.models import Project

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
    from design_agent.knowledge.registry import Catalogue
    from design_agent.report import ReportFormat


def when(moment: datetime | None) -> str:
    """A timestamp as local time to the minute, for tables."""
    return "-" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


@click.group()
def projects() -> None:
    """Create, list, switch, rename, delete, share, export and import projects.

    Everything design-agent remembers (conversations, files, decisions) belongs
    to one project; the active project is used unless you pass --project.
    Names are matched ignoring case and accents.

    \b
    Examples:
      design-agent projects create "Mobile Checkout"
      design-agent projects switch "mobile checkout"
      design-agent projects list --json
    """


@projects.command("list")
@json_option
@click.pass_context
def projects_list(ctx: click.Context, as_json: bool) -> None:
    """List projects, most recently used first, with their number of turns.

    \b
    Example:
      design-agent projects list
    """
    if (team := team_of(app_of(ctx))) is not None:
        from design_agent.cli import team_commands

        team_commands.projects_list(team, as_json)
        return
    items = app_of(ctx).memory.list_projects()
    if as_json:
        print_json(items)
        return
    if not items:
        echo('No projects yet. Create one: design-agent projects create "My product"')
        return
    rows = [
        [
            "*" if p.active else "",
            p.name,
            p.id,
            str(p.turns),
            str(p.files),
            str(p.decisions),
            when(p.last_accessed),
        ]
        for p in items
    ]
    print_table(None, ["", "name", "id", "turns", "files", "decisions", "last used"], rows)


@projects.command("create")
@click.argument("name")
@json_option
@click.pass_context
def projects_create(ctx: click.Context, name: str, as_json: bool) -> None:
    """Create project NAME and make it the active one.

    \b
    Example:
      design-agent projects create "Mobile Checkout"
    """
    if (team := team_of(app_of(ctx))) is not None:
        from design_agent.cli import team_commands

        team_commands.projects_create(team, name, as_json)
        return
    memory = app_of(ctx).memory
    project = memory.switch_project(memory.create_project(name).id)
    if as_json:
        print_json(project)
        return
    echo(f"Created project '{project.name}' (id {project.id}); it is now active.")


@projects.command("switch")
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Switch to the closest match without asking.")
@json_option
@click.pass_context
def projects_switch(ctx: click.Context, name: str, yes: bool, as_json: bool) -> None:
    """Make project NAME the active one.

    NAME may be part of the name or have a typo ("acme" finds "Acme Admin
    Portal"): on a terminal you are asked to confirm the guess, elsewhere
    pass --yes to accept it.

    \b
    Examples:
      design-agent projects switch "mobile checkout"
      design-agent projects switch acme --yes
    """
    if (team := team_of(app_of(ctx))) is not None:
        from design_agent.cli import team_commands

        team_commands.projects_switch(team, name, yes, as_json)
        return
    memory = app_of(ctx).memory
    found = memory.lookup_project(name)
    target = found.exact or _confirmed_guess(found, yes, as_json)
    project = memory.switch_project(target.id)
    if as_json:
        print_json(project)
        return
    echo(f"Active project: {project.name}")


def _confirmed_guess(found: ProjectLookup, yes: bool, as_json: bool) -> Project:
    """The suggested project, once the user accepts it; NotFoundError otherwise."""
    if found.candidates:
        names = ", ".join(p.name for p in found.candidates)
        raise UsageError(
            f"'{found.asked}' fits more than one project ({names}); give its whole name"
        )
    guess = found.suggestion
    if guess is not None and (yes or interactive()):
        question = f"No project is called '{found.asked}'. Switch to '{guess.name}'?"
        if yes or click.confirm(clean_text(question), default=True, err=as_json):
            return guess
    hint = f" Did you mean: {guess.name}? (add --yes to switch to it)" if guess else ""
    known = f" Projects: {', '.join(found.names)}." if found.names and not guess else ""
    raise NotFoundError(
        f"no project named '{found.asked}'.{hint}{known} "
        f"Create it with: design-agent projects create '{found.asked}'"
    )


@projects.command("rename")
@click.argument("old")
@click.argument("new")
@json_option
@click.pass_context
def projects_rename(ctx: click.Context, old: str, new: str, as_json: bool) -> None:
    """Rename project OLD to NEW (its id stays the same).

    \b
    Example:
      design-agent projects rename "Mobile Checkout" "Checkout 2.0"
    """
    memory = app_of(ctx).memory
    project = memory.rename_project(memory.find_project(old).id, new)
    if as_json:
        print_json(project)
        return
    echo(f"Renamed to '{project.name}' (id {project.id}).")


@projects.command("delete")
@click.argument("name")
@click.option("--yes", "-y", is_flag=True, help="Delete without asking for confirmation.")
@json_option
@click.pass_context
def projects_delete(ctx: click.Context, name: str, yes: bool, as_json: bool) -> None:
    """Delete project NAME and everything in it, after showing what will go.

    Without --yes, prints what will be removed (turns, files, decisions,
    metadata, process-memory entries, its conversation state) and asks for
    confirmation. The deleted text is also wiped from the database file;
    logs/events.jsonl never holds it.

    \b
    Example:
      design-agent projects delete "Old idea" --yes
    """
    app = app_of(ctx)
    memory = app.memory
    report = memory.deletion_report(memory.find_project(name).id)
    summary = (
        f"{report.turns} turns, {report.files} files, {report.decisions} decisions, "
        f"{report.metadata} metadata entries, {report.process_memory} process-memory entries "
        "and its conversation state"
    )
    if not yes:
        require_stdin("design-agent cannot ask for a yes: pass --yes to delete without asking")
        echo(
            f"Deleting '{report.project.name}' removes {summary}, and wipes them from the "
            "database file (logs/ keeps no text of them).",
            err=as_json,
        )
        click.confirm("Delete it?", abort=True, err=as_json)
    deleted = memory.delete_project(report)
    forget_project(app.home, report.project.id)  # its shell input, old event-log lines
    if as_json:
        print_json({"deleted": True, **deleted.model_dump(mode="json")})
        return
    echo(f"Deleted '{deleted.project.name}' ({summary}).")


@projects.command("share")
@click.argument("name")
@click.argument("person")
@click.option(
    "--role",
    type=click.Choice(["owner", "editor", "viewer"]),
    help="viewer: reads and searches; editor: also talks, uploads and records decisions; "
    "owner: also shares, renames and deletes.",
)
@click.option("--remove", is_flag=True, help="Take PERSON out of the project instead.")
@json_option
@click.pass_context
def projects_share(
    ctx: click.Context, name: str, person: str, role: str | None, remove: bool, as_json: bool
) -> None:
    """Give PERSON a role in project NAME (a team's database), or --remove them.

    Only the project's owners (and admins) may share it; a project keeps at
    least one owner.

    \b
    Examples:
      design-agent projects share "Mobile Checkout" ben --role editor
      design-agent projects share "Mobile Checkout" ben --remove
    """
    if remove == (role is not None):
        raise UsageError("give --role owner|editor|viewer, or --remove (one of the two)")
    memory = app_of(ctx).memory
    project = memory.find_project(name)
    who = memory.find_person(person)
    if remove:
        before = memory.unshare_project(project.id, who.id)
        if as_json:
            print_json({"project": project.id, "person": who.name, "removed": before})
            return
        said = f"was {before}" if before else "had no role there"
        echo(f"{who.name} is no longer a member of '{project.name}' ({said}).")
        return
    assert role is not None
    member = memory.share_project(project.id, who.id, role)
    if as_json:
        print_json(member)
        return
    echo(f"{member.name} is now {member.role} of '{project.name}'.")


@projects.command("members")
@click.argument("name", required=False)
@json_option
@click.pass_context
def projects_members(ctx: click.Context, name: str | None, as_json: bool) -> None:
    """List the members of project NAME (default: the active one) and their roles.

    \b
    Example:
      design-agent projects members "Mobile Checkout"
    """
    memory = app_of(ctx).memory
    project = memory.resolve_project(name)
    found = memory.members(project.id)
    if as_json:
        print_json({"project": project.id, "members": found})
        return
    if not found:
        hint = "design-agent projects share NAME PERSON --role ROLE"
        echo(f"'{project.name}' has no members yet: {hint}")
        return
    rows = [[m.name, m.role, when(m.added_at)] for m in found]
    print_table(None, ["person", "role", "since"], rows)


@projects.command("show")
@click.argument("name", required=False)
@json_option
@click.pass_context
def projects_show(ctx: click.Context, name: str | None, as_json: bool) -> None:
    """Show project NAME (default: the active one): counts, metadata, files, decisions.

    \b
    Example:
      design-agent projects show "Mobile Checkout" --json
    """
    memory = app_of(ctx).memory
    project = memory.resolve_project(name)
    report = memory.deletion_report(project.id)
    context = memory.project_context(project.id, turns=1, decision_count=5)
    last = context.recent_turns[-1] if context.recent_turns else None
    data = {
        "project": project,
        "turns": report.turns,
        "files": memory.list_files(project.id),
        "decisions": report.decisions,
        "metadata": context.metadata,
        "recent_decisions": context.decisions,
        "last_turn": last,
    }
    if as_json:
        print_json(data)
        return
    out = console()
    heading = clean_text(f"{project.name}  (id {project.id})", one_line=True)
    out.print(heading, markup=False, style="bold")
    out.print(f"created {when(project.created_at)}, last used {when(project.last_accessed)}")
    out.print(f"{report.turns} turns, {report.files} files, {report.decisions} decisions")
    if last is not None:
        out.print(f"last turn {when(last.timestamp)}, task {last.task_id or '-'}", markup=False)
    for key, value in context.metadata.items():
        out.print(clean_text(f"{key}: {value}"), markup=False)
    for decision in context.decisions:
        why = f" — {decision.rationale}" if decision.rationale else ""
        out.print(clean_text(f"- {decision.decision}{why}"), markup=False)


@projects.command("report")
@click.argument("name", required=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "html", "pdf"]),
    default="md",
    show_default=True,
    help="Markdown, one self-contained HTML page, or PDF (needs headless Chromium).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here ('-': standard output, md and html only), replacing FILE only if you "
    "say yes or pass --force; default: NAME-report.FORMAT in the current folder, never "
    "replacing a file (-2, -3...).",
)
@click.option(
    "--turns",
    metavar="N,M,...",
    help="The answers to include, by the turn numbers 'history --tree' shows "
    "(default: the latest answer of each method on the current branch).",
)
@click.option(
    "--language",
    type=click.Choice(["en", "es"]),
    help="The report's language (default: the language setting, else the project's).",
)
@force_option
@json_option
@click.pass_context
def projects_report(
    ctx: click.Context,
    name: str | None,
    fmt: ReportFormat,
    output: Path | None,
    turns: str | None,
    language: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Write a report of project NAME (default: the active one) for stakeholders.

    The project's context (users, problem, constraints, briefs), its decisions
    with their rationale and date, and the chosen answers, each with its
    method, specialist, references and checklist; with a table of contents.
    A PDF is the HTML printed by headless Chromium: without it the command
    exits with code 4 and says what to install.

    \b
    Examples:
      design-agent projects report "Mobile Checkout"
      design-agent projects report "Mobile Checkout" --format html --turns 2,6
      design-agent projects report Ledgerly --format pdf -o ledgerly.pdf --language es
    """
    from design_agent.report import gather, parse_turns, render, write_report
    from design_agent.report.data import report_language, saved_node

    app = app_of(ctx)
    memory = app.memory
    project = memory.resolve_project(name)
    lang = report_language(memory, project, app.settings.values.language, language)
    chosen = parse_turns(turns, lang)
    out = None if output == Path("-") else output  # '-' with pdf: the default name
    replace = out is not None and confirm_replace(out, force, err=as_json)  # before the work
    data = gather(memory, app.catalogue, project, lang, saved_node(memory, project), chosen)
    if output == Path("-") and fmt != "pdf":
        click.echo(render(data, fmt), nl=False)
        return
    path = write_report(data, fmt, Path.cwd(), out, replace=replace)
    counts = {"answers": len(data.answers), "decisions": len(data.decisions)}
    if as_json:
        print_json({"project": project.id, "path": str(path), "format": fmt, **counts})
        return
    echo(say("report_written", lang, name=project.name, path=path, **counts))


@projects.command("export")
@click.argument("name")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@force_option
@json_option
@click.pass_context
def projects_export(ctx: click.Context, name: str, file: Path, force: bool, as_json: bool) -> None:
    """Export project NAME to FILE (one JSON file, 0600; also the way to back it up).

    An existing FILE is replaced only if you say yes (or pass --force); a link, a FIFO
    or a device at FILE is refused. The file is written whole or not at all.

    \b
    Examples:
      design-agent projects export "Mobile Checkout" checkout-backup.json
      design-agent projects export "Mobile Checkout" checkout-backup.json --force
    """
    app = app_of(ctx)
    memory = app.memory
    project = memory.find_project(name)
    replace = confirm_replace(file, force, err=as_json)
    bundle = memory.export_project(project.id, file, replace)
    counts = {
        "turns": len(bundle.turns),
        "files": len(bundle.files),
        "decisions": len(bundle.decisions),
    }
    team = _team_methods_used(app, {t.task_id for t in bundle.turns if t.task_id})
    if as_json:
        print_json({"project": bundle.project, "file": str(file), **counts, "team_methods": team})
        return
    echo(
        f"Exported '{bundle.project.name}' to {file} "
        f"({counts['turns']} turns, {counts['files']} files, "
        f"{counts['decisions']} decisions)."
    )
    if team:
        echo(say("export_team_methods", app.language, ids=", ".join(team), home=app.home.root))


def _team_methods_used(app: AppContext, used: set[str]) -> list[str]:
    """Which of the methods a project's answers used are the team's own in this home."""
    catalogue = _catalogue_or_none(app)
    return sorted(t for t in used if catalogue is not None and catalogue.is_team(t))


def _catalogue_or_none(app: AppContext) -> Catalogue | None:
    try:
        return app.catalogue
    except DesignAgentError:
        return None  # a broken catalogue must not stop a backup or a restore


@projects.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--name",
    "new_name",
    metavar="NAME",
    help="Import under this name (when the project already exists here).",
)
@json_option
@click.pass_context
def projects_import(ctx: click.Context, file: Path, new_name: str | None, as_json: bool) -> None:
    """Import a project from FILE, written by `projects export`.

    \b
    Examples:
      design-agent projects import checkout-backup.json
      design-agent projects import checkout-backup.json --name "Checkout (restored)"
    """
    from design_agent.memory.export import read

    app = app_of(ctx)
    bundle = read(file)
    project = app.memory.import_project(
        bundle,
        new_name,
        providers=_provider_names(app),
        warn=lambda problem: echo(f"Warning: {file}: {problem}", err=True),
    )
    missing = _methods_missing(app, {t.task_id for t in bundle.turns if t.task_id})
    if missing:
        said = say("import_missing_methods", app.language, file=file, ids=", ".join(missing))
        echo(said, err=True)
    if as_json:
        print_json(project)
        return
    echo(f"Imported '{project.name}' (id {project.id}).")


def _methods_missing(app: AppContext, used: set[str]) -> list[str]:
    """The methods a project's answers used that this home does not have (a team's own)."""
    catalogue = _catalogue_or_none(app)
    return sorted(t for t in used if catalogue is not None and t not in catalogue.tasks)


def _provider_names(app: AppContext) -> set[str] | None:
    """This home's provider names, to check an import's preferences (None: form only)."""
    try:
        return set(app.services().adapters)
    except DesignAgentError:
        return None  # a broken catalogue must not stop a restore
