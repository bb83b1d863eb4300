"""Project state at each node of the conversation tree: keyframes and deltas.

A node's state (decisions, current task, metadata, pending proposals) is stored
as a delta from the state of its nearest ancestor that has one, and as a full
keyframe at a root, when no ancestor has a state, when the node's depth is a
multiple of `every`, or when `every` deltas would otherwise follow each other.
Reading a node's state walks up to the nearest keyframe (one recursive query,
at most `every` snapshots) and applies the deltas down; storing every node in
full would cost the whole state per turn, and only deltas would make reading
the state of turn 2,000 replay 2,000 of them.

A node without a snapshot has its nearest ancestor's state. Saving a state at a
node that descendants' deltas are based on (a re-save, or a node saved after
its children) rebases those deltas in the same transaction, so every node keeps
the state it had. Saving runs in the caller's transaction when there is one:
a node and its state commit together or not at all.

The decision ids a state holds must be decisions of the node's project, so an
export can refer to them by position (see export.py).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from pydantic import Field

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import projects
from design_agent.memory.connection import Connection
from design_agent.memory.db import one, rows, transaction
from design_agent.memory.models import ProjectState, Proposal, Row, StateDecision, Turn

KEYFRAME_EVERY = 50
Kind = Literal["keyframe", "delta"]

# From a node up to the nearest keyframe (inclusive), or to the root when there is none.
CHAIN = """WITH RECURSIVE up(id, parent_id, n, kind) AS (
    SELECT c.id, c.parent_id, 0, s.kind FROM conversations c
        LEFT JOIN state_snapshots s ON s.node_id = c.id WHERE c.id = ?
    UNION ALL
    SELECT c.id, c.parent_id, up.n + 1, s.kind FROM up JOIN conversations c ON c.id = up.parent_id
        LEFT JOIN state_snapshots s ON s.node_id = c.id
    WHERE up.kind IS NULL OR up.kind <> 'keyframe'
)
SELECT up.id, up.n, up.parent_id, s.kind, s.depth, s.payload FROM up
    LEFT JOIN state_snapshots s ON s.node_id = up.id
WHERE s.node_id IS NOT NULL OR up.parent_id IS NULL ORDER BY up.n DESC"""

# The snapshots whose base is a node's state: below it, each first one on its way down.
DEPENDENTS = """WITH RECURSIVE down(id, held) AS (
    SELECT c.id, s.node_id IS NOT NULL FROM conversations c
        LEFT JOIN state_snapshots s ON s.node_id = c.id WHERE c.parent_id = ?
    UNION ALL
    SELECT c.id, s.node_id IS NOT NULL FROM down JOIN conversations c ON c.parent_id = down.id
        LEFT JOIN state_snapshots s ON s.node_id = c.id
    WHERE NOT down.held
)
SELECT s.node_id, s.payload FROM down JOIN state_snapshots s ON s.node_id = down.id
WHERE s.kind = 'delta'"""


class StateDelta(Row):
    """What changed from the base state. A field left out did not change; `task_id` and
    `pending`, when present, replace the base's (so a task can change to None)."""

    metadata_set: dict[str, Any] = Field(default_factory=dict)
    metadata_unset: list[str] = Field(default_factory=list)
    added: list[StateDecision] = Field(default_factory=list)  # new, or changed text
    removed: list[int] = Field(default_factory=list)
    task_id: str | None = None
    pending: list[Proposal] | None = None


class Base(NamedTuple):
    """The state a new snapshot is relative to, how deep its node is, and how many deltas
    lead from the last keyframe to it."""

    state: ProjectState | None
    depth: int
    deltas: int


def _json(value: Any) -> str:
    # Compare metadata values as JSON: in Python 1 == 1.0 == True, in the file they differ.
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def diff(old: ProjectState, new: ProjectState) -> StateDelta:
    """The delta that turns `old` into `new`."""
    before, after = old.metadata, new.metadata
    old_decisions = {d.id: d for d in old.decisions}
    new_ids = {d.id for d in new.decisions}
    changes: dict[str, Any] = {
        "metadata_set": {
            k: v for k, v in after.items() if k not in before or _json(before[k]) != _json(v)
        },
        "metadata_unset": sorted(k for k in before if k not in after),
        "added": [d for d in new.decisions if old_decisions.get(d.id) != d],
        "removed": sorted(i for i in old_decisions if i not in new_ids),
    }
    if new.task_id != old.task_id:
        changes["task_id"] = new.task_id
    if new.pending != old.pending:
        changes["pending"] = new.pending
    return StateDelta(**{k: v for k, v in changes.items() if v or k in ("task_id", "pending")})


