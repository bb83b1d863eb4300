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

As on SQLite, the `cap` most recent matches are ranked, so the work of a common word does
not grow with the table. The ranking stands in for bm25: per word, ts_rank (a long text's
words count less) times the word's rarity (its idf, from PostgreSQL's own statistics of the
column), times the share of the question's words the row has. On a 100,000-turn corpus
its top 10 holds ~70 % of SQLite's (benchmarks/team.py). Every query is scoped by project
(`project_id = ...` beside the GIN index) unless asked across projects; the planner is
told the data is in memory (`planned`), so a common word walks one project's newest turns
and a rare one takes the GIN index. `ts_headline` runs for the hits shown only. Project
names are found by trigrams (pg_trgm).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from design_agent.memory import search as shared
from design_agent.memory.connection import Connection
from design_agent.memory.db import one, rows
from design_agent.memory.models import HitKind, Project, ProjectHits, SearchHit, SearchResults
from design_agent.memory.postgres.schema import SEARCH_CHARS, configuration_of
from design_agent.memory.text import MIN_PREFIX, inflection_stem, query_terms, short_stem, slugify

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


CONFIGURATIONS = ("design_agent_english", "design_agent_spanish", "design_agent_simple")
STATS_SECONDS = 300.0  # how long a table's word frequencies are used before read again
RARE = 1e-4  # the frequency of a word the statistics do not list, when they list none
COORDINATION = True
NORMALIZATION = 1  # ts_rank divided by 1 + log(length): a long text's many words count less


@dataclass(frozen=True)
class Query:
    """A question's words, each with the prefix it also matches (None: the word only)."""

    words: tuple[str, ...]
    prefixes: tuple[str | None, ...]

    @classmethod
    def of(cls, terms: list[str], prefix: Callable[[str], str]) -> Query:
        """`terms` with their prefixes; two words of one prefix ("usuario usuarios") are one
        word, counted once, as SQLite's side counts them."""
        cut = {prefix(t): t for t in reversed(terms)}  # the first word of each prefix
        kept = sorted(cut.items(), key=lambda pair: terms.index(pair[1]))
        return cls(
            tuple(word for _, word in kept),
            tuple(p if len(p) >= MIN_PREFIX else None for p, _ in kept),
        )

    def term(self, n: int) -> str:
        """The tsquery of word `n`: in every configuration, and as a prefix."""
        parts = [f"websearch_to_tsquery('{name}', :w{n})" for name in CONFIGURATIONS]
        if self.prefixes[n] is not None:
            parts.append(f"to_tsquery('simple', :p{n})")
        return "(" + " || ".join(parts) + ")"

    def sql(self) -> str:
        """The tsquery of any of the words."""
        return "(" + " || ".join(self.term(n) for n in range(len(self.words))) + ")"

    def params(self) -> dict[str, Any]:
        # Folded words hold letters and digits only: quoted, a prefix is a plain lexeme.
        found: dict[str, Any] = {f"w{n}": word for n, word in enumerate(self.words)}
        for n, prefix in enumerate(self.prefixes):
            if prefix is not None:
                found[f"p{n}"] = f"'{prefix}':*"
        return found


