"""Commands over a project's memory: `files`, `history` and `search` (`decisions` is in
decisions.py)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from design_agent.cli.history_view import print_history
from design_agent.cli.options import WholeNumber, app_of, json_option, project_option
from design_agent.cli.output import console, echo, print_json, print_table
from design_agent.cli.projects import when
from design_agent.cli.team import team_of

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
from design_agent.core.text import clean_text
from design_agent.memory.documents import MAX_TEXT_CHARS
from design_agent.memory.models import FILE_TYPES, Project


@click.group()
def files() -> None:
    """Add briefs and other documents to a project, and list them.

    Text, markdown and PDF files (.txt, .text, .md, .markdown, .pdf) are
    accepted; their text (at most 200,000 characters) is stored in the project
    so every answer can use it. Other files, and links out of their folder,
    are refused.

    \b
    Examples:
      design-agent files add brief.pdf
      design-agent files add interviews.md --type research --project "Mobile Checkout"
    """


@files.command("add")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--type",
    "file_type",
    type=click.Choice(FILE_TYPES),
    default="brief",
    show_default=True,
    help="What the file is.",
)
@project_option
@json_option
@click.pass_context
def files_add(
    ctx: click.Context, path: Path, file_type: str, project_name: str | None, as_json: bool
) -> None:
    """Add the text, markdown or PDF file at PATH to the project.

    \b
    Example:
      design-agent files add brief.md --type brief
    """
    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    added = memory.add_file(project.id, path, file_type)
    if as_json:
        print_json(added)
        return
    stored = added.file
    if added.duplicate:
        echo(
            f"Already in '{project.name}' as {stored.filename} "
            f"(added {when(stored.uploaded_at)}); nothing changed."
        )
        return
    limit = f"; truncated: only its beginning is kept, at most {MAX_TEXT_CHARS:,}"
    cut = limit if added.truncated else ""
    echo(
        f"Added {stored.filename} to '{project.name}' as {stored.file_type} "
        f"({stored.chars:,} characters{cut})."
    )


@files.command("list")
@project_option
@json_option
@click.pass_context
def files_list(ctx: click.Context, project_name: str | None, as_json: bool) -> None:
    """List the project's files.

    \b
    Example:
      design-agent files list --json
    """
    memory = app_of(ctx).memory
    items = memory.list_files(memory.resolve_project(project_name).id)
    if as_json:
        print_json(items)
        return
    rows = [
        [str(f.id), f.filename, f.file_type, f"{f.chars:,}", when(f.uploaded_at)] for f in items
    ]
    print_table(None, ["id", "file", "type", "characters", "added"], rows)


@click.command()
@click.option(
    "-n",
    "count",
    type=WholeNumber(),
    default=20,
    show_default=True,
    help="How many of the latest turns to show.",
)
@click.option(
    "--tree",
    "as_tree",
    is_flag=True,
    help="The whole conversation as a tree: turn numbers, tasks, branches, where you are.",
)
@click.option(
    "--recover",
    is_flag=True,
    help="First save the answers a full disk kept out of the database (in the home's "
    "recovery/ folder), and say what was saved; then show the history.",
)
@project_option
@json_option
@click.pass_context
def history(
    ctx: click.Context,
    count: int,
    as_tree: bool,
    recover: bool,
    project_name: str | None,
    as_json: bool,
) -> None:
    """Show the project's latest conversation turns, oldest first.

    An answer the database could not take (a full disk) waits in the home's
    recovery/ folder; the next command saves it, or --recover does, and says so.

    \b
    Examples:
      design-agent history -n 5
      design-agent history --tree --json
      design-agent history --recover
    """
    if (team := team_of(app_of(ctx))) is not None:
        from design_agent.cli import team_commands

        team_commands.history(team, project_name, count, as_tree, as_json)
        return
    if recover:
        _recover(app_of(ctx))
    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    if as_tree:
        _show_tree(ctx, project, as_json)
        return
    turns = memory.recent_turns(project.id, count)
    if as_json:
        print_json(turns)
        return
    print_history(turns, project.name)


def _recover(app: AppContext) -> None:
    """Save the recovery journal's answers now, saying what was saved on stderr; a database
    that still cannot take them fails the command (DiskFullError: exit 8)."""
    from design_agent.memory import recovery

    app.recover_on_open = False  # done here, so it can be said and fail loudly
    done = recovery.replay(app.memory, app.home.recovery_dir)
    for line in recovery.report(done) or ["Nothing to recover: no answer is waiting."]:
        echo(line, err=True)


def _show_tree(ctx: click.Context, project: Project, as_json: bool) -> None:
    """The tree through the same action as /tree (numbers, branches, the current turn)."""
    from design_agent.actions import ActionContext
    from design_agent.actions.tree import show
    from design_agent.understanding.conversation import load_state

    services = app_of(ctx).services()
    state = load_state(services.memory, project.id)
    language = str(state.language or services.settings.values.language)
    context = ActionContext(services, "es" if language == "es" else "en", project, state)
    done = show(None, context).shown()
    if as_json:
        print_json(done.data or {"tree": {"nodes": []}, "current": None})
    else:
        echo(done.message)


@click.command()
@click.argument("query")
@click.option(
    "--all-projects",
    "-a",
    is_flag=True,
    help="Search every project; results are grouped by project.",
)
@click.option(
    "-n",
    "limit",
    type=WholeNumber(),
    default=20,
    show_default=True,
    help="How many results at most.",
)
@project_option
@json_option
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    all_projects: bool,
    limit: int,
    project_name: str | None,
    as_json: bool,
) -> None:
    """Search the project's conversations, files and decisions for QUERY.

    Any text is fine: quotes, hyphens, AND/NOT/* and accents are taken as
    words, and question words ("why did we...", "por qué...") are ignored.

    \b
    Examples:
      design-agent search "why did we choose moderated testing"
      design-agent search "investigación de usuarios" --all-projects
    """
    if (team := team_of(app_of(ctx))) is not None:
        from design_agent.cli import team_commands

        team_commands.search(team, query, all_projects, limit, project_name, as_json)
        return
    memory = app_of(ctx).memory
    if all_projects:
        results = memory.search(query, all_projects=True, limit=limit)
    else:
        results = memory.search(query, memory.resolve_project(project_name).id, limit=limit)
    if as_json:
        print_json(results)
        return
    if not results.groups:
        echo(f"Nothing found for: {' '.join(results.terms) or query}")
        return
    out = console()
    for group in results.groups:
        out.print(clean_text(group.project.name, one_line=True), markup=False, style="bold")
        for hit in group.hits:
            title = clean_text(f"{hit.kind} · {when(hit.timestamp)} · {hit.title}", one_line=True)
            out.print(f"  {title}", markup=False)
            snippet = clean_text(hit.snippet, one_line=True)
            out.print(f"    {snippet}", markup=False, highlight=False)
