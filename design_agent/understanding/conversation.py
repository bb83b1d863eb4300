"""The conversation state of one project: what is pending, the last task, the language.

One pydantic model, loaded once at the start of a turn and saved once at its
end, stored per project (a switch never carries a question across). What is
pending is a tagged union, so every question design-agent can leave open is
named here, with what it needs to be answered:

    state = claim_state(memory, project.id)
    ...                       # the turn reads and changes `state`
    finish_state(memory, state)

A question lapses after PENDING_MINUTES: a "yes" hours later answers nothing.
Several processes may share a home (a shell and `ask`), so a turn takes the
open question off disk as it starts (`claim_state`): only the next turn in the
project can answer it, never a "yes" sent while that turn is still running.
At the end (`finish_state`), a question another process asked meanwhile is
kept, unless this turn asked one too: then neither is left for a "yes" to guess.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from design_agent.core.errors import NotFoundError
from design_agent.core.evidence import EvidenceAnswers

if TYPE_CHECKING:
    from design_agent.memory import Memory

# The languages design-agent has messages in; a conversation in another language of the
# lexicon (a home's own, say Portuguese) is kept as English, whose messages it gets.
MessageLanguage = Annotated[
    Literal["en", "es"], BeforeValidator(lambda code: "es" if code == "es" else "en")
]
PENDING_MINUTES = 15
LAST_LANGUAGE = "last_language"  # the language of the last turn in any project
NO_PROJECT = "-"  # the key of the state kept before any project exists


class _Pending(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    asked_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    language: MessageLanguage = "en"
    # The question as it was put, so it can be asked again after an aside.
    question: str = ""
    # Asked a second time already: the next message that is not an answer drops it.
    reasked: bool = False

    @property
    def choices(self) -> int | None:
        """How the reply reader reads its answer: the number of numbered options, 0 for a
        yes/no question, None for a question answered in the person's own words."""
        return 0


class MethodChoice(_Pending):
    """ "Which of these methods did you mean?" with numbered options."""

    kind: Literal["choice"] = "choice"
    message: str
    options: list[str]

    @property
    def choices(self) -> int | None:
        return len(self.options)


class ConfirmDelete(_Pending):
    """ "Delete project X? This removes N turns ..." The counts are the ones shown."""

    kind: Literal["confirm_delete"] = "confirm_delete"
    project_id: str
    name: str
    turns: int
    files: int
    decisions: int


class ConfirmSwitch(_Pending):
    """ "Did you mean project X?" after a fuzzy name."""

    kind: Literal["confirm_switch"] = "confirm_switch"
    project_id: str
    name: str


class ProjectChoice(_Pending):
    """ "Which project did you mean? 1. Acme Admin Portal 2. Acme Mobile" after a name that
    fits several; `then` is what to do with it (switch to it, delete it...)."""

    kind: Literal["project_choice"] = "project_choice"
    project_ids: list[str] = Field(min_length=2, max_length=9)
    names: list[str]
    then: Literal["switch"] = "switch"

    @property
    def choices(self) -> int | None:
        return len(self.project_ids)


class ConfirmGoto(_Pending):
    """ "Go back to turn N?" after "go back to before we chose X"."""

    kind: Literal["confirm_goto"] = "confirm_goto"
    node: int
    number: int


class CompareChoice(_Pending):
    """ "Which answer do you keep, 1 or 2?" after /compare."""

    kind: Literal["compare_choice"] = "compare_choice"
    answers: list[int]  # the agent turns, in the order shown
    providers: list[str]
    task_name: str

    @property
    def choices(self) -> int | None:
        return len(self.answers)


class ProjectNameNeeded(_Pending):
    """ "What should the new project be called?" """

    kind: Literal["project_name"] = "project_name"
    description: str | None = None

    @property
    def choices(self) -> int | None:
        return None


