"""Project metadata: what design-agent knows about a project (goals, users, constraints,
preferences), as JSON values under keys."""

from __future__ import annotations

import json
from typing import Any

from design_agent.core.errors import UsageError
from design_agent.memory import projects
from design_agent.memory.connection import Connection
from design_agent.memory.db import rows, transaction


def get_all(db: Connection, project_id: str) -> dict[str, Any]:
    """Every metadata value of a project, by key."""
    found = rows(
        db,
        "SELECT key, value FROM project_metadata WHERE project_id = ? ORDER BY key",
        [project_id],
    )
    return {r["key"]: json.loads(r["value"]) for r in found}


def set_value(db: Connection, project_id: str, key: str, value: Any, now: str) -> None:
    """Store `value` (any JSON value) under `key`; None removes the key."""
    if not key.strip():
        raise UsageError("a metadata key cannot be empty")
    with transaction(db):
        projects.lock(db, project_id)
        if value is None:
            db.execute(
                "DELETE FROM project_metadata WHERE project_id = ? AND key = ?", [project_id, key]
            )
            return
        db.execute(
            "INSERT INTO project_metadata (project_id, key, value, updated_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (project_id, key) DO UPDATE SET "
            "value = excluded.value, updated_at = excluded.updated_at",
            [project_id, key, json.dumps(value, ensure_ascii=False), now],
        )
