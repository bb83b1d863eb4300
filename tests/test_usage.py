"""A designer looks at what the work used: `design-agent usage`, /usage, "how much have I spent?".

Answers come from fake Claude and Gemini CLIs replaying recorded streams (Claude's result
carries total_cost_usd, Gemini's has tokens and no cost) and from the offline provider, in
two projects, on a real temp home. Every figure is checked against the stored turns,
summed independently with sqlite3: the totals must match exactly.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conversations.talk import Conversation
from fixtures.fakes import recording

from design_agent.actions.usage_view import cells
from design_agent.cli.shell import Shell
from design_agent.core.settings import set_setting
from design_agent.knowledge.registry import Catalogue
from design_agent.memory import Memory
from design_agent.memory.db import connect
from design_agent.memory.schema import LATEST_VERSION
from design_agent.memory.usage import UsageQuery, usage_report

JOURNEY = "I need a journey map for first-time buyers"
TEST_PLAN = "plan a usability test for the new checkout"
# What each turn of the recorded Claude stream reports (its result event).
CLAUDE_COST = 0.00047999999999999996


@pytest.fixture
def talk(
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bundled_catalogue: Catalogue,
) -> Iterator[Conversation]:
    conversation = Conversation(home, tmp_path, monkeypatch, bundled_catalogue)
    yield conversation
    conversation.close()


def answer(talk: Conversation, message: str, provider: str, record: str | None = None) -> None:
    """One design answer from `provider` (a fake CLI replaying `record`, or offline)."""
    if record is None:
        set_setting(talk.services.home, "provider", "offline")
    else:
        talk.use(provider, recording(record))
    said = talk.say(message)
    assert said.error is None, said.error
    assert said.finished is not None and said.finished.provider == provider


@pytest.fixture
def worked(talk: Conversation) -> Conversation:
    """Two projects' worth of answers: Atlas by Claude (one last month) and Gemini, with an
    answer saved before tokens in/out and timings were stored; Ledgerly offline."""
    talk.say("create project Ledgerly")
    answer(talk, JOURNEY, "offline")
    talk.say("create project Atlas")
    answer(talk, JOURNEY, "claude", "run_claude_stream_stdin")
    answer(talk, TEST_PLAN, "claude", "run_claude_stream_stdin")
    answer(talk, TEST_PLAN, "claude", "run_claude_stream_stdin")
    answer(talk, JOURNEY, "gemini", "run_gemini_stream")
    atlas = talk.memory.find_project("Atlas")
    # As a turn saved by an older design-agent: a token total, no split, no cost, no timings.
    talk.memory.add_turn(atlas.id, "agent", "an old answer", provider="claude", tokens=40)
    with sqlite3.connect(talk.memory.path) as db:
        first = db.execute(
            "SELECT min(id) FROM conversations WHERE provider = 'claude' AND role = 'agent'"
        ).fetchone()[0]
        last_month = (datetime.now(UTC).replace(day=1) - timedelta(days=10)).isoformat()
        db.execute("UPDATE conversations SET timestamp = ? WHERE id = ?", [last_month, first])
    talk.memory.switch_project(atlas.id)
    return talk


def stored(path: Path, project: str | None = None, since: str = "") -> list[dict[str, Any]]:
    """The answers as stored, read with sqlite3 (not through design-agent)."""
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    rows = db.execute(
        "SELECT c.id, c.timestamp, c.provider, c.model, p.name AS project, c.tokens_in, "
        "c.tokens_out, c.cost, c.first_token_ms, c.total_ms FROM conversations c "
        "JOIN projects p ON p.id = c.project_id WHERE c.role = 'agent' AND c.provider IS NOT NULL"
    ).fetchall()
    found = [dict(r) for r in rows]
    return [
        r for r in found if (project is None or r["project"] == project) and r["timestamp"] >= since
    ]


def key_of(row: dict[str, Any], by: str) -> str:
    return {
        "day": row["timestamp"][:10],
        "provider": row["provider"],
        "model": row["model"] or "-",
        "project": row["project"],
        "total": "total",
    }[by]


def expected(path: Path, turns: list[dict[str, Any]], by: str) -> dict[str, dict[str, Any]]:
    """Each group's figures, summed here: Python for counts, tokens and medians, and sqlite3's
    own sum() over the group's turn ids for the cost (so the float is the same sum)."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in turns:
        groups[key_of(row, by)].append(row)
    db = sqlite3.connect(path)
    result = {}
    for group, rows in groups.items():
        ids = [r["id"] for r in rows]
        marks = ",".join("?" * len(ids))
        cost = db.execute(f"SELECT sum(cost) FROM conversations WHERE id IN ({marks})", ids)
        firsts = [r["first_token_ms"] for r in rows if r["first_token_ms"] is not None]
        totals = [r["total_ms"] for r in rows if r["total_ms"] is not None]
        result[group] = {
            "turns": len(rows),
            "tokens_in": _sum([r["tokens_in"] for r in rows]),
            "tokens_out": _sum([r["tokens_out"] for r in rows]),
            "cost_usd": cost.fetchone()[0],
            "cost_reported": sum(r["cost"] is not None for r in rows),
            "p50_first_token_ms": float(statistics.median(firsts)) if firsts else None,
            "p50_total_ms": float(statistics.median(totals)) if totals else None,
        }
    return result


