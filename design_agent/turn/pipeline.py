"""One turn, in the 8 steps of ARCHITECTURE.md, as a generator of events.

    pipeline = Pipeline(services)
    for event in pipeline.run(TurnRequest("plan a usability test")):
        render(event)

Orchestration only: the project's conversation state is loaded once and saved once; a
reply to the open question goes to that question's reader (one reply reader for every
kind, understanding/replies.py), a meta-request to its action handler, and a design
request to answering.py. A message that does not answer the open question is handled as
what it is and the question is put again once (questions.py): it is never answered by
accident. An action that asks for an answer (a picked method, "make it shorter", "compare
with codex") returns it as a follow-on, which the pipeline runs. Domain errors are not
converted here: they reach the interface, which reports them once (the state is saved
first).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from design_agent.actions import (
    ActionContext,
    ActionEnvelope,
    ActionResult,
    answer_pending,
    run_action,
    stray_reply,
)
from design_agent.actions.base import AnswerAgain, CompareAnswers
from design_agent.core.errors import DesignAgentError, UsageError
from design_agent.core.events import (
    ActionDone,
    ContextLoaded,
    IntentDetected,
    PreferencesLoaded,
    TaskMatched,
    TurnFinished,
)
from design_agent.core.messages import say
from design_agent.core.preferences import resolve_preferences
from design_agent.core.settings import EffectiveSettings
from design_agent.memory.faults import STORAGE_ERRORS
from design_agent.memory.models import Project, ProjectContext
from design_agent.providers.run import ProviderRun
from design_agent.providers.runner import RunGroup
from design_agent.turn.answering import DEFAULT_PROJECT, Answering, default_project
from design_agent.turn.questions import interrupted, reasked
from design_agent.turn.recording import record_exchange
from design_agent.turn.request_builder import RequestInputs, build_request
from design_agent.turn.session import Services
from design_agent.turn.types import Chosen, Preferences, Timer, TurnRequest, TurnState
from design_agent.understanding.conversation import (
    ConversationState,
    Pending,
    claim_state,
    finish_state,
    load_state,
)
from design_agent.understanding.intents import detect_action
from design_agent.understanding.language import keywords_of, language_signal

if TYPE_CHECKING:
    # Loaded where used: a design turn needs no comparison or preview.
    from design_agent.turn.compare import Side
    from design_agent.turn.preview import PromptPreview

__all__ = ["DEFAULT_PROJECT", "Pipeline", "TurnRequest", "default_project"]

_END = object()  # the end of a step iterator (an event is never this)


class Pipeline:
    """Runs turns against one home's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.memory = services.memory
        self.event_log = services.event_log  # also routes log records to the home's logs/
        self._run: ProviderRun | None = None
        self._cancelled = False
        # Only this pipeline's runs: a server runs other projects' turns in the same process.
        self._group = RunGroup()
        self._sides: list[Side] = []  # a /compare's runs start on threads of their own
        self._ignored: set[str] = set()  # stored preferences already said to be ignored
        # A meta-request said in words is kept in the conversation; a slash command is not.
        self._recording = True
        self.answering = Answering(services, self._context, self._apply, self._watch)

    def cancel(self) -> None:
        """Cancel this turn's provider runs: the answer being streamed or still to come,
        the model's choice of method (safe from a signal handler)."""
        self._cancelled = True
        self._group.cancel()
        for side in list(self._sides):
            if side.stream is not None:
                side.stream.run.cancel()
        if self._run is not None:
            self._run.cancel()

    def open_question(self) -> str | None:
        """The question still open in the active project, for a new session to put again
        (a "yes" must never answer a question that is not on screen)."""
        project = self.memory.active_project()
        pending = load_state(self.memory, project.id if project else None).live_pending()
        return pending.question if pending is not None and pending.question else None

    def run(self, request: TurnRequest) -> Iterator[Any]:
        """The turn's events, as they happen; each is also kept for the event log."""
        seen: list[Any] = []
        try:
            for event in self._scoped(self._steps(request)):
                seen.append(event)
                yield event
        finally:
            self._cancelled = False  # a cancel ends this turn, never the next one
            self._group.reset()
            self.event_log.write(seen)

    def _scoped(self, steps: Iterator[Any]) -> Iterator[Any]:
        """The steps' events, each computed with this pipeline's run group in scope, so a
        run any step starts (the answer, the model's choice of method) is cancelled by
        `cancel()`, and no other pipeline's."""
        try:
            while True:
                with self._group.scope():
                    event = next(steps, _END)
                if event is _END:
                    return
                yield event
        finally:
            with self._group.scope():
                close = getattr(steps, "close", None)
                if callable(close):
                    close()

    def act(self, envelope: ActionEnvelope) -> Iterator[Any]:
        """Carry out one action directly (a slash command), with the same state handling."""
        seen: list[Any] = []
        timer = Timer()
        project = self.memory.active_project()
        state = claim_state(self.memory, project.id if project else None)
        language = str(state.language or self.memory.get_state("last_language") or "en")
        request = TurnRequest(f"/{envelope.name}")
        prefs = self._preferences(project, request, language, self.services.settings)
        context = self.answering.project_context(project, state) if project else None
        turn = TurnState(request, project, context, prefs, state)
        self._recording = False
        try:
            for event in self._scoped(self._meta(envelope, turn, timer)):
                seen.append(event)
                yield event
        finally:
            self._recording = True
            finish_state(self.memory, turn.conversation)
            self.event_log.write(seen)

    def continue_point(self, project_name: str | None = None) -> str:
        """Where the project's conversation goes on from, in words (--continue says it)."""
        project = self.memory.find_project(project_name) if project_name else None
        project = project or self.memory.active_project()
        language = str(self.memory.get_state("last_language") or "en")
        if project is None:
            return say("no_active_project", language)
        node = self.answering.live_node(project, load_state(self.memory, project.id))
        latest = self.memory.recent_turns(project.id, 1) if node is None else []
        node = node if node is not None else (latest[-1].id if latest else None)
        if node is None:
            return say("history_empty", language, name=project.name)
        number = self.memory.turn_number(node)
        at_tip = [b for b in self.memory.branches(project.id) if b.tip_id == node]
        branch = at_tip[-1] if at_tip else self.memory.find_branch(project.id, number)
        where = f" ({branch.name})" if branch.name else ""
        return say("continuing", language, name=project.name, number=number, branch=where)

    def resumed_at(self) -> int | None:
        """The turn number the active project's conversation continues from, when /goto or
        /fork set it (None: it follows the latest turn)."""
        project = self.memory.active_project()
        if project is None:
            return None
        node = self.answering.live_node(project, load_state(self.memory, project.id))
        return self.memory.turn_number(node) if node is not None else None

    def last_request(self) -> str | None:
        """The active project's last answered request, as the user worded it."""
        project = self.memory.active_project()
        last = load_state(self.memory, project.id if project else None).last
        return last.request if last is not None else None

    # -- steps 0-2, shared by a turn and its preview -------------------------------------------

    def _prepare(self, request: TurnRequest, claim: bool) -> TurnState:
        """The turn's project, conversation state (claimed, or only read for a preview),
        language and preferences."""
        project = self.memory.find_project(request.project) if request.project else None
        project = project or self.memory.active_project()
        start = self._start(project, request)
        load = claim_state if claim else load_state
        state = load(self.memory, project.id if project else None)
        state.node = start if start is not None else state.node
        settings = self.services.settings
        language = self._pick_language(request.reading, settings.values.language, state)
        if claim:
            state.language = language  # type: ignore[assignment]  # saved by finish_state
        prefs = self._preferences(project, request, language, settings)
        return TurnState(request, project, None, prefs, state)

    def _steps(self, request: TurnRequest) -> Iterator[Any]:
        timer = Timer()
        self.services.refresh_catalogue()  # a method added since the last turn is known
        turn = self._prepare(request, claim=True)
        prefs = turn.prefs
        yield PreferencesLoaded(
            step=0,
            ms=timer.lap("preferences"),
            language=prefs.language,
            verbosity=prefs.verbosity,
            provider=prefs.provider,
            tier=prefs.tier,
        )
        yield from self._ignored_notice(prefs)
        if turn.project is not None:
            turn.context = self.answering.project_context(turn.project, turn.conversation)
        yield _context_event(turn.context, timer)
        try:
            yield from self._route(turn, timer)
        except BaseException:
            # The turn's own error says more than the state's failing too (a full disk).
            with contextlib.suppress(*STORAGE_ERRORS):
                finish_state(self.memory, turn.conversation)
            raise
        finish_state(self.memory, turn.conversation)

    def preview(self, request: TurnRequest) -> PromptPreview:
        """What `request` would send to the provider (ask --show-prompt, /prompt): the same
        preparation, method choice, prompt and command line as a turn; nothing is run or
        saved."""
        from design_agent.turn.preview import make_preview

        turn = self._prepare(request, claim=False)
        language = turn.language
        envelope = self._detect(request.message)
        if envelope is not None:
            raise UsageError(say("preview_action", language, action=envelope.name))
        state = turn.conversation
        recent = [state.last.task_id] if state.last else []
        match = self.services.matcher.match(request.reading, recent_task_ids=recent)
        if match.best is None:
            raise UsageError(say("preview_no_method", language))
        task = self.services.catalogue.task(match.best.task_id)
        agent = self.services.catalogue.agent(task.agent)
        context = self._preview_context(turn.project, state)
        event = TaskMatched(
            step=3, ms=0.0, task_id=task.id, name=task.name.en, score=match.best.score, band="HIGH"
        )
        chosen = Chosen(task, event, request.message)
        resolution = self.answering.resolution(turn.prefs)
        recalled = (
            self.answering.recalled(request.reading, turn.project, context) if turn.project else []
        )
        inputs = RequestInputs(
            request.message, chosen, agent, context, turn.prefs, resolution.spec, recalled
        )
        built = build_request(self.services.knowledge, inputs)
        return make_preview(built, resolution, match, task.name.get(language))

    def _preview_context(self, project: Project | None, state: ConversationState) -> ProjectContext:
        """The active project's context; a new project's (empty) when none exists yet."""
        if project is not None:
            return self.answering.project_context(project, state)
        now = datetime.now(UTC)
        empty = Project(id="-", name=DEFAULT_PROJECT, created_at=now, last_accessed=now)
        return ProjectContext(project=empty, metadata={}, briefs=[], decisions=[], recent_turns=[])

    def _start(self, project: Project | None, request: TurnRequest) -> int | None:
        """The turn `ask --from/--branch` names (NotFoundError before anything is claimed)."""
        if request.start is None:
            return None
        if project is None:
            raise UsageError(say("no_active_project", "en"))
        from design_agent.actions.tree import resolve_target

        return resolve_target(self.memory, project, request.start)[0]

    def _preferences(
        self,
        project: Project | None,
        request: TurnRequest,
        language: str,
        settings: EffectiveSettings,
    ) -> Preferences:
        """The user's settings; the project's stored preferences fill only what the user
        left unset, and bad stored values are ignored (see preferences.py)."""
        stored = self.memory.metadata(project.id).get("preferences") if project else None
        flags = {"provider": request.provider, "tier": request.tier}
        resolved = resolve_preferences(settings, stored, set(self.services.adapters), flags)
        return Preferences(
            settings=settings.values,
            language=language,
            verbosity=resolved.values["verbosity"],
            provider=resolved.values["provider"],
            tier=resolved.values["tier"],
            ignored=tuple(resolved.ignored),
        )

    def _ignored_notice(self, prefs: Preferences) -> Iterator[ActionDone]:
        """Say once per session which of the project's stored preferences were ignored."""
        fresh = [problem for problem in prefs.ignored if problem not in self._ignored]
        if fresh:
            self._ignored.update(fresh)
            message = say("preferences_ignored", prefs.language, problems="; ".join(fresh))
            yield ActionDone(action="preferences.ignored", message=message)

    def _pick_language(self, message: str, setting: str, state: ConversationState) -> str:
        """The language setting wins when set; otherwise each message is answered in its own
        language whenever its words show one, whatever its length ("plan a usability test"
        after Spanish is English, "cambia a admin" after English is Spanish), and a message
        that shows none ("ok", "2", a file name) keeps the conversation's."""
        if setting != "auto":
            return setting
        language, signal = language_signal(message)
        if signal > 0:
            return language
        known = state.language or self.memory.get_state("last_language")
        return str(known or "en")

    # -- step 2: what the message is -----------------------------------------------------------

    def _detect(self, message: str) -> ActionEnvelope | None:
        return detect_action(message, list(self.services.adapters), self.memory.project_names())

    def _route(self, turn: TurnState, timer: Timer) -> Iterator[Any]:
        message, state = turn.request.message, turn.conversation
        state.pending = state.live_pending()  # lapsed: a late "yes" answers nothing
        envelope = self._detect(message)
        yield IntentDetected(
            step=2,
            ms=timer.lap("intent"),
            language=turn.language,
            keywords=keywords_of(turn.request.reading, turn.language),
            meta=envelope.name if envelope else None,
            action=envelope.model_dump() if envelope else None,
        )
        if state.pending is not None:
            answered = self._answer_question(state.pending, envelope, turn)
            if answered is not None:
                yield from self._apply(answered, turn, timer)
                return
        if envelope is not None:
            yield from self._meta(envelope, turn, timer)
            return
        stray = stray_reply(message, self._context(turn))
        if stray is not None:  # "yes" or "la primera" to nothing: said so, no method guessed
            yield from self._apply(stray, turn, timer)
            return
        yield from self.answering.design_turn(turn, timer)

    def _answer_question(
        self, pending: Pending, envelope: ActionEnvelope | None, turn: TurnState
    ) -> ActionResult | None:
        """The reply to the open question, or None when the message is something else (the
        question is then put again after it, once: questions.py)."""
        message = turn.request.message
        words_only = pending.choices is not None
        cancel = envelope is not None and envelope.name == "conversation.cancel"
        if envelope is None or words_only or cancel:
            try:
                answered = answer_pending(message, pending, self._context(turn))
            except DesignAgentError:
                turn.conversation.pending = None  # answered, and it failed: the question is over
                raise
            if answered is not None:
                turn.conversation.pending = None
                return answered
        if envelope is None and not self._something_else(message, turn):
            return self._unclear(pending, turn)
        interrupted(turn)
        return None

    def _something_else(self, message: str, turn: TurnState) -> bool:
        """A message that is clearly not a reply: a design request of its own, or a question
        (design-agent never guesses an answer out of a question)."""
        from design_agent.actions.interview import is_request

        text = message.strip()
        if text.endswith("?") or text.startswith("¿"):
            return True
        return is_request(text, self._context(turn))

    def _unclear(self, pending: Pending, turn: TurnState) -> ActionResult | None:
        """Neither an answer nor anything else: the question once more, then let go."""
        if pending.reasked:
            turn.conversation.pending = None
            return None
        again = pending.model_copy(update={"reasked": True, "asked_at": datetime.now(UTC)})
        message = say("reply_unclear", turn.language, question=pending.question)
        done = ActionDone(action="conversation.reask", message=message, asks=pending.question)
        return ActionResult(done, again)

    def _context(self, turn: TurnState) -> ActionContext:
        request = turn.request
        return ActionContext(
            self.services,
            turn.language,
            turn.project,
            turn.conversation,
            request.message,
            downloads=request.downloads,
        )

    # -- meta-requests -------------------------------------------------------------------------

    def _meta(self, envelope: ActionEnvelope, turn: TurnState, timer: Timer) -> Iterator[Any]:
        try:
            result = run_action(envelope, self._context(turn))
        except DesignAgentError:
            turn.conversation.pending = None  # a later "yes" must not answer what failed
            raise
        yield from self._apply(result, turn, timer)

    def _apply(self, result: ActionResult, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """Show the action's outcome, leave its question pending in the right project, and
        run the answer it asks for, if any."""
        self._move_to(result, turn)
        done = result.done
        pending = result.pending
        if pending is not None and not pending.question and done is not None:
            pending = pending.model_copy(update={"question": done.asks or done.message})
        turn.conversation.pending = pending
        if result.node is not None:
            turn.conversation.node = result.node
        if done is not None:
            yield done
        if isinstance(result.then, AnswerAgain):
            yield from self.answering.again(turn, result.then, timer)
            return
        if isinstance(result.then, CompareAnswers):
            yield from self._compare(result.then, turn, timer)
            return
        again = list(reasked(turn))
        yield from again
        if self._recording:
            record_exchange(self.memory, turn, result, again)
        yield self._finished_meta(turn, done, timer)

    def _move_to(self, result: ActionResult, turn: TurnState) -> None:
        """An action that moved the user (created, switched to, deleted a project) ends the
        turn in that project's conversation."""
        current = turn.project.id if turn.project else None
        target = result.project_id or current
        if target is None or target == turn.conversation.project_id:
            return
        turn.conversation.pending = None
        turn.interrupted = None  # a question of the project left behind is not put here
        finish_state(self.memory, turn.conversation)
        turn.conversation = claim_state(self.memory, target)
        turn.conversation.language = turn.language  # type: ignore[assignment]
        turn.project = self.memory.active_project()
        turn.context = None

    def _finished_meta(
        self, turn: TurnState, done: ActionDone | None, timer: Timer
    ) -> TurnFinished:
        current = self.memory.active_project()
        return TurnFinished(
            project=current.name if current else "",
            language=turn.language,
            status="complete",
            action=done.action if done else None,
            text=done.message if done else "",
            data=done.data if done else {},
            timings=timer.marks,
        )

    def _compare(self, wanted: CompareAnswers, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """/compare claude gemini: the last request answered by both at once (compare.py)."""
        from design_agent.turn.compare import Comparison

        comparison = Comparison(self.answering, turn, wanted.providers, timer)
        self._sides = comparison.sides
        try:
            result = yield from comparison.run()
        finally:
            self._sides = []
        yield from self._apply(result, turn, timer)

    def _watch(self, run: ProviderRun | None) -> bool:
        """Keep the answer's run for cancel(); whether the turn was cancelled already."""
        self._run = run
        return self._cancelled


def _context_event(context: ProjectContext | None, timer: Timer) -> ContextLoaded:
    if context is None:
        return ContextLoaded(step=1, ms=timer.lap("context"), project=None)
    return ContextLoaded(
        step=1,
        ms=timer.lap("context"),
        project=context.project.name,
        files=len(context.briefs),
        decisions=len(context.decisions),
        turns=len(context.recent_turns),
    )
