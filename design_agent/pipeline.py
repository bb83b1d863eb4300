"""One turn, in the 8 steps of ARCHITECTURE.md, as a generator of events.

    pipeline = Pipeline(services)
    for event in pipeline.run(TurnRequest("plan a usability test")):
        render(event)

The user's message is saved before the provider is called and the answer
after it, whatever happens: a failed or cancelled answer is saved with its
status and partial text, then the typed error is raised (exit 5, or 130).
Ctrl-C while the provider streams cancels the provider's process group.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from design_agent.errors import CancelledError, ProviderError
from design_agent.events import (
    ActionDone,
    ChoiceNeeded,
    ContextLoaded,
    DecisionRecorded,
    GuidesLoaded,
    IntentDetected,
    PersonaChosen,
    PipelineEvent,
    PreferencesLoaded,
    PromptReady,
    QuestionAsked,
    TaskMatched,
    TaskOption,
    TurnFinished,
    TurnSaved,
    Validated,
)
from design_agent.executor import ActionExecutor, safe_execute
from design_agent.intents import detect_action
from design_agent.knowledge import Section
from design_agent.language import detect_language, keywords_of, word_set
from design_agent.matching import MatchResult, TaskScore
from design_agent.memory import Memory
from design_agent.memory.models import Project, ProjectContext
from design_agent.messages import say
from design_agent.models import Agent, Task
from design_agent.prompt import PastTurn, assemble
from design_agent.prompt import ProjectContext as PromptContext
from design_agent.providers.events import Done, ProviderFailure, TextDelta, Tier, TierChosen, Usage
from design_agent.providers.request import Grounding, GuideSection, ProviderRequest
from design_agent.providers.resolve import missing_notice
from design_agent.providers.routing import choose_tier
from design_agent.providers.runner import ProviderRun, cancel_on_ctrl_c, start
from design_agent.session import Services
from design_agent.settings import Settings
from design_agent.tags import AskUserTag, DecisionTag, TagParser, TextSegment
from design_agent.validation import Validation, validate_answer

DEFAULT_PROJECT = "General"
MAX_CLARIFYING = 2
RECENT_TURNS = 10
# Greetings and thanks are not follow-ups to the current task.
SMALL_TALK = frozenset(
    {
        "hi",
        "hello",
        "hey",
        "hola",
        "buenas",
        "thanks",
        "thank",
        "gracias",
        "ok",
        "okay",
        "vale",
        "bien",
        "good",
        "morning",
        "dias",
        "tardes",
        "noches",
        "how",
        "are",
        "you",
        "que",
        "tal",
        "como",
        "estas",
        "bye",
        "adios",
    }
)
PAST_REFERENCE = re.compile(
    r"\b(earlier|before|last time|previous|we said|we discussed|remember|antes|la vez pasada"
    r"|anterior|dijimos|hablamos|recuerdas)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TurnRequest:
    """What the user asked, with the per-turn overrides of `ask`."""

    message: str
    project: str | None = None
    provider: str | None = None
    tier: str | None = None


@dataclass(frozen=True)
class Preferences:
    """Step 0, read once per turn: the settings with the project's preferences over them."""

    settings: Settings
    language: str
    verbosity: str
    provider: str
    tier: str


@dataclass
class Chosen:
    """The outcome of step 3: the task to answer with, or a question to ask instead."""

    task: Task | None
    event: PipelineEvent
    request_text: str
    assumptions: str = ""


@dataclass
class Answer:
    """One answer's state from step 4 to step 8."""

    project: Project
    context: ProjectContext
    prefs: Preferences
    chosen: Chosen
    agent: Agent
    sections: list[Section] = field(default_factory=list)
    tier: Tier = "fast"
    tier_reason: str = ""
    user_turn_id: int | None = None

    @property
    def language(self) -> str:
        return self.prefs.language

    @property
    def task(self) -> Task:
        assert self.chosen.task is not None
        return self.chosen.task

    @property
    def matched(self) -> TaskMatched | None:
        return self.chosen.event if isinstance(self.chosen.event, TaskMatched) else None