def _sum(values: list[int | None]) -> int | None:
    reported = [v for v in values if v is not None]
    return sum(reported) if reported else None


def usage_json(run_cli: Any, *args: str) -> dict[str, Any]:
    result = run_cli("usage", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


FIGURES = (
    "turns",
    "tokens_in",
    "tokens_out",
    "cost_usd",
    "cost_reported",
    "p50_first_token_ms",
    "p50_total_ms",
)


@pytest.mark.parametrize("by", ["day", "provider", "model", "project"])
def test_totals_match_the_stored_turns_exactly(worked: Conversation, run_cli: Any, by: str):
    """Every group of `usage --all --by X --json`, and the total, is what the turns say."""
    data = usage_json(run_cli, "--all", "--by", by)
    turns = stored(worked.memory.path)
    want = expected(worked.memory.path, turns, by)
    got = {row["group"]: {k: row[k] for k in FIGURES} for row in data["rows"]}
    assert got == want
    total = expected(worked.memory.path, turns, "total")["total"]
    assert {k: data["total"][k] for k in FIGURES} == total
    assert total["turns"] == 6 and total["cost_reported"] == 3


def test_the_default_is_the_active_project_by_provider(worked: Conversation, run_cli: Any):
    """Atlas: Claude's four answers (one not reporting cost), Gemini's without a cost."""
    data = usage_json(run_cli)
    assert data["project"] == "Atlas" and data["by"] == "provider"
    rows = {row["group"]: row for row in data["rows"]}
    assert set(rows) == {"claude", "gemini"}
    claude, gemini = rows["claude"], rows["gemini"]
    assert (claude["turns"], claude["cost_reported"]) == (4, 3)
    assert claude["cost_usd"] == pytest.approx(3 * CLAUDE_COST, rel=1e-12)
    assert (claude["tokens_in"], claude["tokens_out"]) == (33, 51)  # 3 x (11 in, 17 out)
    assert gemini["cost_usd"] is None and gemini["cost_reported"] == 0
    assert (gemini["tokens_in"], gemini["tokens_out"]) == (11, 17)


def test_text_says_not_reported_and_how_many_turns_reported(worked: Conversation, run_cli: Any):
    result = run_cli("usage")
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip()}
    assert "$0.0014 (3 of 4 turns reported)" in lines["claude"]
    assert "not reported" in lines["gemini"] and "$" not in lines["gemini"]
    assert "$0.0014" in lines["total"]
    assert " 0 " not in lines["gemini"], "a cost nobody reported is never 0"


