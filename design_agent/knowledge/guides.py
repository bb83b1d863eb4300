"""Guides and materials: loading, splitting into citable sections, choosing what fits.

A guide's level-2 headings are its sections; answers cite them as
`[guide.md > Heading]`. Files are read once per process and cached, and the
sections for a task are chosen by relevance to the message when the prompt
budget is tight.

A guide may have a Spanish companion, `es/<guide>.md`, with the parts a
Spanish answer is built on (summary, when to use, inputs, procedure,
deliverable, pitfalls, references). In Spanish, each companion section takes
the place of the English sections it covers, so only one language's version
of a part is ever loaded; the English sections it does not cover (a worked
example, a sample-size section) are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from design_agent.core.models import InputNeed, Task
from design_agent.core.text import estimate_tokens
from design_agent.core.text import short_stems as stems
from design_agent.knowledge.registry import Catalogue

SUMMARY = "Summary"
SUMMARY_IN = {"en": SUMMARY, "es": "Resumen"}
# Sections that make a method runnable; kept first when the budget is tight.
CORE_HEADINGS = {
    "procedure": 3.0,
    "procedimiento": 3.0,
    "deliverable": 2.5,
    "entregable": 2.5,
    "inputs": 1.5,
    "entradas": 1.5,
    "worked example": 1.2,
}
EXAMPLE_HEADINGS = frozenset({"worked example", "example", "ejemplo", "ejemplo práctico"})
# How a guide's own illustrative section starts (a sample screener, a sample script).
EXAMPLE_OPENINGS = ("example (illustrative)", "ejemplo (ilustrativo)")
DELIVERABLE_HEADINGS = frozenset({"deliverable", "entregable"})
COMPANION_FOLDERS = {"es": "es"}
# Each companion heading and the English sections it stands for.
COMPANION_COVERS: dict[str, dict[str, frozenset[str]]] = {
    "es": {
        "Resumen": frozenset({SUMMARY}),
        "Cuándo usarlo": frozenset({"When to use"}),
        "Cuándo no usarlo": frozenset({"When not to use"}),
        "Entradas": frozenset({"Inputs"}),
        "Procedimiento": frozenset({"Procedure"}),
        "Entregable": frozenset({"Deliverable"}),
        "Ejemplo práctico": frozenset({"Worked example"}),
        "Errores frecuentes": frozenset({"Pitfalls"}),
        "Con poco presupuesto y poco tiempo": frozenset({"Small budgets and short timelines"}),
        "Referencias": frozenset({"References"}),
    }
}
_HEADING = re.compile(r"^##\s+(.+?)\s*#*\s*$", re.MULTILINE)
# What a guide without `##` sections is split at: its title, its other headings, its lines
# in bold ("**Steps**" alone on a line).
_TITLE_LINE = re.compile(r"\A\s*#\s+[^\n]*\n?")
_ANY_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
_BOLD_HEADING = re.compile(r"^\*\*([^*\n]{2,80}?)\*\*:?\s*$", re.MULTILINE)
PART_IN = {"en": "Part", "es": "Parte"}


@dataclass(frozen=True)
class Section:
    """One citable part of a guide or material."""

    source: str
    heading: str
    text: str
    order: int
    kind: str = "guide"
    language: str = "en"

    @property
    def citation(self) -> str:
        return f"[{self.source} > {self.heading}]"

    @property
    def is_example(self) -> bool:
        """A worked example, a section that says it is one ("Example (illustrative): a
        worked screener..."), or sample data: illustration, never facts to reuse."""
        if self.kind == "material":
            return "example" in self.source.lower()
        opening = self.text.lstrip()[:40].lower()
        return self.heading.lower() in EXAMPLE_HEADINGS or opening.startswith(EXAMPLE_OPENINGS)

    @property
    def is_deliverable(self) -> bool:
        return self.kind == "guide" and self.heading.lower() in DELIVERABLE_HEADINGS

    @property
    def is_template(self) -> bool:
        return self.kind == "material" and "template" in self.source.lower()

    @cached_property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    @cached_property
    def terms(self) -> frozenset[str]:
        return frozenset(stems(f"{self.heading} {self.text}"))


def split_sections(
    source: str, text: str, kind: str = "guide", language: str = "en"
) -> list[Section]:
    """Split markdown at level-2 headings; text before the first one is the Summary. A
    guide with none (a team's own, written its own way) is split at its own parts."""
    matches = list(_HEADING.finditer(text))
    if not matches and kind == "guide":
        return own_sections(source, text, language)
    sections: list[Section] = []
    head = text[: matches[0].start()] if matches else text
    if head.strip():
        summary = SUMMARY_IN.get(language, SUMMARY)
        sections.append(Section(source, summary, head.strip(), 0, kind, language))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[match.end() : end].strip()
        sections.append(Section(source, match.group(1).strip(), body, i + 1, kind, language))
    return sections


def own_sections(source: str, text: str, language: str = "en") -> list[Section]:
    """A guide without `##` sections, in the parts its author made: its headings of any
    other level (a `# Title` first is the title), else its lines in bold, else its
    paragraphs ("Steps:" names the one it starts; the others are "Part 2", "Part 3"...).
    Text before the first part is the Summary."""
    title = _TITLE_LINE.match(text)
    start = title.end() if title else 0
    for pattern in (_ANY_HEADING, _BOLD_HEADING):
        found = [m for m in pattern.finditer(text) if m.start() >= start]
        if found:
            cuts = [(m.start(), m.end(), m.group(1).strip()) for m in found]
            return _cut(source, text, cuts, language)
    return _paragraph_sections(source, text, start, language)


def _cut(source: str, text: str, cuts: list[tuple[int, int, str]], language: str) -> list[Section]:
    sections: list[Section] = []
    head = text[: cuts[0][0]].strip()
    if head:
        sections.append(
            Section(source, SUMMARY_IN.get(language, SUMMARY), head, 0, "guide", language)
        )
    for i, (_start, end, heading) in enumerate(cuts):
        stop = cuts[i + 1][0] if i + 1 < len(cuts) else len(text)
        body = text[end:stop].strip()
        if body:
            sections.append(Section(source, heading, body, i + 1, "guide", language))
    return sections


def _paragraph_sections(source: str, text: str, start: int, language: str) -> list[Section]:
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text[start:]) if b.strip()]
    title = text[:start].strip()
    if not blocks:
        return [Section(source, SUMMARY_IN.get(language, SUMMARY), title, 0, "guide", language)]
    summary = f"{title}\n\n{blocks[0]}" if title else blocks[0]
    sections = [Section(source, SUMMARY_IN.get(language, SUMMARY), summary, 0, "guide", language)]
    part = PART_IN.get(language, PART_IN["en"])
    for n, block in enumerate(blocks[1:], 2):
        lead, _, rest = block.partition("\n")
        named = lead.rstrip().endswith(":") and len(lead) <= 60 and rest.strip()
        heading = lead.rstrip().rstrip(":").strip() if named else f"{part} {n}"
        body = rest.strip() if named else block
        sections.append(Section(source, heading, body, n - 1, "guide", language))
    return sections


