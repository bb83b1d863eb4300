"""Grounding: what the project and the matched method give an answer to stand on.

The prompt's project block, the recent turns, the offline provider's
grounding and the words the checklist counts as "project context used" are
all read from the same ProjectContext here, so they never disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from design_agent.core.text import word_set
from design_agent.knowledge.prompt import PastTurn
from design_agent.knowledge.prompt import ProjectContext as PromptContext
from design_agent.providers.request import Grounding, GuideSection

if TYPE_CHECKING:
    from design_agent.core.models import Agent, Task
    from design_agent.knowledge.guides import Section
    from design_agent.memory.models import ProjectContext

# Project metadata that is not context for the answer.
PRIVATE_METADATA = frozenset({"preferences"})


def prompt_context(context: ProjectContext) -> PromptContext:
    """The project block of the prompt: name, metadata, briefs and decisions."""
    metadata = {
        k: v if isinstance(v, str) else str(v)
        for k, v in context.metadata.items()
        if k not in PRIVATE_METADATA
    }
    return PromptContext(
        name=context.project.name,
        metadata=metadata,
        briefs=[(f.filename, f.content) for f in context.briefs],
        decisions=[(d.decision, d.rationale) for d in context.decisions],
    )


def past_turns(turns: list[Any]) -> list[PastTurn]:
    """Stored turns as the prompt's recent history: the design requests and answers (an
    exchange such as "what have we decided?" says nothing the project block does not)."""
    return [
        PastTurn(t.role, t.message, t.timestamp.date().isoformat())
        for t in turns
        if not (t.validation or {}).get("exchange")
    ]


def project_terms(context: ProjectContext) -> set[str]:
    """The project's own words (name and metadata), which an answer that uses it repeats."""
    values = [context.project.name, *map(str, context.metadata.values())]
    return word_set(" ".join(values), min_length=4)


def grounding(
    message: str,
    task: Task,
    agent: Agent,
    sections: list[Section],
    context: ProjectContext,
    language: str,
    outline: list[str] | None = None,
) -> Grounding:
    """What the offline provider answers from: the request, method, persona and project.
    `sections` are all of the method's sections in the answer's language (it has no
    context window to fit), not only those the prompt had room for; `outline` the parts
    the prompt asks for (a brief request's merged ones), the task's own by default."""
    briefs = ", ".join(f.filename for f in context.briefs)
    return Grounding(
        message=message,
        task_id=task.id,
        task_name=task.name.get(language),
        expected_output=outline if outline is not None else task.outline(language),
        persona_role=agent.role.get(language),
        persona_goal=agent.goal_in(language),
        sections=[
            GuideSection(
                guide=s.source,
                heading=s.heading,
                text=s.text,
                kind="material" if s.kind == "material" else "guide",
                language=s.language,
            )
            for s in sections
        ],
        project_name=context.project.name,
        project_context={
            **prompt_context(context).metadata,
            **({"briefs": briefs} if briefs else {}),
        },
        decisions=[d.decision for d in context.decisions],
        briefs={f.filename: f.content for f in context.briefs},
    )
