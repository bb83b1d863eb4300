"""A designer with a monthly budget: a warning from 80 %, a question once it is spent.

A fake Claude CLI replays a recorded stream whose result reports total_cost_usd 0.00048,
so each answer costs that; budgets are set in fractions of a cent to reach 80 % and 100 %
in one or two answers. Offline and Gemini (no cost reported) never trigger the budget.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from conversations.talk import ANY_TASK, Conversation
from fixtures.fakes import install_fake, recording

from design_agent.core.errors import ExitCode
from design_agent.core.settings import set_setting
from design_agent.knowledge.registry import Catalogue

JOURNEY = "I need a journey map for first-time buyers"
TEST_PLAN = "plan a usability test for the new checkout"
PERSONAS = "create personas for small accountants"
ANSWER = "Hello from fake server"  # the recorded Claude answer


@pytest.fixture
def talk(
    home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    bundled_catalogue: Catalogue,
) -> Iterator[Conversation]:
    """Atlas, answered by the fake Claude; the fake writes what it was sent to FAKE_LOG."""
    conversation = Conversation(home, tmp_path, monkeypatch, bundled_catalogue)
    conversation("create project Atlas", reply="Who are the users", pending="interview")
    conversation("cancel", reply="", pending=None)
    conversation.use("claude", recording("run_claude_stream_stdin"), log=str(tmp_path / "sent"))
    yield conversation
    conversation.close()


def budget(talk: Conversation, amount: str) -> None:
    set_setting(talk.services.home, "budget.monthly_usd", amount)


def agent_turns(talk: Conversation) -> int:
    """The turns of design requests and answers (a question and its reply are an exchange,
    kept in the record too)."""
    with sqlite3.connect(talk.memory.path) as db:
        query = (
            "SELECT count(*) FROM conversations"
            " WHERE validation IS NULL OR json_extract(validation, '$.exchange') IS NULL"
        )
        return int(db.execute(query).fetchone()[0])


def claude_ran(tmp_path: Path) -> bool:
    """Whether the fake Claude was started since the last check (it logs every run)."""
    sent = tmp_path / "sent"
    ran = sent.exists()
    sent.unlink(missing_ok=True)
    return ran


def test_at_80_percent_a_warning_and_the_answer_goes_on(talk: Conversation, tmp_path: Path):
    budget(talk, "0.0005")
    said = talk(JOURNEY, reply=ANSWER, not_reply="Budget", pending="decision_proposal")
    assert claude_ran(tmp_path)
    said = talk(
        TEST_PLAN,
        reply=["Budget: 'Atlas' has spent $0.0005 of its $0.0005 monthly budget (96%).", ANSWER],
        pending="decision_proposal",
        task=ANY_TASK,
    )
    assert said.actions[0] == "budget.warning" and claude_ran(tmp_path)


def test_al_80_por_ciento_un_aviso_en_espanol(talk: Conversation):
    budget(talk, "0.0005")
    talk("necesito un mapa de viaje del cliente", reply=ANSWER, pending="decision_proposal")
    talk("no", reply="", pending=None)
    talk(
        "prepara una prueba de usabilidad del pago",
        reply=[
            "Presupuesto: 'Atlas' lleva "
            "gastado $0.0005 de su presupuesto mensual de $0.0005 (96%).",
            ANSWER,
        ],
        pending="decision_proposal",
        language="es",
    )


def test_once_spent_it_asks_no_sends_nothing_and_yes_sends_it(talk: Conversation, tmp_path: Path):
    talk(JOURNEY, reply=ANSWER, pending="decision_proposal")
    budget(talk, "0.0004")  # $0.00048 spent: 120 %
    assert claude_ran(tmp_path)
    before = agent_turns(talk)
    question = (
        "'Atlas' has spent $0.0005 of its $0.0004 budget this month (120%). Send this "
        "request anyway? (yes / no)"
    )
    said = talk(TEST_PLAN, reply=question, not_reply=ANSWER, pending="budget_confirm")
    assert said.actions == ["budget.confirm"] and said.finished and not said.finished.task
    assert talk.state().pending.request == TEST_PLAN  # type: ignore[union-attr]
    talk("no", reply="Not sent: nothing ran.", pending=None)
    assert agent_turns(talk) == before and not claude_ran(tmp_path), "a 'no' runs nothing"

    talk(PERSONAS, reply=question, pending="budget_confirm")
    said = talk(
        "yes",
        reply=["Sending it over budget", "Budget: 'Atlas' has spent", ANSWER],
        pending="decision_proposal",
        task=ANY_TASK,
    )
    assert claude_ran(tmp_path) and said.finished and said.finished.provider == "claude"
    asked, answered = talk.memory.recent_turns(talk.memory.active_project().id, 2)  # type: ignore[union-attr]
    assert (asked.message, answered.role, answered.status) == (PERSONAS, "agent", "complete")
    assert agent_turns(talk) == before + 2


def test_the_question_in_spanish_and_escaping_it(talk: Conversation, tmp_path: Path):
    talk(JOURNEY, reply=ANSWER, pending="decision_proposal")
    budget(talk, "0.0004")
    claude_ran(tmp_path)
    talk(
        "prepara una prueba de usabilidad del pago",
        reply="¿Envío la petición de todos modos? (sí / no)",
        pending="budget_confirm",
    )
    talk("olvídalo", reply="", pending=None)
    assert not claude_ran(tmp_path)
    talk("prepara una prueba de usabilidad del pago", reply="(sí / no)", pending="budget_confirm")
    talk("sí", reply=["La envío por encima del presupuesto", ANSWER], pending="decision_proposal")
    assert claude_ran(tmp_path)


def test_offline_and_providers_without_a_cost_never_ask(talk: Conversation, tmp_path: Path):
    talk(JOURNEY, reply=ANSWER, pending="decision_proposal")
    budget(talk, "0.0001")  # spent almost five times over
    set_setting(talk.services.home, "provider", "offline")
    # The proposal of the last answer is asked again after this one (turn/questions.py).
    talk(
        TEST_PLAN,
        reply="Offline answer",
        not_reply=["Budget", "anyway"],
        pending="decision_proposal",
    )
    talk.use("gemini", recording("run_gemini_stream"))
    said = talk(PERSONAS, reply=ANSWER, not_reply=["Budget", "anyway"], pending="decision_proposal")
    assert said.finished and said.finished.provider == "gemini"


def test_last_months_spend_does_not_count(talk: Conversation):
    talk(JOURNEY, reply=ANSWER, pending="decision_proposal")
    budget(talk, "0.0004")
    last_month = (datetime.now(UTC).replace(day=1) - timedelta(days=3)).isoformat()
    with sqlite3.connect(talk.memory.path) as db:
        db.execute("UPDATE conversations SET timestamp = ?", [last_month])
    talk(TEST_PLAN, reply=ANSWER, not_reply=["Budget", "anyway"], pending="decision_proposal")


def test_no_budget_no_question(talk: Conversation):
    for request in (JOURNEY, TEST_PLAN, PERSONAS):
        talk(request, reply=ANSWER, not_reply=["Budget", "anyway"], pending="decision_proposal")


@pytest.fixture
def claude_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`ask` answered by the fake Claude (as a user's environment would say)."""
    binary = install_fake(tmp_path / "bin", "claude")
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", str(binary))
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "claude")
    monkeypatch.setenv("FAKE_RECORDING", recording("run_claude_stream_stdin"))
    return binary


