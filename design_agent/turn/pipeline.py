"""One turn, in the 8 steps of ARCHITECTURE.md, as a generator of events.

    pipeline = Pipeline(services)
    for event in pipeline.run(TurnRequest("plan a usability test")):
        render(event)

Orchestration only: the project's conversation state is loaded once and saved
once; a meta-request goes to its action handler, a reply to a pending
question to that question's reader, and a design request through task choice
(clarify), the prompt, the answer stream, validation and recording. A
pending question never swallows a message that is clearly something else.
Domain errors are not converted here: they reach the interface, which
reports them once (the state is saved first).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
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
from design_agent.core.errors import CancelledError, DesignAgentError, UsageError
from design_agent.core.events import (
    ActionDone,
    ContextLoaded,
    IntentDetected,
    PersonaChosen,
    PreferencesLoaded,
    TaskMatched,
    TurnFinished,
    TurnSaved,
    Validated,
)
from design_agent.core.messages import say
from design_agent.core.models import Agent
from design_agent.core.preferences import resolve_preferences
from design_agent.core.settings import EffectiveSettings
from design_agent.knowledge.prompt import PastTurn
from design_agent.knowledge.validation import validate_answer
from design_agent.memory import Memory
from design_agent.memory.models import Project, ProjectContext, Turn
from design_agent.memory.recovery import Unsaved, not_saved, reserve
from design_agent.providers.resolve import Resolution, missing_notice
from design_agent.providers.run import ProviderRun
from design_agent.providers.runner import RunGroup
from design_agent.turn.answer_stream import AnswerStream
from design_agent.turn.budget import budget_gate
from design_agent.turn.clarify import TaskChooser
from design_agent.turn.fallback import FallbackChain
from design_agent.turn.grounding import project_terms
from design_agent.turn.recording import save_answer, save_exchange, save_request
from design_agent.turn.request_builder import BuiltRequest, RequestInputs, build_request
from design_agent.turn.session import Services
from design_agent.turn.types import (
    RECENT_TURNS,
    Chosen,
    Preferences,
    Timer,
    TurnRequest,
    TurnState,
)
from design_agent.understanding.conversation import (
    CompareChoice,
    ConversationState,
    LastAnswer,
    claim_state,
    finish_state,
    load_state,
)
from design_agent.understanding.intents import detect_action
from design_agent.understanding.language import (
    STOP_WORDS_EN,
    STOP_WORDS_ES,
    detect_language,
    keywords_of,
    normalize,
)

if TYPE_CHECKING:
    # Loaded where used: a design turn needs no action handler, comparison or preview.
    from design_agent.turn.compare import Side
    from design_agent.turn.preview import PromptPreview

__all__ = ["DEFAULT_PROJECT", "Pipeline", "TurnRequest", "default_project"]

DEFAULT_PROJECT = "General"
_END = object()  # the end of a step iterator (an event is never this)
PAST_REFERENCE = re.compile(
    r"\b(earlier|before|last time|previous|we said|we discussed|remember|antes|la vez pasada"
    r"|anterior|dijimos|hablamos|recuerdas)\b",
    re.IGNORECASE,
)


# Up to this many words, a message without a word of either language keeps the
# conversation's ("cambia a Acme", "use gemini"): the detector would call it English.
SHORT_MESSAGE_WORDS = 3
ENGLISH_ONLY = STOP_WORDS_EN - STOP_WORDS_ES


def _short_language(message: str) -> str | None:
    """The language a short message's own words show ("hola", "switch to Acme"), or None."""
    if detect_language(message) == "es":
        return "es"
    return "en" if set(normalize(message).split()) & ENGLISH_ONLY else None


def default_project(memory: Memory) -> Project:
    """The project a request gets when none is active yet, so nothing is lost."""
    return memory.switch_project(memory.create_project(DEFAULT_PROJECT).id)


