"""Ranked full-text queries with bounded work.

FTS5's `ORDER BY rank` scores every matching row before it can return the
best ten; for a common word that is most of the table. We take the `cap` most
recent matches (FTS5 walks its index newest first and stops there) and rank
those by bm25: the best hits of recent history, at a cost that does not grow
with the size of the table. Rare words have fewer than `cap` matches, so for
them this is the exact bm25 ranking.
"""

from __future__ import annotations

from collections.abc import Sequence

from design_agent.memory.connection import Connection

DEFAULT_CAP = 500


def ranked(
    db: Connection,
    table: str,
    expression: str,
    weights: Sequence[float] = (),
    *,
    cap: int = DEFAULT_CAP,
    limit: int = 20,
) -> list[tuple[int, float]]:
    """(rowid, score) of the best matches of `expression` in `table`; higher is better.

    `weights` are bm25's per-column weights, in the table's column order.
    """
    arguments = "".join(f", {float(w)}" for w in weights)
    sql = (
        f"SELECT rowid, score FROM (SELECT rowid, bm25({table}{arguments}) AS score "
        f"FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT ?) "
        "ORDER BY score, rowid DESC LIMIT ?"
    )
    # bm25 is negative, lower is better; callers get a positive relevance.
    return [
        (int(rowid), -float(score)) for rowid, score in db.execute(sql, (expression, cap, limit))
    ]