def ranked(
    db: Connection,
    table: str,
    query: Query,
    *,
    project_id: str | None,
    weights: str,
    cap: int,
    limit: int,
    among: list[str] | None = None,
    scoped: bool = False,
) -> list[tuple[int, str | None, float]]:
    """(id, project_id, score) of the best of the `cap` newest rows of `table` matching any
    word of `query`, in one project or (None) in all; best first. A word's match counts by
    its rarity (as bm25's idf does on SQLite: `idf`), so a row with the rare word of a
    question ranks above one that repeats its common word. `scoped`: the table's index is
    of its words with the project in front (evidence_segments, schema version 11)."""
    if not query.words:
        return []
    rarity = idf(db, table, query)
    score = " + ".join(
        f"{weight!r} * ts_rank('{weights}', search, {query.term(n)}, {NORMALIZATION})"
        for n, weight in enumerate(rarity)
    )
    if COORDINATION and len(rarity) > 1:  # the share of the question's words a row has
        shared = " + ".join(f"(search @@ {query.term(n)})::int" for n in range(len(rarity)))
        score = f"({score}) * ({shared})"
    scope = "project_id = :project AND " if project_id is not None else ""
    if project_id is None and among is not None:  # a person's projects only
        scope = "project_id = ANY(:among) AND "
    recent = f"""SELECT id, project_id, search FROM {table} WHERE {scope}search @@ {query.sql()}
        ORDER BY id DESC LIMIT :cap"""
    if scoped and project_id is not None:
        recent = _scoped_recent(table, query)
    found = rows(
        db,
        f"""SELECT id, project_id AS owner, {score} AS score FROM ({recent}) recent
        ORDER BY score DESC, id DESC LIMIT :limit""",
        {**query.params(), "project": project_id, "cap": cap, "limit": limit,
         "among": list(among or [])},
    )  # fmt: skip
    return [(int(r["id"]), r["owner"], float(r["score"])) for r in found]


def _scoped_recent(table: str, query: Query) -> str:
    """The `cap` newest matches in one project, through the index of its words with the
    project in front (schema version 11). The matches are found first (MATERIALIZED): the
    planner, which sees one project's common word as 1 % of the table, would otherwise walk
    every project's newest rows by id, computing each one's scoped words; ANDed with the
    project's own btree it reads all the project's ids for nothing."""
    found = f"evidence_scoped(project_id, search) @@ evidence_scoped_query(:project, {query.sql()})"
    return f"""WITH matched AS MATERIALIZED (SELECT id FROM {table} WHERE {found})
        SELECT id, project_id, search FROM {table}
        WHERE id IN (SELECT id FROM matched ORDER BY id DESC LIMIT :cap)"""


_stats: dict[tuple[str, str], tuple[float, dict[str, list[tuple[str, float]]], float]] = {}


def idf(db: Connection, table: str, query: Query) -> list[float]:
    """Each word's weight: log(1 + (1 - f) / f), f the share of `table`'s rows holding it,
    from PostgreSQL's own statistics (pg_stats: the most common lexemes of `search`, read
    again every STATS_SECONDS); a word they do not list is rarer than any they do."""
    listed, floor = _frequencies(db, table)
    weights = []
    for word, prefix in zip(query.words, query.prefixes, strict=True):
        stem = prefix or word
        near = listed.get(stem[:MIN_PREFIX], [])
        found = [f for lexeme, f in near if stem.startswith(lexeme) or lexeme.startswith(stem)]
        share = max(found, default=floor)
        weights.append(round(math.log(1 + (1 - share + 1e-6) / (share + 1e-6)), 4))
    return weights


def _frequencies(db: Connection, table: str) -> tuple[dict[str, list[tuple[str, float]]], float]:
    """The most common lexemes of `table`'s search column with their frequencies (grouped
    by their first letters), and a frequency below all of them."""
    key = (str(getattr(db, "url", "")), table)
    known = _stats.get(key)
    if known is not None and time.monotonic() - known[0] < STATS_SECONDS:
        return known[1], known[2]
    row = one(
        db,
        "SELECT most_common_elems::text::text[] AS lexemes, most_common_elem_freqs AS shares "
        "FROM pg_stats WHERE schemaname = current_schema() AND tablename = ? "
        "AND attname = 'search'",
        [table],
    )
    lexemes, shares = (row["lexemes"] or [], row["shares"] or []) if row else ([], [])
    listed: dict[str, list[tuple[str, float]]] = {}
    for lexeme, share in zip(lexemes, shares, strict=False):
        listed.setdefault(lexeme[:MIN_PREFIX], []).append((lexeme, float(share)))
    floor = min(shares[: len(lexemes)], default=2 * RARE) / 2
    _stats[key] = (time.monotonic(), listed, floor)
    return listed, floor


