"""Commands over the catalogue: `check`, `agents`, `tasks`."""

from __future__ import annotations

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import console, print_json, print_table
from design_agent.core.errors import ExitCode
from design_agent.core.yamlfile import Problem


@click.command()
@json_option
@click.pass_context
def check(ctx: click.Context, as_json: bool) -> None:
    """Validate agents, tasks, guides, materials, adapters and the lexicon, bundled and yours.

    Every problem is reported at once as `path:line: message`; the exit code is
    3 if there is any, 0 otherwise.

    \b
    Example:
      design-agent --home ~/my-design-agent check
    """
    from design_agent.knowledge.checks import adapter_problems, lexicon_problems

    app = app_of(ctx)
    catalogue = app.raw_catalogue
    problems: list[Problem] = [*catalogue.problems, *adapter_problems(catalogue)]
    problems += lexicon_problems(app.verified_home)
    counts = {
        "agents": len(catalogue.agents),
        "tasks": len(catalogue.tasks),
        "guides": len(catalogue.guides),
        "materials": len(catalogue.materials),
        "adapters": len(catalogue.adapter_files),
    }
    if as_json:
        print_json({"ok": not problems, "counts": counts, "problems": [str(p) for p in problems]})
    else:
        for problem in problems:
            click.echo(str(problem), err=True)
        summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        if problems:
            click.echo(f"{len(problems)} problem(s) found ({summary}).", err=True)
        else:
            click.echo(f"ok: {summary}")
    if problems:
        ctx.exit(int(ExitCode.INVALID_CONFIG))


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


@click.group()
def tasks() -> None:
    """List and show the design tasks (methods) design-agent knows.

    \b
    Examples:
      design-agent tasks list --agent research_analyst
      design-agent tasks show usability_test_plan
    """


@tasks.command("list")
@click.option("--agent", "agent_id", metavar="ID", help="Only the tasks of this persona.")
@json_option
@click.pass_context
def tasks_list(ctx: click.Context, agent_id: str | None, as_json: bool) -> None:
    """List every task with its persona and guides.

    \b
    Example:
      design-agent tasks list --agent discovery_analyst
    """
    catalogue = app_of(ctx).catalogue
    if agent_id is not None:
        catalogue.agent(agent_id)  # an unknown persona is an error, not an empty list
    items = sorted(
        (t for t in catalogue.tasks.values() if agent_id in (None, t.agent)), key=lambda t: t.id
    )
    if as_json:
        print_json([t.model_dump(by_alias=True) for t in items])
        return
    rows = [[t.id, t.name.en, t.agent, ", ".join(t.guides)] for t in items]
    print_table(None, ["id", "name", "agent", "guides"], rows)


@tasks.command("show")
@click.argument("task_id", metavar="ID")
@json_option
@click.pass_context
def tasks_show(ctx: click.Context, task_id: str, as_json: bool) -> None:
    """Show one task: names, description, expected output, keywords, guides.

    \b
    Example:
      design-agent tasks show journey_mapping --json
    """
    task = app_of(ctx).catalogue.task(task_id)
    if as_json:
        print_json(task)
        return
    out = console()
    out.print(f"[bold]{task.name.en}[/bold] / {task.name.es}  ({task.id})")
    out.print(f"\n{task.description}\n\n[bold]Persona[/bold]: {task.agent}")
    out.print(f"[bold]Length[/bold]: {task.length} (scaled by your verbosity)")
    _print_list("Expected output", task.expected_output)
    if task.es is not None:
        _print_list("Expected output (es)", task.es.expected_output)
    out.print(f"\n[bold]Keywords (en)[/bold]: {', '.join(task.keywords.en)}")
    out.print(f"[bold]Keywords (es)[/bold]: {', '.join(task.keywords.es)}")
    out.print(f"[bold]Guides[/bold]: {', '.join(task.guides)}")
    out.print(f"[bold]Materials[/bold]: {', '.join(task.materials) or '-'}")


def _print_list(title: str, items: list[str]) -> None:
    out = console()
    out.print(f"\n[bold]{title}[/bold]")
    for item in items:
        out.print(f"  - {item}", markup=False)
