"""Turns run by the server: one worker thread per turn, its events kept for reattaching.

    manager = TurnManager(context.services)
    record = manager.start(TurnRequest("plan a usability test", project="Checkout"), "checkout")
    for seq, event in record.follow():   # (seq, None) is a keep-alive tick
        ...

The turn runs `Pipeline(services).run(request)`, exactly as the shell does,
in a thread of its own with its own Memory connection; a client that goes
away never stops it. One turn per project at a time (a second one is
`ProjectBusy`, answered 409); turns on different projects run in parallel.
Finished turns are forgotten after KEEP_FINISHED_SECONDS or beyond the
KEEP_FINISHED_COUNT most recent.
"""

from __future__ import annotations

import logging
import secrets
import string
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from design_agent.core.errors import CancelledError, DesignAgentError, ExitCode

if TYPE_CHECKING:
    from design_agent.memory.models import Person
    from design_agent.turn.pipeline import Pipeline
    from design_agent.turn.session import Services
    from design_agent.turn.types import TurnRequest

KEEP_FINISHED_SECONDS = 30 * 60
KEEP_FINISHED_COUNT = 200
TURN_ID_CHARS = string.ascii_lowercase + string.digits
TURN_ID_LENGTH = 16
# A cancel gives the provider 2 s to stop (runner.py); saving the partial answer follows.
SHUTDOWN_WAIT_SECONDS = 5.0

log = logging.getLogger("design_agent.server")


class ProjectBusy(Exception):
    """The project already has a turn running (its id is in `running_turn_id`)."""

    def __init__(self, project_id: str, running_turn_id: str) -> None:
        super().__init__(f"project {project_id} is busy with turn {running_turn_id}")
        self.project_id = project_id
        self.running_turn_id = running_turn_id


class TurnNotFound(Exception):
    """No turn with that id (never started here, or finished and forgotten)."""


class FollowedTurn(Protocol):
    """A turn as the routes follow it: this process's (TurnRecord), or, on a database
    several processes serve, another process's (shared_turns.RemoteTurn)."""

    turn_id: str
    project_id: str

    @property
    def status(self) -> str: ...

    @property
    def done(self) -> bool: ...

    def after(self, seq: int) -> tuple[list[Any], bool]: ...

    def stamp(self, seq: int) -> int: ...

    def listen(self, listener: Callable[[], None]) -> None: ...

    def unlisten(self, listener: Callable[[], None]) -> None: ...

    def cancel(self) -> None: ...

    def end_data(self) -> dict[str, Any]: ...

    def summary(self) -> dict[str, Any]: ...


def new_turn_id() -> str:
    return "".join(secrets.choice(TURN_ID_CHARS) for _ in range(TURN_ID_LENGTH))