def merge_companion(
    english: list[Section], companion: list[Section], language: str
) -> list[Section]:
    """The English sections with each one the companion covers replaced by the
    companion's version, in the English order; companion sections that cover
    nothing present come last. A companion written section for section (as many
    parts as the English guide, in its order) replaces the guide part for part, so a
    guide-specific section ("Sample size", "Tamaño de muestra") is sent once, in Spanish."""
    if len(companion) == len(english) and companion:
        return list(companion)
    covers = COMPANION_COVERS.get(language, {})
    if language == "es" and "Cuándo no usarlo" not in {s.heading for s in companion}:
        covers = {**covers, "Cuándo usarlo": frozenset({"When to use", "When not to use"})}
    by_english = {
        covered: section
        for section in companion
        for covered in covers.get(section.heading, frozenset())
    }
    merged: list[Section] = []
    for section in english:
        replacement = by_english.get(section.heading)
        if replacement is None:
            merged.append(section)
        elif replacement not in merged:
            merged.append(replacement)
    merged += [s for s in companion if s not in merged]
    return merged


class Knowledge:
    """Reads guides and materials on demand and caches their sections."""

    def __init__(self, catalogue: Catalogue) -> None:
        self._catalogue = catalogue
        self._cache: dict[Path, list[Section]] = {}

    def sections(self, name: str, language: str = "en") -> list[Section]:
        """All sections of one guide (.md) or material (a material is one section);
        a guide's companion sections replace the English ones in `language`."""
        if name not in self._catalogue.guides:
            written = "es" if re.search(r"_es\.[a-z]+$", name) else "en"
            return self._read(self._catalogue.materials[name], name, "material", written)
        path = self._catalogue.guides[name]
        english = self._read(path, name, "guide")
        folder = COMPANION_FOLDERS.get(language)
        companion_path = path.parent / folder / name if folder else None
        if companion_path is None or not companion_path.is_file():
            return english
        companion = self._read(companion_path, name, "guide", language)
        return merge_companion(english, companion, language)

    def has_companion(self, name: str, language: str) -> bool:
        folder = COMPANION_FOLDERS.get(language)
        path = self._catalogue.guides.get(name)
        return bool(folder and path and (path.parent / folder / name).is_file())

    def _read(self, path: Path, name: str, kind: str, language: str = "en") -> list[Section]:
        if path not in self._cache:
            text = path.read_text(encoding="utf-8")
            if kind == "material" and not name.endswith(".md"):
                self._cache[path] = [Section(name, "Data", text.strip(), 0, kind, language)]
            else:
                self._cache[path] = split_sections(name, text, kind, language)
        return self._cache[path]

    def task_sections(self, task: Task, language: str = "en") -> list[Section]:
        """Every section of the task's guides, then of its materials in `language`."""
        names = [*task.guides, *self.materials_for(task, language)]
        return [s for name in names for s in self.sections(name, language)]

    def materials_for(self, task: Task, language: str) -> list[str]:
        """The task's materials in `language`: `checklist_es.csv` in Spanish for a task
        that names `checklist.csv` (or `checklist_en.csv`), each file once."""
        chosen: list[str] = []
        for name in task.materials:
            version = language_version(name, language, self._catalogue.materials)
            if version not in chosen:
                chosen.append(version)
        return chosen

    def select(
        self,
        task: Task,
        message: str,
        budget_tokens: int,
        language: str = "en",
        verbosity: str = "detailed",
    ) -> list[Section]:
        """The task's sections that `verbosity` sends (shape.py) and fit `budget_tokens`,
        most relevant first kept.

        Everything is included when it fits. Otherwise sections are ranked by
        their overlap with the message plus a weight for the sections that make
        the method runnable, added greedily, and returned in document order.
        """
        from design_agent.knowledge.shape import sent_sections

        offered = self.task_sections(task, language)
        sections = [s for s in sent_sections(offered, verbosity) if not s.is_deliverable]
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

    def headings_of(self, name: str) -> set[str] | None:
        """Every heading a guide or material has, in every language it is written in; None
        when the catalogue has no file of that name."""
        if name not in self._catalogue.guides and name not in self._catalogue.materials:
            return None
        languages = ["en", *COMPANION_FOLDERS]
        return {s.heading for lang in languages for s in self.sections(name, lang)}

    def inputs_of(self, task: Task) -> list[InputNeed]:
        """The inputs the task works from, as config/inputs.yaml defines them."""
        return [self._catalogue.inputs[n] for n in task.inputs if n in self._catalogue.inputs]

    def known_citations(self, task: Task) -> set[tuple[str, str]]:
        """(source, heading) pairs that exist in the task's guides and materials,
        in every language they are written in."""
        languages = ["en", *COMPANION_FOLDERS]
        return {
            (s.source, s.heading.lower())
            for lang in languages
            for s in self.task_sections(task, lang)
        }


def language_version(name: str, language: str, known: dict[str, Path]) -> str:
    """The material `name` written in `language` when the catalogue has that version
    (`x.csv` or `x_en.csv` -> `x_es.csv` in Spanish, `x_es.csv` -> `x_en.csv` or `x.csv`
    in English), else `name` itself."""
    stem, dot, ext = name.rpartition(".")
    base = re.sub(r"_(en|es)$", "", stem)
    tagged = f"{base}_{language}{dot}{ext}"
    if tagged in known:
        return tagged
    plain = f"{base}{dot}{ext}"
    if language == "en" and plain in known:
        return plain
    return name


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
