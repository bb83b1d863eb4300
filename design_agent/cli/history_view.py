"""A project's recent turns as `history` prints them, from the local store or a team
server alike: a heading per turn (when, who, method, status), its text, and an answer's
failed review items."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from design_agent.cli.output import console, echo
from design_agent.cli.projects import when
from design_agent.core.text import clean_text
from design_agent.memory.models import Turn


def print_history(turns: Sequence[Turn], project_name: str) -> None:
    if not turns:
        echo(f"No conversation yet in '{project_name}'. Start one: design-agent ask \"...\"")
        return
    out = console()
    for turn in turns:
        status = "" if turn.status == "complete" else f" [{turn.status}]"
        task = f" ({turn.task_id})" if turn.task_id else ""
        by = f" · {turn.author}" if turn.author and turn.role == "user" else ""
        heading = clean_text(f"{when(turn.timestamp)} {turn.role}{by}{task}{status}", one_line=True)
        out.print(heading, markup=False, style="bold")
        out.print(clean_text(turn.message), markup=False, highlight=False)
        for line in review_lines(turn.validation):
            out.print(clean_text(line, one_line=True), markup=False, style="yellow")
        out.print()


def review_lines(stored: dict[str, Any] | None) -> list[str]:
    """The failed items of an answer's stored review, one line each (none for a meta
    exchange, or a review stored in a shape this version does not read)."""
    from pydantic import ValidationError

    from design_agent.core.checklist import Validation

    if not stored or not stored.get("items"):
        return []
    try:
        return Validation.model_validate(stored).failed_lines()
    except ValidationError:
        return []
