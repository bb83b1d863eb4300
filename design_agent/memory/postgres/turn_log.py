"""The turns a team's server processes run, and their events, in PostgreSQL (schema 9).

One row of `turn_runs` per turn a process started: the project it holds (a partial
unique index lets one turn run per project, whichever process took it: the second gets
`Busy`), who started it, how it ended, and a heartbeat the running process renews. The
turn's events go to `turn_events` as they come (their JSON as `ask --events` prints it),
and every write is announced with NOTIFY on CHANNEL, ids only (a payload is limited to
8,000 bytes): "e TURN TURN ..." (those turns have new events stored), "x TURN" (it
ended), "c TURN" (cancel it, asked through another process). listen.py hears them on a
connection of its own; every statement here borrows a pooled connection for itself only.

A running turn whose heartbeat is older than STALE_SECONDS belonged to a process that
died: the next start on its project marks it failed and takes the project.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from design_agent.memory.connection import INTEGRITY_ERRORS, Connection
from design_agent.memory.db import one, rows, stamp

CHANNEL = "design_agent_turns"
STALE_SECONDS = 20.0
KEEP_SECONDS = 30 * 60
DIED = "the server process running this turn stopped before it ended"
COLUMNS = (
    "r.id, r.project_id, r.person_id, p.name AS person, r.message, r.status, r.started_at, "
    "r.finished_at, r.exit_code, r.error, r.cancel_requested, r.server, "
    "(SELECT count(*) FROM turn_events e WHERE e.turn_id = r.id) AS events"
)


@dataclass(frozen=True)
class Run:
    """A turn as its row says: where it stands, how it ended."""

    id: str
    project_id: str
    person_id: int | None
    person: str | None
    message: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    exit_code: int | None
    error: str | None
    cancel_requested: bool
    server: str
    events: int


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    kind: str
    data: str  # the event's JSON, as the pipeline made it
    appended_ns: int


class Busy(Exception):
    """The project has a turn running (in this process or another): `running_id`."""

    def __init__(self, running_id: str) -> None:
        super().__init__(running_id)
        self.running_id = running_id


def claim(
    db: Connection,
    turn_id: str,
    project_id: str,
    person_id: int | None,
    message: str,
    server: str,
    now: datetime,
) -> None:
    """Record a new running turn of the project; Busy when one runs there (a turn of a
    dead process is marked failed first, and the project taken)."""
    with db.transaction():
        _end_stale(db, project_id, now)
        try:
            with db.transaction():  # a savepoint: the failed insert alone is undone
                db.execute(
                    "INSERT INTO turn_runs (id, project_id, person_id, message, status, "
                    "started_at, heartbeat_at, server) VALUES (?, ?, ?, ?, 'running', ?, ?, ?)",
                    [turn_id, project_id, person_id, message, stamp(now), stamp(now), server],
                )
        except INTEGRITY_ERRORS as e:
            running = running_on(db, project_id)
            raise Busy(running or "?") from e


def _end_stale(db: Connection, project_id: str, now: datetime) -> None:
    db.execute(
        "UPDATE turn_runs SET status = 'failed', exit_code = 1, error = ?, finished_at = ? "
        "WHERE project_id = ? AND status = 'running' "
        "AND heartbeat_at < ?::timestamptz - make_interval(secs => ?)",
        [DIED, stamp(now), project_id, stamp(now), STALE_SECONDS],
    )


def running_on(db: Connection, project_id: str) -> str | None:
    """The id of the turn running on the project (in any process), or None."""
    row = one(
        db,
        "SELECT id FROM turn_runs WHERE project_id = ? AND status = 'running'",
        [project_id],
    )
    return None if row is None else str(row["id"])


def append(db: Connection, events: Iterable[tuple[str, int, str, str, int]]) -> None:
    """Store events (turn, seq, kind, JSON, appended ns), of any number of turns, and
    announce them ("e TURN TURN ..."), in one transaction: one statement, one
    notification per MAX_PAYLOAD bytes of ids, however many turns stream at once."""
    rows = list(events)
    if not rows:
        return
    with db.transaction():
        db.executemany(
            "INSERT INTO turn_events (turn_id, seq, kind, data, appended_ns) "
            "VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        for payload in _payloads("e", dict.fromkeys(row[0] for row in rows)):
            db.execute("SELECT pg_notify(?, ?)", [CHANNEL, payload])


MAX_PAYLOAD = 7000  # bytes of one notification (PostgreSQL's limit is 8,000)


def _payloads(kind: str, ids: Iterable[str]) -> Iterable[str]:
    """ "KIND ID ID ...", cut so each stays under MAX_PAYLOAD."""
    current: list[str] = []
    size = len(kind)
    for turn_id in ids:
        if current and size + len(turn_id) + 1 > MAX_PAYLOAD:
            yield " ".join([kind, *current])
            current, size = [], len(kind)
        current.append(turn_id)
        size += len(turn_id) + 1
    if current:
        yield " ".join([kind, *current])


def finish(
    db: Connection, turn_id: str, status: str, exit_code: int, error: str | None, now: datetime
) -> None:
    """Record how the turn ended (its last events are stored already) and announce it."""
    with db.transaction():
        db.execute(
            "UPDATE turn_runs SET status = ?, exit_code = ?, error = ?, finished_at = ? "
            "WHERE id = ?",
            [status, exit_code, error, stamp(now), turn_id],
        )
        db.execute("SELECT pg_notify(?, ?)", [CHANNEL, f"x {turn_id}"])


def beat(db: Connection, turn_ids: list[str], now: datetime) -> None:
    """The running process lives: renew its turns' heartbeats."""
    if turn_ids:
        db.execute(
            "UPDATE turn_runs SET heartbeat_at = ? WHERE id = ANY(?) AND status = 'running'",
            [stamp(now), turn_ids],
        )