def apply(state: ProjectState, deltas: list[StateDelta]) -> ProjectState:
    """`state` with the deltas applied in order."""
    metadata = dict(state.metadata)
    decisions = {d.id: d for d in state.decisions}
    task_id, pending = state.task_id, state.pending
    for delta in deltas:
        for key in delta.metadata_unset:
            metadata.pop(key, None)
        metadata.update(delta.metadata_set)
        for decision_id in delta.removed:
            decisions.pop(decision_id, None)
        decisions.update({d.id: d for d in delta.added})
        if "task_id" in delta.model_fields_set:
            task_id = delta.task_id
        if delta.pending is not None:
            pending = delta.pending
    return ProjectState(
        decisions=list(decisions.values()), task_id=task_id, metadata=metadata, pending=pending
    )


def state_at(db: Connection, node_id: int) -> ProjectState:
    """The state at a node: its own snapshot's, else its nearest ancestor's, else empty."""
    return _replay(_chain(db, node_id))[0] or ProjectState()


def _chain(db: Connection, node_id: int) -> list[dict[str, Any]]:
    found = rows(db, CHAIN, [node_id])
    if not found:
        raise NotFoundError(f"no turn {node_id}")
    return found


def _replay(chain: list[dict[str, Any]]) -> tuple[ProjectState | None, int]:
    """The state a chain ends with (None if it holds no snapshot) and the deltas applied."""
    held = [r for r in chain if r["kind"] is not None]
    if not held:
        return None, 0
    key = tuple((r["kind"], r["payload"]) for r in held)
    deltas = sum(kind == "delta" for kind, _payload in key)
    return _replayed(key), deltas


def _replayed(key: tuple[tuple[str, str], ...]) -> ProjectState:
    """The state the snapshots in `key` (kind and payload, keyframe first) add up to.

    Kept by content, so a state is never stale: each turn's chain is the last one plus a
    delta, and parsing its (up to `every`) deltas again cost half a millisecond a turn."""
    with _REPLAYED_LOCK:  # a server's turns run in threads
        known = _REPLAYED.get(key)
        if known is not None:
            _REPLAYED.move_to_end(key)
            return known
        before = _REPLAYED.get(key[:-1])
    if before is not None:
        state = apply(before, [StateDelta.model_validate_json(key[-1][1])])
    else:
        kind, payload = key[0]
        start = ProjectState() if kind == "delta" else _keyframe(payload)
        deltas = [StateDelta.model_validate_json(p) for k, p in key if k == "delta"]
        state = apply(start, deltas)
    with _REPLAYED_LOCK:
        _REPLAYED[key] = state
        if len(_REPLAYED) > REPLAYED_KEPT:
            _REPLAYED.popitem(last=False)
    return state


# Chains replayed lately (each the one before plus a delta: 64 cover a keyframe's span).
REPLAYED_KEPT = 64
_REPLAYED: OrderedDict[tuple[tuple[str, str], ...], ProjectState] = OrderedDict()
_REPLAYED_LOCK = threading.Lock()


def _keyframe(payload: str) -> ProjectState:
    return ProjectState.model_validate_json(payload)


def _base(db: Connection, parent_id: int | None) -> Base:
    """What a child of `parent_id` is stored against (a root: nothing, depth -1)."""
    if parent_id is None:
        return Base(None, -1, 0)
    chain = _chain(db, parent_id)
    state, deltas = _replay(chain)
    held = [r for r in chain if r["kind"] is not None]
    # The parent's depth: its nearest snapshot's depth plus the distance to it, or (no
    # snapshot above it) the distance to the root, which the walk then reached.
    depth = held[-1]["depth"] + held[-1]["n"] if held else chain[0]["n"]
    return Base(state, depth, deltas)


