"""Step 3: which method answers the request, or which question to ask instead.

HIGH proceeds. A follow-up ("make it cover mobile too") keeps the last task,
but only when the conversation says it is one: a clear new method always
wins. Below HIGH, a real AI CLI's fast tier may choose among the top
candidates (one strict JSON reply, a short timeout); otherwise MEDIUM
proceeds naming the alternates and LOW asks a numbered choice, at most
twice in a row before going ahead with the assumptions stated.

Choosing is a generator of the turn's events (`chosen = yield from
chooser.choose(...)`): a wait on the model is announced as it starts and ends
(providers/side_call.py), and a cancel during it ends the turn.
"""

from __future__ import annotations

from collections.abc import Generator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from design_agent.core.events import ChoiceNeeded, TaskMatched, TaskOption, WorkDone, Working
from design_agent.core.messages import say
from design_agent.providers.side_call import side_call
from design_agent.turn.types import Chosen, Timer, TurnState
from design_agent.understanding.conversation import MethodChoice
from design_agent.understanding.follow_up import goes_on
from design_agent.understanding.matching import HIGH_MIN, MatchResult, TaskScore

if TYPE_CHECKING:
    from design_agent.core.models import Task
    from design_agent.knowledge.registry import Catalogue
    from design_agent.providers.spec import AdapterSpec
    from design_agent.turn.session import Services
    from design_agent.understanding.model_choice import ModelChoice
    from design_agent.understanding.model_follow_up import FollowUpVerdict

MAX_CLARIFYING = 2
# Seconds the fast model may take to choose the method before the deterministic choice.
MODEL_CHOICE_TIMEOUT = 12.0
# A follow-up refers to an answer given in this conversation, not days ago.
FOLLOW_UP_WINDOW = timedelta(hours=12)
# The research method that answers a question about the evidence (evidence/question.py).
EVIDENCE_TASK = "research_synthesis"
STARTERS = ("journey_mapping", "usability_test_plan", "personas", "prioritization")


# What choosing yields while it runs (the announced waits on a model), then returns.
Choosing = Generator[Working | WorkDone, None, Chosen]
ModelChoosing = Generator[Working | WorkDone, None, Chosen | None]
FollowingUp = Generator[Working | WorkDone, None, "tuple[Task, str] | None"]


