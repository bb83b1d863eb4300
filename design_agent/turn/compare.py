"""`/compare claude gemini`: one request answered by two providers at once.

Each provider gets its own request (its own context budget), its own process
group and its own cancel (a Ctrl-C cancels both, keeping what each wrote). The
answers are gathered, then shown one after the other, each with a footer, and
saved as two answers to the same request: two sibling branches of the tree.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from design_agent.actions.base import ActionResult
from design_agent.core.events import ActionDone, TaskMatched
from design_agent.core.messages import say
from design_agent.providers.runner import start
from design_agent.turn.answer_stream import AnswerStream
from design_agent.turn.answering import Answering
from design_agent.turn.recording import save_answer, save_request
from design_agent.turn.request_builder import BuiltRequest, RequestInputs, build_request
from design_agent.turn.review import reviewed
from design_agent.turn.types import Chosen, Timer, TurnState
from design_agent.understanding.conversation import CompareChoice, LastAnswer

if TYPE_CHECKING:
    from collections.abc import Mapping

    from design_agent.core.checklist import Validation
    from design_agent.core.evidence import EvidenceReport
    from design_agent.core.models import Task
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec

# Each side gets this long at most beyond its own adapter's timeouts (a safety net).
JOIN_SLACK_SECONDS = 5.0


@dataclass
class Side:
    """One provider's half of a comparison."""

    spec: AdapterSpec
    request: BuiltRequest
    stream: AnswerStream | None = None
    seconds: float = 0.0
    validation: Validation | None = None
    turn_id: int | None = None
    # The answer's quotes checked against the project's evidence (None: nothing to check).
    evidence: EvidenceReport | None = None


def run_both(sides: list[Side], settings: Settings, environ: Mapping[str, str] | None) -> None:
    """Run every side concurrently, each to its end (complete, failed or cancelled)."""
    threads = [
        threading.Thread(target=_run, args=(side, settings, environ), daemon=True) for side in sides
    ]
    for thread in threads:
        thread.start()
    for side, thread in zip(sides, threads, strict=True):
        thread.join(side.spec.timeouts.total + JOIN_SLACK_SECONDS)


def _run(side: Side, settings: Settings, environ: Mapping[str, str] | None) -> None:
    started = time.perf_counter()
    run = start(side.spec, side.request.built, settings, environ)
    stream = AnswerStream(run, scan_tags=not side.spec.is_offline)
    side.stream = stream
    for _event in stream.events():
        pass  # gathered: the text, usage and status are kept on the stream
    side.seconds = time.perf_counter() - started


def footer(side: Side) -> str:
    """provider/model · tokens · cost · seconds · checklist, as the turn footer has them."""
    stream = side.stream
    assert stream is not None
    parts = ["/".join(p for p in (stream.provider, stream.model) if p)]
    usage = stream.usage
    if usage and (usage.input_tokens or usage.output_tokens):
        parts.append(f"{(usage.input_tokens or 0) + (usage.output_tokens or 0)} tokens")
    if usage and usage.cost_usd:
        parts.append(f"${usage.cost_usd:.4f}")
    parts.append(f"{side.seconds:.1f} s")
    if side.validation is not None:
        parts.append(f"checklist {side.validation.score}")
    if side.evidence is not None and side.evidence.quotes:
        verified = side.evidence.counts().get("verified", 0)
        removed = f", {side.evidence.removed} removed" if side.evidence.removed else ""
        parts.append(f"quotes {verified}/{len(side.evidence.quotes)} verified{removed}")
    if stream.status != "complete":
        parts.append(stream.status)
    return "── " + " · ".join(parts)


