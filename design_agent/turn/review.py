"""Step 7 as one function: the review an answer gets.

A turn, a comparison's two answers and the MCP tool `review_answer` all call `reviewed`
(the checks of `review`, then every quote checked against the project's evidence:
turn/evidence.check_evidence), so a draft written elsewhere (by the agent a designer
already uses) is held to exactly what design-agent's own answers are held to, and a
change to what the review checks (new checks, decisions the answer contradicts, how a
quote is verified) reaches all of them at once.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from design_agent.knowledge.validation import validate_answer
from design_agent.turn.grounding import project_terms

if TYPE_CHECKING:
    from design_agent.core.checklist import Validation
    from design_agent.core.evidence import EvidenceReport
    from design_agent.core.models import Task
    from design_agent.memory.facade import Memory
    from design_agent.memory.models import ProjectContext


def review(
    answer: str,
    task: Task,
    language: str,
    context: ProjectContext,
    sent: Collection[tuple[str, str]],
    offline: bool = False,
) -> Validation:
    """The review of `answer` to `task`, in `language`, for the project in `context` (its
    facts and the decisions on the path it continues from). `sent` holds the (source,
    heading.lower()) pairs of the guide sections the writer had: a citation of any other
    is named as unknown. `offline`: the answer is the offline skeleton (some items cannot
    be judged from its text)."""
    return validate_answer(answer, task, language, set(sent), project_terms(context), offline)


def reviewed(
    memory: Memory,
    project_id: str,
    answer: str,
    task: Task,
    language: str,
    context: ProjectContext,
    sent: Collection[tuple[str, str]],
    offline: bool = False,
) -> tuple[Validation, EvidenceReport | None]:
    """`review`, then the answer's quotes verified against the project's evidence (a
    research method's answer, or any answer citing segment ids): the validation with the
    evidence in it and its checklist item, and the evidence report (None: nothing to check)."""
    from design_agent.turn.evidence import check_evidence

    validation = review(answer, task, language, context, sent, offline)
    return check_evidence(memory, project_id, task, answer, validation)


def checks_of(task: Task, language: str, context: ProjectContext) -> list[str]:
    """What the review checks for this method and project, one label each: the items it
    gives a draft that has nothing in it yet, so the list is the review's own."""
    return [item.label for item in review("", task, language, context, ()).items]
