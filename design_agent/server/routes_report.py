"""/api/v1/projects/{id}/report: the stakeholder report as a file to download.

The same report as `design-agent projects report` (docs/report.md): the answers of
the conversation's current path, in the project's language (or `lang`), as
Markdown, HTML or a PDF printed by headless Chromium. Nothing is written on the
server: the file is the response, with its type and a download name.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response

from design_agent.server.deps import context_of, person_of, project_of

router = APIRouter(prefix="/api/v1", tags=["report"])

MEDIA_TYPES = {
    "md": "text/markdown; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
}


@router.get("/projects/{project_id}/report", response_model=None)
def report(
    project_id: str,
    request: Request,
    format: Literal["md", "html", "pdf"] = "md",
    lang: Literal["en", "es"] | None = None,
    turns: str | None = None,
) -> Response:
    """The project's report as a download (`turns=2,6` picks answers by turn number);
    a PDF without headless Chromium is 409 `provider_unavailable` (exit 4)."""
    from design_agent.report import gather, parse_turns, report_bytes, report_stem
    from design_agent.report.data import report_language, saved_node

    services = context_of(request).services(person_of(request))
    try:
        memory = services.memory
        project = project_of(memory, project_id)
        setting = services.settings.values.language
        language = report_language(memory, project, setting, lang)
        chosen = parse_turns(turns, language)
        node = saved_node(memory, project)
        data = gather(memory, services.catalogue, project, language, node, chosen)
    finally:
        services.memory.close()
    content = report_bytes(data, format)
    name = f"{report_stem(data)}.{format}"
    headers = {
        "Content-Disposition": f'attachment; filename="{name}"',
        "Cache-Control": "no-store",
    }
    return Response(content, media_type=MEDIA_TYPES[format], headers=headers)