class Pipeline:
    """Runs turns against one home's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.memory = services.memory
        self.event_log = services.event_log  # also routes log records to the home's logs/
        self.chooser = TaskChooser(services)
        self._run: ProviderRun | None = None
        self._cancelled = False
        # Only this pipeline's runs: a server runs other projects' turns in the same process.
        self._group = RunGroup()
        self._sides: list[Side] = []  # a /compare's runs start on threads of their own
        self._ignored: set[str] = set()  # stored preferences already said to be ignored

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
        turn = TurnState(request, project, None, prefs, state)
        try:
            for event in self._meta(envelope, turn, timer):
                seen.append(event)
                yield event
        finally:
            finish_state(self.memory, turn.conversation)
            self.event_log.write(seen)

    def continue_point(self, project_name: str | None = None) -> str:
        """Where the project's conversation goes on from, in words (--continue says it)."""
        project = self.memory.find_project(project_name) if project_name else None
        project = project or self.memory.active_project()
        language = str(self.memory.get_state("last_language") or "en")
        if project is None:
            return say("no_active_project", language)
        node = self._live_node(project, load_state(self.memory, project.id))
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
        node = self._live_node(project, load_state(self.memory, project.id))
        return self.memory.turn_number(node) if node is not None else None

    def last_request(self) -> str | None:
        """The active project's last answered request, as the user worded it."""
        project = self.memory.active_project()
        last = load_state(self.memory, project.id if project else None).last
        return last.request if last is not None else None

    def preview(self, request: TurnRequest) -> PromptPreview:
        """What `request` would send to the provider (ask --show-prompt, /prompt): the same
        method choice, prompt and command line as a turn; nothing is run or saved."""
        from design_agent.turn.preview import make_preview

        project = self.memory.find_project(request.project) if request.project else None
        project = project or self.memory.active_project()
        start = self._start(project, request)
        state = load_state(self.memory, project.id if project else None)
        state.node = start if start is not None else state.node  # read only: never saved
        settings = self.services.settings
        language = self._pick_language(request.reading, settings.values.language, state)
        envelope = detect_action(
            request.message, list(self.services.adapters), self._project_names()
        )
        if envelope is not None:
            raise UsageError(say("preview_action", language, action=envelope.name))
        prefs = self._preferences(project, request, language, settings)
        recent = [state.last.task_id] if state.last else []
        match = self.services.matcher.match(request.reading, recent_task_ids=recent)
        if match.best is None:
            raise UsageError(say("preview_no_method", language))
        task = self.services.catalogue.task(match.best.task_id)
        agent = self.services.catalogue.agent(task.agent)
        context = self._preview_context(project, state)
        event = TaskMatched(
            step=3, ms=0.0, task_id=task.id, name=task.name.en, score=match.best.score, band="HIGH"
        )
        chosen = Chosen(task, event, request.message)
        resolution = self._resolution(prefs)
        recalled = self._recalled(request.reading, project, context) if project else []
        inputs = RequestInputs(
            request.message, chosen, agent, context, prefs, resolution.spec, recalled
        )
        built = build_request(self.services.knowledge, inputs)
        return make_preview(built, resolution, match, task.name.get(language))

    def _project_context(self, project: Project, state: ConversationState) -> ProjectContext:
        """The project's context on the path to the turn the conversation continues from:
        the turns and decisions of that branch, never a sibling's."""
        state.node = self._live_node(project, state)
        return self.memory.project_context(project.id, turns=RECENT_TURNS, node_id=state.node)

    def _live_node(self, project: Project, state: ConversationState) -> int | None:
        """The turn the conversation continues from, while it is one of this project's
        turns (gone, or another project's: None, so it follows the latest turn)."""
        if state.node is None:
            return None
        try:
            turn = self.memory.get_turn(state.node)
        except DesignAgentError:
            return None
        return state.node if turn.project_id == project.id else None

    def _preview_context(self, project: Project | None, state: ConversationState) -> ProjectContext:
        """The active project's context; a new project's (empty) when none exists yet."""
        if project is not None:
            return self._project_context(project, state)
        now = datetime.now(UTC)
        empty = Project(id="-", name=DEFAULT_PROJECT, created_at=now, last_accessed=now)
        return ProjectContext(project=empty, metadata={}, briefs=[], decisions=[], recent_turns=[])

    def _steps(self, request: TurnRequest) -> Iterator[Any]:
        timer = Timer()
        project = self.memory.find_project(request.project) if request.project else None
        project = project or self.memory.active_project()
        start = self._start(project, request)
        state = claim_state(self.memory, project.id if project else None)
        state.node = start if start is not None else state.node
        settings = self.services.settings
        language = self._language(request.reading, settings.values.language, state)
        prefs = self._preferences(project, request, language, settings)
        yield PreferencesLoaded(
            step=0,
            ms=timer.lap("preferences"),
            language=prefs.language,
            verbosity=prefs.verbosity,
            provider=prefs.provider,
            tier=prefs.tier,
        )
        yield from self._ignored_notice(prefs)
        context = self._project_context(project, state) if project else None
        yield _context_event(context, timer)
        turn = TurnState(request, project, context, prefs, state)
        try:
            yield from self._route(turn, timer)
        except BaseException:
            # The turn's own error says more than the state's failing too (a full disk).
            with contextlib.suppress(sqlite3.Error):
                finish_state(self.memory, turn.conversation)
            raise
        finish_state(self.memory, turn.conversation)

    def _start(self, project: Project | None, request: TurnRequest) -> int | None:
        """The turn `ask --from/--branch` names (NotFoundError before anything is claimed)."""
        if request.start is None:
            return None
        if project is None:
            raise UsageError(say("no_active_project", "en"))
        from design_agent.actions.tree import resolve_target

        return resolve_target(self.memory, project, request.start)[0]

    # -- steps 0-2 -----------------------------------------------------------------------------

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

    def _language(self, message: str, setting: str, state: ConversationState) -> str:
        """The turn's language (see `_pick_language`), remembered for the next turns."""
        language = self._pick_language(message, setting, state)
        state.language = language  # type: ignore[assignment]
        self.memory.set_state("last_language", language)
        return language

    def _pick_language(self, message: str, setting: str, state: ConversationState) -> str:
        """The user's language wins; short messages ("2", "ok", "cambia a Acme") keep the
        conversation's unless their own words say otherwise ("hola", "switch to Acme")."""
        pending = state.live_pending()
        known = state.language or self.memory.get_state("last_language")
        words = len(re.findall(r"[^\W\d_]{2,}", message))
        if pending is not None and len(message.split()) <= 3:
            language: str = pending.language  # a reply is read in its question's language
        elif words > SHORT_MESSAGE_WORDS or (words >= 2 and not known):
            language = detect_language(message)
        else:
            fallback = setting if setting != "auto" else "en"
            language = str(_short_language(message) or known or fallback)
        return language

    def _route(self, turn: TurnState, timer: Timer) -> Iterator[Any]:
        message, state = turn.request.message, turn.conversation
        if state.pending is not None and state.live_pending() is None:
            state.pending = None  # lapsed: a late "yes" answers nothing
        pending = state.pending
        envelope = detect_action(message, list(self.services.adapters), self._project_names())
        yield IntentDetected(
            step=2,
            ms=timer.lap("intent"),
            language=turn.language,
            keywords=keywords_of(turn.request.reading, turn.language),
            meta=envelope.name if envelope else None,
            action=envelope.model_dump() if envelope else None,
        )
        if pending is not None and pending.kind != "choice" and envelope is None:
            from design_agent.actions.usage import CONFIRMED as BUDGET_CONFIRMED

            try:
                answered = answer_pending(message, pending, self._context(turn))
            except DesignAgentError:
                state.pending = None  # answered, and it failed: the question is over
                raise
            if answered is not None and answered.done.action == BUDGET_CONFIRMED:
                yield from self._over_budget(answered, turn, timer)
                return
            if answered is not None:
                yield from self._apply(answered, turn, timer)
                return
        if envelope is not None:
            yield from self._meta(envelope, turn, timer)
            return
        stray = stray_reply(message, pending, self._context(turn))
        if stray is not None:  # "yes" to nothing, "skip" a method choice
            yield from self._apply(stray, turn, timer)
            return
        if pending is not None and pending.kind != "choice":
            state.pending = None  # clearly something else: the question lapses
        yield from self._design_turn(turn, timer)

    def _over_budget(self, answered: ActionResult, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """ "yes" to the budget question (budget.py): the request it held runs now."""
        turn.conversation.pending = None
        yield answered.done
        held = str(answered.done.data["request"])
        turn.request = replace(turn.request, message=held, over_budget=True)
        yield from self._design_turn(turn, timer)

    def _project_names(self) -> list[str]:
        return [p.name for p in self.memory.list_projects()]

    def _context(self, turn: TurnState) -> ActionContext:
        return ActionContext(
            self.services, turn.language, turn.project, turn.conversation, turn.request.message
        )

    # -- meta-requests -------------------------------------------------------------------------

    def _meta(self, envelope: ActionEnvelope, turn: TurnState, timer: Timer) -> Iterator[Any]:
        state = turn.conversation
        pending = state.live_pending()
        if envelope.name == "conversation.compare" and state.last is not None:
            state.pending = None
            yield from self._compare(envelope, turn, timer)
            return
        if envelope.name == "conversation.rerender" and state.last is not None:
            state.pending = None
            yield from self._rerender(envelope, turn, timer)
            return
        try:
            result = run_action(envelope, self._context(turn))
        except DesignAgentError:
            state.pending = None  # asked for something else: a later "yes" must not answer it
            raise
        if envelope.name == "conversation.small_talk" and pending and not pending.reasked:
            # An aside: answer it and put the open question again, once.
            again = pending.model_copy(update={"reasked": True})
            message = f"{result.done.message}\n{pending.question}".strip()
            done = result.done.model_copy(update={"message": message, "asks": pending.question})
            result = ActionResult(done, again, result.project_id)
        yield from self._apply(result, turn, timer)

    def _apply(self, result: ActionResult, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """Show the action's outcome and leave its question pending in the right project."""
        pending = result.pending
        if pending is not None and not pending.question:
            question = result.done.asks or result.done.message
            pending = pending.model_copy(update={"question": question})
        current = turn.project.id if turn.project else None
        target = result.project_id or current
        if target is not None and target != turn.conversation.project_id:
            turn.conversation.pending = None
            finish_state(self.memory, turn.conversation)
            turn.conversation = claim_state(self.memory, target)
            turn.conversation.language = turn.language  # type: ignore[assignment]
        turn.conversation.pending = pending
        if result.node is not None:
            turn.conversation.node = result.node
        yield result.done
        yield self._finished_meta(turn, result.done, timer)

    def _finished_meta(self, turn: TurnState, done: ActionDone, timer: Timer) -> TurnFinished:
        current = self.memory.active_project()
        return TurnFinished(
            project=current.name if current else "",
            language=turn.language,
            status="complete",
            action=done.action,
            text=done.message,
            data=done.data,
            timings=timer.marks,
        )

    def _rerender(self, envelope: ActionEnvelope, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """'Make it shorter' / 'in Spanish': the last request answered again with that setting."""
        last = turn.conversation.last
        assert last is not None
        wanted = envelope.typed_input()
        prefs = turn.prefs
        if wanted.verbosity:
            prefs = replace(prefs, verbosity=wanted.verbosity)
        if wanted.language:
            prefs = replace(prefs, language=wanted.language)
            turn.conversation.language = wanted.language
        turn.prefs = prefs
        if wanted.provider:
            yield from self._retry(wanted.provider, turn, timer)
            return
        task = self.services.catalogue.task(last.task_id)
        instruction = say(f"redo_{wanted.verbosity or 'language'}", prefs.language)
        event = _again(task, last, timer, "again, as asked")
        chosen = Chosen(task, event, last.request, instruction=instruction)
        yield event
        yield from self._answer(turn, chosen, timer)

    def _retry(self, provider: str, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """ "Try that again with gemini": the last request answered by that provider, saved as
        a second answer to the same request (a branch beside the first); the conversation
        then continues from it."""
        last = turn.conversation.last
        assert last is not None and turn.project is not None
        from design_agent.actions.providers import require_ready

        name = require_ready(provider, self._context(turn))
        turn.prefs = replace(turn.prefs, provider=name)
        asked = self._back_to_request(turn)
        turn.context = self._project_context(turn.project, turn.conversation)
        task = self.services.catalogue.task(last.task_id)
        event = _again(task, last, timer, f"again, with {name}")
        yield event
        again = Chosen(task, event, last.request, user_turn=asked.id if asked else None)
        yield from self._answer(turn, again, timer)

    def _back_to_request(self, turn: TurnState) -> Turn | None:
        """The last request as saved, with the conversation put back where it was asked
        (so its first answer is not in the context of another one)."""
        last = turn.conversation.last
        assert last is not None
        asked = self.memory.get_turn(last.user_turn_id) if last.user_turn_id else None
        if asked is not None:
            turn.conversation.node = asked.parent_id or asked.id
        return asked

    def _compare(self, envelope: ActionEnvelope, turn: TurnState, timer: Timer) -> Iterator[Any]:
        """/compare claude gemini: the last request answered by both at once, saved as two
        answers to it (sibling branches), shown one after the other; which to keep is asked."""
        from design_agent.turn.compare import run_both

        last = turn.conversation.last
        assert last is not None and turn.project is not None
        names = self._compared(envelope.typed_input().providers, turn)
        asked = self._back_to_request(turn)
        context = self._project_context(turn.project, turn.conversation)
        task = self.services.catalogue.task(last.task_id)
        agent = self.services.catalogue.agent(task.agent)
        event = _again(task, last, timer, "compare")
        chosen = Chosen(task, event, last.request)
        sides = [self._side(name, chosen, agent, context, turn) for name in names]
        first, second = (self.services.adapters[n].display_name for n in names)
        yield ActionDone(
            action="conversation.compare",
            message=say("compare_running", turn.language, first=first, second=second),
        )
        self._sides = sides
        try:
            run_both(sides, turn.prefs.settings, self.services.environ)
        finally:
            self._sides = []
        user_turn = (
            asked.id
            if asked
            else save_request(
                self.memory,
                turn.project,
                last.request,
                task,
                agent,
                names[0],
                turn.conversation.node,
            )
        )
        for side in sides:
            self._save_side(side, turn, task, agent, context, user_turn)
        yield from self._apply(self._compared_result(sides, names, task, turn), turn, timer)

    def _compared(self, wanted: list[str], turn: TurnState) -> list[str]:
        from design_agent.actions.providers import require_ready

        ctx = self._context(turn)
        names = [require_ready(name, ctx) for name in wanted]
        if len(names) == 1:
            names.insert(0, self._resolution(turn.prefs).spec.name)
        if names[0] == names[1]:
            raise UsageError(say("compare_same", turn.language, name=names[0]))
        return names

    def _side(
        self, name: str, chosen: Chosen, agent: Agent, context: ProjectContext, turn: TurnState
    ) -> Side:
        from design_agent.turn.compare import Side

        spec = self.services.adapters[name]
        prefs = replace(turn.prefs, provider=name)
        inputs = RequestInputs(chosen.request_text, chosen, agent, context, prefs, spec, [])
        return Side(spec, build_request(self.services.knowledge, inputs))

    def _save_side(
        self,
        side: Side,
        turn: TurnState,
        task: Any,
        agent: Agent,
        context: ProjectContext,
        user_turn: int,
    ) -> None:
        assert side.stream is not None and turn.project is not None
        side.validation = validate_answer(
            side.stream.text,
            task,
            turn.language,
            side.request.loaded,
            project_terms(context),
            offline=side.request.offline,
        )
        with self.memory.transaction():
            side.turn_id = save_answer(
                self.memory,
                turn.project,
                task,
                agent,
                side.stream,
                side.validation,
                user_turn,
                side.request.built.tier,
                side.request.built.tier_reason,
                turn.prefs.settings.keyframe_every,
            )

    def _compared_result(
        self, sides: list[Side], names: list[str], task: Any, turn: TurnState
    ) -> ActionResult:
        from design_agent.turn.compare import footer

        language = turn.language
        blocks = []
        for number, side in enumerate(sides, 1):
            assert side.stream is not None
            heading = say("compare_answer", language, number=number, provider=names[number - 1])
            blocks.append(f"{heading}\n\n{side.stream.text.strip()}\n\n{footer(side)}")
        question = say("compare_question", language)
        answers = [side.turn_id or 0 for side in sides]
        data = {
            "answers": answers,
            "providers": names,
            "texts": [side.stream.text for side in sides if side.stream is not None],
            "footers": [footer(side) for side in sides],
            "question": question,
        }
        message = "\n\n".join([*blocks, question])
        done = ActionDone(
            action="conversation.compare",
            message=message,
            data=data,
            asks=question,
            needs_confirmation=True,
        )
        pending = CompareChoice(
            language="es" if language == "es" else "en",
            question=question,
            answers=answers,
            providers=names,
            task_name=task.name.get(language),
        )
        return ActionResult(done, pending)

    # -- steps 3-8: a design request -----------------------------------------------------------

    def _design_turn(self, turn: TurnState, timer: Timer) -> Iterator[Any]:
        if turn.project is None or turn.context is None:
            project = default_project(self.memory)
            turn.project = project
            turn.context = self.memory.project_context(project.id, turns=RECENT_TURNS)
            turn.conversation = turn.conversation.model_copy(update={"project_id": project.id})
            message = say("default_project", turn.language, name=project.name)
            yield ActionDone(action="projects.create", message=message, data={"name": project.name})
        resolution = self._resolution(turn.prefs)
        chosen = yield from self.chooser.choose(turn.request.message, turn, timer, resolution.spec)
        yield chosen.event
        if chosen.task is None:
            yield from self._save_question(turn, chosen, timer)
            return
        yield from self._answer(turn, chosen, timer, resolution=resolution)

    def _resolution(self, prefs: Preferences) -> Resolution:
        override = None if prefs.provider == "auto" else prefs.provider
        return self.services.resolve(override, prefs.settings)

    def _save_question(self, turn: TurnState, chosen: Chosen, timer: Timer) -> Iterator[Any]:
        event = chosen.event
        assert turn.project is not None and hasattr(event, "options")
        options = "\n".join(f"{o.number}. {o.name}" for o in event.options)
        question = getattr(event, "question", "")
        node = turn.conversation.node
        user_id, agent_id = save_exchange(
            self.memory, turn.project, turn.request.message, f"{question}\n{options}", node
        )
        _moved_on(turn, agent_id)
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

    def _answer(
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
        resolution = resolution or self._resolution(turn.prefs)
        gate = budget_gate(
            self._context(turn), resolution.spec, chosen.request_text, turn.request.over_budget
        )
        yield from [gate.warning] if gate.warning else []
        if gate.held is not None:  # the month's budget is spent: asked first, nothing runs
            yield from self._apply(gate.held, turn, timer)
            return
        notice = missing_notice(resolution, language)
        if notice and not self.memory.get_state("offline_notice_shown"):
            self.memory.set_state("offline_notice_shown", True)
            yield ActionDone(action="providers.notice", message=notice)
        assert turn.context is not None
        recalled = self._recalled(turn.request.reading, turn.project, turn.context)
        # The fallback chain (fallback.py): a provider that is not ready, or fails before any
        # text, hands the turn to the next one; without a chain nothing changes.
        chain = FallbackChain(self.services, turn.prefs.settings, language, self._watch)
        spec = yield from chain.ready(resolution.spec)
        inputs = RequestInputs(
            turn.request.message, chosen, agent, turn.context, turn.prefs, spec, recalled
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

    def _watch(self, run: ProviderRun | None) -> bool:
        """Keep the answer's run for cancel(); whether the turn was cancelled already."""
        self._run = run
        return self._cancelled

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
        validation = validate_answer(
            stream.text,
            task,
            turn.language,
            request.loaded,
            project_terms(turn.context),
            offline=request.offline,
        )
        yield Validated(
            step=7, ms=timer.lap("validation"), validation=validation, summary=validation.summary()
        )
        agent_turn = self._save(turn, task, agent, stream, validation, user_turn, request)
        yield TurnSaved(
            step=8,
            ms=timer.lap("memory"),
            project=turn.project.name,
            user_turn_id=user_turn,
            agent_turn_id=agent_turn,
            status=stream.status,
        )
        turn.conversation.last = _last_answer(chosen, user_turn, agent_turn)
        _moved_on(turn, agent_turn)
        yield from self._propose(turn, stream, agent_turn, task.id)
        yield _finished(turn, chosen, agent, stream, validation, timer)
        if stream.error is not None:
            raise stream.error
        if stream.status == "cancelled":
            raise CancelledError("answer cancelled; the partial answer was saved")

    def _save(
        self,
        turn: TurnState,
        task: Any,
        agent: Agent,
        stream: AnswerStream,
        validation: Any,
        user_turn: int,
        request: BuiltRequest,
    ) -> int:
        """Save the answer (step 8); one the database does not take (a full disk) is kept in
        the recovery journal instead, and the turn fails saying where."""
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
                )
        except sqlite3.Error as e:
            raise self._not_saved(turn, (task.id, agent.id), stream, user_turn, request, e) from e

    def _not_saved(
        self,
        turn: TurnState,
        ids: tuple[str, str],
        stream: AnswerStream,
        user_turn: int,
        request: BuiltRequest,
        error: sqlite3.Error,
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
        proposal = propose(proposed, agent_turn, task_id, self._context(turn))
        if proposal is not None:
            turn.conversation.pending = proposal.pending
            yield proposal.done

    def _recalled(self, message: str, project: Project, context: ProjectContext) -> list[PastTurn]:
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


def _again(task: Any, last: LastAnswer, timer: Timer, reason: str) -> TaskMatched:
    """The last answer's method, chosen again (a redo, another provider, a comparison)."""
    return TaskMatched(
        step=3,
        ms=timer.lap("task"),
        task_id=task.id,
        name=task.name.en,
        score=last.score or 0.0,
        band=last.band or "HIGH",
        reason=reason,
    )


def _moved_on(turn: TurnState, agent_turn: int) -> None:
    """A conversation moved to a turn by /goto or /fork follows its own branch: the answer
    just saved is where it continues (unset, it follows the project's latest turn)."""
    if turn.conversation.node is not None:
        turn.conversation.node = agent_turn


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
        decisions=[{"decision": d.decision, "rationale": d.rationale} for d in stream.decisions],
        usage=stream.usage.model_dump(exclude={"kind"}) if stream.usage else None,
        first_token_seconds=stream.first_token_seconds,
        timings=timer.marks,
    )