def test_since_a_date_and_the_last_days(worked: Conversation, run_cli: Any):
    """--since 30d leaves out nothing here but last month's answer when it is older; a date
    from this month leaves it out; both count exactly the stored turns after it."""
    start = datetime.now(UTC).replace(day=1).strftime("%Y-%m-%d")
    data = usage_json(run_cli, "--since", start, "--by", "day")
    turns = stored(worked.memory.path, "Atlas", since=start)
    assert len(turns) == 4
    want = expected(worked.memory.path, turns, "day")
    assert {row["group"]: {k: row[k] for k in FIGURES} for row in data["rows"]} == want
    week = usage_json(run_cli, "--since", "7d", "--all")
    cut = (datetime.now(UTC) - timedelta(days=7)).isoformat()
    assert week["total"]["turns"] == len(stored(worked.memory.path, since=cut))


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "7 days", "-3d"])
def test_a_bad_since_is_one_line_and_exit_2(run_cli: Any, bad: str):
    result = run_cli("usage", "--since", bad)
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert f"not '{bad}'" in result.output and "YYYY-MM-DD" in result.output


def test_project_and_all_together_is_a_usage_error(run_cli: Any):
    assert run_cli("usage", "--all", "--project", "Atlas").exit_code == 2


def test_an_empty_home_says_there_is_nothing_yet(run_cli: Any):
    result = run_cli("usage")
    assert result.exit_code == 0 and "No answers yet" in result.output


def test_how_much_have_i_spent_by_talking(worked: Conversation):
    said = worked(
        "how much have I spent?",
        reply="Usage of project 'Atlas'",
        pending="decision_proposal",  # the last answer's proposal, asked again after this
        action="usage.show",
    )
    assert "(3 of 4 turns reported)" in said.reply and "not reported" in said.reply
    worked(
        "¿cuánto llevo gastado?",
        reply=["Uso en el proyecto 'Atlas'", "no informado"],
        pending=None,
        action="usage.show",
        language="es",
    )
    said = worked("show usage by project for all projects", reply="Ledgerly", pending=None)
    assert "Atlas" in said.reply and "total" in said.reply


def test_slash_usage_in_the_shell(worked: Conversation, capsys: pytest.CaptureFixture[str]):
    shell = Shell(worked.services)
    shell.handle("/usage model --all")
    out = capsys.readouterr().out
    models = {row["model"] for row in stored(worked.memory.path) if row["model"]}
    assert "by model" in out and {"sonnet", "opus"} <= models
    assert all(f"\n{model} " in out for model in models), out
    shell.handle("/usage weekly")
    assert "/usage [day|provider|model|project] [--all]" in capsys.readouterr().out


def test_doctor_shows_each_providers_use_this_month(worked: Conversation, run_cli: Any):
    result = run_cli("providers", "doctor", "--json")
    used = {d["name"]: d["used"] for d in json.loads(result.output)}
    # This month: two of Claude's recorded answers and the old one; last month's is not.
    claude = "used: 3 turns, 56 tokens, $0.0010 (2 of 3 turns reported) (this month)"
    assert used["claude"] == claude
    assert used["gemini"] == "used: 1 turns, 28 tokens, not reported (this month)"
    assert used["codex"] == "used: no answers this month"


def test_a_version_5_database_keeps_its_answers_as_not_reported(tmp_path: Path):
    """Schema 6 adds tokens in/out and timings; answers saved before keep NULL there, so
    their cost still counts and their split tokens and times are "not reported"."""
    path = tmp_path / "old.db"
    old = connect(path, version=5)
    old.execute(
        "INSERT INTO projects (id, name, name_key, search_key, created_at, last_accessed) "
        "VALUES ('atlas', 'Atlas', 'atlas', 1, '2026-11-02T10:00:00+00:00', "
        "'2026-11-02T10:00:00+00:00')"
    )
    old.execute(
        "INSERT INTO conversations (project_id, timestamp, role, message, provider, model, "
        "tokens, cost) VALUES ('atlas', '2026-11-02T10:00:00+00:00', 'agent', 'an answer', "
        "'claude', 'sonnet', 120, 0.25)"
    )
    old.close()
    with Memory.open(path) as memory:
        assert memory.db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
        report = usage_report(memory.db, UsageQuery(by="model"))
    row = report.rows[0]
    assert (row.group, row.turns, row.cost_usd, row.cost_reported) == ("sonnet", 1, 0.25, 1)
    assert (row.tokens_in, row.tokens_out, row.p50_total_ms) == (None, None, None)
    assert (
        cells(row, "es")[2:] == ["no informado", "no informado", "$0.2500"] + ["no informado"] * 2
    )