def test_ask_cannot_wait_for_a_yes_so_it_exits_7(run_cli: Any, claude_env: Path):
    assert run_cli("ask", JOURNEY).exit_code == 0
    assert run_cli("config", "set", "budget.monthly_usd", "0.0004").exit_code == 0
    held = run_cli("ask", TEST_PLAN)
    assert held.exit_code == ExitCode.OVER_BUDGET == 7
    assert "Send this request anyway? (yes / no)" in held.output
    said = (
        "Error: 'General' has spent $0.0005 of its $0.0004 monthly budget, so nothing was "
        "sent. Send it anyway with 'design-agent ask --over-budget MESSAGE'"
    )
    assert said in held.output
    assert ANSWER not in held.output
    forced = run_cli("ask", "--over-budget", TEST_PLAN)
    assert forced.exit_code == 0 and ANSWER in forced.output and "Budget:" in forced.output
    assert run_cli("ask", "no").exit_code == 0  # the decision it proposed
    assert run_cli("ask", PERSONAS).exit_code == 7
    answered = run_cli("ask", "yes")
    assert answered.exit_code == 0 and ANSWER in answered.output


@pytest.mark.parametrize(
    ("value", "stored"), [("20", 20.0), ("$7.50", 7.5), ("0.25", 0.25), ("none", None)]
)
def test_config_set_budget(run_cli: Any, home: Path, value: str, stored: float | None):
    result = run_cli("config", "set", "budget.monthly_usd", value)
    assert result.exit_code == 0, result.output
    saved = yaml.safe_load((home / "settings.yaml").read_text(encoding="utf-8"))
    assert saved["budget"]["monthly_usd"] == stored
    shown = run_cli("config", "show", "--json").output
    assert f'"monthly_usd": {"null" if stored is None else stored}' in shown


@pytest.mark.parametrize("value", ["abc", "-5", "0", "nan", "inf", "2000000"])
def test_a_bad_budget_is_refused(run_cli: Any, home: Path, value: str):
    result = run_cli("config", "set", "--", "budget.monthly_usd", value)
    assert result.exit_code == 2 and "budget.monthly_usd" in result.output
    assert not (home / "settings.yaml").exists()


def test_only_monthly_usd_is_a_budget_key(run_cli: Any):
    result = run_cli("config", "set", "budget.yearly_usd", "20")
    assert result.exit_code == 2 and "budget.monthly_usd" in result.output
