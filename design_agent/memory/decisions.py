"""Project decisions: what was decided, why, and in which turn; searchable by meaning words.

"why did we choose moderated testing" finds "moderated usability testing":
the question's stop words are dropped and the remaining words are ORed with
prefix matching, ranked by bm25 (decision text weighs more than rationale).
"""

from __future__ import annotations

import sqlite_utils

from design_agent.errors import NotFoundError, UsageError
from design_agent.memory import fts, projects
from design_agent.memory.db import rows, rows_by_id, scalar, transaction
from design_agent.memory.models import Decision, ScoredDecision
from design_agent.memory.text import match_expression, query_terms, stem_terms

COLUMNS = "id, project_id, decision, rationale, conversation_id, timestamp"
FTS_TABLE = "project_decisions_fts"
WEIGHTS = (0.0, 2.0, 1.0)  # scope, decision, rationale


def scope_token(project_id: str) -> str:
    """The token the decision and file indexes hold for a project (see schema.py)."""
    return "p" + project_id.encode("utf-8").hex()


def scoped(project_id: str, expression: str) -> str:
    """`expression` restricted, inside the index, to one project's rows."""
    return f'scope : "{scope_token(project_id)}" AND {expression}'


def add(
    db: sqlite_utils.Database,
    project_id: str,
    decision: str,
    rationale: str,
    conversation_id: int | None,
    now: str,
) -> Decision:
    """Record a decision of a project, optionally linked to the turn where it was made."""
    if not decision.strip():
        raise UsageError('a decision needs its text, e.g. decisions add "Use moderated tests"')
    with transaction(db):
        projects.get(db, project_id)
        if conversation_id is not None:
            owner = scalar(
                db, "SELECT project_id FROM conversations WHERE id = ?", [conversation_id]
            )
            if owner != project_id:
                raise UsageError(f"turn {conversation_id} is not a turn of this project")
        cursor = db.execute(
            "INSERT INTO project_decisions (project_id, decision, rationale, conversation_id, "
            "timestamp) VALUES (?, ?, ?, ?, ?)",
            [project_id, decision.strip(), rationale.strip(), conversation_id, now],
        )
        projects.touch(db, project_id, now)
    return get(db, int(cursor.lastrowid or 0))


def get(db: sqlite_utils.Database, decision_id: int) -> Decision:
    """One decision by id."""
    found = rows_by_id(db, "project_decisions", COLUMNS, [decision_id])
    if decision_id not in found:
        raise NotFoundError(f"no decision {decision_id}")
    return Decision.model_validate(found[decision_id])


def listing(db: sqlite_utils.Database, project_id: str, limit: int | None = None) -> list[Decision]:
    """A project's decisions, newest first (all, or the last `limit`)."""
    found = rows(
        db,
        f"SELECT {COLUMNS} FROM project_decisions WHERE project_id = ? ORDER BY id DESC LIMIT ?",
        [project_id, -1 if limit is None else limit],
    )
    return [Decision.model_validate(r) for r in found]


def search(
    db: sqlite_utils.Database, project_id: str, query: str, limit: int = 10
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
