"""An answer's review as the report says it (issue 26): a short "Checked" note, what was
verified and what needs a person, never the review's internal list of items."""

from __future__ import annotations

from design_agent.core.messages import say
from design_agent.report.data import CheckItem

# The review's item ids, by the kind a reader is told about (report_check_<kind>).
KINDS = (
    ("outline_", "outline"),
    ("table_", "tables"),
    ("totals", "totals"),
    ("percentages", "percentages"),
    ("sample_size", "sample_size"),
    ("citations", "citations"),
    ("limitations", "limitations"),
    ("confidence", "confidence"),
    ("decision", "decisions"),
)


def checked_note(items: list[CheckItem], lang: str) -> str:
    """ "Checked: the outline's parts, the cited sections. Needs a person: the
    limitations; whether the tasks read as goals." A kind is verified when every judged
    item of it passed; one that failed, or a point no one judged yet, needs a person."""
    verified: list[str] = []
    person: list[str] = []
    for kind, group in _grouped(items):
        judged = [i for i in group if i.status != "not_assessed"]
        name = say(f"report_check_{kind}", lang) if kind else ""
        if kind and judged and all(i.status == "passed" for i in judged):
            _add(verified, name)
        elif kind and any(i.status == "failed" for i in judged):
            _add(person, name)
        elif not kind:  # a reader's point: said in its own words
            for item in group:
                (verified if item.status == "passed" else person).append(item.label)
    lines = []
    if verified:
        lines.append(say("report_checked", lang, items=", ".join(verified)))
    if person:
        lines.append(say("report_needs_person", lang, items="; ".join(person)))
    return "\n\n".join(lines) or say("report_nothing_checked", lang)


def _grouped(items: list[CheckItem]) -> list[tuple[str, list[CheckItem]]]:
    groups: dict[str, list[CheckItem]] = {}
    for item in items:
        kind = next((k for prefix, k in KINDS if item.id.startswith(prefix)), "")
        groups.setdefault(kind, []).append(item)
    return list(groups.items())


def _add(names: list[str], name: str) -> None:
    if name not in names:
        names.append(name)
