"""One-line summaries of a project's past: for the shell banner and after a switch.

last_conversation(services, project, "en")  # "2 days ago, about journey mapping"
project_summary(services, project, "es")    # "Última conversación hace 2 días, ..."
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from design_agent.core.messages import ago, say

# The turns looked through for the latest method (exchanges in between are skipped).
RECENT = 20

if TYPE_CHECKING:
    from design_agent.memory.models import Project
    from design_agent.turn.session import Services


def last_conversation(services: Services, project: Project, language: str) -> str | None:
    """'2 days ago, about customer journey map', or None before the first turn."""
    last = services.memory.last_turn(project.id)
    if last is None:
        return None
    when = ago((datetime.now(UTC) - last.timestamp).total_seconds(), language)
    # About the latest method worked on: a "yes" or a listing after it is no new topic.
    worked = [t for t in services.memory.recent_turns(project.id, RECENT) if t.task_id]
    task = services.catalogue.tasks.get(worked[-1].task_id or "" if worked else "")
    if task is None:
        return when
    return say("last_about", language, when=when, task=task.name.get(language).lower())


def project_summary(services: Services, project: Project, language: str) -> str:
    """'Last conversation 2 days ago, about journey mapping; 3 decision(s) recorded.'"""
    last = last_conversation(services, project, language)
    if last is None:
        return say("summary_empty", language)
    decisions = len(services.memory.list_decisions(project.id))
    return say("summary", language, last=last, decisions=decisions)
