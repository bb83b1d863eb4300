"""Pydantic models of the catalogue file formats (agents.yaml, tasks.yaml).

Every model forbids extra fields, so a typo in a user's overlay file is an
error with its line, not a silently ignored key.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

Identifier = Annotated[
    str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", min_length=2, max_length=64)
]
NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
FileName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]+\.(md|csv|txt)$")]


class StrictModel(BaseModel):
    """Base for every model read from a file: unknown keys are errors. Built when a file is
    first read, not at import: the catalogue usually comes from its cache (cache.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Localized(StrictModel):
    """A text in English and Spanish."""

    en: NonEmpty
    es: NonEmpty

    def get(self, language: str) -> str:
        return self.es if language == "es" else self.en


class Keywords(StrictModel):
    """What users type, per language, that points to a task (Spanish ones optional: a
    team's own method may have none yet)."""

    en: list[NonEmpty] = Field(min_length=1)
    es: list[NonEmpty] = Field(default_factory=list)


class Handoffs(StrictModel):
    """Which personas this one hands work to, and receives it from."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    to: list[Identifier] = Field(default_factory=list)
    from_: list[Identifier] = Field(default_factory=list, alias="from")


class AgentSpanish(StrictModel):
    """The persona's goal written in Spanish, for the Spanish prompt frame."""

    goal: NonEmpty


class TaskSpanish(StrictModel):
    """The task's description and deliverable outline written in Spanish."""

    description: NonEmpty
    expected_output: list[NonEmpty] = Field(min_length=1)


Length = Literal["short", "medium", "long"]

# What a method's answer holds that the review recomputes (knowledge/review/): its tables
# (RICE, ICE, SUS, Kano, NPS, a revenue index) and an A/B test's sample per arm.
Recomputed = Literal["rice", "ice", "sus", "kano", "nps", "revenue", "ab_sample"]


class SampleSize(StrictModel):
    """The range the method's guide supports: e.g. 5 to 8 participants per segment."""

    min: int = Field(ge=1)
    max: int | None = Field(default=None, ge=1)
    # "segment": the count is per user group ("5 per segment"); "study": the total.
    per: Literal["segment", "study"] = "segment"
    # Who is counted, when not the study's participants ("evaluators"): words in both
    # languages; by default the people words of the review's words.yaml.
    who: list[NonEmpty] = Field(default_factory=list)

    @model_validator(mode="after")
    def _range(self) -> SampleSize:
        if self.max is not None and self.max < self.min:
            raise ValueError(f"max {self.max} is below min {self.min}")
        return self


class TaskReview(StrictModel):
    """What a good deliverable of the method has, beyond what every answer is held to
    (its outline's parts, real citations, limitations, a confidence line, the project's
    decisions respected, percentages that can be): the tables whose scores and ranking
    are recomputed, the sample size the guide supports, and the points only a reader (a
    model on the fast tier, or a person) can judge."""

    recompute: list[Recomputed] = Field(default_factory=list)
    sample_size: SampleSize | None = None
    rubric: list[Localized] = Field(default_factory=list, max_length=6)


class InputNeed(StrictModel):
    """An input a method works from (reach, effort, the screen under review): its name in
    each language and what shows it is given (config/inputs.yaml)."""

    id: Identifier
    name: Localized
    # Words whose presence in the request, the project's facts, briefs or decisions says
    # the input is given (folded, matched at the start of a word).
    cues: Keywords
    # Project metadata keys that hold it.
    metadata: list[Identifier] = Field(default_factory=list)


class Agent(StrictModel):
    """A specialist persona that answers the tasks assigned to it."""

    id: Identifier
    role: Localized
    goal: NonEmpty
    backstory: NonEmpty
    capabilities: list[NonEmpty] = Field(min_length=1)
    tools: list[NonEmpty] = Field(default_factory=list)
    operating_procedures: list[NonEmpty] = Field(min_length=1)
    handoffs: Handoffs = Field(default_factory=Handoffs)
    example_tasks: list[Identifier] = Field(default_factory=list)
    # One sentence on how the persona leans (what it insists on), for the system prompt.
    stance: Localized | None = None
    es: AgentSpanish | None = None

    def goal_in(self, language: str) -> str:
        """The goal in `language` when written, otherwise in English."""
        return self.es.goal if language == "es" and self.es else self.goal


class Task(StrictModel):
    """A design method the user may need, answered by one agent with its guides."""

    id: Identifier
    name: Localized
    description: NonEmpty
    expected_output: list[NonEmpty] = Field(min_length=1)
    keywords: Keywords
    guides: list[FileName] = Field(min_length=1)
    materials: list[FileName] = Field(default_factory=list)
    agent: Identifier
    # How long the deliverable usually is: microcopy is short, a test plan long.
    length: Length = "medium"
    # What the method looks like described without its name: lists of lexicon groups
    # (lexicon/<language>/shapes.yaml), each shape two groups or more
    # (understanding/shapes.py).
    shapes: list[Annotated[list[Identifier], Field(min_length=2)]] = Field(default_factory=list)
    # A research method that works from the project's evidence (design_agent/evidence/):
    # its prompt gets the evidence block, its answer's quotes are checked, its counts computed.
    evidence: Literal["synthesis", "survey"] | None = None
    # The inputs the method works from (ids in config/inputs.yaml): the prompt names the
    # ones the request and the project do not give.
    inputs: list[Identifier] = Field(default_factory=list)
    es: TaskSpanish | None = None
    # What the answer's review checks for this method (issue 26); every method gets the
    # common checks without it.
    review: TaskReview = Field(default_factory=lambda: TaskReview())

    def description_in(self, language: str) -> str:
        """The description in `language` when written, otherwise in English."""
        return self.es.description if language == "es" and self.es else self.description

    def outline(self, language: str) -> list[str]:
        """The deliverable's parts in `language` when written, otherwise in English."""
        return list(
            self.es.expected_output if language == "es" and self.es else self.expected_output
        )

    @field_validator("name", mode="before")
    @classmethod
    def _spanish_name_defaults_to_english(cls, value: Any) -> Any:
        """A team's method may have no Spanish name yet: it reads as the English one in
        Spanish (`design-agent check` warns that it is missing)."""
        if isinstance(value, dict) and value.get("en") and value.get("es") is None:
            return {**value, "es": value["en"]}
        return value

    @field_validator("guides")
    @classmethod
    def _guides_are_markdown(cls, value: list[str]) -> list[str]:
        for name in value:
            if not name.endswith(".md"):
                raise ValueError(f"guide '{name}' must be a markdown (.md) file")
        return value
