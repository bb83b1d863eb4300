"""The standard sections of a method guide, in English and in its Spanish companion.

A bundled guide is a `# Title`, a summary paragraph under it, then these `##` sections;
its Spanish companion (`es/<guide>.md`) has the Spanish ones. `methods new` writes a
skeleton with them, and `check` warns about a team's guide that has none of them.
"""

from __future__ import annotations

import re

SUMMARY = "Summary"
# In the order a guide has them; the summary is the paragraph under the title.
STANDARD = (
    SUMMARY,
    "When to use",
    "When not to use",
    "Inputs",
    "Procedure",
    "Deliverable",
    "Pitfalls",
    "References",
)
# The Spanish companion's sections, the catalogue's own words ("Cuándo usarlo" covers
# both "When to use" and "When not to use").
STANDARD_ES = (
    "Resumen",
    "Cuándo usarlo",
    "Entradas",
    "Procedimiento",
    "Entregable",
    "Errores frecuentes",
    "Referencias",
)
_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$", re.MULTILINE)


def headings(text: str) -> list[str]:
    """The `##` headings of a guide, as written."""
    return [match.group(1).strip() for match in _HEADING.finditer(text)]


def has_standard_sections(text: str) -> bool:
    """Whether a guide has at least one of the standard `##` sections (either language)."""
    known = {h.lower() for h in (*STANDARD, *STANDARD_ES)}
    return any(heading.lower() in known for heading in headings(text))
