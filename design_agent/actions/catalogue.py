"""What design-agent knows: "what methods do you know?", the methods grouped by persona.

One line per persona, in the user's language: the persona's role and the names
of the methods it answers.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, NoInput, action


@action("catalogue", "methods", NoInput)
def methods(data: NoInput, ctx: ActionContext) -> ActionResult:
    """Every method, grouped by the persona that answers it."""
    catalogue = ctx.services.catalogue
    language = ctx.language
    lines: list[str] = []
    groups: dict[str, list[str]] = {}
    for agent in catalogue.agents.values():
        tasks = catalogue.tasks_of(agent.id)
        if not tasks:
            continue
        names = [task.name.get(language) for task in tasks]
        groups[agent.id] = [task.id for task in tasks]
        lines.append(f"- {agent.role.get(language)}: {', '.join(names)}")
    done = ctx.done(
        "catalogue.methods",
        "methods",
        {"personas": groups},
        count=sum(len(ids) for ids in groups.values()),
        personas=len(groups),
        lines="\n".join(lines),
    )
    return ActionResult(done)
