"""Search over turns, files and decisions: one project, or all of them grouped by project.

On SQLite, with FTS5 (below); on PostgreSQL, with tsvector columns (postgres/search.py),
which returns the same results and shares the pieces here that are not SQL.

Scoping happens inside the indexes: a project's turns have their own index
(search_index.py) and files and decisions carry a per-project scope token
(decisions.scoped), so a scoped search never reads another project's rows.
Each index returns its best bounded candidates (fts.ranked); hits are merged
by score.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from design_agent.memory import conversations, fts
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import rows, rows_by_id
from design_agent.memory.decisions import WEIGHTS as DECISION_WEIGHTS
from design_agent.memory.decisions import scoped
from design_agent.memory.models import HitKind, Project, ProjectHits, SearchHit, SearchResults
from design_agent.memory.projects import COLUMNS as PROJECT_COLUMNS
from design_agent.memory.search_index import turns_index
from design_agent.memory.text import match_expression, query_terms, search_terms, snippet

SCOPED_CAP = 500  # candidates per index when searching one project
CROSS_CAP = 60  # candidates per project's turn index when searching all of them
FILE_WEIGHTS = (0.0, 2.0, 1.0)  # scope, filename, content


@dataclass(frozen=True)
class Ranked:
    kind: HitKind
    id: int
    score: float


def search(
    db: Connection,
    query: str,
    project_id: str | None,
    limit: int = 20,
    among: list[str] | None = None,
) -> SearchResults:
    """Search one project (`project_id`) or every project (None; only those of `among`
    when given: a person's), grouped by project."""
    if is_postgres(db):
        from design_agent.memory.postgres import search as postgres

        return postgres.search(db, query, project_id, limit, among)
    results = SearchResults(query=query, terms=query_terms(query), all_projects=project_id is None)
    terms = search_terms(results.terms)  # "entrevistas" finds "entrevista"
    if match_expression(terms) is None:
        return results
    scope = projects_in(db, project_id, among)
    cap = SCOPED_CAP if project_id else CROSS_CAP
    found = [
        (pid, hit) for pid, (_, key) in scope.items() for hit in _turns(db, terms, key, cap, limit)
    ]
    found += [
        (pid, hit) for pid, hit in _shared(db, terms, project_id, cap * 2, limit) if pid in scope
    ]
    # The best `limit` hits overall, grouped by project; groups ordered by their best hit.
    best = sorted(found, key=lambda pair: -pair[1].score)[:limit]
    by_project: dict[str, list[Ranked]] = {}
    for pid, hit in best:
        by_project.setdefault(pid, []).append(hit)
    groups = [_group(db, scope[pid][0], hits, terms) for pid, hits in by_project.items()]
    return results.model_copy(update={"groups": groups})


def projects_in(
    db: Connection, project_id: str | None, among: list[str] | None = None
) -> dict[str, tuple[Project, int]]:
    """The projects a search looks in (with their index keys): one, those of `among`, or
    every project."""
    if project_id:
        where, params = "WHERE id = ?", [project_id]
    elif among is not None:
        where, params = f"WHERE id IN ({', '.join('?' * len(among)) or 'NULL'})", list(among)
    else:
        where, params = "", []
    found = rows(db, f"SELECT {PROJECT_COLUMNS}, search_key FROM projects {where}", params)
    return {
        r["id"]: (
            Project.model_validate({k: v for k, v in r.items() if k != "search_key"}),
            int(r["search_key"]),
        )
        for r in found
    }


def _turns(db: Connection, terms: list[str], search_key: int, cap: int, limit: int) -> list[Ranked]:
    expression = match_expression(terms)
    assert expression is not None
    found = fts.ranked(db, turns_index(search_key), expression, cap=cap, limit=limit)
    return [Ranked("turn", rowid, score) for rowid, score in found]


def _shared(
    db: Connection, terms: list[str], project_id: str | None, cap: int, limit: int
) -> list[tuple[str, Ranked]]:
    """Hits in the decision and file indexes, shared by all projects, with their project."""
    out: list[tuple[str, Ranked]] = []
    sources: list[tuple[HitKind, str, str, list[str], tuple[float, ...]]] = [
        (
            "decision",
            "project_decisions",
            "project_decisions_fts",
            ["decision", "rationale"],
            DECISION_WEIGHTS,
        ),
        ("file", "project_files", "project_files_fts", ["filename", "content"], FILE_WEIGHTS),
    ]
    for kind, table, index, columns, weights in sources:
        expression = match_expression(terms, columns)
        assert expression is not None
        if project_id:
            expression = scoped(project_id, expression)
        found = fts.ranked(db, index, expression, weights, cap=cap, limit=limit)
        owners = rows_by_id(db, table, "id, project_id", [rowid for rowid, _ in found])
        out += [(owners[r]["project_id"], Ranked(kind, r, s)) for r, s in found if r in owners]
    return out


def _group(db: Connection, project: Project, best: list[Ranked], terms: list[str]) -> ProjectHits:
    loaded = {
        kind: _load(db, kind, [r.id for r in best if r.kind == kind])
        for kind in ("turn", "file", "decision")
    }
    hits = [
        _hit(project.id, r, loaded[r.kind][r.id], terms) for r in best if r.id in loaded[r.kind]
    ]
    return ProjectHits(project=project, hits=hits)


def _load(db: Connection, kind: str, ids: list[int]) -> dict[int, dict[str, Any]]:
    if kind == "turn":
        return rows_by_id(db, "conversations", conversations.COLUMNS, ids)
    if kind == "file":
        return rows_by_id(
            db, "project_files", "id, filename, uploaded_at AS timestamp, content", ids
        )
    return rows_by_id(db, "project_decisions", "id, decision, rationale, timestamp", ids)


def _hit(project_id: str, ranked: Ranked, row: dict[str, Any], terms: list[str]) -> SearchHit:
    if ranked.kind == "turn":
        title, text = f"{row['role']} turn {row['id']}", row["message"]
    elif ranked.kind == "file":
        title, text = row["filename"], row["content"]
    else:
        title, text = row["decision"], row["rationale"] or row["decision"]
    return SearchHit(
        kind=ranked.kind,
        id=ranked.id,
        project_id=project_id,
        score=ranked.score,
        timestamp=row["timestamp"],
        title=title,
        snippet=snippet(text, terms),
    )
