"""Guides and materials: loading, splitting into citable sections, choosing what fits.

A guide's level-2 headings are its sections; answers cite them as
`[guide.md > Heading]`. Files are read once per process and cached, and the
sections for a task are chosen by relevance to the message when the prompt
budget is tight.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from design_agent.language import short_stems as stems
from design_agent.models import Task
from design_agent.registry import Catalogue
from design_agent.textutil import estimate_tokens

SUMMARY = "Summary"
# Sections that make a method runnable; kept first when the budget is tight.
CORE_HEADINGS = {"procedure": 3.0, "deliverable": 2.5, "inputs": 1.5, "worked example": 1.2}
_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Section:
    """One citable part of a guide or material."""

    source: str
    heading: str
    text: str
    order: int
    kind: str = "guide"

    @property
    def citation(self) -> str:
        return f"[{self.source} > {self.heading}]"

    @cached_property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    @cached_property
    def terms(self) -> frozenset[str]:
        return frozenset(stems(f"{self.heading} {self.text}"))


def split_sections(source: str, text: str, kind: str = "guide") -> list[Section]:
    """Split markdown at level-2 headings; text before the first one is the Summary."""
    matches = list(_HEADING.finditer(text))
    sections: list[Section] = []
    head = text[: matches[0].start()] if matches else text
    if head.strip():
        sections.append(Section(source, SUMMARY, head.strip(), 0, kind))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip()
        sections.append(Section(source, match.group(1).strip(), body, i + 1, kind))
    return sections


class Knowledge:
    """Reads guides and materials on demand and caches their sections."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._catalogue = catalogue
        self._cache: dict[Path, list[Section]] = {}

    def sections(self, name: str) -> list[Section]:
        """All sections of one guide (.md) or material (a material is one section)."""
        if name in self._catalogue.guides:
            path, kind = self._catalogue.guides[name], "guide"
        else:
            path, kind = self._catalogue.materials[name], "material"
        if path not in self._cache:
            text = path.read_text(encoding="utf-8")
            if kind == "material" and not name.endswith(".md"):
                self._cache[path] = [Section(name, "Data", text.strip(), 0, kind)]
            else:
                self._cache[path] = split_sections(name, text, kind)
        return self._cache[path]

    def task_sections(self, task: Task) -> list[Section]:
        """Every section of the task's guides, then of its materials."""
        return [s for name in [*task.guides, *task.materials] for s in self.sections(name)]

    def select(self, task: Task, message: str, budget_tokens: int) -> list[Section]:
        """The task's sections that fit `budget_tokens`, most relevant first kept.

        Everything is included when it fits. Otherwise sections are ranked by
        their overlap with the message plus a weight for the sections that make
        the method runnable, added greedily, and returned in document order.
        """
        sections = self.task_sections(task)
        if sum(s.tokens for s in sections) <= budget_tokens:
            return sections
        wanted = stems(message)
        ranked = sorted(sections, key=lambda s: -_relevance(s, wanted, task.guides[0]))
        chosen: list[Section] = []
        used = 0
        for section in ranked:
            if used + section.tokens <= budget_tokens:
                chosen.append(section)
                used += section.tokens
        order = {id(s): i for i, s in enumerate(sections)}
        return sorted(chosen, key=lambda s: order[id(s)])

    def known_citations(self, task: Task) -> set[tuple[str, str]]:
        """(source, heading) pairs that exist in the task's guides and materials."""
        return {(s.source, s.heading.lower()) for s in self.task_sections(task)}


def _relevance(section: Section, wanted: set[str], primary: str) -> float:
    """Runnable-method sections first, the task's main guide before the others,
    then how much of the message the section speaks to (a share, so long
    sections do not win by length alone)."""
    score = CORE_HEADINGS.get(section.heading.lower(), 0.0)
    if section.source == primary:
        score += 1.5
    if section.kind == "material":
        score += 1.0
    if wanted:
        score += 3.0 * len(wanted & section.terms) / len(wanted)
    if wanted & stems(section.heading):
        score += 2.0
    return score
