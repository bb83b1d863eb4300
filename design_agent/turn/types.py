"""The types one turn's pieces share: the request, the preferences, the chosen task, a timer.

They sit below the pipeline and below its pieces (clarify, recording, answer
stream, grounding), so the pieces never import the orchestrator back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from design_agent.core.text import reading_of

if TYPE_CHECKING:
    from design_agent.core.events import PipelineEvent
    from design_agent.core.models import Task
    from design_agent.core.settings import Settings
    from design_agent.memory.models import Project, ProjectContext
    from design_agent.understanding.conversation import ConversationState, Pending

RECENT_TURNS = 10


@dataclass(frozen=True)
class TurnRequest:
    """What the user asked, with the per-turn overrides of `ask`."""

    message: str
    project: str | None = None
    provider: str | None = None
    tier: str | None = None
    # Continue from this turn number or branch name (ask --from / --branch), not the latest.
    start: str | None = None
    # Run even when the project's monthly budget is spent (ask --over-budget, a "yes").
    over_budget: bool = False
    # Files the turn makes (a report) are offered for download (the web page), never
    # written to the current folder.
    downloads: bool = False

    @cached_property
    def reading(self) -> str:
        """The part of the message its language and method are read from (bounded: a 1 MB
        paste is read in milliseconds); the whole message is stored and sent."""
        return reading_of(self.message)


@dataclass(frozen=True)
class Preferences:
    """Step 0, read once per turn: the user's settings, with the project's stored
    preferences filling only what the user left unset (see preferences.py)."""

    settings: Settings
    language: str
    verbosity: str
    provider: str
    tier: str
    ignored: tuple[str, ...] = ()  # stored preferences left out, and why


@dataclass
class Chosen:
    """The outcome of step 3: the task to answer with, or a question to ask instead."""

    task: Task | None
    event: PipelineEvent
    request_text: str
    assumptions: str = ""
    # For the model only ("answer this again, shorter"); the offline answer quotes request_text.
    instruction: str = ""
    # Answer this saved request again (another provider): the answer is its sibling.
    user_turn: int | None = None


@dataclass
class TurnState:
    """One turn's running state: the project, its context and its conversation state."""

    request: TurnRequest
    project: Project | None
    context: ProjectContext | None
    prefs: Preferences
    conversation: ConversationState
    # The question the message did not answer, to put again after the reply (questions.py).
    interrupted: Pending | None = None

    @property
    def language(self) -> str:
        return self.prefs.language


@dataclass
class Timer:
    """Milliseconds per step, for the events and the log."""

    started: float = field(default_factory=time.perf_counter)
    marks: dict[str, float] = field(default_factory=dict)

    def lap(self, name: str) -> float:
        now = time.perf_counter()
        ms = (now - self.started) * 1000
        self.marks[name] = round(ms, 2)
        self.started = now
        return round(ms, 2)
