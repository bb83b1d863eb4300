"""Where the offline answer puts each piece: a step, a fact, a brief's line, guide material.

Each piece goes to the one outline part it answers, never to two: the guide's steps are
spread over the parts by the words they share (a word most steps share counts little)
and their order; a project fact goes to the part its words name first (users to
participants, the problem to goals, constraints to logistics); a brief's sentence to the
part it speaks to; a guide's own practical sections (Van Westendorp questions, severity
ratings, a task table) and a checklist's rows to the part whose words they share.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections import Counter
from collections.abc import Sequence

from design_agent.core.text import fold, short_stems
from design_agent.providers.offline_texts import FACT_HOMES, STANDARD_HEADINGS
from design_agent.providers.request import GuideSection

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÚÑ¿¡0-9])")
_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+(.+)$", re.MULTILINE)
DELIVERABLE = frozenset({"deliverable", "entregable"})
PARAGRAPH_CHARS = 700
WORD = 4  # letters a word needs to tell parts apart ("and", "the", "los" do not)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.MULTILINE)


def spread(items: Sequence[str], parts: Sequence[str]) -> dict[int, list[str]]:
    """Each item (a step) to the part it speaks to most, in order, no part taking more than
    its share plus one: words many items share weigh little, so "question" does not pull
    every step of a survey to "Question list"."""
    if not items or not parts:
        return {}
    terms = [short_stems(item) for item in items]
    seen = Counter(t for item in terms for t in item)
    part_terms = [short_stems(p) for p in parts]
    cap = math.ceil(len(items) / len(parts)) + 1
    scored = []
    for i, item_terms in enumerate(terms):
        position = i / max(1, len(items) - 1)
        for j, wanted in enumerate(part_terms):
            shared = sum(1 / seen[t] for t in item_terms & wanted)
            near = 0.9 * (1 - abs(position - j / max(1, len(parts) - 1)))
            scored.append((shared + near, i, j))
    placed: dict[int, int] = {}
    counts: Counter[int] = Counter()
    for _score, i, j in sorted(scored, key=lambda s: (-s[0], s[1])):
        if i not in placed and counts[j] < cap:
            placed[i] = j
            counts[j] += 1
    out: dict[int, list[str]] = {}
    for i in sorted(placed):
        out.setdefault(placed[i], []).append(items[i])
    return out


def home_of(key: str, parts: Sequence[str]) -> int:
    """The part a project fact belongs in: the one naming its most telling word first
    (FACT_HOMES lists them from the most telling), else the first part (the last for the
    constraints: logistics and plans close an outline)."""
    folded = [fold(p) for p in parts]
    for home in FACT_HOMES.get(key, ()):
        for j, part in enumerate(folded):
            if home in part:
                return j
    return len(parts) - 1 if key == "constraints" and parts else 0


def brief_lines(
    briefs: dict[str, str], parts: Sequence[str], request: str, per_part: int
) -> dict[int, list[tuple[str, str]]]:
    """The briefs' sentences that speak to the request or a part, each under the one part
    it speaks to most, as (brief name, sentence); at most `per_part` per part."""
    wanted = short_stems(request, WORD)
    part_terms = [short_stems(p, WORD) for p in parts]
    found: list[tuple[float, int, str, str]] = []
    for name, content in briefs.items():
        for sentence in _SENTENCE.split(" ".join(content.split())):
            terms = short_stems(sentence, WORD)
            scores = [2 * len(terms & t) for t in part_terms]
            best = max(range(len(parts)), key=lambda j: scores[j])
            score = scores[best] + len(terms & wanted)
            if score >= 2 or (terms & wanted):
                found.append((score, best, name, sentence.strip()))
    placed: dict[int, list[tuple[str, str]]] = {}
    for _score, part, name, sentence in sorted(found, key=lambda f: -f[0]):
        if len(placed.setdefault(part, [])) < per_part:
            placed[part].append((name, sentence))
    return placed


def practical(
    sections: Sequence[GuideSection], parts: Sequence[str]
) -> dict[int, list[GuideSection]]:
    """The main guide's own practical sections (not its standard ones, not a sample or an
    example) and the data files, each under the part whose words it shares most, its
    heading's words first (by position when none)."""
    part_terms = [short_stems(p, WORD) for p in parts]
    main = next((s.guide for s in sections if s.kind == "guide"), "")
    extra = [
        s
        for s in sections
        if (s.guide == main and s.kind == "guide" and _is_practical(s.heading))
        or (s.kind == "material" and s.guide.endswith(".csv") and "example" not in s.guide)
    ]
    placed: dict[int, list[GuideSection]] = {}
    for n, section in enumerate(extra):
        name = section.guide.rsplit(".", 1)[0].replace("_", " ")
        heading = short_stems(section.heading if section.kind == "guide" else name, WORD)
        lead = short_stems(section.text.splitlines()[0] if section.text else "", WORD)
        scores = [3 * len(heading & t) + len(lead & t) for t in part_terms]
        best = max(range(len(parts)), key=lambda j: scores[j])
        if not scores[best]:
            best = min(len(parts) - 1, round((n + 1) * len(parts) / (len(extra) + 1)))
        placed.setdefault(best, []).append(section)
    return placed


def _is_practical(heading: str) -> bool:
    folded = fold(heading)
    illustrative = any(word in folded for word in ("example", "sample", "ejemplo", "muestra de"))
    return folded not in STANDARD_HEADINGS and not illustrative


def material_lines(section: GuideSection, limit: int, language: str = "en") -> list[str]:
    """What a practical section shows: its table's first rows, its list items, or its first
    paragraph; a data file as a table of its first rows, in `language` (a column written
    for another language, `statement_en` in Spanish, left out)."""
    if section.kind == "material":
        return _csv_table(section.text, limit, language)
    rows = _TABLE_ROW.findall(section.text)
    if len(rows) >= 3:
        return [r.strip() for r in rows[: limit + 2]]
    items = [m.group(1).strip() for m in _ITEM.finditer(section.text)]
    if items:
        return [f"- {item}" for item in items[:limit]]
    first = " ".join(section.text.strip().split("\n\n")[0].split())
    if len(first) > PARAGRAPH_CHARS:
        first = first[: PARAGRAPH_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return [first] if first else []


def _csv_table(text: str, limit: int, language: str) -> list[str]:
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return []
    other = re.compile(rf"_(?!{re.escape(language)}$)[a-z]{{2}}$")
    keep = [i for i, name in enumerate(rows[0]) if not other.search(name)]
    lines = []
    for row in rows[: limit + 1]:
        cells = [row[i].replace("|", "/") for i in keep if i < len(row)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.insert(1, "|" + "---|" * len(keep))
    return lines


def deliverable_item(sections: Sequence[GuideSection], part: str, index: int, count: int) -> str:
    """The guide's Deliverable line that describes `part` (by shared words, else by place)."""
    section = next(
        (
            s
            for s in sections
            if s.kind == "guide" and fold(s.heading) in {"deliverable", "entregable"}
        ),
        None,
    )
    if section is None:
        return ""
    items = [m.group(1).strip() for m in _ITEM.finditer(section.text)]
    if not items:
        return ""
    wanted = short_stems(part, WORD)
    scores = [len(short_stems(item, WORD) & wanted) for item in items]
    best = max(range(len(items)), key=lambda i: scores[i])
    if not scores[best]:
        best = min(len(items) - 1, round(index * (len(items) - 1) / max(1, count - 1)))
    return items[best]
