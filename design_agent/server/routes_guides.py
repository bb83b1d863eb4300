"""/api/v1/guides/{guide_id}: a guide (or material) in sections, so a citation such as
`[test_plan.md > Procedure]` opens its section (anchor = the heading's slug); and
/api/v1/methods: every method, the team's own marked, with what of the home's own
catalogue files was left out (one warning line each)."""

from __future__ import annotations

import re
from typing import Any, Literal

from fastapi import APIRouter, Request

from design_agent.core.errors import ExitCode
from design_agent.memory.text import slugify
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import context_of

router = APIRouter(prefix="/api/v1", tags=["guides"])

# A file name of the catalogue, never a path: no slash, no dot-dot, no hidden file.
GUIDE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,120}(\.(md|csv|txt))?$")
_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


@router.get("/guides/{guide_id}")
def guide(guide_id: str, request: Request, lang: Literal["en", "es"] = "en") -> dict[str, Any]:
    """The guide's title and sections (the Spanish companion's where there is one)."""
    if not GUIDE_ID.match(guide_id):
        raise ApiError(400, "bad_request", "a guide id is a file name such as test_plan.md")
    context = context_of(request)
    catalogue = context.catalogue()
    name = guide_id if "." in guide_id else f"{guide_id}.md"
    if name not in catalogue.guides and name not in catalogue.materials:
        raise ApiError(404, "not_found", f"no guide '{guide_id}'", ExitCode.NOT_FOUND)
    from design_agent.knowledge.guides import Knowledge

    sections = Knowledge(catalogue).sections(name, lang)
    titled = _TITLE.search(catalogue.guide_text(name)) if name in catalogue.guides else None
    return {
        "guide_id": name,
        "title": titled.group(1) if titled else name,
        "sections": [
            {"title": s.heading, "anchor": slugify(s.heading), "markdown": _body(s.text)}
            for s in sections
        ],
    }


@router.get("/methods")
def methods(request: Request, lang: Literal["en", "es"] = "en") -> dict[str, Any]:
    """Every method in `lang`, by name, each marked `team` when it is the team's own; and
    `left_out`: what of the home's catalogue files was left out, one line each."""
    catalogue = context_of(request).catalogue()
    tasks = sorted(catalogue.tasks.values(), key=lambda t: t.name.get(lang).lower())
    return {
        "methods": [
            {
                "id": task.id,
                "name": task.name.get(lang),
                "description": task.description_in(lang),
                "persona": catalogue.agents[task.agent].role.get(lang),
                "guides": list(task.guides),
                "team": catalogue.is_team(task.id),
                "replaces_bundled": catalogue.replaces_bundled(task.id),
            }
            for task in tasks
        ],
        "left_out": catalogue.left_out_lines(lang),
    }


def _body(text: str) -> str:
    """The section's text without the guide's `# Title` line (the page shows the title)."""
    return _TITLE.sub("", text, count=1).strip() if text.lstrip().startswith("# ") else text
