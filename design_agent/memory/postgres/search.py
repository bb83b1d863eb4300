"""Full-text search on PostgreSQL: the same questions SQLite's FTS5 answers (search.py,
decisions.search, agent_memory.search_process_memory), on generated tsvector columns.

What the user typed never reaches PostgreSQL as query syntax. It is cut into words the way
SQLite's side does (text.query_terms: folded, stop words of the question dropped), and
they are ORed, so a row sharing the most words ranks first, as bm25 ranks it there:

- `websearch_to_tsquery` (which never raises, whatever it is given) reads "w1 or w2 ..." in
  each configuration (English, Spanish, simple; postgres/schema.py), so an inflected
  word finds its stem in either language: "entrevistas" finds "entrevista", and with
  unaccent "diseno" finds "diseño";
- each word, without its plural or verb ending (text.search_terms), is also a prefix
  (`'word':*`, as SQLite's `"word"*`): "check" finds "checkout". Decisions and process
  memory match on the first five letters of each word, as SQLite's side does
  ("moderadas" and "moderated" meet at "moder").

As on SQLite, the `cap` most recent matches are ranked (ts_rank, weighted by column), so
the work of a common word does not grow with the table; every query is scoped by project
(`project_id = ...` beside the GIN index) unless asked across projects. `ts_headline`
runs for the hits shown only. Project names are found by trigrams (pg_trgm).
"""

from __future__ import annotations

from typing import Any

from design_agent.memory import search as shared
from design_agent.memory.connection import Connection
from design_agent.memory.db import rows
from design_agent.memory.models import HitKind, Project, ProjectHits, SearchHit, SearchResults
from design_agent.memory.postgres.schema import SEARCH_CHARS, configuration_of
from design_agent.memory.text import MIN_PREFIX, query_terms, search_terms, slugify, stem_terms

# ts_rank's weights for the labels D, C, B, A (postgres/schema.py puts the labels on).
TURN_WEIGHTS = "{0.5, 0.5, 0.5, 0.5}"  # no label (D): a turn word counts as a rationale word
COLUMN_WEIGHTS = "{0.1, 0.2, 0.5, 1}"  # A: a decision, a filename; B: rationale, content
PROCESS_WEIGHTS = "{0.1, 0.5, 0.75, 1}"  # A: decision, B: lessons, C: context and the rest
MAX_CROSS_CAP = 3000
HEADLINE = 'StartSel="", StopSel="", MaxWords=28, MinWords=12, ShortWord=2'
SNIPPET_CHARS = 160
TRIGRAM_FLOOR = 0.3
# What each kind of hit shows: its title, and the text the headline is cut from.
SHOWN: dict[HitKind, tuple[str, str, str]] = {
    "turn": ("conversations", "role || ' turn ' || id", "message"),
    "file": ("project_files", "filename", "content"),
    "decision": ("project_decisions", "decision", "CASE WHEN rationale = '' THEN decision "
                 "ELSE rationale END"),
}  # fmt: skip
TIMESTAMP = {"turn": "timestamp", "file": "uploaded_at", "decision": "timestamp"}


def tsquery(prefixed: list[str]) -> str:
    """The tsquery of `:words` in every configuration, and of `prefixed` as prefixes."""
    parts = [
        f"websearch_to_tsquery('{name}', :words)"
        for name in ("design_agent_english", "design_agent_spanish", "design_agent_simple")
    ]
    if prefixed:
        parts.append("to_tsquery('simple', :prefixes)")
    return "(" + " || ".join(parts) + ")"


def _params(terms: list[str], prefixed: list[str]) -> dict[str, Any]:
    # Folded words hold letters and digits only: quoted, they are plain lexemes.
    prefixes = " | ".join(f"'{term}':*" for term in prefixed)
    return {"words": " or ".join(terms), "prefixes": prefixes}


def ranked(
    db: Connection,
    table: str,
    terms: list[str],
    prefixed: list[str],
    *,
    project_id: str | None,
    weights: str,
    cap: int,
    limit: int,
) -> list[tuple[int, str | None, float]]:
    """(id, project_id, score) of the best of the `cap` newest rows of `table` matching
    `terms` (or a prefix in `prefixed`), in one project or (None) in all; best first."""
    if not terms:
        return []
    query = tsquery(prefixed)
    scope = "project_id = :project AND " if project_id is not None else ""
    found = rows(
        db,
        f"""SELECT id, project_id AS owner, ts_rank('{weights}', search, {query}) AS score
        FROM (SELECT id, project_id, search FROM {table} WHERE {scope}search @@ {query}
              ORDER BY id DESC LIMIT :cap) recent
        ORDER BY score DESC, id DESC LIMIT :limit""",
        {**_params(terms, prefixed), "project": project_id, "cap": cap, "limit": limit},
    )
    return [(int(r["id"]), r["owner"], float(r["score"])) for r in found]


