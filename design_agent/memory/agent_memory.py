"""Agent memory: process memory (what the agent decided and learned) and agent state.

Both are global, not per project: they are what design-agent learns about
working with this user. Agent state is a small JSON key/value store (the
active project, the last provider used, ...). A process-memory entry made in
a project is linked to it (`project_id`, schema version 4), so deleting the
project forgets it too.
"""

from __future__ import annotations

import json
from typing import Any

from design_agent.core.errors import UsageError
from design_agent.memory import fts
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import inserted_id, one, rows, rows_by_id, scalar, transaction
from design_agent.memory.models import ProcessMemory, ScoredProcessMemory
from design_agent.memory.text import guess_language, match_expression, query_terms, stem_terms

PROCESS_COLUMNS = "id, context, decision, rationale, outcome, lessons, timestamp, project_id"
PROCESS_WEIGHTS = (1.0, 2.0, 1.0, 1.0, 1.5)  # context, decision, rationale, outcome, lessons


def get_state(db: Connection, key: str, default: Any = None) -> Any:
    """The JSON value stored under `key`, or `default`."""
    value = scalar(db, "SELECT value FROM agent_state WHERE key = ?", [key])
    return default if value is None else json.loads(value)


def set_state(db: Connection, key: str, value: Any, now: str) -> None:
    """Store a JSON-serialisable `value` under `key`."""
    db.execute(
        "INSERT INTO agent_state (key, value, updated_at) VALUES (?, ?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        [key, json.dumps(value, ensure_ascii=False), now],
    )


def delete_state(db: Connection, key: str) -> None:
    """Forget `key`."""
    db.execute("DELETE FROM agent_state WHERE key = ?", [key])


def add_process_memory(
    db: Connection, entry: dict[str, str], now: str, project_id: str | None = None
) -> ProcessMemory:
    """Record what the agent decided, in which context, why, what came of it, and lessons;
    linked to `project_id` (if given), it goes when that project is deleted."""
    if not entry.get("context", "").strip() or not entry.get("decision", "").strip():
        raise UsageError("process memory needs a context and a decision")
    fields = ("context", "decision", "rationale", "outcome", "lessons")
    values = [entry.get(f, "").strip() for f in fields]
    with transaction(db):
        entry_id = inserted_id(
            db,
            "INSERT INTO process_memory (context, decision, rationale, outcome, lessons, "
            "timestamp, project_id, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [*values, now, project_id, guess_language(" ".join(values))],
        )
    return get_process_memory(db, entry_id)


def get_process_memory(db: Connection, entry_id: int) -> ProcessMemory:
    """One process-memory entry by id."""
    row = one(db, f"SELECT {PROCESS_COLUMNS} FROM process_memory WHERE id = ?", [entry_id])
    if row is None:
        raise UsageError(f"no process memory entry {entry_id}")
    return ProcessMemory.model_validate(row)


def list_process_memory(db: Connection, limit: int = 20) -> list[ProcessMemory]:
    """The most recent process-memory entries, newest first."""
    found = rows(
        db, f"SELECT {PROCESS_COLUMNS} FROM process_memory ORDER BY id DESC LIMIT ?", [limit]
    )
    return [ProcessMemory.model_validate(r) for r in found]


def search_process_memory(db: Connection, query: str, limit: int = 10) -> list[ScoredProcessMemory]:
    """Process-memory entries matching the words of `query`, best first."""
    if is_postgres(db):
        from design_agent.memory.postgres import search as postgres

        ranked = postgres.process_memory(db, query, limit)
    else:
        expression = match_expression(stem_terms(query_terms(query)))
        if expression is None:
            return []
        ranked = fts.ranked(db, "process_memory_fts", expression, PROCESS_WEIGHTS, limit=limit)
    found = rows_by_id(db, "process_memory", PROCESS_COLUMNS, [i for i, _ in ranked])
    return [
        ScoredProcessMemory(item=ProcessMemory.model_validate(found[i]), score=score)
        for i, score in ranked
        if i in found
    ]
