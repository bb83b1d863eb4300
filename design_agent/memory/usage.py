"""What the answers used: turns, tokens in and out, cost and timings, grouped, from the turns.

Only the agent's answers from a provider count (an action's reply has no
provider). Every total is an SQL aggregate over the stored turns, so it is
exactly what the turns say: a figure no turn reported stays None ("not
reported"), never 0 and never a guess. Old turns (before schema version 6)
have no tokens in/out or timings: they count as not reported for those.
Days and months are UTC, as the timestamps are stored.

    report = usage_report(memory.db, UsageQuery(by="provider", project_id=project.id))
    spent = month_spend(memory.db, project.id, datetime.now(UTC))
"""

from __future__ import annotations

import re
import statistics
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from design_agent.core.errors import UsageError
from design_agent.core.messages import say
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import rows, scalar, stamp, transaction

GroupBy = Literal["day", "provider", "model", "project", "person"]
GROUPS: tuple[GroupBy, ...] = ("day", "provider", "model", "project", "person")
TOTAL = "total"

# The SQL expression each grouping reads (c: conversations, p: projects).
_KEYS: dict[str, str] = {
    "day": "substr(c.timestamp, 1, 10)",
    "provider": "c.provider",
    "model": "coalesce(c.model, '-')",
    "project": "p.name",
    # The person whose question an answer answered ("-": a one-person home's turns).
    "person": "coalesce((SELECT name FROM people WHERE people.id = c.author_id), '-')",
    TOTAL: "'total'",
}
# PostgreSQL keeps a timestamptz (in UTC, postgres/connection.py), not ISO text.
_POSTGRES_KEYS = {**_KEYS, "day": "to_char(c.timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD')"}


def _key(db: Connection, by: str) -> str:
    return (_POSTGRES_KEYS if is_postgres(db) else _KEYS)[by]


_RELATIVE = re.compile(r"(\d{1,4})d")


class UsageQuery(BaseModel):
    """Which answers to count and how to group them (project_id None: every project)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    by: GroupBy = "provider"
    project_id: str | None = None
    since: datetime | None = None


class UsageRow(BaseModel):
    """One group's figures. A sum is None when no turn of the group reported it; the
    `*_reported` counts say how many of its `turns` did."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    group: str
    turns: int
    tokens_in: int | None = None
    tokens_out: int | None = None
    tokens_reported: int = 0
    cost_usd: float | None = None
    cost_reported: int = 0
    p50_first_token_ms: float | None = None
    p50_total_ms: float | None = None
    timed: int = 0


