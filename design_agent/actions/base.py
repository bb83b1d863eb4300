"""What every action handler shares: its context, its result, and the tables they register in.

A handler carries out one (module, method) meta-request. It is registered
beside its input model, gets the turn's context, and returns a result value:
the message for the user, and what should be pending afterwards. It never
saves the conversation state, never calls back into the pipeline, and raises
a DesignAgentError when it cannot do what was asked (the interface converts
it, once).

    @action("projects", "delete", ProjectName)
    def delete(data: ProjectName, ctx: ActionContext) -> ActionResult: ...

    @answers("confirm_delete")
    def answer_delete(reply: str, pending: ConfirmDelete, ctx: ActionContext)
        -> ActionResult | None: ...   # None: the message is not an answer to it
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from design_agent.core.errors import UsageError
from design_agent.core.events import ActionDone
from design_agent.core.messages import say

if TYPE_CHECKING:
    from design_agent.memory.models import Project
    from design_agent.turn.session import Services
    from design_agent.understanding.conversation import ConversationState, Pending
    from design_agent.understanding.inputs import ActionInput
    from design_agent.understanding.replies import Reply


@dataclass
class ActionContext:
    """What a handler may read: the services, the user's language, the active project,
    the message as typed, and the conversation state (read only)."""

    services: Services
    language: str
    project: Project | None
    state: ConversationState
    message: str = ""
    # The web page asks: a file made (a report) is offered as a download, not written.
    downloads: bool = False

    def done(
        self, action: str, key: str, data: dict[str, Any] | None = None, **kw: Any
    ) -> ActionDone:
        """An ActionDone whose message is the message table's `key` in the user's language."""
        return ActionDone(action=action, message=say(key, self.language, **kw), data=data or {})

    def say(self, key: str, **kw: Any) -> str:
        """The message table's `key` in the user's language."""
        return say(key, self.language, **kw)

    @property
    def pending_language(self) -> Literal["en", "es"]:
        """The language a question left open is asked (and its answer read) in."""
        return "es" if self.language == "es" else "en"

    def require_project(self) -> Project:
        """The active project; UsageError saying how to start one when there is none."""
        if self.project is None:
            raise UsageError(self.say("no_active_project"))
        return self.project


@dataclass(frozen=True)
class AnswerAgain:
    """After the action, the turn answers `request` with the method `task_id`: a method
    picked from the list, "make it shorter", "try that with gemini", a request the budget
    held. The handler decides; the turn (design_agent/turn/) runs it."""

    request: str
    task_id: str | None = None  # None: the method is chosen as for any request
    reason: str = "chosen by you"
    instruction: str = ""  # what to do differently ("shorter"), in the user's language
    verbosity: str | None = None
    language: str | None = None
    provider: str | None = None
    # A second answer to the last request (another provider): a branch beside the first.
    same_request: bool = False
    over_budget: bool = False


@dataclass(frozen=True)
class CompareAnswers:
    """After the action, the last request is answered by these two providers at once."""

    providers: tuple[str, str]


FollowOn = AnswerAgain | CompareAnswers


@dataclass
class ActionResult:
    """What a handler did: the event to show and what is pending afterwards (None: nothing).

    `project_id` names the project the turn ends in when the action moved the user
    (created, switched to, deleted the active one). `then` is an answer the turn runs next
    (handlers never run one themselves); `done` may then be None."""

    done: ActionDone | None
    pending: Pending | None = None
    project_id: str | None = None
    # The turn the conversation continues from afterwards (/goto, /fork); None: unchanged.
    node: int | None = None
    then: FollowOn | None = None

    def shown(self) -> ActionDone:
        """The event to show: every handler gives one, but when it asks for an answer."""
        if self.done is None:
            raise ValueError("this action asks for an answer: run it through a turn")
        return self.done


InputT = TypeVar("InputT", bound="ActionInput")
Handler = Callable[[Any, ActionContext], ActionResult]
# (the message, what the reply reader read in it (None: not reply words), the question, ctx)
Answerer = Callable[[str, "Reply | None", Any, ActionContext], "ActionResult | None"]

# Filled as the handler modules are imported: read them after `load_handlers()`.
HANDLERS: dict[tuple[str, str], Handler] = {}
ANSWERERS: dict[str, Answerer] = {}

# The modules whose handlers register themselves when imported, in registration order.
HANDLER_MODULES = (
    "catalogue",
    "conversation",
    "decisions",
    "decision_changes",
    "evidence",
    "files",
    "memory",
    "method_draft",
    "projects",
    "providers",
    "report",
    "tree",
    "usage",
)


@cache
def load_handlers() -> None:
    """Import every handler module, so the tables are full. Done on first need: a design
    request never reads them, and loading them all costs every process a good part of
    its start-up."""
    for name in HANDLER_MODULES:
        importlib.import_module(f"design_agent.actions.{name}")


def action(
    module: str, method: str, model: type[InputT] | None = None
) -> Callable[[Callable[[InputT, ActionContext], ActionResult]], Handler]:
    """Register a handler for `module.method` with its input model."""

    def register(handler: Callable[[InputT, ActionContext], ActionResult]) -> Handler:
        # What a meta-request may carry is declared once, in understanding/inputs.py (read
        # here, with the handlers: a design turn loads neither).
        from design_agent.understanding.inputs import INPUTS, NoInput

        if INPUTS.get((module, method)) is not (model or NoInput):
            raise TypeError(f"{module}.{method}: its input model is not the one in INPUTS")
        HANDLERS[(module, method)] = handler
        return handler

    return register


def answers(kind: str) -> Callable[[Answerer], Answerer]:
    """Register the reader of replies to a pending question of this kind."""

    def register(answerer: Answerer) -> Answerer:
        ANSWERERS[kind] = answerer
        return answerer

    return register
