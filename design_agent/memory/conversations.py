"""Conversation turns: save, update, and read back a project's history.

The pipeline saves the user's turn before it calls the provider and the
agent's turn after; a cancelled or failed answer keeps its partial text with
its status. Each save is one transaction: the row, its index entry (trigger),
the branch it extends and the project's last-access time commit together or
not at all. Turns form a tree (see tree.py): each has a parent but the first.
"""

from __future__ import annotations

import json
from typing import Any

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import branches, projects
from design_agent.memory.connection import Connection
from design_agent.memory.db import author_of, one, rows, transaction
from design_agent.memory.models import ROLES, TURN_STATUSES, Turn
from design_agent.memory.text import guess_language

NAMES = (
    "id, project_id, timestamp, role, message, task_id, agent_id, provider, model, "
    "status, tokens, cost, validation, parent_id, tier"
)
COLUMNS = f"{NAMES}, {author_of('')}"
UPDATABLE = (
    "message",
    "status",
    "task_id",
    "agent_id",
    "provider",
    "model",
    "tier",
    "tokens",
    "cost",
    "validation",
    "language",  # "en", "es" or "": told from the message when not given (schema.py, v8)
)
INSERTABLE = ("role", "parent_id", "author_id", *UPDATABLE)


def to_turn(row: dict[str, Any]) -> Turn:
    """A conversations row as a Turn (validation JSON decoded)."""
    validation = row.get("validation")
    return Turn.model_validate(
        {**row, "validation": json.loads(validation) if validation else None}
    )


def _check(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - set(INSERTABLE)
    if unknown:
        raise UsageError(f"a turn has no {', '.join(sorted(unknown))}")
    if "role" in fields and fields["role"] not in ROLES:
        raise UsageError(f"a turn's role is one of {', '.join(ROLES)}, not {fields['role']!r}")
    if "status" in fields and fields["status"] not in TURN_STATUSES:
        raise UsageError(f"a turn's status is one of {', '.join(TURN_STATUSES)}")
    if fields.get("validation") is not None:
        fields = {**fields, "validation": json.dumps(fields["validation"], ensure_ascii=False)}
    if "message" in fields and fields.get("language") is None:
        fields = {**fields, "language": guess_language(fields["message"])}
    elif "language" in fields and fields["language"] is None:
        fields = {key: value for key, value in fields.items() if key != "language"}
    return fields


def add(
    db: Connection,
    project_id: str,
    fields: dict[str, Any],
    now: str,
    branch_id: int | None = None,
) -> Turn:
    """Save one turn of `project_id` (fields: role, message and the optional columns).

    Its parent is `parent_id`, else the tip of `branch_id`, else the project's latest
    turn; a branch moves to it in the same transaction (see branches.py)."""
    fields = _check({"status": "complete", **fields})
    with transaction(db):
        projects.lock(db, project_id, touch=now)  # one writer per project (PostgreSQL)
        parent = branches.parent_for(db, project_id, fields.get("parent_id"), branch_id)
        fields["parent_id"] = parent
        names = ["project_id", "timestamp", *fields]
        row = one(
            db,
            f"INSERT INTO conversations ({', '.join(names)}) "
            f"VALUES ({', '.join('?' * len(names))}) RETURNING {COLUMNS}",
            [project_id, now, *fields.values()],
        )
        assert row is not None
        branches.advance(db, project_id, parent, int(row["id"]), branch_id, now)
    return to_turn(row)


def update(db: Connection, turn_id: int, changes: dict[str, Any]) -> Turn:
    """Change some columns of a saved turn (e.g. the final text and status of an answer)."""
    fixed = set(changes) - set(UPDATABLE)
    if fixed:
        raise UsageError(f"cannot update {', '.join(sorted(fixed))} of a saved turn")
    changes = _check(changes)
    if changes:
        with transaction(db):
            projects.lock(db, get(db, turn_id).project_id)
            assignments = ", ".join(f"{name} = ?" for name in changes)
            db.execute(
                f"UPDATE conversations SET {assignments} WHERE id = ?", [*changes.values(), turn_id]
            )
    return get(db, turn_id)


def get(db: Connection, turn_id: int) -> Turn:
    """One turn by id; NotFoundError if there is none."""
    row = one(db, f"SELECT {COLUMNS} FROM conversations WHERE id = ?", [turn_id])
    if row is None:
        raise NotFoundError(f"no turn {turn_id}")
    return to_turn(row)


def recent(db: Connection, project_id: str, n: int) -> list[Turn]:
    """The last `n` turns of a project, oldest first (the order to show or prompt them)."""
    found = rows(
        db,
        f"SELECT {COLUMNS} FROM conversations WHERE project_id = ? ORDER BY id DESC LIMIT ?",
        [project_id, max(0, n)],
    )
    return [to_turn(r) for r in reversed(found)]


def every(db: Connection, project_id: str) -> list[Turn]:
    """All turns of a project, oldest first (for export)."""
    found = rows(
        db, f"SELECT {COLUMNS} FROM conversations WHERE project_id = ? ORDER BY id", [project_id]
    )
    return [to_turn(r) for r in found]


def last(db: Connection, project_id: str) -> Turn | None:
    """The most recent turn of a project (when, which task), or None."""
    found = recent(db, project_id, 1)
    return found[0] if found else None