def search(
    db: Connection,
    query: str,
    project_id: str | None,
    limit: int = 20,
    among: list[str] | None = None,
) -> SearchResults:
    """Turns, files and decisions matching `query` in one project or (None) in all of them
    (those of `among`, when given), grouped by project: SQLite's search.search, on
    PostgreSQL."""
    terms = query_terms(query)
    results = SearchResults(query=query, terms=terms, all_projects=project_id is None)
    if not terms or (among is not None and not among and project_id is None):
        return results
    scope = shared.projects_in(db, project_id, among)
    cap = shared.SCOPED_CAP if project_id else min(MAX_CROSS_CAP, shared.CROSS_CAP * len(scope))
    question = Query.of(terms, inflection_stem)
    found: list[tuple[str, shared.Ranked]] = []
    tables: list[tuple[HitKind, str, str]] = [
        ("turn", "conversations", TURN_WEIGHTS),
        ("file", "project_files", COLUMN_WEIGHTS),
        ("decision", "project_decisions", COLUMN_WEIGHTS),
    ]
    with db.snapshot():  # one view of the three tables
        planned(db)
        for kind, table, weights in tables:
            hits = ranked(
                db, table, question, project_id=project_id, weights=weights, cap=cap,
                limit=limit, among=among,
            )  # fmt: skip
            found += [(str(pid), shared.Ranked(kind, i, s)) for i, pid, s in hits if pid in scope]
        best = sorted(found, key=lambda pair: (-pair[1].score, -pair[1].id))[:limit]
        by_project: dict[str, list[shared.Ranked]] = {}
        for pid, hit in best:
            by_project.setdefault(pid, []).append(hit)
        groups = [_group(db, scope[pid][0], hits, question) for pid, hits in by_project.items()]
    return results.model_copy(update={"groups": groups})


def planned(db: Connection) -> None:
    """Inside a search's block: PostgreSQL plans it for data in memory or on SSD. With the
    default random_page_cost (4, a spinning disk's) it walks every project's newest turns
    by id instead of one project's (conversations_project) and reads 10 to 50 times more
    rows for a common word; a rare word still goes to the GIN index either way."""
    db.execute("SET LOCAL random_page_cost = 1.1")


def _group(
    db: Connection, project: Project, best: list[shared.Ranked], query: Query
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
    db: Connection, kind: HitKind, ids: list[int], query: Query
) -> dict[int, dict[str, Any]]:
    """The rows of the hits shown, each with the headline of its text around the words."""
    if not ids:
        return {}
    table, title, text = SHOWN[kind]
    cut = f"left({text}, {SEARCH_CHARS})"
    headline = f"ts_headline({configuration_of('language')}, {cut}, {query.sql()}, :options)"
    marks = ", ".join(f":id{n}" for n in range(len(ids)))
    found = rows(
        db,
        f"SELECT id, {title} AS title, {TIMESTAMP[kind]} AS timestamp, left({text}, 2000) "
        f"AS text, {headline} AS headline FROM {table} WHERE id IN ({marks})",
        {**query.params(), "options": HEADLINE, **{f"id{n}": i for n, i in enumerate(ids)}},
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
    question = Query.of(query_terms(query), short_stem)
    found = ranked(
        db, "project_decisions", question, project_id=project_id, weights=COLUMN_WEIGHTS,
        cap=shared.SCOPED_CAP, limit=limit,
    )  # fmt: skip
    return [(i, score) for i, _, score in found]


def process_memory(db: Connection, query: str, limit: int) -> list[tuple[int, float]]:
    """Process-memory entries matching `query`, best first."""
    question = Query.of(query_terms(query), short_stem)
    found = ranked(
        db, "process_memory", question, project_id=None, weights=PROCESS_WEIGHTS,
        cap=shared.SCOPED_CAP, limit=limit,
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