class UsageReport(BaseModel):
    """The rows, in the order of their group, and the total over all of them."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    by: GroupBy
    project_id: str | None
    since: datetime | None
    rows: list[UsageRow]
    total: UsageRow


def usage_report(db: Connection, query: UsageQuery) -> UsageReport:
    """The answers `query` selects, grouped; the total row uses the same aggregates."""
    where, params = _where(query)
    firsts, totals = _timings(db, _key(db, query.by), where, params)
    grouped = _aggregate(db, _key(db, query.by), where, params, (firsts, totals))
    # The total's medians are over every group's timings (read once, not twice).
    everything = ({TOTAL: _joined(firsts)}, {TOTAL: _joined(totals)})
    total = _aggregate(db, _key(db, TOTAL), where, params, everything)
    return UsageReport(
        by=query.by,
        project_id=query.project_id,
        since=query.since,
        rows=grouped,
        total=total[0] if total else UsageRow(group=TOTAL, turns=0),
    )


def _where(query: UsageQuery) -> tuple[str, list[Any]]:
    clauses = ["c.role = 'agent'", "c.provider IS NOT NULL"]
    params: list[Any] = []
    if query.project_id is not None:
        clauses.append("c.project_id = ?")
        params.append(query.project_id)
    if query.since is not None:
        clauses.append("c.timestamp >= ?")
        params.append(stamp(query.since))
    return " AND ".join(clauses), params


Timings = dict[str, list[int]]


def _aggregate(
    db: Connection,
    key: str,
    where: str,
    params: list[Any],
    timings: tuple[Timings, Timings],
) -> list[UsageRow]:
    sql = f"""SELECT {key} AS grp, count(*) AS turns,
            sum(c.tokens_in) AS tokens_in, sum(c.tokens_out) AS tokens_out,
            count(CASE WHEN c.tokens_in IS NOT NULL OR c.tokens_out IS NOT NULL THEN 1 END)
                AS tokens_reported,
            sum(c.cost) AS cost_usd, count(c.cost) AS cost_reported, count(c.total_ms) AS timed
        FROM conversations c JOIN projects p ON p.id = c.project_id
        WHERE {where} GROUP BY grp ORDER BY grp"""
    firsts, totals = timings
    found = []
    for row in rows(db, sql, params):
        group = str(row.pop("grp"))
        p50_first, p50_total = _median(firsts.get(group)), _median(totals.get(group))
        found.append(
            UsageRow(group=group, p50_first_token_ms=p50_first, p50_total_ms=p50_total, **row)
        )
    return found


def _timings(db: Connection, key: str, where: str, params: list[Any]) -> tuple[Timings, Timings]:
    """Each group's times to first token and total times (ms), of the turns that reported
    them. (Measured: one read of plain tuples, sorted here for the median, beats SQLite
    window functions by about 2x.)"""
    sql = f"""SELECT {key}, c.first_token_ms, c.total_ms
        FROM conversations c JOIN projects p ON p.id = c.project_id
        WHERE {where} AND (c.first_token_ms IS NOT NULL OR c.total_ms IS NOT NULL)"""
    firsts: Timings = defaultdict(list)
    totals: Timings = defaultdict(list)
    for group, first, total in db.execute(sql, params):
        if first is not None:
            firsts[str(group)].append(first)
        if total is not None:
            totals[str(group)].append(total)
    return firsts, totals


def _joined(timings: Timings) -> list[int]:
    return [value for values in timings.values() for value in values]


def _median(values: list[int] | None) -> float | None:
    """The middle value, or the mean of the two middle ones (p50)."""
    return float(statistics.median(values)) if values else None


def month_start(now: datetime) -> datetime:
    """The first instant of `now`'s calendar month, in UTC."""
    utc = now.astimezone(UTC)
    return datetime(utc.year, utc.month, 1, tzinfo=UTC)


def month_spend(db: Connection, project_id: str, now: datetime) -> float:
    """What a project's answers cost this calendar month, as the providers reported it."""
    spent = scalar(
        db,
        "SELECT sum(cost) FROM conversations "
        "WHERE project_id = ? AND timestamp >= ? AND cost IS NOT NULL",
        [project_id, stamp(month_start(now))],
    )
    return float(spent or 0.0)


class TurnFigures(BaseModel):
    """What one answer used, as its provider reported it (None: not reported)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    tokens_in: int | None = None
    tokens_out: int | None = None
    first_token_ms: int | None = None
    total_ms: int | None = None


def record_figures(db: Connection, turn_id: int, figures: TurnFigures) -> None:
    """Store an answer's tokens in/out and timings (in the caller's transaction, if any)."""
    with transaction(db):
        db.execute(
            "UPDATE conversations SET tokens_in = ?, tokens_out = ?, first_token_ms = ?, "
            "total_ms = ? WHERE id = ?",
            [
                figures.tokens_in,
                figures.tokens_out,
                figures.first_token_ms,
                figures.total_ms,
                turn_id,
            ],
        )


def parse_since(text: str, now: datetime, language: str = "en") -> datetime:
    """`--since`: a date (YYYY-MM-DD, from its first instant, UTC) or the last N days ("7d",
    "30d"); UsageError for anything else."""
    value = text.strip().lower()
    relative = _RELATIVE.fullmatch(value)
    if relative:
        return now.astimezone(UTC) - timedelta(days=int(relative.group(1)))
    try:
        day = date.fromisoformat(value) if len(value) == 10 else None
    except ValueError:
        day = None
    if day is None:
        raise UsageError(say("usage_bad_since", language, value=text))
    return datetime(day.year, day.month, day.day, tzinfo=UTC)
