"""How a usage report reads, in English or Spanish: the cells of each row, a text table.

A figure no turn reported is "not reported" ("no informado"), never 0; a
figure only some turns reported says so: "$0.0123 (3 of 5 turns reported)".
Shared by `design-agent usage`, `/usage` in the shell (through the
`usage.show` action) and the one line of `providers doctor`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from design_agent.core.messages import say
from design_agent.memory.usage import UsageQuery, UsageReport, UsageRow, month_start, usage_report

if TYPE_CHECKING:
    from design_agent.memory.connection import Connection
    from design_agent.providers.doctor import Diagnosis

HEADERS = (
    "usage_col_group",
    "usage_col_turns",
    "usage_col_in",
    "usage_col_out",
    "usage_col_cost",
    "usage_col_first",
    "usage_col_total",
)


def money(value: float) -> str:
    """Dollars as people read them: cents for whole amounts, 4 decimals below a dollar."""
    return f"${value:.4f}" if abs(value) < 1 else f"${value:,.2f}"


def headers(report: UsageReport, language: str) -> list[str]:
    """The column titles; the first one names the grouping (day, provider...)."""
    titles = [say(key, language) for key in HEADERS]
    titles[0] = say(f"usage_by_{report.by}", language)
    return titles


def cells(row: UsageRow, language: str) -> list[str]:
    """One row as text: group, turns, tokens in, tokens out, cost, p50 first token, p50 total."""
    tokens = row.tokens_reported
    timed = row.timed
    first = row.p50_first_token_ms
    cost = money(row.cost_usd) if row.cost_usd is not None else None
    return [
        row.group,
        f"{row.turns:,}",
        _figure(_count(row.tokens_in), tokens, row.turns, language),
        _figure(_count(row.tokens_out), tokens, row.turns, language),
        _figure(cost, row.cost_reported, row.turns, language),
        # A median of the turns that were timed: no "n of m" note, it is not a sum.
        _figure(_seconds(first), timed, row.turns, language, note=False),
        _figure(_seconds(row.p50_total_ms), timed, row.turns, language, note=False),
    ]


def _figure(value: str | None, reported: int, turns: int, language: str, note: bool = True) -> str:
    if value is None or reported == 0:
        return say("usage_not_reported", language)
    if reported < turns and note:
        return say("usage_partly", language, value=value, reported=reported, turns=turns)
    return value


def _count(value: int | None) -> str | None:
    return f"{value:,}" if value is not None else None


def _seconds(ms: float | None) -> str | None:
    return f"{ms / 1000:.2f} s" if ms is not None else None


def title(report: UsageReport, scope: str, language: str) -> str:
    """ "Usage of project 'Atlas', by provider, since 2026-11-01 (UTC):" """
    since = (
        say("usage_since", language, date=report.since.strftime("%Y-%m-%d %H:%M"))
        if report.since
        else ""
    )
    by = say(f"usage_by_{report.by}", language)
    return say("usage_title", language, scope=scope, by=by, since=since)


def text_table(report: UsageReport, scope: str, language: str) -> str:
    """The report as aligned plain text (the shell's /usage), the total last."""
    if not report.rows:
        return say("usage_none", language, scope=scope)
    table = [headers(report, language)]
    table += [cells(row, language) for row in report.rows]
    if len(report.rows) > 1:
        total = cells(report.total, language)
        total[0] = say("usage_total", language)
        table.append(total)
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip()
        for line in table
    ]
    return "\n".join([title(report, scope, language), *lines])


def doctor_line(row: UsageRow | None, language: str = "en") -> str:
    """`providers doctor`: "used: 12 turns, 34,567 tokens, $0.4200 (this month)"."""
    if row is None or row.turns == 0:
        return say("usage_doctor_none", language)
    tokens = (row.tokens_in or 0) + (row.tokens_out or 0)
    tokens_text = f"{tokens:,}" if row.tokens_reported else say("usage_not_reported", language)
    cost = money(row.cost_usd) if row.cost_usd is not None else None
    cost_text = _figure(cost, row.cost_reported, row.turns, language)
    return say("usage_doctor", language, turns=row.turns, tokens=tokens_text, cost=cost_text)


def with_usage(
    diagnosis: Diagnosis, db: Connection | None, now: datetime | None = None
) -> Diagnosis:
    """The diagnosis with its provider's usage this calendar month (UTC), every project
    (`db` None: there is no database yet, so no answers)."""
    if db is None:
        return replace(diagnosis, used=doctor_line(None))
    since = month_start(now or datetime.now(UTC))
    report = usage_report(db, UsageQuery(by="provider", since=since))
    row = next((r for r in report.rows if r.group == diagnosis.name), None)
    return replace(diagnosis, used=doctor_line(row))
