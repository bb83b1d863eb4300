"""The resources: every section of every guide, each material, each project's decisions.

    design-agent://guides/test_plan.md#procedure        a section (anchor: the heading's slug)
    design-agent://guides/test_plan.md                  the whole guide
    design-agent://guides/es/test_plan.md#procedimiento a section of its Spanish companion
    design-agent://materials/sus_questionnaire.csv      a template or data file
    design-agent://projects/checkout/decisions          a project's current decisions

Listed from the catalogue as it is now (a team's method added while the server runs
shows up), a page at a time; read by the same Knowledge that builds a turn's prompt.
"""

from __future__ import annotations

from dataclasses import dataclass

from design_agent.core.errors import NotFoundError
from design_agent.knowledge.guides import Section
from design_agent.mcp.call import Call
from design_agent.mcp.project_tools import DecisionRow, decision_row
from design_agent.memory.text import slugify
from design_agent.understanding.conversation import conversation_node

SCHEME = "design-agent://"
GUIDES = f"{SCHEME}guides/"
MATERIALS = f"{SCHEME}materials/"
PROJECTS = f"{SCHEME}projects/"
PAGE = 250  # resources per page of resources/list
TEMPLATES = (
    (f"{GUIDES}{{guide}}", "A whole method guide, e.g. test_plan.md", "text/markdown"),
    (f"{GUIDES}{{guide}}#{{section}}", "One section of a guide, by its slug", "text/markdown"),
    (f"{PROJECTS}{{project_id}}/decisions", "A project's current decisions", "text/markdown"),
)


@dataclass(frozen=True)
class Listed:
    uri: str
    name: str
    title: str
    mime_type: str


def listing(call: Call) -> list[Listed]:
    """Every resource, in a stable order: guide sections, the Spanish companions', the
    materials, then each project's decisions."""
    catalogue, knowledge = call.catalogue, call.knowledge
    found: list[Listed] = []
    for name in sorted(catalogue.guides):
        found += [_section(s, "") for s in knowledge.sections(name, "en")]
        if knowledge.has_companion(name, "es"):
            spanish = [s for s in knowledge.sections(name, "es") if s.language == "es"]
            found += [_section(s, "es/") for s in spanish]
    for name in sorted(catalogue.materials):
        found.append(Listed(f"{MATERIALS}{name}", name, name, _mime(name)))
    call.check("read", None)
    for project in call.services.memory.list_projects():
        title = f"Decisions of {project.name}"
        found.append(Listed(f"{PROJECTS}{project.id}/decisions", title, title, "text/markdown"))
    return found


def page(call: Call, cursor: str | None) -> tuple[list[Listed], str | None]:
    """One page of the listing from `cursor` (an offset), and the next page's cursor."""
    start = int(cursor) if cursor and cursor.isdigit() else 0
    everything = listing(call)
    end = start + PAGE
    return everything[start:end], (str(end) if end < len(everything) else None)


def _section(section: Section, folder: str) -> Listed:
    uri = f"{GUIDES}{folder}{section.source}#{slugify(section.heading)}"
    return Listed(uri, f"{section.source} > {section.heading}", section.heading, "text/markdown")


def _mime(name: str) -> str:
    return "text/csv" if name.endswith(".csv") else "text/markdown"


def read(call: Call, uri: str) -> tuple[str, str]:
    """(text, mime type) of the resource at `uri`; NotFoundError naming what exists."""
    if uri.startswith(GUIDES):
        return _guide(call, uri.removeprefix(GUIDES)), "text/markdown"
    if uri.startswith(MATERIALS):
        name = uri.removeprefix(MATERIALS)
        if name not in call.catalogue.materials:
            raise NotFoundError(f"no material '{name}'; resources/list shows them")
        sections = call.knowledge.sections(name)
        return "\n\n".join(s.text for s in sections), _mime(name)
    if uri.startswith(PROJECTS) and uri.endswith("/decisions"):
        return _decisions(call, uri.removeprefix(PROJECTS).removesuffix("/decisions"))
    raise NotFoundError(f"no resource {uri}; resources/list shows them")


def _guide(call: Call, path: str) -> str:
    """A guide, or one section of it: `test_plan.md`, `test_plan.md#procedure`,
    `es/test_plan.md#procedimiento`."""
    where, _, anchor = path.partition("#")
    language = "es" if where.startswith("es/") else "en"
    name = where.removeprefix("es/")
    if name not in call.catalogue.guides:
        raise NotFoundError(f"no guide '{name}'; resources/list shows the guides")
    sections = call.knowledge.sections(name, language)
    if not anchor:
        return "\n\n".join(f"## {s.heading}\n\n{s.text}" for s in sections)
    for section in sections:
        if slugify(section.heading) == anchor:
            return f"## {section.heading}\n\n{section.text}"
    known = ", ".join(slugify(s.heading) for s in sections)
    raise NotFoundError(f"no section '{anchor}' in {name}; its sections are: {known}")


def _decisions(call: Call, project_id: str) -> tuple[str, str]:
    memory = call.services.memory
    project = memory.get_project(project_id)
    call.check("read", project.id)
    node = conversation_node(memory, project.id)
    found = (
        memory.decisions_on_path(node) if node is not None else memory.list_decisions(project.id)
    )
    rows = [decision_row(d) for d in memory.place_decisions(found)]
    lines = [f"# Decisions of {project.name}", ""] + [_line(r) for r in rows]
    return "\n".join(lines if rows else [*lines, "No decisions yet."]), "text/markdown"


def _line(row: DecisionRow) -> str:
    why = f" (why: {row.rationale})" if row.rationale else ""
    where = f" [{row.branch}]" if row.branch else ""
    return f"- {row.id}. {row.decision}{why}, {row.date}{where}"