class TurnRecord:
    """One server turn: what was asked, its events so far, how it ended."""

    def __init__(
        self, turn_id: str, project_id: str, message: str, person: Person | None = None
    ) -> None:
        self.turn_id = turn_id
        self.project_id = project_id
        self.message = message
        self.person = person  # who started it (a team's server), else None
        self.status = "running"
        self.started = datetime.now(UTC)
        self.finished: datetime | None = None
        self.finished_at = 0.0  # monotonic, for forgetting old turns
        self.exit_code: int | None = None
        self.error: str | None = None
        self.cancel_requested = False
        self.thread: threading.Thread | None = None
        self._events: list[Any] = []
        self._stamps: list[int] = []  # monotonic ns each event was appended at
        self._pipeline: Pipeline | None = None
        self._cond = threading.Condition()
        self._listeners: set[Callable[[], None]] = set()  # told of each new event and the end

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def event_count(self) -> int:
        return len(self._events)

    def events(self) -> list[Any]:
        with self._cond:
            return list(self._events)

    def append(self, event: Any) -> None:
        with self._cond:
            self._events.append(event)
            self._stamps.append(time.monotonic_ns())
            self._cond.notify_all()
            self._tell()

    def stamp(self, seq: int) -> int:
        """When event `seq` (from 1) was appended, in monotonic ns (for latency figures)."""
        return self._stamps[seq - 1]

    def finish(self, status: str, exit_code: int, error: str | None) -> None:
        with self._cond:
            self.status, self.exit_code, self.error = status, exit_code, error
            self.finished, self.finished_at = datetime.now(UTC), time.monotonic()
            self._pipeline = None
            self._cond.notify_all()
            self._tell()

    def _tell(self) -> None:
        for listener in list(self._listeners):
            listener()

    def listen(self, listener: Callable[[], None]) -> None:
        """Call `listener` (from the turn's thread) at each new event and at the end."""
        with self._cond:
            self._listeners.add(listener)

    def unlisten(self, listener: Callable[[], None]) -> None:
        with self._cond:
            self._listeners.discard(listener)

    def after(self, seq: int) -> tuple[list[Any], bool]:
        """The events after `seq`, and whether the turn had ended when they were taken."""
        with self._cond:
            return self._events[seq:], self.done

    def attach(self, pipeline: Pipeline) -> None:
        """The pipeline running this turn; a cancel that came first applies at once."""
        with self._cond:
            self._pipeline = pipeline
            cancelled = self.cancel_requested
        if cancelled:
            pipeline.cancel()

    def cancel(self) -> None:
        """Cancel this turn only (its provider runs); the partial answer is saved."""
        with self._cond:
            if self.done:
                return
            self.cancel_requested = True
            pipeline = self._pipeline
        if pipeline is not None:
            pipeline.cancel()

    def follow(self, after: int = 0, wait: float = 15.0) -> Iterator[tuple[int, Any | None]]:
        """(seq, event) for every event after `after`, as they come (seq counts from 1);
        (seq, None) when nothing came within `wait` seconds; ends once the turn ended
        and everything was given."""
        seq = max(0, after)
        while True:
            with self._cond:
                if seq >= len(self._events) and not self.done:
                    self._cond.wait(wait)
                batch, done = self._events[seq:], self.done
            for event in batch:
                seq += 1
                yield seq, event
            if not batch:
                if done:
                    return
                yield seq, None

    def end_data(self) -> dict[str, Any]:
        """The `end` event: how the turn ended."""
        return {"status": self.status, "exit_code": self.exit_code, "error": self.error}

    def summary(self) -> dict[str, Any]:
        """The turn as GET /api/v1/turns/{id} shows it (on a team's server, with who
        started it)."""
        who = {"person": self.person.name} if self.person is not None else {}
        return {
            "turn_id": self.turn_id,
            "project_id": self.project_id,
            "message": self.message,
            **who,
            "status": self.status,
            "started": self.started.isoformat(),
            "finished": self.finished.isoformat() if self.finished else None,
            "events": self.event_count,
            "exit_code": self.exit_code,
            "error": self.error,
        }