@dataclass
class Timer:
    started: float = field(default_factory=time.perf_counter)
    marks: dict[str, float] = field(default_factory=dict)

    def lap(self, name: str) -> float:
        now = time.perf_counter()
        ms = (now - self.started) * 1000
        self.marks[name] = round(ms, 2)
        self.started = now
        return round(ms, 2)


def default_project(memory: Memory) -> Project:
    """The project a request gets when none is active yet, so nothing is lost."""
    return memory.switch_project(memory.create_project(DEFAULT_PROJECT).id)


class Pipeline:
    """Runs turns against one home's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.memory = services.memory
        self.event_log = services.event_log  # also routes log records to the home's logs/
        self._run: ProviderRun | None = None

    def cancel(self) -> None:
        """Cancel the answer being streamed, if any (safe from a signal handler)."""
        if self._run is not None:
            self._run.cancel()

    def run(self, request: TurnRequest) -> Iterator[PipelineEvent]:
        """The turn's events, as they happen; each is also kept for the event log."""
        seen: list[Any] = []
        try:
            for event in self._steps(request):
                seen.append(event)
                yield event
        finally:
            self.event_log.write(seen)

    def _steps(self, request: TurnRequest) -> Iterator[PipelineEvent]:
        timer = Timer()
        project = self._project(request.project)
        prefs = self._preferences(project, request)
        yield PreferencesLoaded(
            step=0,
            ms=timer.lap("preferences"),
            language=prefs.language,
            verbosity=prefs.verbosity,
            provider=prefs.provider,
            tier=prefs.tier,
        )
        context = self.memory.project_context(project.id, turns=RECENT_TURNS) if project else None
        yield self._context_event(context, timer)
        yield from self._meta_or_design(request, project, context, prefs, timer)

    # -- steps 0-2 -----------------------------------------------------------------------------

    def _project(self, name: str | None) -> Project | None:
        if name:
            return self.memory.find_project(name)
        return self.memory.active_project()

    def _language(self, message: str, setting: str) -> str:
        """The user's language wins; short replies ("2", "ok") keep the last one."""
        language: str
        if len(re.findall(r"[^\W\d_]{2,}", message)) >= 2:
            language = detect_language(message)
        else:
            fallback = setting if setting != "auto" else "en"
            language = str(self.memory.get_state("last_language") or fallback)
        self.memory.set_state("last_language", language)
        return language

    def _preferences(self, project: Project | None, request: TurnRequest) -> Preferences:
        settings = self.services.settings.values
        prefs = (self.memory.metadata(project.id).get("preferences") if project else None) or {}
        prefs = prefs if isinstance(prefs, dict) else {}
        return Preferences(
            settings=settings,
            language=self._language(request.message, settings.language),
            verbosity=str(prefs.get("verbosity") or settings.verbosity),
            provider=request.provider or str(prefs.get("provider") or settings.provider),
            tier=request.tier or str(prefs.get("tier") or settings.tier),
        )

    def _context_event(self, context: ProjectContext | None, timer: Timer) -> ContextLoaded:
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

    def _meta_or_design(
        self,
        request: TurnRequest,
        project: Project | None,
        context: ProjectContext | None,
        prefs: Preferences,
        timer: Timer,
    ) -> Iterator[PipelineEvent]:
        executor = ActionExecutor(self.services, prefs.language)
        pending = executor.pending()
        if pending and pending.get("language") in ("en", "es"):
            # An answer is read in the language its question was asked in.
            prefs = replace(prefs, language=str(pending["language"]))
            executor = ActionExecutor(self.services, prefs.language)
        language = prefs.language
        keywords = keywords_of(request.message, language)
        if pending and pending.get("kind") != "choice":
            answered = executor.resume(request.message, pending)
            if answered is not None:
                yield IntentDetected(
                    step=2,
                    ms=timer.lap("intent"),
                    language=language,
                    keywords=keywords,
                    meta=answered.action,
                )
                yield answered
                yield self._finished_meta(project, language, answered, timer)
                return
        envelope = detect_action(request.message, list(self.services.adapters))
        yield IntentDetected(
            step=2,
            ms=timer.lap("intent"),
            language=language,
            keywords=keywords,
            meta=envelope.name if envelope else None,
            action=envelope.model_dump() if envelope else None,
        )
        if envelope is not None:
            done = safe_execute(executor, envelope, project)
            yield done
            yield self._finished_meta(project, language, done, timer)
            return
        yield from self._design_turn(request, project, context, prefs, pending, timer)

    def _finished_meta(
        self, project: Project | None, language: str, done: ActionDone, timer: Timer
    ) -> TurnFinished:
        current = self.memory.active_project() or project
        return TurnFinished(
            project=current.name if current else "",
            language=language,
            status="complete",
            action=done.action,
            text=done.message,
            data=done.data,
            timings=timer.marks,
        )

    # -- step 3: the task ----------------------------------------------------------------------

    def _choose_task(
        self,
        message: str,
        context: ProjectContext,
        language: str,
        pending: dict[str, Any] | None,
        timer: Timer,
    ) -> Chosen:
        catalogue = self.services.catalogue
        recent = [t.task_id for t in context.recent_turns if t.task_id]
        if pending and pending.get("kind") == "choice":
            self.memory.set_state("pending", None)
            picked = self._pick_option(message, pending, language)
            if picked is not None:
                self.memory.set_state("clarify_count", 0)
                task = catalogue.task(picked)
                original = str(pending.get("message", ""))
                text = original if message.strip().isdigit() else f"{original}\n{message}"
                return Chosen(
                    task, self._matched(task, 100.0, "HIGH", timer, "chosen by you"), text
                )
        result = self.services.matcher.match(message, recent_task_ids=recent)
        return self._decide(message, result, recent, language, timer)

    def _decide(
        self, message: str, result: MatchResult, recent: list[str], language: str, timer: Timer
    ) -> Chosen:
        catalogue = self.services.catalogue
        best = result.best
        if best is not None and not result.needs_choice:
            self.memory.set_state("clarify_count", 0)
            alternates = self._options(result.alternates, language) if best.band != "HIGH" else []
            event = self._matched(
                catalogue.task(best.task_id),
                best.score,
                best.band,
                timer,
                ambiguous=result.ambiguous,
                alternates=alternates,
            )
            return Chosen(catalogue.task(best.task_id), event, message)
        follow_up = bool(set(result.keywords) - SMALL_TALK)
        if recent and result.band == "LOW" and not result.ambiguous and follow_up:
            task = catalogue.task(recent[-1])  # a follow-up keeps the current task
            self.memory.set_state("clarify_count", 0)
            score = best.score if best else 0.0
            return Chosen(task, self._matched(task, score, "LOW", timer, "follow-up"), message)
        asked = int(self.memory.get_state("clarify_count", 0) or 0)
        candidates = result.candidates[:4]
        if asked < MAX_CLARIFYING or not candidates:
            return self._ask_choice(message, result, asked, language, timer)
        self.memory.set_state("clarify_count", 0)
        task = catalogue.task(candidates[0].task_id)
        assumptions = f"the request is about {task.name.en}; no further details were given"
        event = self._matched(
            task,
            candidates[0].score,
            result.band,
            timer,
            f"assumed after {asked} clarifying questions",
            alternates=self._options(candidates[1:], language),
        )
        return Chosen(task, event, message, assumptions)

    def _ask_choice(
        self, message: str, result: MatchResult, asked: int, language: str, timer: Timer
    ) -> Chosen:
        options = self._options(self._choice_candidates(result), language)
        self.memory.set_state("clarify_count", asked + 1)
        self.memory.set_state(
            "pending",
            {"kind": "choice", "message": message, "options": [o.task_id for o in options]},
        )
        event = ChoiceNeeded(
            step=3, ms=timer.lap("task"), question=say("choose", language), options=options
        )
        return Chosen(None, event, message)

    def _choice_candidates(self, result: MatchResult) -> list[Any]:
        candidates = list(result.candidates[:4])
        if len(candidates) >= 3:
            return candidates
        # Nothing specific matched: offer the starting points of a design project.
        starters = ["journey_mapping", "usability_test_plan", "personas", "prioritization"]
        known = {c.task_id for c in candidates}
        extra = [TaskScore(task_id=t, score=0.0, band="LOW") for t in starters if t not in known]
        return (candidates + extra)[:4]

    def _options(self, scores: list[Any], language: str) -> list[TaskOption]:
        tasks = self.services.catalogue.tasks
        return [
            TaskOption(
                number=i,
                task_id=s.task_id,
                name=tasks[s.task_id].name.get(language),
                score=round(s.score, 1),
            )
            for i, s in enumerate(scores, 1)
        ]

    def _pick_option(self, reply: str, pending: dict[str, Any], language: str) -> str | None:
        options = [str(o) for o in pending.get("options", [])]
        digits = re.search(r"\b(\d{1,2})\b", reply)
        if digits and 1 <= int(digits.group(1)) <= len(options):
            return options[int(digits.group(1)) - 1]
        result = self.services.matcher.match(reply, recent_task_ids=options)
        in_options = [c for c in result.candidates if c.task_id in options]
        if in_options and in_options[0].score >= 35:
            return in_options[0].task_id
        return None

    def _matched(
        self,
        task: Task,
        score: float,
        band: str,
        timer: Timer,
        reason: str = "matched",
        ambiguous: bool = False,
        alternates: list[TaskOption] | None = None,
    ) -> TaskMatched:
        return TaskMatched(
            step=3,
            ms=timer.lap("task"),
            task_id=task.id,
            name=task.name.en,
            score=round(score, 1),
            band=band,
            ambiguous=ambiguous,
            reason=reason,
            alternates=alternates or [],
        )

    # -- steps 3-8: a design request -----------------------------------------------------------

    def _design_turn(
        self,
        request: TurnRequest,
        project: Project | None,
        context: ProjectContext | None,
        prefs: Preferences,
        pending: dict[str, Any] | None,
        timer: Timer,
    ) -> Iterator[PipelineEvent]:
        language = prefs.language
        if project is None or context is None:
            project = default_project(self.memory)
            context = self.memory.project_context(project.id, turns=RECENT_TURNS)
            executor = ActionExecutor(self.services, language)
            yield executor.done("projects.create", "default_project", name=project.name)
        chosen = self._choose_task(request.message, context, language, pending, timer)
        yield chosen.event
        if chosen.task is None:
            yield from self._save_question(request, project, language, chosen, timer)
            return
        task = chosen.task
        agent = self.services.catalogue.agent(task.agent)
        yield PersonaChosen(
            step=4, ms=timer.lap("persona"), agent_id=agent.id, role=agent.role.get(language)
        )
        yield from self._answer(request, Answer(project, context, prefs, chosen, agent), timer)

    def _save_question(
        self, request: TurnRequest, project: Project, language: str, chosen: Chosen, timer: Timer
    ) -> Iterator[PipelineEvent]:
        assert isinstance(chosen.event, ChoiceNeeded)
        options = "\n".join(f"{o.number}. {o.name}" for o in chosen.event.options)
        with self.memory.transaction():
            user = self.memory.add_turn(project.id, "user", request.message)
            agent = self.memory.add_turn(
                project.id, "agent", f"{chosen.event.question}\n{options}", parent_id=user.id
            )
        yield TurnSaved(
            step=8,
            ms=timer.lap("memory"),
            project=project.name,
            user_turn_id=user.id,
            agent_turn_id=agent.id,
            status="complete",
        )
        yield TurnFinished(
            project=project.name,
            language=language,
            status="needs_choice",
            text=chosen.event.question,
            options=chosen.event.options,
            timings=timer.marks,
        )

    def _answer(self, request: TurnRequest, answer: Answer, timer: Timer) -> Iterator[Any]:
        prefs = answer.prefs
        resolution = self.services.resolve(
            None if prefs.provider == "auto" else prefs.provider, prefs.settings
        )
        notice = missing_notice(resolution, answer.language)
        if notice and not self.memory.get_state("offline_notice_shown"):
            self.memory.set_state("offline_notice_shown", True)
            yield ActionDone(action="providers.notice", message=notice)
        spec = resolution.spec
        assembled = assemble(
            message=answer.chosen.request_text,
            task=answer.task,
            agent=answer.agent,
            knowledge=self.services.knowledge,
            language=answer.language,
            verbosity=prefs.verbosity,
            context_limit=spec.context_limit,
            project=_prompt_context(answer.context),
            recent=_past(answer.context.recent_turns),
            recalled=self._recalled(request.message, answer.project, answer.context),
            assumptions=answer.chosen.assumptions,
        )
        answer.sections = assembled.sections
        yield GuidesLoaded(
            step=5,
            ms=timer.lap("guides"),
            sections=[s.citation for s in assembled.sections],
            dropped=assembled.dropped,
        )
        answer.tier, answer.tier_reason = choose_tier(request.message, prefs.tier)
        yield PromptReady(
            step=6,
            ms=timer.lap("prompt"),
            provider=spec.name,
            tokens=assembled.tokens,
            budget=spec.context_limit,
        )
        provider_request = ProviderRequest(
            system_prompt=assembled.system,
            prompt=assembled.prompt,
            tier=answer.tier,
            tier_reason=answer.tier_reason,
            model=prefs.settings.model,
            language=answer.language,  # type: ignore[arg-type]
            grounding=_grounding(answer),
        )
        answer.user_turn_id = self.memory.add_turn(
            answer.project.id,
            "user",
            request.message,
            task_id=answer.task.id,
            agent_id=answer.agent.id,
            provider=spec.name,
        ).id
        stream = _Stream(start(spec, provider_request, prefs.settings, self.services.environ))
        self._run = stream.run
        yield from stream.events()
        self._run = None
        yield from self._finish(answer, stream, timer)

    def _finish(self, answer: Answer, stream: _Stream, timer: Timer) -> Iterator[PipelineEvent]:
        loaded = {(s.source, s.heading.lower()) for s in answer.sections}
        validation = validate_answer(
            stream.text, answer.task, answer.language, loaded, _project_terms(answer.context)
        )
        yield Validated(
            step=7, ms=timer.lap("validation"), validation=validation, summary=validation.summary()
        )
        agent_turn = self._save_answer(answer, stream, validation)
        yield TurnSaved(
            step=8,
            ms=timer.lap("memory"),
            project=answer.project.name,
            user_turn_id=answer.user_turn_id,
            agent_turn_id=agent_turn,
            status=stream.status,
        )
        yield _finished(answer, stream, validation, timer)
        if stream.error is not None:
            raise stream.error
        if stream.status == "cancelled":
            raise CancelledError("answer cancelled; the partial answer was saved")

    def _save_answer(self, answer: Answer, stream: _Stream, validation: Validation) -> int:
        usage = stream.usage
        tokens = None
        if usage and (usage.input_tokens is not None or usage.output_tokens is not None):
            tokens = (usage.input_tokens or 0) + (usage.output_tokens or 0)
        checklist = {
            **validation.model_dump(),
            "score": validation.score,
            "tier_reason": answer.tier_reason,
        }
        project, task = answer.project, answer.task
        with self.memory.transaction():
            turn = self.memory.add_turn(
                project.id,
                "agent",
                stream.text,
                task_id=task.id,
                agent_id=answer.agent.id,
                provider=stream.run.provider,
                model=stream.model,
                status=stream.status,
                tokens=tokens,
                cost=usage.cost_usd if usage else None,
                validation=checklist,
                parent_id=answer.user_turn_id,
                tier=answer.tier,
            )
            for tag in stream.decisions:
                self.memory.add_decision(project.id, tag.decision, tag.rationale, turn.id)
                self.memory.add_process_memory(
                    f"{project.name}: {task.name.en}", tag.decision, tag.rationale
                )
        return turn.id

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


