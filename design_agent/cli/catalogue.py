"""Commands over the catalogue: `check` and `agents` (the methods: methods.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import console, echo, print_json, print_table
from design_agent.core.errors import ExitCode
from design_agent.core.yamlfile import Problem

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
    from design_agent.knowledge.registry import Catalogue, LeftOut


@click.command()
@json_option
@click.pass_context
def check(ctx: click.Context, as_json: bool) -> None:
    """Validate agents, tasks, guides, materials, adapters and the lexicon, bundled and yours.

    Every problem is reported in one run, as `path:line: what is wrong; what to write
    instead`, with "did you mean" for a misspelt id; then warnings (a guide without the
    standard sections, a method whose keywords collide with another's, a Spanish name
    missing). The exit code is 3 if there is any problem, 0 otherwise (warnings too).

    \b
    Example:
      design-agent --home ~/my-design-agent check
    """
    from design_agent.knowledge.checks import adapter_problems, lexicon_problems, shape_problems

    app = app_of(ctx)
    catalogue = app.raw_catalogue
    problems: list[Problem] = [*catalogue.problems, *adapter_problems(catalogue)]
    problems += lexicon_problems(app.verified_home)
    problems += shape_problems(catalogue, app.verified_home)
    warnings = [*catalogue.warnings, *_collisions(app, catalogue)]
    counts = {
        "agents": len(catalogue.agents),
        "tasks": len(catalogue.tasks),
        "guides": len(catalogue.guides),
        "materials": len(catalogue.materials),
        "adapters": len(catalogue.adapter_files),
    }
    if as_json:
        print_json(
            {
                "ok": not problems,
                "counts": counts,
                "problems": [str(p) for p in problems],
                "warnings": [str(w) for w in warnings],
                "left_out": [_left_out(item) for item in catalogue.left_out],
            }
        )
    else:
        _print_check(problems, warnings, counts)
    if problems:
        ctx.exit(int(ExitCode.INVALID_CONFIG))


def _print_check(problems: list[Problem], warnings: list[Problem], counts: dict[str, int]) -> None:
    for problem in sorted(problems, key=_place):  # each file top to bottom
        echo(str(problem), err=True)
    for warning in warnings:
        echo(f"warning: {warning}", err=True)
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    warned = f"; {len(warnings)} warning(s)" if warnings else ""
    if problems:
        echo(f"{len(problems)} problem(s) found{warned} ({summary}).", err=True)
    else:
        echo(f"ok: {summary}{warned}")


def _place(problem: Problem) -> tuple[str, int]:
    return str(problem.path), problem.line or 0


def _collisions(app: AppContext, catalogue: Catalogue) -> list[Problem]:
    """Warnings for the team's methods whose own words other methods win or share."""
    if catalogue.fatal or not catalogue.overlay:
        return []
    from design_agent.understanding.overlap import collisions, matcher_of

    return collisions(catalogue, matcher_of(app.verified_home, catalogue))


def _left_out(item: LeftOut) -> dict[str, object]:
    return {
        "kind": item.kind,
        "name": item.name,
        "where": item.where,
        "reason": item.reason,
        "problems": item.problems,
    }


@click.group()
def agents() -> None:
    """List and show the specialist personas that answer design tasks.

    \b
    Examples:
      design-agent agents list
      design-agent agents show research_analyst --json
    """


@agents.command("list")
@json_option
@click.pass_context
def agents_list(ctx: click.Context, as_json: bool) -> None:
    """List every persona with its role and number of tasks.

    \b
    Example:
      design-agent agents list --json
    """
    catalogue = app_of(ctx).catalogue
    items = sorted(catalogue.agents.values(), key=lambda a: a.id)
    if as_json:
        print_json(
            [
                {**a.model_dump(by_alias=True), "task_count": len(catalogue.tasks_of(a.id))}
                for a in items
            ]
        )
        return
    rows = [[a.id, a.role.en, a.role.es, str(len(catalogue.tasks_of(a.id)))] for a in items]
    print_table(None, ["id", "role", "rol", "tasks"], rows)


@agents.command("show")
@click.argument("agent_id", metavar="ID")
@json_option
@click.pass_context
def agents_show(ctx: click.Context, agent_id: str, as_json: bool) -> None:
    """Show one persona: role, goal, backstory, procedures, handoffs and tasks.

    \b
    Example:
      design-agent agents show discovery_analyst
    """
    catalogue = app_of(ctx).catalogue
    agent = catalogue.agent(agent_id)
    task_ids = [t.id for t in catalogue.tasks_of(agent.id)]
    if as_json:
        print_json({**agent.model_dump(by_alias=True), "tasks": task_ids})
        return
    out = console()
    out.print(f"[bold]{agent.role.en}[/bold] / {agent.role.es}  ({agent.id})")
    out.print(f"\n[bold]Goal[/bold]\n{agent.goal}\n\n[bold]Backstory[/bold]\n{agent.backstory}")
    if agent.stance is not None:
        out.print(f"\n[bold]Stance[/bold] (what the system prompt says)\n{agent.stance.en}")
    _print_list("Capabilities", agent.capabilities)
    _print_list("Tools", agent.tools)
    _print_list("Operating procedures", agent.operating_procedures)
    out.print(f"\n[bold]Hands off to[/bold]: {', '.join(agent.handoffs.to) or '-'}")
    out.print(f"[bold]Receives from[/bold]: {', '.join(agent.handoffs.from_) or '-'}")
    out.print(f"[bold]Tasks[/bold]: {', '.join(task_ids)}")


def _print_list(title: str, items: list[str]) -> None:
    out = console()
    out.print(f"\n[bold]{title}[/bold]")
    for item in items:
        out.print(f"  - {item}", markup=False)
