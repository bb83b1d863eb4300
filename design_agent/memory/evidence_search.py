"""Evidence segments by full-text search on SQLite: FTS5 over every project's segments with
a per-project scope token (as files and decisions are searched), the newest `cap` matches
ranked by bm25 (fts.ranked), each word without its inflection and as a prefix."""

from __future__ import annotations

from design_agent.memory import fts
from design_agent.memory.connection import Connection
from design_agent.memory.decisions import scoped
from design_agent.memory.text import match_expression, query_terms, search_terms

CAP = 2000  # candidates ranked for a common word


def ranked(db: Connection, project_id: str, query: str, limit: int) -> list[tuple[int, float]]:
    """(segment id, score) of the best matches in one project, best first."""
    expression = match_expression(search_terms(query_terms(query)), ["text"])
    if expression is None:
        return []
    return fts.ranked(
        db,
        "evidence_segments_fts",
        scoped(project_id, expression),
        (0.0, 1.0),
        cap=CAP,
        limit=limit,
    )
