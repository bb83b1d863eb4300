"""The offline answer: a filled skeleton of the deliverable, in the user's language.

Built from the grounding only, never from a model: the task's outline, each
part with the guide's procedure steps that speak to it, the project's facts
placed in the one part they answer, the brief's relevant lines quoted there,
the guide's own practical material (its checklists, question sets, tables),
the template's fields (what is known filled in, the rest marked), then the
pitfalls and the sources (offline_places.py decides where each piece goes).
Verbosity changes how much of each is shown: "detailed" adds depth (what
each part holds, more material, what to prepare, what to do when time is
short), never a second copy of the procedure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from design_agent.core.text import fold, short_stems
from design_agent.providers.offline_places import (
    brief_lines,
    deliverable_item,
    home_of,
    material_lines,
    practical,
    spread,
)
from design_agent.providers.offline_texts import (
    FACT_HOMES,
    INPUTS,
    PITFALLS,
    PROCEDURE,
    SHORT_ON_TIME,
    TEXTS,
)
from design_agent.providers.request import Grounding, GuideSection, ProviderRequest

REQUEST_CHARS = 400


@dataclass(frozen=True)
class Depth:
    """How much of each kind of material one verbosity shows."""

    steps: int  # guide steps per outline part
    fields: int  # template fields per part
    pitfalls: int
    material: int  # lines of the guide's practical material per section
    quotes: int  # brief sentences per part
    depth: bool  # what each part holds, what to prepare, what to do when time is short
    limits: bool


DEPTHS = {
    "brief": Depth(steps=1, fields=0, pitfalls=1, material=0, quotes=1, depth=False, limits=False),
    "normal": Depth(steps=3, fields=3, pitfalls=4, material=4, quotes=2, depth=False, limits=True),
    "detailed": Depth(
        steps=6, fields=8, pitfalls=8, material=10, quotes=3, depth=True, limits=True
    ),
}
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.+)$", re.MULTILINE)
_BULLET = re.compile(r"^\s*[-*]\s+(.+)$", re.MULTILINE)
_FIELD = re.compile(r"\[[^\]\n]+\]")
_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+(.+)$", re.MULTILINE)
PARAGRAPH_CHARS = 600


def compose_answer(request: ProviderRequest) -> list[str]:
    """The offline answer as markdown blocks (each ends with a blank line)."""
    t = TEXTS.get(request.language, TEXTS["en"])
    grounding = request.grounding or Grounding()
    depth = DEPTHS.get(request.verbosity, DEPTHS["normal"])
    asked = " ".join((grounding.message or request.prompt).split())
    banner = t["banner"] if depth.limits else t["banner_brief"]
    blocks = [banner, _title(grounding), t["request"].format(text=_clip(asked))]
    blocks += grounding.evidence_draft  # a research method's draft groups, when it has evidence
    usable = _usable(grounding.sections, request.language)
    if not usable or not grounding.expected_output:
        return _finish([*blocks, t["no_match"], t["sources"], t["no_sources"]])
    blocks += _assumptions(grounding, t, brief=not depth.limits)
    if depth.depth:
        blocks += _extra(usable, INPUTS, t["prepare"])
    blocks += _parts(grounding, usable, t, depth)
    if depth.depth:
        blocks += _extra(usable, SHORT_ON_TIME, t["short_on_time"])
    pitfalls = _items(usable, PITFALLS, _BULLET)[: depth.pitfalls]
    if pitfalls:
        blocks += [t["pitfalls"], _bullets(pitfalls)]
    if depth.limits:
        blocks += [t["limits"], _bullets(t["limit_items"])]
    else:
        blocks.append(t["limits_brief"])
    blocks += [t["sources"], _bullets(_citations(usable, depth))]
    return _finish(blocks)


def _title(grounding: Grounding) -> str:
    name = grounding.task_name or grounding.task_id or ""
    return f"# {name}: {grounding.project_name}" if grounding.project_name else f"# {name}"


def _usable(sections: list[GuideSection], language: str) -> list[GuideSection]:
    """The sections written in the answer's language: an English-only part is left out of
    a Spanish answer rather than quoted in English. A guide with no version in the
    language at all (a user's own guide) is used as it is."""
    own = [s for s in sections if s.language == language]
    return own if any(s.kind == "guide" for s in own) else sections


def _assumptions(grounding: Grounding, t: dict[str, Any], brief: bool) -> list[str]:
    known = {k for k, v in grounding.project_context.items() if str(v).strip()}
    missing = [t["missing"][k] for k in FACT_HOMES if k not in known]
    if not missing:
        return []
    if brief:
        return [t["assumption"].format(what="; ".join(missing))]
    return [_bullets([t["assumption"].format(what=what) for what in missing])]


def _parts(
    grounding: Grounding, sections: list[GuideSection], t: dict[str, Any], depth: Depth
) -> list[str]:
    parts = grounding.expected_output
    steps = spread(_steps(sections), parts)
    fields, filled = _template_fields(sections, parts, grounding)
    facts = _place_facts(grounding, parts, t, filled)
    quotes = brief_lines(grounding.briefs, parts, grounding.message or "", depth.quotes)
    if grounding.briefs and not any(quotes.values()):  # read, and said so, though unquoted
        names = ", ".join(grounding.briefs)
        facts.setdefault(0, []).append(t["briefs_unquoted"].format(names=names))
    material = practical(sections, parts) if depth.material else {}
    blocks: list[str] = []
    for i, part in enumerate(parts):
        blocks.append(f"## {i + 1}. {part}")
        body = facts.get(i, [])
        body += [
            t["from_brief"].format(name=name) + f' "{line}"' for name, line in quotes.get(i, [])
        ]
        holds = deliverable_item(sections, part, i, len(parts))
        if holds and (depth.depth or not steps.get(i)):
            body.append(f"{t['holds']} {holds}")
        if steps.get(i) and depth.steps == 1:
            body.append(f"{t['steps']} {steps[i][0]}")
        elif steps.get(i) and depth.steps:
            body.append(f"{t['steps']}\n" + _bullets(steps[i][: depth.steps], indent="  "))
        if fields.get(i) and depth.fields:
            body.append(f"{t['fields']}\n" + _bullets(fields[i][: depth.fields], indent="  "))
        text = "\n".join(f"- {line}" for line in body) if body else f"- {t['to_fill']}"
        blocks.append(text)
        for section in material.get(i, []):
            lines = material_lines(section, depth.material, section.language)
            if lines:
                label = section.guide if section.kind == "material" else section.heading
                blocks.append(t["from_guide"].format(heading=label) + "\n\n" + "\n".join(lines))
    return blocks


def _extra(sections: list[GuideSection], headings: frozenset[str], title: str) -> list[str]:
    """A detailed answer's own block from one guide section (what to prepare, what to do
    when time is short), as its items."""
    section = _first(sections, headings)
    if section is None:
        return []
    items = [m.group(1).strip() for m in _ITEM.finditer(section.text)]
    body = _bullets(items) if items else " ".join(section.text.split())
    return [title, body] if body else []


def _steps(sections: list[GuideSection]) -> list[str]:
    """The procedure's numbered steps; for a guide without a procedure (a team's own,
    written its own way), its list items, else its paragraphs, to place in the outline."""
    if _first(sections, PROCEDURE) is not None:
        return _items(sections, PROCEDURE, _NUMBERED)
    return [text for text, _section in _loose(sections)]


def _loose(sections: list[GuideSection]) -> list[tuple[str, GuideSection]]:
    """Each list item of the guide's sections, or (none) each paragraph, with its section."""
    guide = [s for s in sections if s.kind == "guide"]
    items = [(m.group(1).strip(), s) for s in guide for m in _ITEM.finditer(s.text)]
    if items:
        return items
    return [(block, s) for s in guide for block in _paragraphs(s.text)]


def _paragraphs(text: str) -> list[str]:
    blocks = [" ".join(b.split()) for b in re.split(r"\n\s*\n", text)]
    return [_clip(b, PARAGRAPH_CHARS) for b in blocks if b and not b.startswith("#")]


def _items(
    sections: list[GuideSection], headings: frozenset[str], pattern: re.Pattern[str]
) -> list[str]:
    section = _first(sections, headings)
    return [m.group(1).strip() for m in pattern.finditer(section.text)] if section else []


def _first(sections: list[GuideSection], headings: frozenset[str]) -> GuideSection | None:
    """The main guide's section with one of `headings` (the task's first guide comes first)."""
    return next((s for s in sections if s.kind == "guide" and s.heading.lower() in headings), None)


def _place_facts(
    grounding: Grounding, parts: list[str], t: dict[str, Any], filled: set[str]
) -> dict[int, list[str]]:
    """Each project fact once, in the part it answers (offline_places.home_of), unless a
    template field already carries it; the decisions under the first part."""
    placed: dict[int, list[str]] = {}
    for key, value in grounding.project_context.items():
        if key in filled or (key == "briefs" and grounding.briefs):
            continue
        label = t["labels"].get(key, key)
        line = t["known"].format(label=label, value=_clip(str(value)))
        placed.setdefault(home_of(key, parts), []).append(line)
    for decision in grounding.decisions:
        placed.setdefault(0, []).append(t["decided"].format(decision=_clip(decision)))
    return placed


def _template_fields(
    sections: list[GuideSection], parts: list[str], grounding: Grounding
) -> tuple[dict[int, list[str]], set[str]]:
    """The template's bracketed lines under the part their heading matches, each project
    fact written into the first field it answers (and only that one), and the facts so
    written."""
    fields: dict[int, list[str]] = {}
    filled: set[str] = set()
    part_terms = [short_stems(p) for p in parts]
    for section in sections:
        if section.kind != "material" or "template" not in section.guide:
            continue
        lines = [_field_line(line) for line in section.text.splitlines() if _is_field(line)]
        if not lines:
            continue
        heading = short_stems(section.heading)
        best = max(range(len(parts)), key=lambda j: len(heading & part_terms[j]))
        if heading & part_terms[best]:
            for line in lines:
                fields.setdefault(best, []).append(_fill(line, grounding, filled, best, parts))
    return fields, filled


def _is_field(line: str) -> bool:
    """A template line with a field to fill, not a table row or an empty placeholder."""
    stripped = line.strip()
    return bool(_FIELD.search(stripped)) and not stripped.startswith("|") and "[ ]" not in stripped


def _field_line(line: str) -> str:
    return re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", line).strip()


def _fill(line: str, grounding: Grounding, filled: set[str], part: int, parts: list[str]) -> str:
    """`line` with the first project fact it asks for written in, when that fact is not
    written elsewhere yet and belongs in this part."""
    label = fold(line.split(":")[0])
    for key, value in grounding.project_context.items():
        homes = FACT_HOMES.get(key, ())
        if key in filled or home_of(key, parts) != part:
            continue
        if any(home in label for home in homes):
            filled.add(key)
            return _FIELD.sub(_clip(str(value), 120), line, count=1)
    return line


def _citations(sections: list[GuideSection], depth: Depth) -> list[str]:
    cited = [s for s in (_first(sections, PROCEDURE), _first(sections, PITFALLS)) if s]
    if _first(sections, PROCEDURE) is None:  # the parts of a guide written its own way
        for _text, section in _loose(sections):
            if section not in cited:
                cited.append(section)
    if depth.fields:
        cited += [s for s in sections if s.kind == "material" and "template" in s.guide][:1]
    return [f"[{s.guide} > {s.heading}]" for s in cited]


def _bullets(items: list[str], indent: str = "") -> str:
    return "\n".join(f"{indent}- {item}" for item in items)


def _numbered(items: list[str]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))


def _clip(text: str, limit: int = REQUEST_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _finish(blocks: list[str]) -> list[str]:
    return [block + "\n\n" for block in blocks]