def save(db: Connection, node_id: int, state: ProjectState, every: int = KEYFRAME_EVERY) -> Kind:
    """Store `state` as the state at `node_id` (replacing one stored there); which kind."""
    if every < 1:
        raise UsageError("a keyframe every N nodes needs N of 1 or more")
    with transaction(db):
        node = one(db, "SELECT project_id, parent_id FROM conversations WHERE id = ?", [node_id])
        if node is None:
            raise NotFoundError(f"no turn {node_id}")
        projects.lock(db, node["project_id"])
        base = _base(db, node["parent_id"])
        _check_decisions(db, node["project_id"], state, base.state)
        dependents = rows(db, DEPENDENTS, [node_id])
        before = state_at(db, node_id) if dependents else None
        kind = _write(db, node_id, state, base, every)
        if before is not None:
            _rebase(db, dependents, before, state)
    return kind


def save_new(db: Connection, turn: Turn, state: ProjectState, every: int = KEYFRAME_EVERY) -> Kind:
    """`save` for a turn just added in the caller's transaction (its project locked): no
    snapshot can be based on it yet, so only its parent's chain is read."""
    if every < 1:
        raise UsageError("a keyframe every N nodes needs N of 1 or more")
    base = _base(db, turn.parent_id)
    _check_decisions(db, turn.project_id, state, base.state)
    return _write(db, turn.id, state, base, every)


def _write(db: Connection, node_id: int, state: ProjectState, base: Base, every: int) -> Kind:
    depth = base.depth + 1
    keyframe = base.state is None or depth % every == 0 or base.deltas + 1 >= every
    kind: Kind = "keyframe" if keyframe else "delta"
    if base.state is None or keyframe:
        payload = state.model_dump_json()
    else:
        payload = diff(base.state, state).model_dump_json(exclude_unset=True)
    db.execute(
        "INSERT INTO state_snapshots (node_id, kind, depth, payload) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (node_id) DO UPDATE SET kind = excluded.kind, depth = excluded.depth, "
        "payload = excluded.payload",
        [node_id, kind, depth, payload],
    )
    return kind


def _rebase(
    db: Connection,
    dependents: list[dict[str, Any]],
    before: ProjectState,
    after: ProjectState,
) -> None:
    """Re-express deltas based on a node's old state against its new one."""
    for row in dependents:
        full = apply(before, [StateDelta.model_validate_json(row["payload"])])
        payload = diff(after, full).model_dump_json(exclude_unset=True)
        db.execute(
            "UPDATE state_snapshots SET payload = ? WHERE node_id = ?", [payload, row["node_id"]]
        )


def _check_decisions(
    db: Connection, project_id: str, state: ProjectState, base: ProjectState | None
) -> None:
    known = {d.id for d in base.decisions} if base is not None else set()
    new = sorted({d.id for d in state.decisions} - known)
    if not new:
        return
    marks = ", ".join("?" * len(new))
    found = rows(
        db,
        f"SELECT id FROM project_decisions WHERE project_id = ? AND id IN ({marks})",
        [project_id, *new],
    )
    missing = sorted(set(new) - {r["id"] for r in found})
    if missing:
        raise UsageError(f"the state holds decisions that are not this project's: {missing}")


def remap(kind: str, payload: str, ids: Callable[[int], int]) -> str:
    """A stored payload with every decision id passed through `ids` (export, import)."""
    if kind == "keyframe":
        state = _keyframe(payload)
        moved = [d.model_copy(update={"id": ids(d.id)}) for d in state.decisions]
        return ProjectState(**{**dict(state), "decisions": moved}).model_dump_json()
    delta = StateDelta.model_validate_json(payload)
    changes = {
        "added": [d.model_copy(update={"id": ids(d.id)}) for d in delta.added],
        "removed": [ids(i) for i in delta.removed],
    }
    kept = {k: v for k, v in changes.items() if k in delta.model_fields_set}
    return delta.model_copy(update=kept).model_dump_json(exclude_unset=True)


def every(db: Connection, project_id: str) -> list[dict[str, Any]]:
    """The stored snapshots of a project's nodes, by node (for export)."""
    return rows(
        db,
        "SELECT s.node_id, s.kind, s.depth, s.payload FROM state_snapshots s "
        "JOIN conversations c ON c.id = s.node_id WHERE c.project_id = ? ORDER BY s.node_id",
        [project_id],
    )


def insert(db: Connection, node_id: int, kind: Kind, depth: int, payload: str) -> None:
    """Store a snapshot as it was exported (import; the payload is checked by `remap`)."""
    db.execute(
        "INSERT INTO state_snapshots (node_id, kind, depth, payload) VALUES (?, ?, ?, ?)",
        [node_id, kind, depth, payload],
    )
