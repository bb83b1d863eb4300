"""Steps 5-6 as one function: the provider request a chosen method makes.

A turn and `ask --show-prompt` both build the request here, so what the
preview prints is what a turn sends.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from design_agent.core.events import GuidesLoaded, PipelineEvent, PromptReady
from design_agent.knowledge.prompt import AssembledPrompt, PastTurn, assemble
from design_agent.knowledge.prompt_frame import frame
from design_agent.knowledge.shape import outline
from design_agent.providers.request import ProviderRequest
from design_agent.providers.routing import choose_tier
from design_agent.turn.evidence import TurnEvidence
from design_agent.turn.grounding import grounding, past_turns, prompt_context

if TYPE_CHECKING:
    from design_agent.core.models import Agent, Task
    from design_agent.knowledge.guides import Knowledge
    from design_agent.memory.models import ProjectContext
    from design_agent.providers.spec import AdapterSpec
    from design_agent.turn.types import Chosen, Preferences, Timer


@dataclass(frozen=True)
class RequestInputs:
    """What the request is built from: the user's words, the method, the project."""

    message: str  # the words that route the tier ("plan a test" vs "deep dive")
    chosen: Chosen
    agent: Agent
    context: ProjectContext
    prefs: Preferences
    spec: AdapterSpec
    recalled: list[PastTurn]
    # A research method's evidence (turn/evidence.py): the prompt's block, the offline draft.
    evidence: TurnEvidence = field(default_factory=TurnEvidence)


@dataclass(frozen=True)
class BuiltRequest:
    """The assembled prompt and the provider request built from it (steps 5-6)."""

    built: ProviderRequest
    assembled: AssembledPrompt
    provider: str
    budget: int
    offline: bool = False

    @property
    def loaded(self) -> set[tuple[str, str]]:
        """(source, heading) of what the answer could cite: what the prompt carried, or,
        offline, every section of the method it answers from."""
        if self.offline and self.built.grounding is not None:
            return {(s.guide, s.heading.lower()) for s in self.built.grounding.sections}
        return {(s.source, s.heading.lower()) for s in self.assembled.sections}

    def events(self, timer: Timer) -> Iterator[PipelineEvent]:
        yield GuidesLoaded(
            step=5,
            ms=timer.lap("guides"),
            sections=[s.citation for s in self.assembled.sections],
            dropped=self.assembled.dropped,
        )
        yield PromptReady(
            step=6,
            ms=timer.lap("prompt"),
            provider=self.provider,
            tokens=self.assembled.tokens,
            budget=self.budget,
        )


def build_request(knowledge: Knowledge, inputs: RequestInputs) -> BuiltRequest:
    """The prompt for the chosen method and the provider request that carries it."""
    chosen, prefs, spec, context = inputs.chosen, inputs.prefs, inputs.spec, inputs.context
    task: Task | None = chosen.task
    assert task is not None
    assembled = assemble(
        message=chosen.request_text,
        task=task,
        agent=inputs.agent,
        knowledge=knowledge,
        language=prefs.language,
        verbosity=prefs.verbosity,
        context_limit=spec.context_limit,
        project=prompt_context(context),
        recent=past_turns(context.recent_turns),
        recalled=inputs.recalled,
        assumptions=chosen.assumptions,
        instruction=chosen.instruction,
        evidence=inputs.evidence.block,
    )
    tier, tier_reason = choose_tier(inputs.message, prefs.tier)
    built = ProviderRequest(
        system_prompt=assembled.system,
        prompt=assembled.prompt,
        tier=tier,
        tier_reason=tier_reason,
        model=prefs.settings.model,
        language=prefs.language,
        verbosity=prefs.verbosity,  # type: ignore[arg-type]
        grounding=grounding(
            chosen.request_text,
            task,
            inputs.agent,
            knowledge.task_sections(task, prefs.language),
            context,
            prefs.language,
            outline(task, prefs.language, prefs.verbosity, frame(prefs.language)["merged"]),
        ).model_copy(update={"evidence_draft": inputs.evidence.draft}),
    )
    return BuiltRequest(built, assembled, spec.name, spec.context_limit, spec.is_offline)
