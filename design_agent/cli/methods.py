"""`design-agent methods`: list, show, add, edit and remove the design methods.

The bundled methods and the team's own (in `<home>/config/tasks.yaml`) are one list; the
team's are marked. `methods new` asks what it needs (or takes it from flags), writes the
entry and a guide, runs `check` and routes three sample requests (method_wizard.py).
`tasks` is a hidden alias of this group, for scripts written before it was renamed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import console, echo, print_json, print_table
from design_agent.core.errors import ExitCode, UsageError
from design_agent.core.messages import say

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
    from design_agent.knowledge.registry import Catalogue


@click.group()
def methods() -> None:
    """List, show, add, edit and remove the design methods, bundled and your team's.

    \b
    Examples:
      design-agent methods list --team
      design-agent methods show usability_test_plan
      design-agent methods new
      design-agent methods edit pricing_page_review
    """


def method_row(catalogue: Catalogue, task_id: str) -> dict[str, Any]:
    """One method as `methods list --json` (and the web page) show it."""
    task = catalogue.tasks[task_id]
    origin = catalogue.origins.get(("tasks", task_id))
    return {
        **task.model_dump(by_alias=True),
        "team": catalogue.is_team(task_id),
        "replaces_bundled": catalogue.replaces_bundled(task_id),
        "defined_in": str(origin) if origin else None,
    }


@methods.command("list")
@click.option("--agent", "agent_id", metavar="ID", help="Only the methods of this persona.")
@click.option("--team", "team_only", is_flag=True, help="Only your team's own methods.")
@json_option
@click.pass_context
def methods_list(ctx: click.Context, agent_id: str | None, team_only: bool, as_json: bool) -> None:
    """List every method with its persona and guides; your team's are marked "yours".

    \b
    Example:
      design-agent methods list --agent discovery_analyst
    """
    catalogue = app_of(ctx).catalogue
    if agent_id is not None:
        catalogue.agent(agent_id)  # an unknown persona is an error, not an empty list
    items = sorted(
        (
            t
            for t in catalogue.tasks.values()
            if agent_id in (None, t.agent) and (catalogue.is_team(t.id) or not team_only)
        ),
        key=lambda t: t.id,
    )
    if as_json:
        print_json([method_row(catalogue, t.id) for t in items])
        return
    rows = [[t.id, t.name.en, t.agent, ", ".join(t.guides), _mark(catalogue, t.id)] for t in items]
    print_table(None, ["id", "name", "agent", "guides", "from"], rows)


def _mark(catalogue: Catalogue, task_id: str) -> str:
    if catalogue.replaces_bundled(task_id):
        return "yours (replaces bundled)"
    return "yours" if catalogue.is_team(task_id) else "bundled"


@methods.command("show")
@click.argument("task_id", metavar="ID")
@json_option
@click.pass_context
def methods_show(ctx: click.Context, task_id: str, as_json: bool) -> None:
    """Show one method: names, description, expected output, keywords, guides, origin.

    \b
    Example:
      design-agent methods show journey_mapping --json
    """
    catalogue = app_of(ctx).catalogue
    task = catalogue.task(task_id)
    if as_json:
        print_json(method_row(catalogue, task.id))
        return
    out = console()
    out.print(f"[bold]{task.name.en}[/bold] / {task.name.es}  ({task.id})")
    origin = catalogue.origins.get(("tasks", task.id))
    out.print(f"{_mark(catalogue, task.id)}: {origin}", markup=False)
    out.print(f"\n{task.description}\n\n[bold]Persona[/bold]: {task.agent}")
    out.print(f"[bold]Length[/bold]: {task.length} (scaled by your verbosity)")
    _print_list("Expected output", task.expected_output)
    if task.es is not None:
        _print_list("Expected output (es)", task.es.expected_output)
    out.print(f"\n[bold]Keywords (en)[/bold]: {', '.join(task.keywords.en)}")
    out.print(f"[bold]Keywords (es)[/bold]: {', '.join(task.keywords.es) or '-'}")
    out.print(f"[bold]Guides[/bold]: {', '.join(task.guides)}")
    out.print(f"[bold]Materials[/bold]: {', '.join(task.materials) or '-'}")


def _print_list(title: str, items: list[str]) -> None:
    out = console()
    out.print(f"\n[bold]{title}[/bold]")
    for item in items:
        out.print(f"  - {item}", markup=False)


@methods.command("new")
@click.option("--name", metavar="TEXT", help="Its name in English.")
@click.option("--name-es", metavar="TEXT", help="Its name in Spanish (optional).")
@click.option("--description", metavar="TEXT", help="What it is for, in one sentence.")
@click.option("--description-es", metavar="TEXT", help="What it is for, in Spanish.")
@click.option("--agent", metavar="ID", help="The persona that answers it (agents list).")
@click.option("--outputs", metavar="A,B", help="The deliverable's parts, comma-separated.")
@click.option("--outputs-es", metavar="A,B", help="The deliverable's parts in Spanish.")
@click.option("--length", type=click.Choice(["short", "medium", "long"]), help="Its usual length.")
@click.option("--keywords", metavar="A,B", help="More words people use to ask for it.")
@click.option("--keywords-es", metavar="A,B", help="More Spanish words for it.")
@click.option(
    "--from-guide",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Your own guide (markdown) instead of a skeleton; its title and first "
    "paragraph are the name and description unless given.",
)
@click.option(
    "--spanish/--no-spanish",
    default=None,
    help="Write the Spanish companion guide too (asked when there is a Spanish name).",
)
@click.option("--id", "method_id", metavar="ID", help="Its id (default: from the name).")
@click.option("--replace", is_flag=True, help="Let it take the place of a bundled method.")
@click.option("--yes", "-y", is_flag=True, help="Ask nothing more: defaults for the rest.")
@json_option
@click.pass_context
def methods_new(ctx: click.Context, /, as_json: bool, replace: bool, **given: Any) -> None:
    """Add a method of your team's own: asks what it needs, writes it, checks it.

    Writes its entry into <home>/config/tasks.yaml (kept as it is, the entry added at
    its end) and a guide with the standard sections to fill in, then runs check and
    shows where three sample requests go. Not on a terminal, give the flags.

    \b
    Examples:
      design-agent methods new
      design-agent methods new --name "Pricing page review" --agent content_specialist \\
        --description "Review a pricing page for clarity." --outputs "Findings,Fixes" --yes
    """
    from design_agent.cli.method_wizard import Given, gather, report
    from design_agent.knowledge.authoring import add_method

    app = app_of(ctx)
    draft = gather(app, Given.of(given))
    written = add_method(app.verified_home, app.catalogue, draft, replace)
    report(app, written, draft, as_json)


@methods.command("edit")
@click.argument("task_id", metavar="ID")
@click.pass_context
def methods_edit(ctx: click.Context, task_id: str) -> None:
    """Open your method's entry and guides in $EDITOR, then check it.

    Only your team's own methods are edited; a bundled one is refused, saying how to
    have your own version of it.

    \b
    Example:
      EDITOR=nano design-agent methods edit pricing_page_review
    """
    from design_agent.knowledge.authoring import in_home

    app = app_of(ctx)
    home = app.verified_home
    found = in_home(home, app.raw_catalogue, task_id)
    files = [found.tasks_file, *found.guide_files(home)]
    echo(f"{found.tasks_file}:{found.line}: {task_id}", err=True)
    try:
        click.edit(filename=[str(path) for path in files])
    except click.ClickException as e:
        names = ", ".join(str(path) for path in files)
        raise UsageError(f"{e.message}; set $EDITOR (e.g. nano), or open {names} yourself") from e
    if not _checks_out(app, task_id):
        ctx.exit(int(ExitCode.INVALID_CONFIG))


def _checks_out(app: AppContext, task_id: str) -> bool:
    """Say what check finds wrong with the method after an edit; True when nothing."""
    from design_agent.knowledge.registry import load_catalogue_cached

    catalogue = load_catalogue_cached(app.verified_home)
    mine = [p for p in catalogue.problems if f"'{task_id}'" in p.message]
    if not mine:
        echo(say("method_edited_ok", app.language, id=task_id))
        return True
    echo(say("method_edited", app.language, count=len(mine), id=task_id), err=True)
    for problem in mine:
        echo(f"  {problem}", err=True)
    return False


@methods.command("remove")
@click.argument("task_id", metavar="ID")
@click.option("--yes", "-y", is_flag=True, help="Remove it without asking.")
@click.pass_context
def methods_remove(ctx: click.Context, task_id: str, yes: bool) -> None:
    """Remove your team's method: its entry, and its guides no other method uses.

    A bundled method is never removed. When yours replaced a bundled one of the same
    id, the bundled one answers again.

    \b
    Example:
      design-agent methods remove pricing_page_review --yes
    """
    from design_agent.cli.stdin import interactive
    from design_agent.knowledge.authoring import in_home, remove_method

    app = app_of(ctx)
    home, catalogue, language = app.verified_home, app.raw_catalogue, app.language
    found = in_home(home, catalogue, task_id)
    if not yes:
        if not interactive():
            raise UsageError(
                f"pass --yes to remove '{task_id}' (standard input is not a terminal, so "
                "design-agent cannot ask)"
            )
        names = ", ".join(p.name for p in found.guide_files(home))
        guides = say("method_remove_guides", language, names=names) if names else ""
        where = f"{found.tasks_file}:{found.line}"
        question = say("method_remove_confirm", language, id=task_id, where=where, guides=guides)
        click.confirm(question, default=False, abort=True)
    removed = remove_method(home, catalogue, task_id)
    names = ", ".join(str(p) for p in removed.guides)
    guides = say("method_removed_guides", language, names=names) if names else ""
    echo(say("method_removed", language, id=task_id, path=removed.tasks_file, guides=guides))
    if removed.bundled_back:
        echo(say("method_bundled_back", language, id=task_id))
