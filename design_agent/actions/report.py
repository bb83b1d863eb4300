"""The stakeholder report by talking: "make a report of this project for the stakeholders".

`projects.report` writes the report of the active project (or one named) to a
new file in the current folder, named after the project and never replacing
another (`ledgerly-report.md`, then `ledgerly-report-2.md`...), in the
language of the request, and says where it is. The answers are those of the
conversation's current path (the latest of each method). Asked in the web page,
nothing is written: the reply carries the address the page offers as a download
(`GET /api/v1/projects/{id}/report`), which makes the same report.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from design_agent.actions.base import ActionContext, ActionResult, action
from design_agent.actions.projects import not_found
from design_agent.memory.models import Project
from design_agent.memory.text import slugify
from design_agent.understanding.inputs import MakeReport


@action("projects", "report", MakeReport)
def report(data: MakeReport, ctx: ActionContext) -> ActionResult:
    """Write the report file in the current folder and name its path."""
    # Imported here: the report's renderers (markdown-it, the HTML template) cost every
    # command's start otherwise.
    from design_agent.report import gather, write_report

    project = ctx.require_project() if data.name is None else _named(data.name, ctx)
    active = ctx.project is not None and ctx.project.id == project.id
    node = ctx.state.node if active else None  # another project follows its latest turn
    services = ctx.services
    found = gather(services.memory, services.catalogue, project, ctx.pending_language, node)
    counts = {"answers": len(found.answers), "decisions": len(found.decisions)}
    if ctx.downloads:
        return _offered(project, data.format, found.language, counts, ctx)
    path = write_report(found, data.format, Path.cwd(), environ=services.environ)
    out = {"project": project.id, "path": str(path), "format": data.format, **counts}
    done = ctx.done(
        "projects.report", "report_written", out, name=project.name, path=path, **counts
    )
    return ActionResult(done)


def _offered(
    project: Project, fmt: str, language: str, counts: dict[str, int], ctx: ActionContext
) -> ActionResult:
    """The report as a download the page offers: its address and file name."""
    url = f"/api/v1/projects/{quote(project.id)}/report?format={fmt}&lang={language}"
    name = f"{slugify(project.name) or project.id}-report.{fmt}"
    out = {"project": project.id, "format": fmt, "url": url, "filename": name, **counts}
    done = ctx.done(
        "projects.report", "report_ready", out, name=project.name, format=fmt.upper(), **counts
    )
    return ActionResult(done)


def _named(name: str, ctx: ActionContext) -> Project:
    found = ctx.services.memory.lookup_project(name)
    if found.exact is None:
        raise not_found(name, found.names, ctx)
    return found.exact
