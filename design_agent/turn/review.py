"""Step 7 as one function: the review an answer gets.

A turn, a comparison's two answers and the MCP tool `review_answer` all call `reviewed`
(the checks of `review`, then every quote checked against the project's evidence:
turn/evidence.check_evidence), so a draft written elsewhere (by the agent a designer
already uses) is held to exactly what design-agent's own answers are held to, and a
change to what the review checks (new checks, decisions the answer contradicts, how a
quote is verified) reaches all of them at once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from design_agent.knowledge.validation import RecordedDecision, validate_answer

if TYPE_CHECKING:
    from design_agent.core.checklist import Validation
    from design_agent.core.evidence import EvidenceReport
    from design_agent.core.models import Task
    from design_agent.memory.facade import Memory
    from design_agent.memory.models import ProjectContext

Headings = Callable[[str], Collection[str] | None]


def review(
    answer: str,
    task: Task,
    language: str,
    context: ProjectContext,
    sent: Collection[tuple[str, str]],
    offline: bool = False,
    headings_of: Headings | None = None,
) -> Validation:
    """The review of `answer` to `task`, in `language`, for the project in `context` (the
    decisions on the path it continues from). `sent` holds the (source, heading) pairs of
    the guide sections the writer had; `headings_of` what each guide of the catalogue has,
    so a citation of a section no guide has is named as invented. `offline`: the answer is
    the offline skeleton (its outline says nothing about it)."""
    return validate_answer(
        answer, task, language, sent, headings_of or (lambda _: None),
        recorded_decisions(context), offline,
    )  # fmt: skip


def recorded_decisions(context: ProjectContext) -> list[RecordedDecision]:
    """The project's current decisions, as the review reads them."""
    return [
        RecordedDecision(d.id, d.decision, d.timestamp.date().isoformat())
        for d in context.decisions
        if d.status == "current"
    ]


def reviewed(
    memory: Memory,
    project_id: str,
    answer: str,
    task: Task,
    language: str,
    context: ProjectContext,
    sent: Collection[tuple[str, str]],
    offline: bool = False,
    headings_of: Headings | None = None,
) -> tuple[Validation, EvidenceReport | None]:
    """`review`, then the answer's quotes verified against the project's evidence (a
    research method's answer, or any answer citing segment ids): the validation with the
    evidence in it and its checklist item, and the evidence report (None: nothing to check)."""
    from design_agent.turn.evidence import check_evidence

    validation = review(answer, task, language, context, sent, offline, headings_of)
    return check_evidence(memory, project_id, task, answer, validation)


def checks_of(task: Task, language: str, context: ProjectContext) -> list[str]:
    """What the review checks for this method and project, one label each: the items it
    gives a draft that has nothing in it yet, so the list is the review's own."""
    return [item.label for item in review("", task, language, context, ()).items]
