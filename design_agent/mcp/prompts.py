"""Each method as an MCP prompt (a host shows them as slash commands): its brief, built by
the same prompt builder as a turn, with the person's request last."""

from __future__ import annotations

from dataclasses import dataclass

from design_agent.mcp.brief import build_brief
from design_agent.mcp.call import Call, clip

ARGUMENTS = (
    ("request", "What you need, in your words (e.g. 'for the new checkout')."),
    ("language", "en or es (default: the language setting)."),
)


@dataclass(frozen=True)
class Listed:
    name: str
    title: str
    description: str


def listing(call: Call) -> list[Listed]:
    """Every method, by id, with its name and what it is for."""
    call.check("read", None)
    tasks = sorted(call.catalogue.tasks.values(), key=lambda t: t.id)
    return [Listed(t.id, t.name.en, clip(t.description, 200)) for t in tasks]


def render(call: Call, name: str, arguments: dict[str, str]) -> tuple[str, str]:
    """(description, text) of the prompt for method `name`: its brief for the active
    project, ending with the request."""
    task = call.catalogue.task(name)
    language = call.language(arguments.get("language") or None)
    project = call.project(None, "read")
    request = arguments.get("request") or task.name.get(language)
    brief = build_brief(call.services, task, project, language, "normal", request)
    return task.name.get(language), brief.text(request=True)