class _Stream:
    """Step 6's streaming: provider events in, display text and whitelisted tags out."""

    def __init__(self, run: ProviderRun) -> None:
        self.run = run
        self.parser = TagParser()
        self.decisions: list[DecisionTag] = []
        self.usage: Usage | None = None
        self.error: ProviderError | None = None
        self.done: Done | None = None
        self.model: str | None = run.model
        self.first_token_seconds: float | None = None

    @property
    def text(self) -> str:
        return self.done.text if self.done is not None else self.run.partial_text

    @property
    def status(self) -> str:
        if self.done is not None and self.done.status == "cancelled":
            return "cancelled"
        if self.error is not None or (self.done is not None and self.done.status == "failed"):
            return "failed"
        return "complete"

    def events(self) -> Iterator[PipelineEvent | TextDelta | TierChosen | Usage | ProviderFailure]:
        with cancel_on_ctrl_c(self.run):
            try:
                for event in self.run:
                    yield from self._handle(event)
            except ProviderError as e:
                self.error = e
        yield from self._segments(self.parser.close())

    def _handle(self, event: Any) -> Iterator[Any]:
        if isinstance(event, TextDelta):
            yield from self._segments(self.parser.feed(event.text))
        elif isinstance(event, Done):
            self.done = event
            self.model = event.model or self.model
            self.first_token_seconds = event.first_token_seconds
            self.usage = event.usage or self.usage
        else:
            if isinstance(event, Usage):
                self.usage = event
            yield event

    def _segments(self, segments: list[Any]) -> Iterator[Any]:
        for segment in segments:
            if isinstance(segment, TextSegment):
                yield TextDelta(text=segment.text)
            elif isinstance(segment, DecisionTag):
                self.decisions.append(segment)
                yield DecisionRecorded(decision=segment.decision, rationale=segment.rationale)
            elif isinstance(segment, AskUserTag):
                yield QuestionAsked(question=segment.question)


