"""A person talking to design-agent, one message at a time, with what to expect after each.

    talk("create project Atlas", reply="Who are the users", action="projects.create",
         pending="interview", project="Atlas")

Each call runs one real turn in-process (Pipeline.run on the temp home: real
SQLite, real catalogue, the offline provider unless a test installs a fake
CLI), then checks what the person saw (`reply`, a case-insensitive substring
or several) and what the conversation state is after it (`pending`: the kind
left open in the ACTIVE project, or None). Both are required: every turn of
every conversation asserts its reply and its state. Anything else is optional.
`restart()` is a new process on the same home (as `ask` is: the state on disk is
read afresh, an open question included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import claude_run, install_fake

from design_agent.cli.context import AppContext
from design_agent.core.errors import DesignAgentError
from design_agent.core.events import ActionDone, ChoiceNeeded, TurnFinished
from design_agent.core.settings import set_setting
from design_agent.knowledge.registry import Catalogue
from design_agent.memory import Memory
from design_agent.providers.events import TextDelta
from design_agent.turn.pipeline import Pipeline, TurnRequest
from design_agent.turn.session import Services
from design_agent.understanding.conversation import ConversationState, load_state, save_state

ANY_TASK = "*"  # task=ANY_TASK: some method answered, whichever routing picks
_UNSET: Any = object()


@dataclass
class Said:
    """One turn as the person saw it."""

    events: list[Any]
    error: DesignAgentError | None
    reply: str
    finished: TurnFinished | None
    actions: list[str] = field(default_factory=list)

    @property
    def answer(self) -> str:
        """The design answer's text ("" when the turn was not a design answer)."""
        return self.finished.text if self.finished and self.finished.task else ""

    @property
    def options(self) -> list[str]:
        """The task ids of a numbered choice, in order."""
        return [o.task_id for e in self.events if isinstance(e, ChoiceNeeded) for o in e.options]


class Conversation:
    """One person's sessions on one design-agent home."""

    def __init__(
        self,
        home: Path,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        catalogue: Catalogue | None = None,
    ) -> None:
        self.home_path = home
        self.catalogue = catalogue  # the bundled one, shared: every test home has the same
        self.tmp_path = tmp_path
        self.monkeypatch = monkeypatch
        empty = tmp_path / "empty-bin"
        empty.mkdir(exist_ok=True)
        # No AI CLI on PATH: a provider exists only when a test installs a fake one.
        # No review's graded pass: a fake CLI here replays an answer, never a verdict.
        self.environ: dict[str, str] = {"PATH": str(empty), "DESIGN_AGENT_MODEL_REVIEW": "off"}
        self.app: AppContext | None = None
        self.restart()
        set_setting(self.services.home, "provider", "offline")

    # -- sessions ------------------------------------------------------------------------------

    def restart(self) -> None:
        """A new design-agent process on the same home: fresh services, state from disk."""
        self.close()
        self.app = AppContext(str(self.home_path))
        app = self.app
        catalogue = self.catalogue or app.catalogue
        self.services = Services(app.home, catalogue, app.memory, {}, environ=self.environ)
        self.pipeline = Pipeline(self.services)

    def close(self) -> None:
        if self.app is not None:
            self.app.close()
            self.app = None

    @property
    def memory(self) -> Memory:
        return self.services.memory

    # -- providers -----------------------------------------------------------------------------

    def install(self, name: str, recording: str | Path | None = None, **fake: str) -> Path:
        """Put a fake `name` CLI (tests/fixtures/fake_cli.py) where design-agent finds it."""
        binary = install_fake(self.tmp_path / "bin", name)
        self.environ[f"DESIGN_AGENT_{name.upper()}_BIN"] = str(binary)
        if recording is not None:
            self.monkeypatch.setenv("FAKE_RECORDING", str(recording))
        for key, value in fake.items():
            self.monkeypatch.setenv(f"FAKE_{key.upper()}", value)
        return binary

    def use(self, name: str, recording: str | Path, **fake: str) -> None:
        """Answer with a fake `name` CLI replaying `recording` (set as the provider)."""
        self.install(name, recording, **fake)
        set_setting(self.services.home, "provider", name)

    def recording(self, *pieces: str, name: str = "answer") -> Path:
        """A claude stream-json recording whose answer streams as `pieces`, one line each."""
        return claude_run(self.tmp_path / f"{name}.json", *pieces)

    # -- the state -----------------------------------------------------------------------------

    def state(self, project: str | None = None) -> ConversationState:
        """The conversation state of `project` (a name), else of the active project."""
        target = self.memory.find_project(project) if project else self.memory.active_project()
        return load_state(self.memory, target.id if target else None)

    def age_pending(self, minutes: int, project: str | None = None) -> None:
        """Make the open question `minutes` old, as if the person had gone for lunch."""
        state = self.state(project)
        assert state.pending is not None, "nothing is pending to age"
        asked = datetime.now(UTC) - timedelta(minutes=minutes)
        state.pending = state.pending.model_copy(update={"asked_at": asked})
        save_state(self.memory, state)

    def decisions(self, project: str | None = None) -> list[str]:
        """The decisions stored in `project` (default: the active one), oldest first."""
        target = self.memory.find_project(project) if project else self.memory.active_project()
        if target is None:
            return []
        return [d.decision for d in reversed(self.memory.list_decisions(target.id))]

    def project_names(self) -> list[str]:
        return sorted(p.name for p in self.memory.list_projects())

    def metadata(self, project: str | None = None) -> dict[str, Any]:
        target = self.memory.find_project(project) if project else self.memory.active_project()
        assert target is not None
        return self.memory.metadata(target.id)

    # -- one turn ------------------------------------------------------------------------------

    def __call__(
        self,
        text: str,
        *,
        reply: str | Sequence[str],
        pending: str | None,
        not_reply: str | Sequence[str] = (),
        action: str | None = None,
        task: str | None = None,
        choice: bool = False,
        project: str | None = _UNSET,
        language: str | None = None,
        error: type[DesignAgentError] | None = None,
        exit_code: int | None = None,
        decisions: list[str] | None = None,
        interrupt: bool = False,
        in_project: str | None = None,
    ) -> Said:
        said = self.say(text, interrupt=interrupt, in_project=in_project)
        where = f"after {text!r}: reply was {said.reply!r}"
        _expect_error(said, error, exit_code, where)
        for wanted in [reply] if isinstance(reply, str) else reply:
            assert wanted.lower() in said.reply.lower(), f"{wanted!r} not in the reply {where}"
        for unwanted in [not_reply] if isinstance(not_reply, str) else not_reply:
            assert unwanted.lower() not in said.reply.lower(), f"{unwanted!r} shown {where}"
        state = self.state()
        kind = state.pending.kind if state.pending is not None else None
        assert kind == pending, f"pending is {kind!r}, expected {pending!r} {where}"
        _expect_outcome(said, action, task, choice, where)
        if project is not _UNSET:
            active = self.memory.active_project()
            assert (active.name if active else None) == project, f"active project {where}"
        if language is not None:
            seen = said.finished.language if said.finished else state.language
            assert seen == language, f"language {seen!r} {where}"
        if decisions is not None:
            assert self.decisions() == decisions, f"stored decisions {where}"
        return said

    def say(self, text: str, interrupt: bool = False, in_project: str | None = None) -> Said:
        """Run one turn and collect what was shown; an error is kept, not raised.

        `in_project` runs it in that project, as `ask --project NAME` does."""
        events: list[Any] = []
        error: DesignAgentError | None = None
        try:
            for event in self.pipeline.run(TurnRequest(text, project=in_project)):
                events.append(event)
                if interrupt and isinstance(event, TextDelta):
                    self.pipeline.cancel()  # Ctrl-C while the answer streams
        except DesignAgentError as e:
            error = e
        return _said(events, error)


