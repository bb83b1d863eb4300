"""Turns on a database several server processes serve (PostgreSQL): any process can follow,
reattach to and cancel a turn another one runs, and a busy project is 409 from any of them.

`SharedTurnManager` is the TurnManager of a server on PostgreSQL. The turns it runs are
this process's, in a thread each, as always; besides, each is claimed in the database
(memory/postgres/turn_log.py: one running turn per project, whichever process asks), its
events are stored as they come and announced with NOTIFY (ids only), and how it ended is
recorded. A flusher thread does that writing, borrowing a pooled connection per batch;
nothing holds one across a model call.

A turn of another process is a `RemoteTurn`: its events are read from the database when
they are announced (one read per announcement, whoever follows it in this process) and
held here for the followers; the SSE route streams it exactly as it streams a local turn.
Cancelling it asks its process, through the database. Announcements are heard on a
connection of its own (memory/postgres/listen.py); if it is lost, every followed turn is
read again once it is back.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from design_agent.server.turns import (
    FollowedTurn,
    ProjectBusy,
    TurnManager,
    TurnNotFound,
    TurnRecord,
    new_turn_id,
)

if TYPE_CHECKING:
    from design_agent.memory.connection import Connection
    from design_agent.memory.models import Person
    from design_agent.memory.postgres.turn_log import Run, StoredEvent
    from design_agent.memory.url import DatabaseUrl
    from design_agent.turn.session import Services
    from design_agent.turn.types import TurnRequest

BATCH_SECONDS = 0.01  # events that come this close together are stored in one statement
BEAT_SECONDS = 5.0  # a running turn's heartbeat (turn_log.STALE_SECONDS: 20)
FORGET_SECONDS = 60.0  # how often finished turns older than 30 minutes are deleted
READY_SECONDS = 5.0  # how long a follower waits for the listener to be listening
log = logging.getLogger("design_agent.server")


def now() -> datetime:
    return datetime.now(UTC)


class Replayed:
    """A stored event, as the SSE route sends it (its JSON as the pipeline made it)."""

    def __init__(self, stored: StoredEvent) -> None:
        self.kind = stored.kind
        self.data = stored.data

    def model_dump_json(self) -> str:
        return self.data


class RemoteTurn:
    """A turn another process runs, as this process follows it (see the module docstring)."""

    def __init__(self, manager: SharedTurnManager, run: Run) -> None:
        self.manager = manager
        self.turn_id, self.project_id = run.id, run.project_id
        self._run = run
        self._events: list[Replayed] = []
        self._stamps: list[int] = []
        self._listeners: set[Callable[[], None]] = set()
        self._lock = threading.Lock()

    @property
    def status(self) -> str:
        return self._run.status

    @property
    def done(self) -> bool:
        return self._run.status != "running"

    @property
    def seen(self) -> int:
        """How many of its events are held here."""
        return len(self._events)

    def refresh(self) -> None:
        """Read what is new: the row first, then the events (an ended row's events are all
        stored before it says so), then tell the followers."""
        from design_agent.memory.postgres import turn_log

        db = self.manager.database()
        run = turn_log.get(db, self.turn_id)
        self.deliver(run, turn_log.events_after(db, self.turn_id, self.seen))

    def deliver(self, run: Run | None, fresh: list[StoredEvent]) -> None:
        """Take the row (None: unchanged) and the events read, then tell the followers."""
        with self._lock:
            if run is not None:
                self._run = run
            for stored in fresh:
                if stored.seq == len(self._events) + 1:
                    self._events.append(Replayed(stored))
                    self._stamps.append(stored.appended_ns)
            listeners = list(self._listeners)
        for listener in listeners:
            listener()

    def after(self, seq: int) -> tuple[list[Any], bool]:
        with self._lock:
            return list(self._events[seq:]), self.done

    def stamp(self, seq: int) -> int:
        return self._stamps[seq - 1]

    def listen(self, listener: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.add(listener)

    def unlisten(self, listener: Callable[[], None]) -> None:
        with self._lock:
            self._listeners.discard(listener)

    def cancel(self) -> None:
        """Ask the process running it to cancel it (it saves the partial answer)."""
        from design_agent.memory.postgres import turn_log

        if not self.done:
            db = self.manager.database()
            turn_log.ask_cancel(db, self.turn_id)

    def end_data(self) -> dict[str, Any]:
        run = self._run
        return {"status": run.status, "exit_code": run.exit_code, "error": run.error}

    def summary(self) -> dict[str, Any]:
        run = self._run
        who = {"person": run.person} if run.person is not None else {}
        return {
            "turn_id": run.id,
            "project_id": run.project_id,
            "message": run.message,
            **who,
            "status": run.status,
            "started": run.started_at.isoformat(),
            "finished": run.finished_at.isoformat() if run.finished_at else None,
            "events": len(self._events),
            "exit_code": run.exit_code,
            "error": run.error,
        }


class _Written:
    """How much of a local turn is in the database."""

    def __init__(self, record: TurnRecord) -> None:
        self.record = record
        self.events = 0


class SharedTurnManager(TurnManager):
    """A TurnManager whose turns every process on the database sees (module docstring)."""

    def __init__(self, services_factory: Callable[[Person | None], Services], url: DatabaseUrl):
        super().__init__(services_factory)
        self.url = url
        self.server = f"{socket.gethostname()}:{os.getpid()}"
        self._written: dict[str, _Written] = {}
        self._remote: dict[str, RemoteTurn] = {}
        self._shared_lock = threading.Lock()
        self._write_lock = threading.Lock()  # one writing round at a time
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._flusher: threading.Thread | None = None
        self._fetcher: threading.Thread | None = None
        self._listener: Any = None
        # Turns of other processes announced since the last read: with new events, ended.
        self._dirty: set[str] = set()
        self._ended: set[str] = set()
        self._fetch = threading.Event()

    def database(self) -> Connection:
        """The database, as a Memory reaches it: a pooled connection per statement, none
        held between them."""
        from design_agent.memory.postgres.connection import PgConnection

        return PgConnection(self.url)

    def open(self) -> None:
        """Start the flusher and the listener (once; the first call that needs them)."""
        with self._shared_lock:
            if self._flusher is not None:
                return
            from design_agent.memory.postgres.listen import Listener
            from design_agent.memory.postgres.turn_log import CHANNEL

            self._listener = Listener(self.url, CHANNEL, self._heard, self._reconnected)
            self._listener.start()
            self._flusher = threading.Thread(target=self._flush_loop, name="turn-log", daemon=True)
            self._flusher.start()
            self._fetcher = threading.Thread(target=self._fetch_loop, name="turn-read", daemon=True)
            self._fetcher.start()

    # Starting, finding, cancelling ---------------------------------------------------------

    def start(
        self, request: TurnRequest, project_id: str, person: Person | None = None
    ) -> TurnRecord:
        """Claim the project in the database (ProjectBusy when any process runs a turn on
        it), then run the turn here."""
        from design_agent.memory.postgres import turn_log

        self.open()
        with self._lock:
            running = self._running.get(project_id)
        if running is not None:
            raise ProjectBusy(project_id, running)
        turn_id = new_turn_id()
        person_id = person.id if person is not None else None
        for attempt in (1, 2):
            try:
                db = self.database()
                turn_log.claim(
                    db, turn_id, project_id, person_id, request.message, self.server, now()
                )
                break
            except turn_log.Busy as e:
                with self._lock:
                    ours = self._turns.get(e.running_id)
                if attempt == 2 or ours is None or not ours.done:
                    raise ProjectBusy(project_id, e.running_id) from e
                self._write_all()  # it ended here a moment ago: record that now, then retry
        try:
            record = self._launch(request, project_id, person, turn_id)
        except ProjectBusy:  # a turn of this process took the project meanwhile
            turn_log.finish(self.database(), turn_id, "failed", 2, "the project was busy", now())
            raise
        written = _Written(record)
        with self._shared_lock:
            self._written[turn_id] = written
        record.listen(self._wake.set)
        self._wake.set()
        return record

    def get(self, turn_id: str) -> FollowedTurn:
        """This process's turn, else another's read from the database; TurnNotFound."""
        from design_agent.memory.postgres import turn_log

        try:
            return self.local(turn_id)
        except TurnNotFound:
            pass
        self.open()
        with self._shared_lock:
            known = self._remote.get(turn_id)
        if known is not None:
            return known
        db = self.database()
        run = turn_log.get(db, turn_id)
        if run is None:
            raise TurnNotFound(turn_id)
        remote = RemoteTurn(self, run)
        self._listener.ready.wait(READY_SECONDS)  # listening before reading: nothing missed
        with self._shared_lock:
            remote = self._remote.setdefault(turn_id, remote)
        remote.refresh()
        return remote

    def running_on(self, project_id: str) -> FollowedTurn | None:
        """The turn running on the project in any process, or None."""
        from design_agent.memory.postgres import turn_log

        local = super().running_on(project_id)
        if local is not None:
            return local
        db = self.database()
        running = turn_log.running_on(db, project_id)
        if running is None:
            return None
        try:
            return self.get(running)
        except TurnNotFound:
            return None

    def shutdown(self, wait: float = 5.0) -> None:
        """Cancel this process's turns, record how they ended, stop listening."""
        super().shutdown(wait)
        if self._flusher is None:
            return
        self._stopping.set()
        self._wake.set()
        self._fetch.set()
        self._flusher.join(wait)
        self._write_all()  # whatever the flusher had not written yet
        self._listener.stop()
        if self._fetcher is not None:
            self._fetcher.join(wait)

    # What other processes announce ----------------------------------------------------------

    def _heard(self, payload: str) -> None:
        """An announcement: a cancel is done here at once; new events and ends are read by
        the fetcher, many at a time (announcements that come together make one read)."""
        kind, *ids = payload.split()
        if kind == "c":
            with self._lock:
                records = [self._turns[i] for i in ids if i in self._turns]
            for record in records:
                record.cancel()
            return
        with self._shared_lock:
            followed = [i for i in ids if i in self._remote]
            if not followed:
                return
            self._dirty.update(followed)
            if kind == "x":
                self._ended.update(followed)
        self._fetch.set()

    def _reconnected(self) -> None:
        """Announcements may have been missed: read every followed turn again, rows too."""
        with self._shared_lock:
            self._dirty.update(self._remote)
            self._ended.update(self._remote)
        self._fetch.set()

    def _fetch_loop(self) -> None:
        while not self._stopping.is_set():
            self._fetch.wait(BEAT_SECONDS)
            self._fetch.clear()
            try:
                self._read_followed()
            except Exception:  # the database may be away a moment: read it all again
                log.exception("reading the turns of other processes")
                self._reconnected()
                self._stopping.wait(1.0)

    def _read_followed(self) -> None:
        """One read of every announced turn: the rows of the ended ones first, then the
        new events of all (two statements, however many turns)."""
        from design_agent.memory.postgres import turn_log

        with self._shared_lock:
            dirty, ended = self._dirty, self._ended
            self._dirty, self._ended = set(), set()
            remotes = {i: self._remote[i] for i in dirty | ended if i in self._remote}
        if not remotes:
            return
        db = self.database()
        found = turn_log.runs(db, [i for i in remotes if i in ended])
        fresh = turn_log.events_of(db, {i: remote.seen for i, remote in remotes.items()})
        for turn_id, remote in remotes.items():
            remote.deliver(found.get(turn_id), fresh.get(turn_id, []))
            if remote.done:
                with self._shared_lock:
                    self._remote.pop(turn_id, None)  # its followers keep theirs to the end

    # Writing this process's turns ---------------------------------------------------------

    def _flush_loop(self) -> None:
        beat = forget = time.monotonic()
        while not self._stopping.is_set():
            self._wake.wait(BEAT_SECONDS)
            self._wake.clear()
            time.sleep(BATCH_SECONDS)
            try:
                self._write_all()
                if time.monotonic() - beat >= BEAT_SECONDS:
                    beat = time.monotonic()
                    self._beat()
                if time.monotonic() - forget >= FORGET_SECONDS:
                    forget = time.monotonic()
                    self._forget()
            except Exception:  # the database may be away a moment: the next round retries
                log.exception("writing the turns' events")
                self._stopping.wait(1.0)
                self._wake.set()

    def _write_all(self) -> None:
        """Store every local turn's new events (one statement and one announcement for all
        of them), then record how the turns that ended did."""
        from design_agent.memory.postgres import turn_log

        with self._write_lock:
            with self._shared_lock:
                pending = list(self._written.values())
            rows: list[tuple[str, int, str, str, int]] = []
            taken: list[tuple[_Written, int, bool]] = []
            for written in pending:
                record = written.record
                events, done = record.after(written.events)
                first = written.events + 1
                rows += [
                    (record.turn_id, seq, getattr(e, "kind", "event"), e.model_dump_json(),
                     record.stamp(seq))
                    for seq, e in enumerate(events, first)
                ]  # fmt: skip
                taken.append((written, len(events), done and record.exit_code is not None))
            turn_log.append(self.database(), rows)
            for written, count, ended in taken:
                written.events += count
                if ended:
                    self._finish(written.record)

    def _finish(self, record: TurnRecord) -> None:
        from design_agent.memory.postgres import turn_log

        assert record.exit_code is not None
        turn_log.finish(
            self.database(), record.turn_id, record.status, record.exit_code, record.error, now()
        )
        with self._shared_lock:
            self._written.pop(record.turn_id, None)

    def _beat(self) -> None:
        from design_agent.memory.postgres import turn_log

        with self._shared_lock:
            running = [w.record.turn_id for w in self._written.values() if not w.record.done]
        if running:
            db = self.database()
            turn_log.beat(db, running, now())

    def _forget(self) -> None:
        from design_agent.memory.postgres import turn_log

        db = self.database()
        turn_log.forget(db, now())
