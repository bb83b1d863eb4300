"""Steps 3-8 of a design request: the method chosen (or a question asked instead), the
persona, the request built, the answer streamed, checked and saved, the decisions it
proposed asked about; and the answers an action asks for (`AnswerAgain`: a method picked
from a list, "make it shorter", "try that with gemini", a request the budget held).

The pipeline owns the turn and the conversation state; this owns the answer. It calls
back into the pipeline for two things only, given at construction: the action context of
a turn, and how to show an action's result (the budget's question stops an answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from design_agent.core.errors import CancelledError, DesignAgentError
from design_agent.core.events import (
    ActionDone,
    PersonaChosen,
    TaskMatched,
    TurnFinished,
    TurnSaved,
    Validated,
)
from design_agent.core.messages import say
from design_agent.core.models import Agent, Task
from design_agent.knowledge.prompt import PastTurn
from design_agent.memory.faults import STORAGE_ERRORS
from design_agent.memory.models import Project, ProjectContext
from design_agent.memory.recovery import Unsaved, not_saved, reserve
from design_agent.providers.resolve import Resolution, missing_notice
from design_agent.providers.side_call import side_call
from design_agent.turn.budget import budget_gate
from design_agent.turn.clarify import TaskChooser
from design_agent.turn.evidence import evidence_event, evidence_for
from design_agent.turn.fallback import FallbackChain
from design_agent.turn.model_review import REVIEW_TIMEOUT, grade, points
from design_agent.turn.questions import reasked
from design_agent.turn.recording import save_answer, save_exchange, save_request
from design_agent.turn.request_builder import BuiltRequest, RequestInputs, build_request
from design_agent.turn.review import reviewed
from design_agent.turn.types import RECENT_TURNS, Chosen, Preferences, Timer, TurnState
from design_agent.understanding.conversation import ConversationState, LastAnswer

if TYPE_CHECKING:
    from design_agent.actions.base import ActionContext, ActionResult, AnswerAgain
    from design_agent.core.checklist import Validation
    from design_agent.providers.run import ProviderRun
    from design_agent.turn.answer_stream import AnswerStream
    from design_agent.turn.session import Services

DEFAULT_PROJECT = "General"
PAST_REFERENCE = re.compile(
    r"\b(earlier|before|last time|previous|we said|we discussed|remember|antes|la vez pasada"
    r"|anterior|dijimos|hablamos|recuerdas)\b",
    re.IGNORECASE,
)
Show = Callable[["ActionResult", TurnState, Timer], Iterator[Any]]


def default_project(memory: Any) -> Project:
    """The project a request (or a decision recorded over MCP) gets when none is active
    yet, so nothing is lost: "General", made the first time and found again after."""
    found = memory.lookup_project(DEFAULT_PROJECT).exact
    general = found if found is not None else memory.create_project(DEFAULT_PROJECT)
    project: Project = memory.switch_project(general.id)
    return project


class Answering:
    """Answers design requests for one pipeline (its provider runs are the pipeline's)."""

    def __init__(
        self,
        services: Services,
        context_of: Callable[[TurnState], ActionContext],
        show: Show,
        watch: Callable[[ProviderRun | None], bool],
    ) -> None:
        self.services = services
        self.memory = services.memory
        self.chooser = TaskChooser(services)
        self.context_of = context_of
        self.show = show
        self.watch = watch

    # -- the project's context -----------------------------------------------------------------

    def project_context(self, project: Project, state: ConversationState) -> ProjectContext:
        """The project's context on the path to the turn the conversation continues from:
        the turns and decisions of that branch, never a sibling's."""
        state.node = self.live_node(project, state)
        return self.memory.project_context(project.id, turns=RECENT_TURNS, node_id=state.node)

    def live_node(self, project: Project, state: ConversationState) -> int | None:
        """The turn the conversation continues from, if it still exists in this project."""
        if state.node is None:
            return None
        try:
            turn = self.memory.get_turn(state.node)
        except DesignAgentError:
            return None
        return state.node if turn.project_id == project.id else None

    def resolution(self, prefs: Preferences) -> Resolution:
        override = None if prefs.provider == "auto" else prefs.provider
        return self.services.resolve(override, prefs.settings)

    # -- a design request ----------------------------------------------------------------------

    def design_turn(self, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """Choose the method (or ask which) and answer with it."""
        yield from self._ensure_project(turn)
        resolution = self.resolution(turn.prefs)
        chosen = yield from self.chooser.choose(turn.request.message, turn, timer, resolution.spec)
        yield chosen.event
        if chosen.task is None:
            yield from self._save_question(turn, chosen, timer)
            return
        yield from self.answer(turn, chosen, timer, resolution=resolution)

    def again(self, turn: TurnState, wanted: AnswerAgain, timer: Timer) -> Iterator[Any]:
        """An answer an action asked for: its method given (or chosen as usual), its settings."""
        if wanted.task_id is None:
            turn.request = replace(
                turn.request, message=wanted.request, over_budget=wanted.over_budget
            )
            yield from self.design_turn(turn, timer)
            return
        yield from self._ensure_project(turn)
        if wanted.verbosity or wanted.language or wanted.provider:
            turn.prefs = _changed(turn.prefs, wanted)
            turn.conversation.language = wanted.language or turn.conversation.language  # type: ignore[assignment]
        task = self.services.catalogue.task(wanted.task_id)
        last = turn.conversation.last
        event = _matched(task, last, timer, wanted.reason)
        asked = self.back_to_request(turn) if wanted.same_request else None
        if asked is not None and turn.project is not None:
            turn.context = self.project_context(turn.project, turn.conversation)
        chosen = Chosen(
            task,
            event,
            wanted.request,
            instruction=wanted.instruction,
            user_turn=asked,
        )
        turn.conversation.clarify_count = 0
        yield event
        yield from self.answer(turn, chosen, timer)

    def _ensure_project(self, turn: TurnState) -> Iterator[ActionDone]:
        if turn.project is not None and turn.context is not None:
            return
        project = default_project(self.memory)
        turn.project = project
        turn.context = self.memory.project_context(project.id, turns=RECENT_TURNS)
        turn.conversation = turn.conversation.model_copy(update={"project_id": project.id})
        message = say("default_project", turn.language, name=project.name)
        yield ActionDone(action="projects.create", message=message, data={"name": project.name})

    def back_to_request(self, turn: TurnState) -> int | None:
        """The last request as saved, with the conversation put back where it was asked
        (so its first answer is not in the context of another one); its turn id."""
        last = turn.conversation.last
        if last is None or not last.user_turn_id:
            return None
        asked = self.memory.get_turn(last.user_turn_id)
        turn.conversation.node = asked.parent_id or asked.id
        return asked.id

    def _save_question(self, turn: TurnState, chosen: Chosen, timer: Timer) -> Iterator[Any]:
        event = chosen.event
        assert turn.project is not None and hasattr(event, "options")
        options = "\n".join(f"{o.number}. {o.name}" for o in event.options)
        question = getattr(event, "question", "")
        node = turn.conversation.node
        picks = {"options": [o.model_dump() for o in event.options], "question": question}
        user_id, agent_id = save_exchange(
            self.memory,
            turn.project,
            turn.request.message,
            f"{question}\n{options}",
            node,
            kind="choice",
            extra=picks,
        )
        moved_on(turn, agent_id)
        yield TurnSaved(
            step=8,
            ms=timer.lap("memory"),
            project=turn.project.name,
            user_turn_id=user_id,
            agent_turn_id=agent_id,
            status="complete",
        )
        yield TurnFinished(
            project=turn.project.name,
            language=turn.language,
            status="needs_choice",
            text=question,
            options=event.options,
            timings=timer.marks,
        )

    # -- steps 4-8 -------------------------------------------------------------------------------

    def answer(
        self,
        turn: TurnState,
        chosen: Chosen,
        timer: Timer,
        resolution: Resolution | None = None,
    ) -> Iterator[Any]:
        assert chosen.task is not None and turn.project is not None and turn.context is not None
        task, language = chosen.task, turn.language
        agent = self.services.catalogue.agent(task.agent)
        yield PersonaChosen(
            step=4, ms=timer.lap("persona"), agent_id=agent.id, role=agent.role.get(language)
        )
        resolution = resolution or self.resolution(turn.prefs)
        gate = budget_gate(
            self.context_of(turn), resolution.spec, chosen.request_text, turn.request.over_budget
        )
        yield from [gate.warning] if gate.warning else []
        if gate.held is not None:  # the month's budget is spent: asked first, nothing runs
            yield from self.show(gate.held, turn, timer)
            return
        yield from self._offline_notice(resolution, language)
        recalled = self.recalled(turn.request.reading, turn.project, turn.context)
        # The fallback chain (fallback.py): a provider that is not ready, or fails before any
        # text, hands the turn to the next one; without a chain nothing changes.
        chain = FallbackChain(self.services, turn.prefs.settings, language, self.watch)
        spec = yield from chain.ready(resolution.spec)
        found = yield from evidence_for(
            self.memory, turn.project.id, task, chosen.request_text, spec, turn.prefs,
            self.services.environ,
        )  # fmt: skip
        inputs = RequestInputs(
            turn.request.message, chosen, agent, turn.context, turn.prefs, spec, recalled, found
        )
        request = build_request(self.services.knowledge, inputs)
        yield from request.events(timer)
        reserve(self.services.home.recovery_dir)  # room for the answer should the disk fill up
        user_turn = chosen.user_turn or save_request(
            self.memory,
            turn.project,
            turn.request.message,
            task,
            agent,
            spec.name,
            turn.conversation.node,
        )
        stream, request = yield from chain.answer(
            spec,
            request,
            lambda other: build_request(self.services.knowledge, replace(inputs, spec=other)),
        )
        yield from self._finish(turn, chosen, agent, request, stream, user_turn, timer)

    def _offline_notice(self, resolution: Resolution, language: str) -> Iterator[ActionDone]:
        notice = missing_notice(resolution, language)
        if notice and not self.memory.get_state("offline_notice_shown"):
            self.memory.set_state("offline_notice_shown", True)
            yield ActionDone(action="providers.notice", message=notice)

    def _finish(
        self,
        turn: TurnState,
        chosen: Chosen,
        agent: Agent,
        request: BuiltRequest,
        stream: AnswerStream,
        user_turn: int,
        timer: Timer,
    ) -> Iterator[Any]:
        assert chosen.task is not None and turn.project is not None and turn.context is not None
        task = chosen.task
        validation, report = reviewed(
            self.memory, turn.project.id, stream.text, task, turn.language, turn.context,
            request.loaded, request.offline, self.services.knowledge.headings_of,
        )  # fmt: skip
        validation = yield from self._graded(stream, request, validation, turn)
        yield Validated(
            step=7, ms=timer.lap("validation"), validation=validation, summary=validation.summary()
        )
        if report is not None and report.quotes:
            yield evidence_event(report, turn.language, timer.lap("evidence"))
        asked = chosen.request_text if chosen.request_text != turn.request.message else None
        agent_turn = self._save(
            turn, task, agent, stream, validation, user_turn, request, asked, chosen
        )
        yield TurnSaved(
            step=8,
            ms=timer.lap("memory"),
            project=turn.project.name,
            user_turn_id=user_turn,
            agent_turn_id=agent_turn,
            status=stream.status,
        )
        turn.conversation.last = _last_answer(chosen, user_turn, agent_turn)
        moved_on(turn, agent_turn)
        yield from self._propose(turn, stream, agent_turn, task.id)
        yield from self._conflicts(turn, stream, validation, chosen.request_text)
        yield from reasked(turn)
        yield _finished(turn, chosen, agent, stream, validation, timer)
        if stream.error is not None:
            raise stream.error
        if stream.status == "cancelled":
            raise CancelledError("answer cancelled; the partial answer was saved")

    def _save(
        self,
        turn: TurnState,
        task: Task,
        agent: Agent,
        stream: AnswerStream,
        validation: Any,
        user_turn: int,
        request: BuiltRequest,
        asked: str | None = None,
        chosen: Chosen | None = None,
    ) -> int:
        """Save the answer (step 8); one the database does not take (a full disk) is kept in
        the recovery journal instead, and the turn fails saying where. `asked`: the design
        request it answers when the saved message says something else ("2")."""
        assert turn.project is not None
        try:
            with self.memory.transaction():
                return save_answer(
                    self.memory,
                    turn.project,
                    task,
                    agent,
                    stream,
                    validation,
                    user_turn,
                    request.built.tier,
                    request.built.tier_reason,
                    turn.prefs.settings.keyframe_every,
                    request=asked,
                    band=_band(chosen),
                    language=turn.language,
                )
        except STORAGE_ERRORS as e:  # SQLite's, or a database server out of reach
            raise self._not_saved(turn, (task.id, agent.id), stream, user_turn, request, e) from e

    def _not_saved(
        self,
        turn: TurnState,
        ids: tuple[str, str],
        stream: AnswerStream,
        user_turn: int,
        request: BuiltRequest,
        error: Exception,
    ) -> DesignAgentError:
        """The answer the database did not take, kept in the recovery journal; the error."""
        assert turn.project is not None
        entry = Unsaved(
            kept_at=datetime.now(UTC),
            project_id=turn.project.id,
            project_name=turn.project.name,
            user_turn_id=user_turn,
            message=turn.request.message,
            answer=stream.text,
            status=stream.status,
            task_id=ids[0],
            agent_id=ids[1],
            provider=stream.provider,
            model=stream.model,
            tier=request.built.tier,
            reason=str(error),
        )
        return not_saved(error, self.memory.path, self.services.home.recovery_dir, entry)

    def _propose(
        self, turn: TurnState, stream: AnswerStream, agent_turn: int, task_id: str
    ) -> Iterator[ActionDone]:
        """The decisions a complete answer proposed, asked about once; nothing stored yet."""
        if stream.status != "complete" or not stream.decisions:
            return
        from design_agent.actions.decisions import propose

        proposed = [(d.decision, d.rationale) for d in stream.decisions]
        proposal = propose(proposed, agent_turn, task_id, self.context_of(turn))
        if proposal is not None and proposal.done is not None:
            turn.conversation.pending = proposal.pending
            yield proposal.done

    def _graded(
        self, stream: AnswerStream, request: BuiltRequest, validation: Validation, turn: TurnState
    ) -> Generator[Any, None, Validation]:
        """The review's model-graded pass (model_review.py), after the answer has streamed:
        on a real CLI's complete answer, when the setting is on. A cancel during it keeps
        the deterministic checks, as a failure does."""
        spec = self.services.adapters.get(stream.provider)
        settings = turn.prefs.settings
        if request.offline or stream.status != "complete" or spec is None or spec.is_offline:
            return validation
        if not settings.model_review or not points(validation):
            return validation
        try:
            graded: Validation = yield from side_call(
                "reviewing_answer",
                turn.language,
                lambda: grade(
                    stream.text, validation, spec, settings, self.services.environ, turn.language
                ),
                spec.display_name,
                REVIEW_TIMEOUT,
            )
        except CancelledError:
            return validation.model_copy(update={"model_review": "unavailable"})
        return graded

    def _conflicts(
        self, turn: TurnState, stream: AnswerStream, validation: Validation, request: str
    ) -> Iterator[ActionDone]:
        """A complete answer that plans against a recorded decision: whether the decision
        changed is asked (unless another question is open: the answer's own proposals)."""
        flagged = [i for i in validation.failed if i.decision_id is not None]
        if stream.status != "complete" or not flagged or turn.conversation.pending is not None:
            return
        from design_agent.actions.decision_changes import ask_about_conflict

        decision_id = flagged[0].decision_id
        assert decision_id is not None
        asked = ask_about_conflict(decision_id, stream.text, request, self.context_of(turn))
        if asked is not None and asked.done is not None:
            turn.conversation.pending = asked.pending
            yield asked.done

    def recalled(self, message: str, project: Project, context: ProjectContext) -> list[PastTurn]:
        """Older turns found by search when the message refers to the past."""
        if not PAST_REFERENCE.search(message):
            return []
        recent_ids = {t.id for t in context.recent_turns}
        results = self.memory.search(message, project.id, limit=5)
        return [
            PastTurn("earlier", hit.snippet, hit.timestamp.date().isoformat())
            for group in results.groups
            for hit in group.hits
            if hit.kind == "turn" and hit.id not in recent_ids
        ]


def moved_on(turn: TurnState, agent_turn: int) -> None:
    """A conversation moved to a turn by /goto or /fork follows its own branch: the answer
    just saved is where it continues (unset, it follows the project's latest turn)."""
    if turn.conversation.node is not None:
        turn.conversation.node = agent_turn


def _changed(prefs: Preferences, wanted: AnswerAgain) -> Preferences:
    return replace(
        prefs,
        verbosity=wanted.verbosity or prefs.verbosity,
        language=wanted.language or prefs.language,
        provider=wanted.provider or prefs.provider,
    )


def _band(chosen: Chosen | None) -> tuple[str, str] | None:
    """How sure the chosen method was, and why it was chosen, as the footer says it."""
    event = chosen.event if chosen is not None else None
    return (event.band, event.reason) if isinstance(event, TaskMatched) else None


def _matched(task: Task, last: LastAnswer | None, timer: Timer, reason: str) -> TaskMatched:
    """The method answered with, chosen again (a redo, another provider) or picked."""
    again = last is not None and last.task_id == task.id
    return TaskMatched(
        step=3,
        ms=timer.lap("task"),
        task_id=task.id,
        name=task.name.en,
        score=(last.score or 100.0) if again and last else 100.0,
        band=(last.band or "HIGH") if again and last else "HIGH",
        reason=reason,
    )


def _last_answer(chosen: Chosen, user_turn: int, agent_turn: int) -> LastAnswer:
    """What "make it shorter" needs to answer the same request again."""
    assert chosen.task is not None
    matched = chosen.event if isinstance(chosen.event, TaskMatched) else None
    return LastAnswer(
        task_id=chosen.task.id,
        score=matched.score if matched else None,
        band=matched.band if matched else None,
        request=chosen.request_text,
        user_turn_id=user_turn,
        agent_turn_id=agent_turn,
        answered_at=datetime.now(UTC),
    )


def _finished(
    turn: TurnState,
    chosen: Chosen,
    agent: Agent,
    stream: AnswerStream,
    validation: Any,
    timer: Timer,
) -> TurnFinished:
    assert chosen.task is not None and turn.project is not None
    matched = chosen.event if isinstance(chosen.event, TaskMatched) else None
    language, task = turn.language, chosen.task
    return TurnFinished(
        project=turn.project.name,
        language=language,
        status=stream.status,
        task=task.id,
        task_name=task.name.get(language),
        score=matched.score if matched else None,
        band=matched.band if matched else None,
        alternates=matched.alternates if matched else [],
        agent=agent.id,
        agent_role=agent.role.get(language),
        provider=stream.provider,
        model=stream.model,
        tier=stream.run.request.tier if hasattr(stream.run, "request") else None,
        text=stream.text,
        citations=validation.citations,
        validation=validation,
        evidence=validation.evidence,
        decisions=[{"decision": d.decision, "rationale": d.rationale} for d in stream.decisions],
        usage=stream.usage.model_dump(exclude={"kind"}) if stream.usage else None,
        first_token_seconds=stream.first_token_seconds,
        timings=timer.marks,
    )