def search(db: Connection, query: str, project_id: str | None, limit: int = 20) -> SearchResults:
    """Turns, files and decisions matching `query` in one project or (None) in all of them,
    grouped by project: SQLite's search.search, on PostgreSQL."""
    terms = query_terms(query)
    results = SearchResults(query=query, terms=terms, all_projects=project_id is None)
    if not terms:
        return results
    scope = shared.projects_in(db, project_id)
    cap = shared.SCOPED_CAP if project_id else min(MAX_CROSS_CAP, shared.CROSS_CAP * len(scope))
    prefixed = [t for t in search_terms(terms) if len(t) >= MIN_PREFIX]
    found: list[tuple[str, shared.Ranked]] = []
    tables: list[tuple[HitKind, str, str]] = [
        ("turn", "conversations", TURN_WEIGHTS),
        ("file", "project_files", COLUMN_WEIGHTS),
        ("decision", "project_decisions", COLUMN_WEIGHTS),
    ]
    for kind, table, weights in tables:
        hits = ranked(
            db, table, terms, prefixed, project_id=project_id, weights=weights, cap=cap,
            limit=limit,
        )  # fmt: skip
        found += [(str(pid), shared.Ranked(kind, i, s)) for i, pid, s in hits if pid in scope]
    best = sorted(found, key=lambda pair: (-pair[1].score, -pair[1].id))[:limit]
    by_project: dict[str, list[shared.Ranked]] = {}
    for pid, hit in best:
        by_project.setdefault(pid, []).append(hit)
    query_sql = (tsquery(prefixed), _params(terms, prefixed))
    groups = [_group(db, scope[pid][0], hits, query_sql) for pid, hits in by_project.items()]
    return results.model_copy(update={"groups": groups})


def _group(
    db: Connection, project: Project, best: list[shared.Ranked], query: tuple[str, dict[str, Any]]
) -> ProjectHits:
    shown = {
        kind: _shown(db, kind, [r.id for r in best if r.kind == kind], query) for kind in SHOWN
    }
    hits = [
        SearchHit(
            kind=r.kind,
            id=r.id,
            project_id=project.id,
            score=r.score,
            timestamp=shown[r.kind][r.id]["timestamp"],
            title=shown[r.kind][r.id]["title"],
            snippet=_snippet(shown[r.kind][r.id]["text"], shown[r.kind][r.id]["headline"]),
        )
        for r in best
        if r.id in shown[r.kind]
    ]
    return ProjectHits(project=project, hits=hits)


def _shown(
    db: Connection, kind: HitKind, ids: list[int], query: tuple[str, dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """The rows of the hits shown, each with the headline of its text around the words."""
    if not ids:
        return {}
    table, title, text = SHOWN[kind]
    cut = f"left({text}, {SEARCH_CHARS})"
    headline = f"ts_headline({configuration_of('language')}, {cut}, {query[0]}, :options)"
    marks = ", ".join(f":id{n}" for n in range(len(ids)))
    found = rows(
        db,
        f"SELECT id, {title} AS title, {TIMESTAMP[kind]} AS timestamp, left({text}, 2000) "
        f"AS text, {headline} AS headline FROM {table} WHERE id IN ({marks})",
        {**query[1], "options": HEADLINE, **{f"id{n}": i for n, i in enumerate(ids)}},
    )
    return {int(r["id"]): r for r in found}


def _snippet(text: str, headline: str) -> str:
    """The headline on one line, with "…" where it cuts the text (as text.snippet shows)."""
    flat, head = " ".join(text.split()), " ".join(headline.split())[:SNIPPET_CHARS]
    prefix = "" if not head or flat.startswith(head) else "…"
    suffix = "" if flat.endswith(head) and len(flat) <= 2000 else "…"
    if not head:  # no word of the query in what the headline read: the text's start
        head, prefix, suffix = flat[:SNIPPET_CHARS], "", "…" * (len(flat) > SNIPPET_CHARS)
    return f"{prefix}{head}{suffix}"


def decisions(db: Connection, project_id: str, query: str, limit: int) -> list[tuple[int, float]]:
    """A project's decisions matching `query`, best first (decisions.search's question)."""
    terms = query_terms(query)
    found = ranked(
        db, "project_decisions", terms, stem_terms(terms), project_id=project_id,
        weights=COLUMN_WEIGHTS, cap=shared.SCOPED_CAP, limit=limit,
    )  # fmt: skip
    return [(i, score) for i, _, score in found]


def process_memory(db: Connection, query: str, limit: int) -> list[tuple[int, float]]:
    """Process-memory entries matching `query`, best first."""
    terms = query_terms(query)
    found = ranked(
        db, "process_memory", terms, stem_terms(terms), project_id=None,
        weights=PROCESS_WEIGHTS, cap=shared.SCOPED_CAP, limit=limit,
    )  # fmt: skip
    return [(i, score) for i, _, score in found]


def similar_projects(db: Connection, text: str, limit: int) -> list[tuple[str, str]]:
    """(id, name) of the projects whose names look most like `text` (trigrams), best first."""
    key = slugify(text)
    if not key:
        return []
    found = rows(
        db,
        """SELECT id, name FROM projects
        WHERE name_key % :key OR word_similarity(:key, name_key) > :floor
        ORDER BY greatest(similarity(name_key, :key), word_similarity(:key, name_key)) DESC,
                 name LIMIT :limit""",
        {"key": key, "floor": TRIGRAM_FLOOR, "limit": limit},
    )
    return [(str(r["id"]), str(r["name"])) for r in found]
