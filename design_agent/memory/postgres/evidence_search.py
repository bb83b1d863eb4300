"""Evidence segments by full-text search on PostgreSQL: the generated tsvector of
evidence_segments (in the segment's language, postgres/schema.py version 10), found through
the index of its words with the project in front (version 11: one project's posting lists,
whatever the other projects hold), the newest CAP matches ranked as the turns are
(postgres/search.ranked); the snippets of the `limit` returned are cut in Python
(memory/evidence.py), never a headline of every match."""

from __future__ import annotations

from design_agent.memory.connection import Connection
from design_agent.memory.postgres.search import TURN_WEIGHTS, Query, planned
from design_agent.memory.postgres.search import ranked as ranked_rows
from design_agent.memory.text import inflection_stem, query_terms

CAP = 500  # the newest matches ranked, as a scoped search of the turns (search.SCOPED_CAP)


def ranked(db: Connection, project_id: str, query: str, limit: int) -> list[tuple[int, float]]:
    """(segment id, score) of the best matches in one project, best first."""
    question = Query.of(query_terms(query), inflection_stem)
    with db.snapshot():
        planned(db)
        found = ranked_rows(
            db,
            "evidence_segments",
            question,
            project_id=project_id,
            weights=TURN_WEIGHTS,
            cap=CAP,
            limit=limit,
            scoped=True,
        )
    return [(i, score) for i, _, score in found]
