"""Evidence segments by full-text search on SQLite: each project's own FTS5 index
(search_index.evidence_index, as its turns have theirs), the newest `cap` matches ranked by
bm25 (fts.ranked), each word without its inflection and as a prefix."""

from __future__ import annotations

from design_agent.memory import fts
from design_agent.memory.connection import Connection
from design_agent.memory.db import scalar
from design_agent.memory.search_index import evidence_index
from design_agent.memory.text import match_expression, query_terms, search_terms

CAP = 500  # candidates ranked for a common word (as a scoped search of the turns)


def ranked(db: Connection, project_id: str, query: str, limit: int) -> list[tuple[int, float]]:
    """(segment id, score) of the best matches in one project, best first."""
    expression = match_expression(search_terms(query_terms(query)))
    key = scalar(db, "SELECT search_key FROM projects WHERE id = ?", [project_id])
    if expression is None or key is None:
        return []
    table = evidence_index(int(key))
    if not scalar(db, "SELECT count(*) FROM sqlite_master WHERE name = ?", [table]):
        return []  # a project older than evidence, none added yet
    return fts.ranked(db, table, expression, cap=CAP, limit=limit)
