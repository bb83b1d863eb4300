"""Project decisions: what was decided, why, and in which turn; searchable by meaning words.

"why did we choose moderated testing" finds "moderated usability testing":
the question's stop words are dropped and the remaining words are ORed with
prefix matching, ranked by bm25 (decision text weighs more than rationale).
"""

from __future__ import annotations

import sqlite3

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import fts, projects
from design_agent.memory.db import rows, rows_by_id, scalar, transaction
from design_agent.memory.models import Decision, ScoredDecision
from design_agent.memory.text import match_expression, query_terms, stem_terms
from design_agent.memory.tree import PATH_CTE, UNLIMITED

COLUMNS = "id, project_id, decision, rationale, conversation_id, timestamp, node_id"
FTS_TABLE = "project_decisions_fts"
WEIGHTS = (0.0, 2.0, 1.0)  # scope, decision, rationale


def scope_token(project_id: str) -> str:
    """The token the decision and file indexes hold for a project (see schema.py)."""
    return "p" + project_id.encode("utf-8").hex()


def scoped(project_id: str, expression: str) -> str:
    """`expression` restricted, inside the index, to one project's rows."""
    return f'scope : "{scope_token(project_id)}" AND {expression}'


def add(
    db: sqlite3.Connection,
    project_id: str,
    decision: str,
    rationale: str,
    conversation_id: int | None,
    now: str,
    node_id: int | None = None,
) -> Decision:
    """Record a decision of a project, optionally linked to the turn where it was made.

    `node_id` places it in the conversation tree (by default at that turn): it is "so far"
    at that node and below it only. A decision with neither is on every path."""
    if not decision.strip():
        raise UsageError('a decision needs its text, e.g. decisions add "Use moderated tests"')
    node_id = conversation_id if node_id is None else node_id
    with transaction(db):
        projects.get(db, project_id)
        for turn in {conversation_id, node_id} - {None}:
            owner = scalar(db, "SELECT project_id FROM conversations WHERE id = ?", [turn])
            if owner != project_id:
                raise UsageError(f"turn {turn} is not a turn of this project")
        cursor = db.execute(
            "INSERT INTO project_decisions (project_id, decision, rationale, conversation_id, "
            "timestamp, node_id) VALUES (?, ?, ?, ?, ?, ?)",
            [project_id, decision.strip(), rationale.strip(), conversation_id, now, node_id],
        )
        projects.touch(db, project_id, now)
    return get(db, int(cursor.lastrowid or 0))


def on_path(db: sqlite3.Connection, node_id: int, limit: int | None = None) -> list[Decision]:
    """The decisions made so far at a node: at it or its ancestors, or on every path;
    newest first. A decision made later, or on another branch, is not one of them."""
    if scalar(db, "SELECT 1 FROM conversations WHERE id = ?", [node_id]) is None:
        raise NotFoundError(f"no turn {node_id}")
    found = rows(
        db,
        f"""{PATH_CTE} SELECT {COLUMNS} FROM project_decisions
        WHERE project_id = (SELECT project_id FROM conversations WHERE id = :node)
          AND (node_id IS NULL OR node_id IN (SELECT id FROM path))
        ORDER BY id DESC LIMIT :count""",
        {"node": node_id, "limit": UNLIMITED, "count": -1 if limit is None else limit},
    )
    return [Decision.model_validate(r) for r in found]


def get(db: sqlite3.Connection, decision_id: int) -> Decision:
    """One decision by id."""
    found = rows_by_id(db, "project_decisions", COLUMNS, [decision_id])
    if decision_id not in found:
        raise NotFoundError(f"no decision {decision_id}")
    return Decision.model_validate(found[decision_id])


def listing(db: sqlite3.Connection, project_id: str, limit: int | None = None) -> list[Decision]:
    """A project's decisions, newest first (all, or the last `limit`)."""
    found = rows(
        db,
        f"SELECT {COLUMNS} FROM project_decisions WHERE project_id = ? ORDER BY id DESC LIMIT ?",
        [project_id, -1 if limit is None else limit],
    )
    return [Decision.model_validate(r) for r in found]


def search(
    db: sqlite3.Connection, project_id: str, query: str, limit: int = 10
) -> list[ScoredDecision]:
    """A project's decisions that match the words of `query`, best first."""
    expression = match_expression(stem_terms(query_terms(query)), ["decision", "rationale"])
    if expression is None:
        return []
    ranked = fts.ranked(db, FTS_TABLE, scoped(project_id, expression), WEIGHTS, limit=limit)
    found = rows_by_id(db, "project_decisions", COLUMNS, [i for i, _ in ranked])
    return [
        ScoredDecision(item=Decision.model_validate(found[i]), score=score)
        for i, score in ranked
        if i in found
    ]
