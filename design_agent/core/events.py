"""The events one turn yields: the shell renders them, `ask --events` prints them as JSON lines.

Each pipeline step emits one event with its timing in milliseconds. Provider
events (tier, text, usage) pass through between steps 6 and 7. A step that
waits on a model's side call (the fast tier choosing the method) announces
the wait with `Working` and its end with `WorkDone` (providers/side_call.py),
so no view is left blank meanwhile.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from design_agent.core.checklist import Validation
from design_agent.core.evidence import EvidenceReport


# Every event model is built (its validator and serializer made) when first used, not at
# import: a process makes only some of them, and building them all is a good part of start-up.
class PipelineEvent(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class StepEvent(PipelineEvent):
    step: int
    ms: float = 0.0


class PreferencesLoaded(StepEvent):
    kind: Literal["preferences"] = "preferences"
    language: str
    verbosity: str
    provider: str
    tier: str


class ContextLoaded(StepEvent):
    kind: Literal["context"] = "context"
    project: str | None
    files: int = 0
    decisions: int = 0
    turns: int = 0


class IntentDetected(StepEvent):
    kind: Literal["intent"] = "intent"
    language: str
    keywords: list[str]
    meta: str | None = None
    action: dict[str, Any] | None = None


class TaskOption(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    number: int
    task_id: str
    name: str
    score: float


class TaskMatched(StepEvent):
    kind: Literal["task"] = "task"
    task_id: str
    name: str
    score: float
    band: str
    ambiguous: bool = False
    reason: str = "matched"
    alternates: list[TaskOption] = Field(default_factory=list)


class ChoiceNeeded(StepEvent):
    kind: Literal["choice"] = "choice"
    question: str
    options: list[TaskOption]


class PersonaChosen(StepEvent):
    kind: Literal["persona"] = "persona"
    agent_id: str
    role: str


class GuidesLoaded(StepEvent):
    kind: Literal["guides"] = "guides"
    sections: list[str]
    dropped: list[str] = Field(default_factory=list)


class PromptReady(StepEvent):
    kind: Literal["prompt"] = "prompt"
    provider: str
    tokens: dict[str, int]
    budget: int


class DecisionProposed(PipelineEvent):
    """The model proposed a decision; it is stored only when the user confirms it."""

    kind: Literal["decision_proposed"] = "decision_proposed"
    decision: str
    rationale: str


class QuestionAsked(PipelineEvent):
    kind: Literal["question"] = "question"
    question: str


class Validated(StepEvent):
    kind: Literal["validation"] = "validation"
    validation: Validation
    summary: str


class EvidenceChecked(StepEvent):
    """Step 7 for a research answer: every quote checked against the sources, the counts
    computed, the coverage; `lines` say it in the turn's language (markdown)."""

    kind: Literal["evidence"] = "evidence"
    report: EvidenceReport
    lines: list[str]


class TurnSaved(StepEvent):
    kind: Literal["saved"] = "saved"
    project: str
    user_turn_id: int | None
    agent_turn_id: int | None
    status: str


class ActionDone(PipelineEvent):
    """A meta-request was carried out (or needs an answer or a confirmation first)."""

    kind: Literal["action"] = "action"
    action: str
    message: str
    data: dict[str, Any] = Field(default_factory=dict)
    needs_confirmation: bool = False
    asks: str | None = None


class ProviderFallback(PipelineEvent):
    """The turn moved along the fallback chain: `from_provider` could not answer (before
    any text), `to_provider` will; `message` is the one line the views show."""

    kind: Literal["fallback"] = "fallback"
    from_provider: str
    to_provider: str
    reason: Literal["not_installed", "not_logged_in", "rate_limited", "quota_exhausted"]
    detail: str = ""
    message: str


# What a blocking side call to a model is doing: its own field (`kind` names the event).
WorkKind = Literal[
    "choosing_method", "reading_reply", "weighing_follow_up", "reading_evidence", "reviewing_answer"
]


class Working(PipelineEvent):
    """The turn waits on a blocking side call to a model (the fast tier choosing the method,
    reading a reply): views show `label` as a status line until the next event. Without it
    the screen stays blank for up to `timeout` seconds and the wait looks like a hang."""

    kind: Literal["working"] = "working"
    work: WorkKind
    label: str  # in the turn's language, for views that have no words of their own
    provider: str | None = None  # the display name of the CLI being asked
    timeout: float | None = None  # seconds: the call gives up after this (then a default)


class WorkDone(PipelineEvent):
    """The side call `Working` announced is over: `done` whatever it answered (a failure
    falls back to the deterministic decision), `cancelled` when the turn was cancelled
    during it (the turn then ends as cancelled)."""

    kind: Literal["work_done"] = "work_done"
    work: WorkKind
    ms: float
    status: Literal["done", "cancelled"] = "done"


class TurnFinished(PipelineEvent):
    """The last event of every turn: everything `ask --json` prints."""

    kind: Literal["finished"] = "finished"
    project: str
    language: str
    status: str
    action: str | None = None
    task: str | None = None
    task_name: str | None = None
    score: float | None = None
    band: str | None = None
    alternates: list[TaskOption] = Field(default_factory=list)
    agent: str | None = None
    agent_role: str | None = None
    provider: str | None = None
    model: str | None = None
    tier: str | None = None
    text: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    options: list[TaskOption] = Field(default_factory=list)
    citations: list[str] = Field(default_factory=list)
    validation: Validation | None = None
    # A research answer's quotes (text as found in the source, segment, participant,
    # status) and coverage (evidence/verify.py); None for an answer that quotes nothing.
    evidence: EvidenceReport | None = None
    decisions: list[dict[str, str]] = Field(default_factory=list)
    usage: dict[str, Any] | None = None
    first_token_seconds: float | None = None
    timings: dict[str, float] = Field(default_factory=dict)