class TurnManager:
    """Starts turns on worker threads, finds them by id, cancels them."""

    def __init__(self, services_factory: Callable[[Person | None], Services]) -> None:
        self._services_factory = services_factory
        self._turns: dict[str, TurnRecord] = {}
        self._running: dict[str, str] = {}  # project id -> its running turn's id
        self._lock = threading.Lock()

    def start(
        self, request: TurnRequest, project_id: str, person: Person | None = None
    ) -> TurnRecord:
        """Run `request` on project `project_id` (as `person`, on a team's server) in a new
        thread; ProjectBusy if one runs."""
        return self._launch(request, project_id, person, new_turn_id())

    def _launch(
        self, request: TurnRequest, project_id: str, person: Person | None, turn_id: str
    ) -> TurnRecord:
        with self._lock:
            running = self._running.get(project_id)
            if running is not None:
                raise ProjectBusy(project_id, running)
            self._forget_old()
            record = TurnRecord(turn_id, project_id, request.message, person)
            self._turns[record.turn_id] = record
            self._running[project_id] = record.turn_id
        name = f"turn-{record.turn_id}"
        record.thread = threading.Thread(
            target=self._work, args=(record, request), name=name, daemon=True
        )
        record.thread.start()
        return record

    def get(self, turn_id: str) -> FollowedTurn:
        """The turn with this id (TurnNotFound when there is none, or it was forgotten)."""
        return self.local(turn_id)

    def local(self, turn_id: str) -> TurnRecord:
        """The turn with this id that this process runs or ran."""
        with self._lock:
            record = self._turns.get(turn_id)
        if record is None:
            raise TurnNotFound(turn_id)
        return record

    def cancel(self, turn_id: str) -> FollowedTurn:
        record = self.get(turn_id)
        record.cancel()
        return record

    def running(self) -> list[TurnRecord]:
        with self._lock:
            return [self._turns[t] for t in self._running.values()]

    def running_on(self, project_id: str) -> FollowedTurn | None:
        """The turn running on the project, if any."""
        with self._lock:
            turn_id = self._running.get(project_id)
            return self._turns[turn_id] if turn_id else None

    def shutdown(self, wait: float = SHUTDOWN_WAIT_SECONDS) -> None:
        """Cancel every running turn and wait (bounded) until each is saved as cancelled."""
        records = self.running()
        for record in records:
            record.cancel()
        deadline = time.monotonic() + wait
        for record in records:
            if record.thread is not None:
                record.thread.join(max(0.0, deadline - time.monotonic()))

    def _work(self, record: TurnRecord, request: TurnRequest) -> None:
        from design_agent.turn.pipeline import Pipeline

        services: Services | None = None
        outcome: tuple[str, int, str | None] = ("failed", int(ExitCode.UNEXPECTED), None)
        try:
            services = self._services_factory(record.person)
            pipeline = Pipeline(services)
            record.attach(pipeline)
            for event in pipeline.run(request):
                record.append(event)
            outcome = _ended(record)
        except CancelledError as e:
            outcome = ("cancelled", int(e.exit_code), e.message)
        except DesignAgentError as e:
            outcome = ("failed", int(e.exit_code), e.message)
        except Exception as e:  # a bug must end the turn, not leave it running forever
            outcome = _failed(record, e, services)
        finally:
            if services is not None:
                services.memory.close()
            with self._lock:  # free the project first: a client told `end` may start again
                self._running.pop(record.project_id, None)
            record.finish(*outcome)

    def _forget_old(self) -> None:
        """Drop finished turns past their time or beyond the most recent ones (lock held)."""
        finished = sorted((r for r in self._turns.values() if r.done), key=lambda r: r.finished_at)
        too_old = time.monotonic() - KEEP_FINISHED_SECONDS
        extra = max(0, len(finished) - KEEP_FINISHED_COUNT + 1)
        for index, record in enumerate(finished):
            if index < extra or record.finished_at < too_old:
                del self._turns[record.turn_id]


def _ended(record: TurnRecord) -> tuple[str, int, str | None]:
    """How a turn that raised nothing ended: asking the user something, cancelled by a
    late cancel (as `ask` ends after a late Ctrl-C), or complete."""
    if record.cancel_requested:
        return "cancelled", int(ExitCode.CANCELLED), "cancelled"
    events = record.events()
    finished = next((e for e in reversed(events) if getattr(e, "kind", "") == "finished"), None)
    asks = any(getattr(e, "kind", "") == "question" for e in events) or any(
        getattr(e, "needs_confirmation", False) for e in events
    )
    if asks or getattr(finished, "status", "complete") == "needs_choice":
        return "needs_answer", int(ExitCode.OK), None
    return "complete", int(ExitCode.OK), None


def _failed(
    record: TurnRecord, error: Exception, services: Services | None
) -> tuple[str, int, str]:
    """How a turn that raised something other than a DesignAgentError ended: a full disk or
    a damaged database said as such (memory/faults.py), anything else logged as a bug."""
    from design_agent.memory.faults import storage_error

    known = storage_error(error, services.memory.path) if services is not None else None
    if known is not None:
        return ("failed", int(known.exit_code), known.message)
    log.exception("turn %s failed", record.turn_id, exc_info=error)
    return ("failed", int(ExitCode.UNEXPECTED), f"unexpected {type(error).__name__}: {error}")
