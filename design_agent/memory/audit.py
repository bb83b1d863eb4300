"""The audit log: who did what, when, in which project. Append-only.

Shares and role changes, deletes and renames, decisions recorded, changed or retired,
people added, disabled, invited, given a token: each is one row, written in the same
transaction as what it records (so a change is never without its line, nor a line without
its change). Triggers refuse to update or delete a row (schema version 9), and a deleted
project's lines stay: `project_id` is kept as text, with no foreign key.

`actor` is the person's name, or who worked on the database without one ("command line
(USER)" for the team's admin at the server's shell).
"""

from __future__ import annotations

import json
from typing import Any

from design_agent.memory.connection import Connection
from design_agent.memory.db import rows
from design_agent.memory.models import AuditEntry

COLUMNS = "id, at, person_id, actor, action, project_id, detail"
MAX_LISTED = 1000


def record(
    db: Connection,
    now: str,
    person_id: int | None,
    actor: str,
    action: str,
    project_id: str | None,
    detail: dict[str, Any],
) -> None:
    """Append one line (inside the caller's transaction, when there is one)."""
    db.execute(
        "INSERT INTO audit_log (at, person_id, actor, action, project_id, detail) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [now, person_id, actor, action, project_id, json.dumps(detail, ensure_ascii=False)],
    )


def entries(
    db: Connection,
    project_id: str | None = None,
    limit: int = 200,
    projects: list[str] | None = None,
) -> list[AuditEntry]:
    """The newest `limit` lines, newest first: of one project, of `projects` (a person's),
    or (both None) every line."""
    clauses, params = [], []
    if project_id is not None:
        clauses.append("project_id = ?")
        params.append(project_id)
    elif projects is not None:
        if not projects:
            return []
        clauses.append(f"project_id IN ({', '.join('?' * len(projects))})")
        params.extend(projects)
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    found = rows(
        db,
        f"SELECT {COLUMNS} FROM audit_log {where} ORDER BY id DESC LIMIT ?",
        [*params, max(1, min(limit, MAX_LISTED))],
    )
    return [AuditEntry.model_validate({**r, "detail": json.loads(r["detail"])}) for r in found]
