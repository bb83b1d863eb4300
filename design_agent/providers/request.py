"""What the pipeline asks a provider: prompts for the AI CLIs, grounding for offline.

The CLI providers read `system_prompt` and `prompt`; the built-in offline
provider answers from `grounding` (the matched task, persona, guide sections
and project context), since it has no model to read a prompt with.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from design_agent.core.lexicon import Language
from design_agent.providers.events import Tier


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GuideSection(_Frozen):
    """One section of a method guide that the prompt includes."""

    guide: str = Field(description="guide file name, e.g. journey_mapping.md")
    heading: str
    text: str
    kind: Literal["guide", "material"] = "guide"
    language: str = "en"


class Grounding(_Frozen):
    """Everything the pipeline matched for this request, for the offline provider."""

    message: str | None = Field(default=None, description="the user's own words, no context")
    task_id: str | None = None
    task_name: str | None = None
    expected_output: list[str] = Field(
        default_factory=list, description="the deliverable's parts, in the answer's language"
    )
    persona_role: str | None = None
    persona_goal: str | None = None
    sections: list[GuideSection] = Field(default_factory=list)
    project_name: str | None = None
    project_context: dict[str, Any] = Field(default_factory=dict)
    decisions: list[str] = Field(default_factory=list)
    # The project's briefs by file name, whose lines the offline answer quotes where they belong.
    briefs: dict[str, str] = Field(default_factory=dict)
    # A research method's draft groups from the project's evidence (evidence/draft.py),
    # markdown blocks the offline answer shows first.
    evidence_draft: list[str] = Field(default_factory=list)


class ProviderRequest(_Frozen):
    """One request to one provider.

    `model` overrides the adapter's model for `tier`; `tier_reason` is what
    `routing.choose_tier` said, reported back in the TierChosen event.
    """

    system_prompt: str = ""
    prompt: str
    tier: Tier = "fast"
    tier_reason: str = ""
    model: str | None = None
    language: Language = "en"  # a lexicon language; English words where one has none
    verbosity: Literal["brief", "normal", "detailed"] = "normal"
    grounding: Grounding | None = None