class TaskChooser:
    """Chooses the task for a design request, reading and updating the conversation state."""

    def __init__(self, services: Services) -> None:
        self.services = services

    @property
    def catalogue(self) -> Catalogue:
        """The services' catalogue, read again when its files change (Services)."""
        return self.services.catalogue

    def choose(
        self, message: str, turn: TurnState, timer: Timer, spec: AdapterSpec | None = None
    ) -> Choosing:
        """The method for `message`, or a numbered question (a reply to an open question was
        read before: turn/pipeline.py); yields the events of a wait on the model, if asked."""
        state = turn.conversation
        recent = [state.last.task_id] if state.last else []
        result = self.services.matcher.match(message, recent_task_ids=recent)
        return (yield from self._decide(message, result, turn, timer, spec))

    # -- deciding ----------------------------------------------------------------------------

    def _decide(
        self,
        message: str,
        result: MatchResult,
        turn: TurnState,
        timer: Timer,
        spec: AdapterSpec | None,
    ) -> Choosing:
        best = result.best
        about_evidence = self._evidence_question(message, result, turn, timer)
        if about_evidence is not None:
            return about_evidence
        follow_up = yield from self._follow_up(message, result, turn, spec)
        if follow_up is not None:
            task, reason = follow_up
            score = best.score if best else 0.0
            matched = self._matched(task, score, result.band, timer, reason)
            return Chosen(task, matched, message)
        if best is not None and best.band == "HIGH" and not result.ambiguous:
            return self._proceed(message, best, result, turn, timer)
        by_model = yield from self._model_choice(message, result, turn, timer, spec)
        if by_model is not None:
            return by_model
        if best is not None and not result.needs_choice:
            return self._proceed(message, best, result, turn, timer)
        return self._clarify(message, result, turn, timer)

    def _proceed(
        self, message: str, best: TaskScore, result: MatchResult, turn: TurnState, timer: Timer
    ) -> Chosen:
        turn.conversation.clarify_count = 0
        task = self.catalogue.task(best.task_id)
        alternates = self._options(result.alternates, turn.language) if best.band != "HIGH" else []
        event = self._matched(
            task, best.score, best.band, timer, ambiguous=result.ambiguous, alternates=alternates
        )
        return Chosen(task, event, message)

    def _evidence_question(
        self, message: str, result: MatchResult, turn: TurnState, timer: Timer
    ) -> Chosen | None:
        """A question about what was said ("what did participants say about booking?"),
        asked in a project that has evidence: the shape of the question (evidence/question.py)
        and the project's sessions are the two signs, so it goes ahead at HIGH to the
        research synthesis, whose evidence block retrieves the segments for it and whose
        quotes are verified. A method the matcher is sure of (HIGH) still wins."""
        from design_agent.evidence.question import asks_evidence

        best = result.best
        if turn.project is None or (best is not None and best.band == "HIGH"):
            return None
        if not asks_evidence(message) or EVIDENCE_TASK not in self.catalogue.tasks:
            return None
        sessions = self.services.memory.evidence.sessions(turn.project.id)
        if not sessions:
            return None
        turn.conversation.clarify_count = 0
        task = self.catalogue.task(EVIDENCE_TASK)
        # Two signs, not words matched: the score HIGH starts at, or the words' own if more.
        found = next((c.score for c in result.candidates if c.task_id == task.id), 0.0)
        score = max(found, HIGH_MIN)
        reason = say("evidence_question", turn.language, sessions=len(sessions))
        return Chosen(task, self._matched(task, score, "HIGH", timer, reason), message)

    def _follow_up(
        self, message: str, result: MatchResult, turn: TurnState, spec: AdapterSpec | None
    ) -> FollowingUp:
        """The last answer's method (and why), when the message goes on from it rather than
        asking for something new: understanding/follow_up.py weighs the two, and a close
        call goes to the fast model when a real CLI is active (its reading, else the
        weighed one)."""
        last = turn.conversation.last
        if last is None or last.task_id not in self.catalogue.tasks:
            return None
        if last.answered_at and datetime.now(UTC) - last.answered_at > FOLLOW_UP_WINDOW:
            return None
        task = self.catalogue.task(last.task_id)
        weighed = goes_on(message, task, result, turn.language)
        reading, reason = weighed.reading, "follow-up"
        if not weighed.settled and spec is not None and not spec.is_offline:
            verdict = yield from side_call(
                "weighing_follow_up",
                turn.language,
                lambda: self._ask_follow_up(message, task, last.request, spec, turn),
                spec.display_name,
                MODEL_CHOICE_TIMEOUT,
            )
            if verdict is not None:
                reading = verdict.reading
                reason = say("follow_up_by_model", turn.language, provider=spec.display_name)
        return (task, reason) if reading == "follow_up" else None

    def _ask_follow_up(
        self, message: str, task: Task, last_request: str, spec: AdapterSpec, turn: TurnState
    ) -> FollowUpVerdict | None:
        """The fast model's reading of a close call (blocking, at most the timeout)."""
        from design_agent.understanding.model_follow_up import read_with_model

        settings, environ = turn.prefs.settings, self.services.environ
        return read_with_model(
            message, task, last_request, spec, settings, environ, turn.language,
            MODEL_CHOICE_TIMEOUT,
        )  # fmt: skip

    def _model_choice(
        self,
        message: str,
        result: MatchResult,
        turn: TurnState,
        timer: Timer,
        spec: AdapterSpec | None,
    ) -> ModelChoosing:
        if spec is None or spec.is_offline or not result.candidates:
            return None
        candidates = self._candidates(result)
        choice = yield from side_call(
            "choosing_method",
            turn.language,
            lambda: self._ask_model(message, candidates, spec, turn),
            spec.display_name,
            MODEL_CHOICE_TIMEOUT,
        )
        if choice is None or choice.task_id is None:
            return None
        turn.conversation.clarify_count = 0
        task = self.catalogue.task(choice.task_id)
        score = next((c.score for c in candidates if c.task_id == task.id), 0.0)
        band = next((c.band for c in candidates if c.task_id == task.id), "LOW")
        reason = say("chosen_by_model", turn.language, provider=spec.display_name)
        return Chosen(task, self._matched(task, score, band, timer, reason), message)

    def _ask_model(
        self, message: str, candidates: list[TaskScore], spec: AdapterSpec, turn: TurnState
    ) -> ModelChoice | None:
        """The fast model's choice among `candidates` (blocking, at most the timeout)."""
        from design_agent.understanding.model_choice import choose_with_model

        settings, environ = turn.prefs.settings, self.services.environ
        return choose_with_model(
            message,
            candidates,
            self.catalogue,
            spec,
            settings,
            environ,
            turn.language,
            MODEL_CHOICE_TIMEOUT,
        )

    def _clarify(self, message: str, result: MatchResult, turn: TurnState, timer: Timer) -> Chosen:
        state = turn.conversation
        candidates = self._candidates(result)
        if state.clarify_count < MAX_CLARIFYING:
            return self._ask(message, candidates, turn, timer)
        state.clarify_count = 0
        task = self.catalogue.task(candidates[0].task_id)
        assumptions = say("assumed", turn.language, task=task.name.get(turn.language))
        event = self._matched(
            task,
            candidates[0].score,
            result.band,
            timer,
            f"assumed after {MAX_CLARIFYING} clarifying questions",
            alternates=self._options(candidates[1:], turn.language),
        )
        return Chosen(task, event, message, assumptions)

    def _ask(
        self,
        message: str,
        options: list[TaskScore],
        turn: TurnState,
        timer: Timer,
        reasked: bool = False,
    ) -> Chosen:
        state = turn.conversation
        if not reasked:
            state.clarify_count += 1
        shown = self._options(options, turn.language)
        question = say("choose_again" if reasked else "choose", turn.language)
        state.pending = MethodChoice(
            message=message,
            options=[o.task_id for o in options],
            language=turn.language,  # type: ignore[arg-type]
            reasked=reasked,
            # Put again after an aside, so with its numbered options.
            question="\n".join([question, *(f"  {o.number}. {o.name}" for o in shown)]),
        )
        event = ChoiceNeeded(step=3, ms=timer.lap("task"), question=question, options=shown)
        return Chosen(None, event, message)

    def _candidates(self, result: MatchResult) -> list[TaskScore]:
        candidates = list(result.candidates[:4])
        if len(candidates) >= 3:
            return candidates
        # Nothing specific matched: offer the starting points of a design project.
        known = {c.task_id for c in candidates}
        extra = [TaskScore(task_id=t, score=0.0, band="LOW") for t in STARTERS if t not in known]
        return (candidates + extra)[:4]

    def _options(self, scores: list[TaskScore], language: str) -> list[TaskOption]:
        tasks = self.catalogue.tasks
        return [
            TaskOption(
                number=i,
                task_id=s.task_id,
                name=tasks[s.task_id].name.get(language),
                score=round(s.score, 1),
            )
            for i, s in enumerate(scores, 1)
        ]

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