def _said(events: list[Any], error: DesignAgentError | None) -> Said:
    shown: list[str] = []
    for event in events:
        if isinstance(event, ActionDone):
            shown.append(event.message)
        elif isinstance(event, ChoiceNeeded):
            shown.append(event.question)
            shown.extend(f"{o.number}. {o.name}" for o in event.options)
    finished = next((e for e in reversed(events) if isinstance(e, TurnFinished)), None)
    if finished is not None and finished.task:
        shown.append(finished.text)
    if error is not None:
        shown.append(error.message)
    actions = [e.action for e in events if isinstance(e, ActionDone)]
    return Said(events, error, "\n".join(shown), finished, actions)


def _expect_error(
    said: Said, error: type[DesignAgentError] | None, exit_code: int | None, where: str
) -> None:
    if error is None:
        if said.error is not None:
            raise AssertionError(f"unexpected {type(said.error).__name__} {where}") from said.error
        return
    assert type(said.error) is error, f"expected {error.__name__}, got {said.error!r} {where}"
    assert exit_code is not None, "say which exit code the error must have"
    assert int(said.error.exit_code) == exit_code, f"exit code {where}"


def _expect_outcome(
    said: Said, action: str | None, task: str | None, choice: bool, where: str
) -> None:
    finished = said.finished
    if action is not None:
        assert action in said.actions, f"action {action!r} not in {said.actions} {where}"
    if task is not None:
        assert finished is not None and finished.task is not None, f"no design answer {where}"
        assert task in (ANY_TASK, finished.task), f"task {finished.task!r} {where}"
    if choice:
        assert said.options, f"no numbered choice {where}"
        assert finished is not None and finished.status == "needs_choice", where


def file_in(folder: Path, name: str, content: str | bytes) -> Path:
    """A real file the person hands over (a space in the name is fine)."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


__all__ = ["ANY_TASK", "Conversation", "Said", "file_in"]