class Interview(_Pending):
    """The new project's three questions: users, problem, constraints."""

    kind: Literal["interview"] = "interview"
    project_id: str
    index: int = Field(default=0, ge=0, le=2)

    @property
    def choices(self) -> int | None:
        return None


DraftStep = Literal["name", "name_es", "description", "agent", "outputs", "length", "spanish"]


class MethodDraftQuestion(_Pending):
    """A team's own method, asked one question at a time ("I want to add our own method for
    ..."): the answers so far, and the step whose answer is awaited. `agents` are the
    persona ids in the order they were numbered."""

    kind: Literal["method_draft"] = "method_draft"
    step: DraftStep = "name"
    about: str | None = Field(None, max_length=200)
    name: str = Field(default="", max_length=120)
    name_es: str = Field(default="", max_length=120)
    description: str = Field(default="", max_length=1000)
    agents: list[str] = Field(default_factory=list, max_length=64)
    agent: str = Field(default="", max_length=64)
    outputs: list[str] = Field(default_factory=list, max_length=20)
    length: Literal["short", "medium", "long"] = "medium"
    spanish_guide: bool = False

    @property
    def choices(self) -> int | None:
        return {"agent": len(self.agents), "length": 3, "spanish": 0}.get(self.step)


class ProposedDecision(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    decision: str = Field(min_length=1, max_length=500)
    rationale: str = Field("", max_length=2000)


class DecisionProposal(_Pending):
    """Decisions the model proposed in an answer: stored only when the user says yes."""

    kind: Literal["decision_proposal"] = "decision_proposal"
    decisions: list[ProposedDecision] = Field(min_length=1, max_length=5)
    turn_id: int | None = None
    task_id: str | None = None

    @property
    def choices(self) -> int | None:
        return len(self.decisions)


class DecisionChange(_Pending):
    """ "Replace 'Madrid first' with 'Valencia first'?" or "Retire 'Madrid first'?" (one
    candidate: yes / no), or "which one?" with the candidates numbered (the number / no).
    `candidates` are decision ids in the order shown; `decision` is the new version's text
    (supersede), `rationale` why it changes."""

    kind: Literal["decision_change"] = "decision_change"
    change: Literal["supersede", "retire"]
    candidates: list[int] = Field(min_length=1, max_length=5)
    decision: str = Field(default="", max_length=1000)
    rationale: str = Field(default="", max_length=1000)

    @property
    def choices(self) -> int | None:
        return len(self.candidates) if len(self.candidates) > 1 else 0


class BudgetConfirm(_Pending):
    """ "This project has spent its monthly budget: run this request anyway?" (budget.py).
    `request` is the message held back; "yes" runs it, "no" leaves it unsent."""

    kind: Literal["budget_confirm"] = "budget_confirm"
    project_id: str
    request: str = Field(min_length=1)
    spent_usd: float
    budget_usd: float


class EvidenceQuestion(_Pending):
    """ "Which speaker is the moderator in interview-3.vtt: Ana or P1?", which column of a
    reviews CSV holds the text, or whether a transcript without speaker labels is one
    participant's notes: asked while a folder is added by talking (actions/evidence.py).
    `answers` are those given so far, kept for the rest of the folder; nothing is stored
    before every file reads, so a cancel leaves nothing."""

    kind: Literal["evidence_question"] = "evidence_question"
    path: str = Field(min_length=1, max_length=4096)
    file: str = Field(min_length=1, max_length=1024)
    ask: Literal["moderator", "columns", "labels"]
    options: list[str] = Field(default_factory=list, max_length=9)
    header: list[str] = Field(default_factory=list, max_length=500)
    answers: EvidenceAnswers = Field(default_factory=EvidenceAnswers)

    @property
    def choices(self) -> int | None:
        return len(self.options)


Pending = Annotated[
    EvidenceQuestion
    | MethodChoice
    | ConfirmDelete
    | ConfirmSwitch
    | ProjectChoice
    | ConfirmGoto
    | CompareChoice
    | ProjectNameNeeded
    | Interview
    | DecisionProposal
    | DecisionChange
    | BudgetConfirm
    | MethodDraftQuestion,
    Field(discriminator="kind"),
]


class LastAnswer(BaseModel):
    """What the last design answer was, so "make it shorter" can answer it again."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    task_id: str
    score: float | None = None
    band: str | None = None
    request: str
    user_turn_id: int | None = None
    agent_turn_id: int | None = None
    answered_at: datetime | None = None


class ConversationState(BaseModel):
    """Everything a turn needs to know about the conversation so far, for one project."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    project_id: str = NO_PROJECT
    pending: Pending | None = None
    clarify_count: int = Field(default=0, ge=0)
    language: MessageLanguage | None = None
    last: LastAnswer | None = None
    # The turn the conversation continues from (moved by /goto and /fork); None: the latest.
    node: int | None = None

    def live_pending(self, now: datetime | None = None) -> Pending | None:
        """The pending question, unless it has lapsed."""
        if self.pending is None:
            return None
        now = now or datetime.now(UTC)
        if now - self.pending.asked_at > timedelta(minutes=PENDING_MINUTES):
            return None
        return self.pending


def state_key(project_id: str | None) -> str:
    return f"conversation:{project_id or NO_PROJECT}"


def load_state(memory: Memory, project_id: str | None) -> ConversationState:
    """The project's state; a fresh one when none is stored or it no longer reads."""
    raw = memory.get_state(state_key(project_id))
    if isinstance(raw, dict):
        try:
            return ConversationState.model_validate({**raw, "project_id": project_id or NO_PROJECT})
        except ValidationError:
            pass  # written by another version: start the conversation state afresh
    return ConversationState(project_id=project_id or NO_PROJECT)


def claim_state(memory: Memory, project_id: str | None) -> ConversationState:
    """The project's state for the turn starting now; its open question, if any, is removed
    from disk in the same transaction, so no other process's turn can answer it too."""
    state = load_state(memory, project_id)
    if state.pending is None:
        return state  # nothing to take: no write, no lock (a question asked meanwhile is
        # kept by finish_state)
    with memory.transaction():
        state = load_state(memory, project_id)
        if state.pending is not None:
            save_state(memory, state.model_copy(update={"pending": None}))
    return state


def finish_state(memory: Memory, state: ConversationState) -> None:
    """Save the state at the end of a turn that began with `claim_state`. A question on disk
    now was asked by another process meanwhile: it stays if this turn left none, and when
    both left one, both are dropped (a "yes" could not tell which it answers). The turn's
    language is remembered for the next session in the same transaction."""
    with memory.transaction():
        theirs = load_state(memory, state.project_id).pending
        if theirs is not None:
            mine = state.pending
            state = state.model_copy(update={"pending": None if mine is not None else theirs})
        save_state(memory, state)
        if state.language is not None:
            memory.set_state(LAST_LANGUAGE, state.language)


def save_state(memory: Memory, state: ConversationState) -> None:
    """Store the state under its project (one JSON value); a deleted project's is forgotten."""
    key = state_key(state.project_id)
    if state.project_id != NO_PROJECT and not memory.project_exists(state.project_id):
        memory.delete_state(key)
        return
    memory.set_state(key, state.model_dump(mode="json"))


def conversation_node(memory: Memory, project_id: str) -> int | None:
    """The turn the project's conversation continues from (/goto, "go back to turn 4"),
    else its latest turn; None before its first turn. What "this branch" means to
    `decisions list` and the API, as to the shell."""
    node = load_state(memory, project_id).node
    if node is not None:
        try:
            if memory.get_turn(node).project_id == project_id:
                return node
        except NotFoundError:
            pass  # a turn gone since: follow the latest one, as the conversation does
    latest = memory.recent_turns(project_id, 1)
    return latest[-1].id if latest else None
