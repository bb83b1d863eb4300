"""A home's tables as one list: what `db status` counts and `db copy` moves and checks.

Every table of the schema (both dialects, the same version: postgres/schema.py) is here
with every column a copy must carry, in an order that keeps foreign keys satisfied
(projects before their turns, a turn before the branches and snapshots that point at it).
tests/test_memory_backends.py fails when a migration adds a column that is not listed,
so a copy never silently drops one. PostgreSQL's generated `search` column is rebuilt by
PostgreSQL, never copied.

A row is compared across the two dialects as its canonical form (`canonical`): a
timestamp as ISO 8601 in UTC (SQLite keeps text, PostgreSQL a timestamptz), a JSON value
parsed and written with sorted keys (jsonb reorders them), an integral JSON number as an
integer (jsonb writes 1e+16 as 10000000000000000), a NUL as U+FFFD (PostgreSQL's text
has none). The checksum of a table is the sum of its rows' SHA-256 modulo 2^256, so it
does not depend on the order rows are read in (collations differ).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from design_agent.memory.connection import Connection
from design_agent.memory.db import WARNED_KEY, scalar, stamp
from design_agent.memory.text import without_nul

CHECKSUM_MODULUS = 1 << 256


@dataclass(frozen=True)
class Table:
    """One table: its key, the columns a copy moves, and which of them hold timestamps
    and JSON; `identity`: PostgreSQL numbers its rows (the sequence is set after a copy)."""

    name: str
    key: tuple[str, ...]
    columns: tuple[str, ...]
    timestamps: frozenset[str] = frozenset()
    json: frozenset[str] = frozenset()
    identity: bool = True
    where: str = ""  # the rows a copy leaves out (they belong to one file, not to the home)


def _names(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _set(text: str) -> frozenset[str]:
    return frozenset(text.split())


TABLES: tuple[Table, ...] = (
    Table(
        "people",
        ("id",),
        _names("id name name_key is_admin password_hash created_at disabled_at"),
        _set("created_at disabled_at"),
    ),
    Table(
        "projects",
        ("id",),
        _names("id name name_key search_key created_at last_accessed"),
        _set("created_at last_accessed"),
        identity=False,
    ),
    Table(
        "project_members",
        ("project_id", "person_id"),
        _names("project_id person_id role added_at"),
        _set("added_at"),
        identity=False,
    ),
    Table(
        "conversations",
        ("id",),
        _names(
            "id project_id timestamp role message task_id agent_id provider model status "
            "tokens cost validation parent_id tier tokens_in tokens_out first_token_ms "
            "total_ms language author_id"
        ),
        _set("timestamp"),
        _set("validation"),
    ),
    Table(
        "branches",
        ("id",),
        _names("id project_id name name_key tip_id created_at"),
        _set("created_at"),
    ),
    Table(
        "state_snapshots",
        ("node_id",),
        _names("node_id kind depth payload"),
        json=_set("payload"),
        identity=False,
    ),
    Table(
        "project_files",
        ("id",),
        _names("id project_id filename content file_type uploaded_at sha256 language author_id"),
        _set("uploaded_at"),
    ),
    Table(
        "project_decisions",
        ("id",),
        _names(
            "id project_id decision rationale conversation_id timestamp node_id status "
            "replaces_id changed_at changed_node_id change_reason language author_id"
        ),
        _set("timestamp changed_at"),
    ),
    Table(
        "project_metadata",
        ("project_id", "key"),
        _names("project_id key value updated_at"),
        _set("updated_at"),
        _set("value"),
        identity=False,
    ),
    Table(
        "process_memory",
        ("id",),
        _names("id context decision rationale outcome lessons timestamp project_id language"),
        _set("timestamp"),
    ),
    Table(
        "agent_state",
        ("key",),
        _names("key value updated_at"),
        _set("updated_at"),
        _set("value"),
        identity=False,
        where=f"key <> '{WARNED_KEY}'",  # the folder and mode an SQLite home was warned of
    ),
    Table(
        "api_tokens",
        ("id",),
        _names("id person_id token_hash label created_at revoked_at"),
        _set("created_at revoked_at"),
    ),
    Table(
        "audit_log",
        ("id",),
        _names("id at person_id actor action project_id detail"),
        _set("at"),
        _set("detail"),
    ),
)
TABLES += (
    Table(
        "evidence_sessions",
        ("id",),
        _names("id project_id code title source format kind language sha256 questions added_at"),
        _set("added_at"),
        _set("questions"),
    ),
    Table(
        "evidence_speakers",
        ("id",),
        _names("id session_id project_id name name_key role participant"),
    ),
    Table(
        "evidence_segments",
        ("id",),
        _names("id session_id project_id speaker_id seq code start_seconds text language"),
    ),
    Table(
        "evidence_responses",
        ("id",),
        _names("id session_id project_id respondent answers"),
        json=_set("answers"),
    ),
    Table(
        "evidence_counters",
        ("project_id",),
        _names("project_id next_session"),
        identity=False,
    ),
)
# What a copy leaves behind, emptied first when it replaces a home: live credentials (a
# session and an invite are used where they were made: sign in again, invite again) and,
# on PostgreSQL, the servers' running turns and their events.
EPHEMERAL: tuple[str, ...] = ("sessions", "invites")
POSTGRES_EPHEMERAL: tuple[str, ...] = ("turn_events", "turn_runs")
BY_NAME = {table.name: table for table in TABLES}


def counts(db: Connection, copied: bool = False) -> dict[str, int]:
    """The number of rows of every table (`copied`: of the rows a copy moves)."""
    return {
        t.name: int(scalar(db, f"SELECT count(*) FROM {t.name}{_where(t, copied)}")) for t in TABLES
    }


def select(table: Table) -> str:
    """The query that reads a table for a copy, in key order."""
    columns, key = ", ".join(table.columns), ", ".join(table.key)
    return f"SELECT {columns} FROM {table.name}{_where(table, True)} ORDER BY {key}"


def _where(table: Table, copied: bool) -> str:
    return f" WHERE {table.where}" if copied and table.where else ""


def canonical(table: Table, row: Iterable[Any]) -> bytes:
    """A row as both dialects agree to write it (see the module docstring)."""
    values = [
        _value(table, column, value) for column, value in zip(table.columns, row, strict=True)
    ]
    return json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _value(table: Table, column: str, value: Any) -> Any:
    if value is None:
        return None
    if column in table.timestamps:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
        return stamp(moment)
    if column in table.json:
        return _json(json.loads(without_nul(value)))
    if isinstance(value, float):
        return repr(value)
    return without_nul(value)


def _json(value: Any) -> Any:
    """A parsed JSON value with integral numbers as integers and NUL as U+FFFD, sorted."""
    if isinstance(value, dict):
        return {str(without_nul(k)): _json(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [_json(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return without_nul(value)


class Checksum:
    """A table's row count and order-independent checksum, fed row by row."""

    def __init__(self, table: Table) -> None:
        self.table, self.rows, self._sum = table, 0, 0

    def add(self, row: Iterable[Any]) -> None:
        digest = hashlib.sha256(canonical(self.table, row)).digest()
        self._sum = (self._sum + int.from_bytes(digest, "big")) % CHECKSUM_MODULUS
        self.rows += 1

    @property
    def hexdigest(self) -> str:
        return f"{self._sum:064x}"