def ask_cancel(db: Connection, turn_id: str) -> None:
    """Ask whichever process runs the turn to cancel it."""
    with db.transaction():
        db.execute("UPDATE turn_runs SET cancel_requested = true WHERE id = ?", [turn_id])
        db.execute("SELECT pg_notify(?, ?)", [CHANNEL, f"c {turn_id}"])


def get(db: Connection, turn_id: str) -> Run | None:
    row = one(
        db,
        f"SELECT {COLUMNS} FROM turn_runs r LEFT JOIN people p ON p.id = r.person_id "
        "WHERE r.id = ?",
        [turn_id],
    )
    return None if row is None else _run(row)


def _run(row: dict[str, Any]) -> Run:
    return Run(
        **{**row, "events": int(row["events"]), "cancel_requested": bool(row["cancel_requested"])}
    )


def runs(db: Connection, turn_ids: list[str]) -> dict[str, Run]:
    """Several turns' rows at once (`events` left at 0: not counted)."""
    if not turn_ids:
        return {}
    found = rows(
        db,
        "SELECT r.id, r.project_id, r.person_id, p.name AS person, r.message, r.status, "
        "r.started_at, r.finished_at, r.exit_code, r.error, r.cancel_requested, r.server, "
        "0 AS events FROM turn_runs r LEFT JOIN people p ON p.id = r.person_id "
        "WHERE r.id = ANY(?)",
        [turn_ids],
    )
    return {str(r["id"]): _run(r) for r in found}


def events_of(db: Connection, after: dict[str, int]) -> dict[str, list[StoredEvent]]:
    """The events after each turn's given seq, for several turns in one query."""
    if not after:
        return {}
    ids = list(after)
    found = rows(
        db,
        "SELECT e.turn_id, e.seq, e.kind, e.data, e.appended_ns "
        "FROM unnest(?::text[], ?::int[]) AS f(id, after) "
        "JOIN turn_events e ON e.turn_id = f.id AND e.seq > f.after ORDER BY e.turn_id, e.seq",
        [ids, [after[i] for i in ids]],
    )
    grouped: dict[str, list[StoredEvent]] = {}
    for r in found:
        event = StoredEvent(int(r["seq"]), str(r["kind"]), str(r["data"]), int(r["appended_ns"]))
        grouped.setdefault(str(r["turn_id"]), []).append(event)
    return grouped


def events_after(db: Connection, turn_id: str, after: int) -> list[StoredEvent]:
    found = rows(
        db,
        "SELECT seq, kind, data, appended_ns FROM turn_events WHERE turn_id = ? AND seq > ? "
        "ORDER BY seq",
        [turn_id, after],
    )
    return [
        StoredEvent(int(r["seq"]), str(r["kind"]), str(r["data"]), int(r["appended_ns"]))
        for r in found
    ]


def forget(db: Connection, now: datetime) -> int:
    """Delete the turns that ended more than KEEP_SECONDS ago (their events go with them)."""
    done = db.execute(
        "DELETE FROM turn_runs WHERE finished_at < ?::timestamptz - make_interval(secs => ?)",
        [stamp(now), KEEP_SECONDS],
    )
    return max(0, done.rowcount)
