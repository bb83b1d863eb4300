"""Citations as a reader says them, and the cited guides' own bibliographies.

An answer cites `[test_plan.md > Procedure]`; a stakeholder reads "Usability test plan
guide, section Procedure" (in Spanish, "Guía «Plan de test de usabilidad», sección
Procedimiento"), and at the end of the report, under Bibliography, the books and
articles that guide lists in its own References section. A citation that names no guide
of the catalogue (a web address, a file the model made up) is kept as written.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from design_agent.core.messages import say
from design_agent.knowledge.guides import COMPANION_COVERS, Knowledge, Section
from design_agent.knowledge.registry import Catalogue

_CITATION = re.compile(r"^\[?\s*([\w./-]+\.(?:md|csv|txt|yaml))\s*>\s*([^\[\]]+?)\s*\]?$")
_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*\S)\s*$")
REFERENCE_HEADINGS = frozenset({"references", "referencias"})
WHOLE = frozenset({"summary", "resumen", "data"})


class Source(BaseModel):
    """One cited guide's bibliography: its title and the entries of its References."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str
    entries: list[str]


class Sources:
    """Reads citations against one catalogue, in one language."""

    def __init__(self, catalogue: Catalogue, language: str) -> None:
        self.catalogue = catalogue
        self.knowledge = Knowledge(catalogue)
        self.language = language

    def cited(self, citation: str) -> tuple[str, str] | None:
        """(file, section) of a citation of the catalogue's guides or materials."""
        found = _CITATION.match(citation.strip())
        if found is None:
            return None
        name = found.group(1).split("/")[-1]
        known = name in self.catalogue.guides or name in self.catalogue.materials
        return (name, found.group(2)) if known else None

    def readable(self, citation: str) -> str:
        """ "[test_plan.md > Procedure]" -> "Usability test plan guide, section Procedure"."""
        cited = self.cited(citation)
        if cited is None:
            return citation.strip()
        name, section = cited
        title, lang = self.title(name), self.language
        if name not in self.catalogue.guides:
            if section.lower() in WHOLE:
                return title
            return say("report_cite_file", lang, title=title, section=section)
        return say("report_cite_guide", lang, title=title, section=self._heading(section))

    def title(self, name: str) -> str:
        """A guide's own title (its Spanish companion's in Spanish); a material's name."""
        if name in self.catalogue.guides:
            sections = self.knowledge.sections(name, self.language)
            found = _TITLE.search(sections[0].text) if sections else None
            if found:
                return found.group(1)
        stem = name.rsplit(".", 1)[0].replace("_", " ").replace("-", " ").strip()
        return stem[:1].upper() + stem[1:]

    def bibliography(self, citations: list[str]) -> list[Source]:
        """The References of each guide cited, in the order they were first cited."""
        names: list[str] = []
        for citation in citations:
            cited = self.cited(citation)
            if cited and cited[0] in self.catalogue.guides and cited[0] not in names:
                names.append(cited[0])
        found = [self._source(name) for name in names]
        return [source for source in found if source.entries]

    def _source(self, name: str) -> Source:
        sections = self.knowledge.sections(name, self.language)
        references = next((s for s in sections if s.heading.lower() in REFERENCE_HEADINGS), None)
        return Source(title=self.title(name), entries=_entries(references))

    def _heading(self, section: str) -> str:
        """An English heading as the Spanish guide words it ("Procedure" -> "Procedimiento")."""
        for spanish, english in COMPANION_COVERS.get(self.language, {}).items():
            if section in english:
                return spanish
        return section


def _entries(section: Section | None) -> list[str]:
    """The list items of a References section (Markdown, as the guide writes them)."""
    if section is None:
        return []
    return [m.group(1) for line in section.text.splitlines() if (m := _ITEM.match(line))]
