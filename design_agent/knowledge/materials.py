"""The `<material>` blocks: each of a method's files with a note on how to use it,
trimmed to what the request needs.

A data file (CSV) sends its header and the rows nearest the request, as many as the
verbosity allows (data/verbosity.yaml), with a note saying how many of how many; a
brief answer gets a one-line pointer instead. A template goes whole, or as a pointer
naming its parts in a brief answer. The notes on how to use each bundled file are data,
the `material_notes` table of `lexicon/<language>/prompt.yaml`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from functools import cache

from design_agent.core.lexicon import lexicon
from design_agent.core.text import short_stems
from design_agent.knowledge.guides import Section
from design_agent.knowledge.prompt_frame import frame
from design_agent.knowledge.shape import profile
from design_agent.knowledge.tags import frame_tag as tag

NOTES_TABLE = "material_notes"
DATA_HEADINGS = frozenset({"Data", "Summary"})


def note_of(name: str, language: str) -> str:
    """How to use material `name` (any language version of it), or ""."""
    base = re.sub(r"_(en|es)$", "", name.rpartition(".")[0] or name)
    notes = lexicon().table(NOTES_TABLE, language) or lexicon().table(NOTES_TABLE, "en")
    return str(notes.get(base, ""))


def material_block(
    name: str, parts: Sequence[Section], message: str, verbosity: str, language: str
) -> str:
    """One `<material>` block for `name`'s sections, or "" when there are none."""
    if not parts:
        return ""
    words = frame(language)
    notes = [note_of(name, language)]
    if name.endswith(".csv") and len(parts) == 1:
        body, trimmed = _rows(parts[0].text, message, verbosity, words)
        notes.append(trimmed)
    elif parts[0].is_template:
        notes.append(words["template_note"])
        body = _template(parts, verbosity, words, notes)
    elif len(parts) == 1 and parts[0].heading in DATA_HEADINGS:
        body = parts[0].text
    else:
        body = "\n".join(tag("section", s.text, title=s.heading) for s in parts)
    note = "; ".join(n.rstrip(".") for n in notes if n)
    return tag("material", body, source=name, **({"note": note} if note else {}))


def _template(
    parts: Sequence[Section], verbosity: str, words: dict[str, str], notes: list[str]
) -> str:
    if profile(verbosity).templates:
        if len(parts) == 1 and parts[0].heading in DATA_HEADINGS:
            return parts[0].text
        return "\n".join(tag("section", s.text, title=s.heading) for s in parts)
    headings = [_name(s.heading) for s in parts if s.heading not in DATA_HEADINGS]
    notes[-1] = words["template_pointer"].format(parts=", ".join(headings) or "-")
    return parts[0].text.splitlines()[0] if parts[0].text else "-"


def _name(heading: str) -> str:
    """A template part's name without its placeholder ("Objective 1: [statement]")."""
    return re.sub(r"\s*[:\[(].*$", "", heading).strip() or heading


def _rows(text: str, message: str, verbosity: str, words: dict[str, str]) -> tuple[str, str]:
    """The CSV's header and the rows nearest `message`, and the note saying so ("" when
    every row goes)."""
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return text, ""
    header, body = rows[0], rows[1:]
    limit = profile(verbosity).material_rows
    if limit == 0:
        note = words["pointer_note"].format(total=len(body), columns=", ".join(header))
        return _csv([header]), note
    if len(body) <= limit:
        return text, ""
    wanted = short_stems(message)
    ranked = sorted(range(len(body)), key=lambda i: (-len(wanted & _terms(body[i])), i))
    kept = sorted(ranked[:limit])
    note = words["rows_note"].format(shown=limit, total=len(body))
    return _csv([header, *(body[i] for i in kept)]), note


@cache
def _terms_of(row: tuple[str, ...]) -> frozenset[str]:
    return frozenset(short_stems(" ".join(row)))


def _terms(row: list[str]) -> frozenset[str]:
    return _terms_of(tuple(row))


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().strip()
