"""How the user's verbosity shapes the deliverable: its outline and the reference sent.

A brief answer gets fewer parts (the outline's parts merged two by two) and only the
guide sections it needs (summary, procedure, pitfalls), with materials named rather
than sent; a normal one every section of the main guide but the worked example (its
supporting guides' summary, procedure and pitfalls); a detailed one everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from design_agent.core.models import Task
from design_agent.knowledge.guides import Section

MERGE_FROM = 4  # an outline of fewer parts is short enough already
Roles = tuple[str, ...] | Literal["all"]
CORE: Final = ("summary", "procedure", "pitfalls")


@dataclass(frozen=True)
class Profile:
    """What one verbosity sends."""

    sections: Roles  # the main guide's sections, by role (ROLES), or "all"
    supporting: Roles  # the same for the task's other guides (a test plan's recruiting)
    examples: bool  # worked examples and sample data
    material_rows: int  # rows of a data file (0: a one-line pointer to it instead)
    templates: bool  # a template whole (False: a pointer naming its parts)
    merge_outline: bool  # the outline's parts merged two by two


PROFILES: Final[dict[str, Profile]] = {
    "brief": Profile(CORE, CORE, False, 0, False, True),
    "normal": Profile("all", CORE, False, 12, True, False),
    "detailed": Profile("all", "all", True, 20, True, False),
}
# A section's role, by its heading in either language (lowercase).
ROLES: Final[dict[str, frozenset[str]]] = {
    "summary": frozenset({"summary", "resumen"}),
    "procedure": frozenset({"procedure", "procedimiento", "steps", "pasos"}),
    "pitfalls": frozenset({"pitfalls", "errores frecuentes", "common mistakes"}),
}


def profile(verbosity: str) -> Profile:
    """The profile of `verbosity` (normal for an unknown one)."""
    return PROFILES.get(verbosity, PROFILES["normal"])


def role_of(heading: str) -> str | None:
    """A section's role (summary, procedure, pitfalls) by its heading, in either language."""
    lowered = heading.lower()
    return next((role for role, names in ROLES.items() if lowered in names), None)


def sent_sections(sections: Sequence[Section], verbosity: str) -> list[Section]:
    """The sections `verbosity` sends: examples only when it wants them; of the main guide
    (the first one's) and of the supporting ones, the sections of their roles (every
    section of a guide written without a procedure)."""
    shape = profile(verbosity)
    kept = [s for s in sections if shape.examples or not s.is_example]
    main = next((s.source for s in kept if s.kind == "guide"), "")
    sent: list[Section] = []
    for source in dict.fromkeys(s.source for s in kept):
        own = [s for s in kept if s.source == source]
        roles = shape.sections if source == main else shape.supporting
        sent += own if own[0].kind != "guide" else _by_role(own, roles)
    return sent


def _by_role(sections: list[Section], roles: Roles) -> list[Section]:
    if roles == "all":
        return sections
    chosen = [s for s in sections if role_of(s.heading) in roles]
    has_procedure = any(role_of(s.heading) == "procedure" for s in chosen)
    return chosen if has_procedure else sections


def outline(task: Task, language: str, verbosity: str, joiner: str = " / ") -> list[str]:
    """The deliverable's parts for `verbosity`: merged two by two for a brief answer."""
    parts = task.outline(language)
    if not profile(verbosity).merge_outline or len(parts) < MERGE_FROM:
        return parts
    return [joiner.join(parts[i : i + 2]) for i in range(0, len(parts), 2)]