def _prompt_context(context: ProjectContext) -> PromptContext:
    metadata = {
        k: v if isinstance(v, str) else str(v)
        for k, v in context.metadata.items()
        if k != "preferences"
    }
    return PromptContext(
        name=context.project.name,
        metadata=metadata,
        briefs=[(f.filename, f.content) for f in context.briefs],
        decisions=[(d.decision, d.rationale) for d in context.decisions],
    )


def _past(turns: list[Any]) -> list[PastTurn]:
    return [PastTurn(t.role, t.message, t.timestamp.date().isoformat()) for t in turns]


def _project_terms(context: ProjectContext) -> set[str]:
    values = [context.project.name, *map(str, context.metadata.values())]
    return word_set(" ".join(values), min_length=4)


def _grounding(answer: Answer) -> Grounding:
    language, context = answer.language, answer.context
    return Grounding(
        message=answer.chosen.request_text,
        task_id=answer.task.id,
        task_name=answer.task.name.get(language),
        expected_output=list(answer.task.expected_output),
        persona_role=answer.agent.role.get(language),
        persona_goal=answer.agent.goal,
        sections=[
            GuideSection(guide=s.source, heading=s.heading, text=s.text) for s in answer.sections
        ],
        project_name=context.project.name,
        project_context={
            **_prompt_context(context).metadata,
            **({"briefs": ", ".join(f.filename for f in context.briefs)} if context.briefs else {}),
        },
        decisions=[d.decision for d in context.decisions],
    )


def _finished(
    answer: Answer, stream: _Stream, validation: Validation, timer: Timer
) -> TurnFinished:
    matched, language = answer.matched, answer.language
    return TurnFinished(
        project=answer.project.name,
        language=language,
        status=stream.status,
        task=answer.task.id,
        task_name=answer.task.name.get(language),
        score=matched.score if matched else None,
        band=matched.band if matched else None,
        alternates=matched.alternates if matched else [],
        agent=answer.agent.id,
        agent_role=answer.agent.role.get(language),
        provider=stream.run.provider,
        model=stream.model,
        tier=answer.tier,
        text=stream.text,
        citations=validation.citations,
        validation=validation,
        decisions=[{"decision": d.decision, "rationale": d.rationale} for d in stream.decisions],
        usage=stream.usage.model_dump(exclude={"kind"}) if stream.usage else None,
        first_token_seconds=stream.first_token_seconds,
        timings=timer.marks,
    )
