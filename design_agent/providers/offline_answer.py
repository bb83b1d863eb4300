"""The offline answer: a filled skeleton of the deliverable, in the user's language.

Built from the grounding only, never from a model: the task's outline, each
part with the guide's procedure steps that speak to it, the project's facts
placed where they belong, the template's fields (what is known filled in,
the rest marked), then the pitfalls and the sources. Verbosity changes how
much of each is shown, so brief, normal and detailed differ in length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from design_agent.core.text import fold, short_stems
from design_agent.providers.offline_texts import FACT_HOMES, PITFALLS, PROCEDURE, TEXTS
from design_agent.providers.request import Grounding, GuideSection, ProviderRequest

REQUEST_CHARS = 400


@dataclass(frozen=True)
class Depth:
    """How much of each kind of material one verbosity shows."""

    steps: int  # guide steps per outline part
    fields: int  # template fields per part
    pitfalls: int
    whole_procedure: bool
    limits: bool


DEPTHS = {
    "brief": Depth(steps=1, fields=0, pitfalls=1, whole_procedure=False, limits=False),
    "normal": Depth(steps=3, fields=3, pitfalls=4, whole_procedure=False, limits=True),
    "detailed": Depth(steps=4, fields=8, pitfalls=8, whole_procedure=True, limits=True),
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
    usable = _usable(grounding.sections, request.language)
    if not usable or not grounding.expected_output:
        return _finish([*blocks, t["no_match"], t["sources"], t["no_sources"]])
    blocks += _assumptions(grounding, t, brief=not depth.limits)
    blocks += _parts(grounding, usable, t, depth)
    if depth.whole_procedure:
        blocks += [t["procedure"], _numbered(_steps(usable))]
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
    steps = _assign(_steps(sections), parts)
    facts = _place_facts(grounding, parts, t)
    fields = _template_fields(sections, parts, grounding)
    blocks: list[str] = []
    for i, part in enumerate(parts):
        blocks.append(f"## {i + 1}. {part}")
        body = facts.get(i, [])
        if steps.get(i) and depth.steps == 1:
            body.append(f"{t['steps']} {steps[i][0]}")
        elif steps.get(i) and depth.steps:
            body.append(f"{t['steps']}\n" + _bullets(steps[i][: depth.steps], indent="  "))
        if fields.get(i) and depth.fields:
            body.append(f"{t['fields']}\n" + _bullets(fields[i][: depth.fields], indent="  "))
        blocks.append("\n".join(f"- {line}" for line in body) if body else f"- {t['to_fill']}")
    return blocks


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


def _assign(steps: list[str], parts: list[str]) -> dict[int, list[str]]:
    """Each step to the part it speaks to most, with the order as a tie-breaker (methods
    are written in the order their deliverable is)."""
    assigned: dict[int, list[str]] = {}
    part_terms = [short_stems(p) for p in parts]
    for i, step in enumerate(steps):
        terms = short_stems(step)
        position = i / max(1, len(steps) - 1)
        scores = [
            len(terms & part_terms[j]) + 0.9 * (1 - abs(position - j / max(1, len(parts) - 1)))
            for j in range(len(parts))
        ]
        assigned.setdefault(scores.index(max(scores)), []).append(step)
    return assigned


def _place_facts(grounding: Grounding, parts: list[str], t: dict[str, Any]) -> dict[int, list[str]]:
    """The project's facts, each in the first part whose words say it belongs there."""
    placed: dict[int, list[str]] = {}
    folded = [fold(p) for p in parts]
    for key, value in grounding.project_context.items():
        homes = FACT_HOMES.get(key, ())
        where = next((i for i, p in enumerate(folded) if any(h in p for h in homes)), 0)
        label = t["labels"].get(key, key)
        placed.setdefault(where, []).append(t["known"].format(label=label, value=_clip(str(value))))
    for decision in grounding.decisions:
        placed.setdefault(0, []).append(t["decided"].format(decision=_clip(decision)))
    return placed


def _template_fields(
    sections: list[GuideSection], parts: list[str], grounding: Grounding
) -> dict[int, list[str]]:
    """The template's bracketed lines under the part their heading matches, with the
    project's known facts written in."""
    fields: dict[int, list[str]] = {}
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
            fields.setdefault(best, []).extend(_fill(line, grounding) for line in lines)
    return fields


def _is_field(line: str) -> bool:
    """A template line with a field to fill, not a table row or an empty placeholder."""
    stripped = line.strip()
    return bool(_FIELD.search(stripped)) and not stripped.startswith("|") and "[ ]" not in stripped


def _field_line(line: str) -> str:
    return re.sub(r"^\s*(?:[-*]|\d+[.)])\s*", "", line).strip()


def _fill(line: str, grounding: Grounding) -> str:
    label = fold(line.split(":")[0])
    for key, value in grounding.project_context.items():
        if any(home in label for home in FACT_HOMES.get(key, ())[:4]):
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