class Comparison:
    """The last request answered by two providers at once, saved as two answers to it
    (sibling branches) and shown one after the other; which to keep is then asked."""

    def __init__(
        self, answering: Answering, turn: TurnState, providers: tuple[str, str], timer: Timer
    ) -> None:
        self.answering = answering
        self.services = answering.services
        self.turn = turn
        self.names = list(providers)
        self.timer = timer
        last = turn.conversation.last
        assert last is not None and turn.project is not None
        self.task = self.services.catalogue.task(last.task_id)
        self.agent = self.services.catalogue.agent(self.task.agent)
        self.asked = answering.back_to_request(turn)
        self.context = answering.project_context(turn.project, turn.conversation)
        chosen = Chosen(self.task, _again(self.task, last, timer), last.request)
        self.sides = [self._side(name, chosen) for name in self.names]

    def run(self) -> Generator[Any, None, ActionResult]:
        """Run both (a Ctrl-C cancels both), save them, and return the question to ask."""
        turn, language = self.turn, self.turn.language
        first, second = (self.services.adapters[n].display_name for n in self.names)
        yield ActionDone(
            action="conversation.compare",
            message=say("compare_running", language, first=first, second=second),
        )
        run_both(self.sides, turn.prefs.settings, self.services.environ)
        assert turn.project is not None and turn.conversation.last is not None
        user_turn = self.asked or save_request(
            self.services.memory,
            turn.project,
            turn.conversation.last.request,
            self.task,
            self.agent,
            self.names[0],
            turn.conversation.node,
        )
        for side in self.sides:
            self._save(side, user_turn)
        return self._question()

    def _side(self, name: str, chosen: Chosen) -> Side:
        spec = self.services.adapters[name]
        prefs = replace(self.turn.prefs, provider=name)
        from design_agent.turn.evidence import evidence_now

        assert self.turn.project is not None
        found = evidence_now(
            self.services.memory, self.turn.project.id, self.task, chosen.request_text, spec, prefs
        )
        inputs = RequestInputs(
            chosen.request_text, chosen, self.agent, self.context, prefs, spec, [], found
        )
        return Side(spec, build_request(self.services.knowledge, inputs))

    def _save(self, side: Side, user_turn: int) -> None:
        turn = self.turn
        assert side.stream is not None and turn.project is not None
        side.validation, side.evidence = reviewed(
            self.services.memory,
            turn.project.id,
            side.stream.text,
            self.task,
            turn.language,
            self.context,
            side.request.loaded,
            side.request.offline,
            self.services.knowledge.headings_of,
        )
        memory = self.services.memory
        with memory.transaction():
            side.turn_id = save_answer(
                memory,
                turn.project,
                self.task,
                self.agent,
                side.stream,
                side.validation,
                user_turn,
                side.request.built.tier,
                side.request.built.tier_reason,
                turn.prefs.settings.keyframe_every,
                language=turn.language,
            )

    def _question(self) -> ActionResult:
        language = self.turn.language
        blocks = []
        for number, side in enumerate(self.sides, 1):
            assert side.stream is not None
            heading = say(
                "compare_answer", language, number=number, provider=self.names[number - 1]
            )
            checked = _evidence_lines(side, language)
            shown = f"{checked}\n\n" if checked else ""
            blocks.append(f"{heading}\n\n{side.stream.text.strip()}\n\n{shown}{footer(side)}")
        question = say("compare_question", language)
        answers = [side.turn_id or 0 for side in self.sides]
        data = {
            "answers": answers,
            "providers": self.names,
            "texts": [side.stream.text for side in self.sides if side.stream is not None],
            "footers": [footer(side) for side in self.sides],
            "checks": [_evidence_lines(side, language) for side in self.sides],
            "evidence": [
                side.evidence.model_dump(mode="json") if side.evidence else None
                for side in self.sides
            ],
            "question": question,
        }
        done = ActionDone(
            action="conversation.compare",
            message="\n\n".join([*blocks, question]),
            data=data,
            asks=question,
            needs_confirmation=True,
        )
        pending = CompareChoice(
            language="es" if language == "es" else "en",
            question=question,
            answers=answers,
            providers=self.names,
            task_name=self.task.name.get(language),
        )
        return ActionResult(done, pending)


def _evidence_lines(side: Side, language: str) -> str:
    """The evidence check of one side as a turn shows it (turn/evidence.report_lines)."""
    if side.evidence is None or not side.evidence.quotes:
        return ""
    from design_agent.turn.evidence import report_lines

    return "\n".join(report_lines(side.evidence, language))


def _again(task: Task, last: LastAnswer, timer: Timer) -> TaskMatched:
    return TaskMatched(
        step=3,
        ms=timer.lap("task"),
        task_id=task.id,
        name=task.name.en,
        score=last.score or 0.0,
        band=last.band or "HIGH",
        reason="compare",
    )
