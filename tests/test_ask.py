"""A designer asks one question at a time with `design-agent ask`.

The offline provider and fake Claude/Gemini/Codex CLIs (real executables replaying
recorded streams) answer; the database is a real SQLite file in the temp home.
What a command answers is checked in-process (click's CliRunner); the real entry
point is spawned where the process is the point: an exit code, a message piped on
standard input, Ctrl-C.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.fakes import install_fake, invoke, recording

AGENT = [sys.executable, "-m", "design_agent"]


def ask(home: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    """`design-agent ARGS`, in-process."""
    return invoke(home, *args, input=stdin, env=env)


def spawn(home: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None):
    """`design-agent ARGS` as a real process."""
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), **(env or {})}
    return subprocess.run(
        [*AGENT, *args], input=stdin, capture_output=True, text=True, env=environ, timeout=120
    )


def ask_json(home: Path, *args: str, env: dict[str, str] | None = None) -> dict:
    result = ask(home, "ask", "--json", *args, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def history(home: Path) -> list[dict]:
    result = ask(home, "history", "--json", "-n", "50")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    return data["turns"] if isinstance(data, dict) else data


@pytest.fixture
def offline(home: Path) -> dict[str, str]:
    return {"DESIGN_AGENT_PROVIDER": "offline"}


def fake(tmp_path: Path, name: str, record: str, **extra: str) -> dict[str, str]:
    binary = install_fake(tmp_path / "bin", name)
    return {
        "DESIGN_AGENT_PROVIDER": name,
        f"DESIGN_AGENT_{name.upper()}_BIN": str(binary),
        "FAKE_RECORDING": recording(record),
        **extra,
    }


def test_an_english_design_request_gets_the_right_method_and_is_remembered(home, offline):
    answer = ask_json(home, "We need a usability test plan for the new checkout", env=offline)
    assert answer["task"] == "usability_test_plan"
    assert answer["agent"] == "research_analyst"
    assert answer["language"] == "en"
    assert "[test_plan.md > Procedure]" in answer["citations"]
    assert all(
        c.startswith(("[test_plan.md", "[recruiting.md", "[test_plan_template"))
        for c in answer["citations"]
    )
    assert answer["validation"]["items"]
    turns = history(home)
    assert [t["role"] for t in turns[-2:]] == ["user", "agent"]
    assert turns[-1]["task_id"] == "usability_test_plan"
    assert turns[-1]["provider"] == "offline" and turns[-1]["tier"] in {"fast", "deep"}


def test_a_spanish_request_is_answered_in_spanish_with_the_right_persona(home, offline):
    answer = ask_json(home, "necesito un mapa de viaje del cliente para la app", env=offline)
    assert answer["task"] == "journey_mapping"
    assert answer["agent"] == "discovery_analyst"
    assert answer["language"] == "es"
    assert answer["agent_role"] == "Analista de descubrimiento"


def test_default_output_streams_markdown_then_a_footer(home, offline):
    result = ask(home, "ask", "I need personas for our grocery app", env=offline)
    assert result.returncode == 0, result.stderr
    footer = result.stdout.strip().splitlines()[-1]
    assert footer.startswith("── ") and "offline" in footer and "checklist" in footer


def test_a_vague_message_asks_for_a_choice_and_a_number_answers_it(home, offline):
    first = ask_json(home, "hello, can you help me?", env=offline)
    assert first["status"] == "needs_choice" and len(first["options"]) >= 3
    chosen = first["options"][1]
    second = ask_json(home, "2", env=offline)
    assert second["task"] == chosen["task_id"]


def test_message_from_stdin(home, offline):
    result = spawn(home, "ask", "--json", env=offline, stdin="card sorting for our help centre\n")
    assert json.loads(result.stdout)["task"] == "card_sorting"


def test_events_are_json_lines_with_step_timings(home, offline):
    result = ask(home, "ask", "--events", "prioritise our backlog with RICE", env=offline)
    events = [json.loads(line) for line in result.stdout.splitlines()]
    steps = {e["step"] for e in events if "step" in e}
    assert {0, 1, 2, 3, 4, 5, 6, 7, 8} <= steps
    assert events[-1]["kind"] == "finished"
    assert any(e["kind"] == "text" for e in events)


def test_a_decision_the_model_proposes_is_stored_only_when_the_user_says_yes(home, tmp_path):
    env = fake(tmp_path, "claude", "run_claude_partial")
    answer = ask_json(home, "Plan a design critique of the card layout", env=env)
    assert answer["provider"] == "claude"
    assert answer["decisions"] == [{"decision": "use cards", "rationale": ""}]
    assert "<decision" not in answer["text"] and "</decision>" not in answer["text"]
    listed = ask(home, "decisions", "list", "--json")
    assert "use cards" not in listed.stdout, "a proposal must not be stored before 'yes'"
    confirmed = ask_json(home, "yes", env=env)
    assert confirmed["action"] == "decisions.record" and "use cards" in confirmed["text"]
    recall = ask_json(home, "why did we decide to use cards?", env=env)
    assert recall["action"] == "memory.recall"
    assert "use cards" in recall["text"] and "turn #" in recall["text"]


@pytest.mark.parametrize(
    ("name", "record"),
    [
        ("claude", "run_claude_stream_stdin"),
        ("gemini", "run_gemini_stream"),
        ("codex", "run_codex_stdin"),
    ],
)
def test_each_cli_streams_through_the_same_pipeline(home, tmp_path, name, record):
    answer = ask_json(
        home, "Write user stories for saved payment cards", env=fake(tmp_path, name, record)
    )
    assert answer["provider"] == name and answer["status"] == "complete"
    assert "Hello from fake server" in answer["text"]
    assert answer["task"] == "user_stories"


def test_a_failing_provider_keeps_the_message_and_exits_5(home, tmp_path):
    env = fake(tmp_path, "claude", "run_claude_stream_stdin", FAKE_MODE="crash")
    result = spawn(home, "ask", "Plan a kickoff meeting for the redesign", env=env)
    assert result.returncode == 5
    assert result.stderr.startswith("Error: ")
    turns = history(home)
    assert turns[-2]["role"] == "user" and "kickoff" in turns[-2]["message"]
    assert turns[-1]["status"] == "failed"


def test_not_logged_in_is_exit_4_with_the_login_hint(home, tmp_path):
    env = fake(tmp_path, "claude", "noauth_claude_stream")
    result = ask(home, "ask", "Plan a kickoff meeting for the redesign", env=env)
    assert result.returncode == 4
    assert "login" in result.stderr.lower()


def test_ctrl_c_cancels_the_stream_and_keeps_the_partial_answer(home, tmp_path):
    env = fake(tmp_path, "claude", "run_claude_partial", FAKE_MODE="hang_during", FAKE_AFTER="6")
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), **env}
    process = subprocess.Popen(
        [*AGENT, "ask", "--events", "Plan a kickoff meeting for the redesign"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environ,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line)["kind"] == "text":
            break
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=10)
    assert process.returncode == 130
    assert time.monotonic() - started < 2.5
    last = history(home)[-1]
    assert last["status"] == "cancelled" and last["message"]


def test_unknown_project_is_not_found(home, offline):
    result = ask(home, "ask", "--project", "Nope", "journey map", env=offline)
    assert result.returncode == 6


def test_why_did_we_works_offline_in_both_languages(home, offline):
    assert ask(home, "projects", "create", "Mobile Checkout").returncode == 0
    added = ask(
        home,
        "decisions",
        "add",
        "moderated usability testing",
        "--why",
        "we need to probe why users hesitate at payment",
    )
    assert added.returncode == 0, added.stderr
    english = ask_json(home, "why did we choose moderated testing?", env=offline)
    spanish = ask_json(home, "¿por qué decidimos hacer pruebas moderadas?", env=offline)
    for answer in (english, spanish):
        assert answer["action"] == "memory.recall"
        assert "moderated usability testing" in answer["text"]
        assert "hesitate at payment" in answer["text"]
    assert spanish["text"].startswith("Decisiones de 'Mobile Checkout'")


@pytest.fixture
def file_log() -> Iterator[None]:
    """design-agent sets up its log file once per process: in-process, drop the handler an
    earlier test's home got, so this home's logs/design-agent.log is the one written."""
    logger = logging.getLogger("design_agent")

    def drop() -> None:
        for handler in [h for h in logger.handlers if getattr(h, "design_agent", False)]:
            logger.removeHandler(handler)
            handler.close()

    drop()
    yield
    drop()


def test_each_turn_leaves_its_events_and_the_providers_notes_in_private_logs(
    home, tmp_path, file_log
):
    env = fake(tmp_path, "claude", "run_claude_partial", FAKE_MODE="noise")
    answer = ask_json(home, "Plan a design critique of the card layout", env=env)
    assert answer["status"] == "complete"
    events = [
        json.loads(line) for line in (home / "logs" / "events.jsonl").read_text().splitlines()
    ]
    assert {0, 1, 2, 3, 4, 5, 6, 7, 8} <= {e["step"] for e in events if "step" in e}
    assert events[-1]["kind"] == "finished" and "text" not in events[-1]
    log = (home / "logs" / "design-agent.log").read_text()
    assert "non-JSON line" in log
    for name in ("events.jsonl", "design-agent.log"):
        assert oct((home / "logs" / name).stat().st_mode & 0o777) == "0o600"


def test_an_action_said_in_words_that_fails_exits_with_its_code(home, offline):
    """'delete the Nope project' fails like `projects delete Nope` does: exit 6, one line."""
    ask_json(home, "create a project called Alpha", env=offline)
    result = ask(home, "ask", "delete the Nope project", env=offline)
    assert result.returncode == 6, result.stderr
    assert "Nope" in result.stderr and "Alpha" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_provider_that_is_not_installed_is_refused_and_the_current_one_kept(home, offline):
    environ = {"PATH": "/nonexistent"}
    result = ask(home, "ask", "use gemini from now on", env=environ)
    assert result.returncode == 4, result.stderr
    assert "not installed" in result.stderr
    settings = home / "settings.yaml"
    assert not settings.exists() or "gemini" not in settings.read_text(encoding="utf-8")


def test_when_unsure_the_providers_fast_model_chooses_the_method(home, tmp_path):
    """A vague request with Claude active: Claude's fast tier picks among the candidates."""
    from fixtures.fakes import claude_run

    choice = claude_run(tmp_path / "choice.json", '{"task": "brainstorming", "reason": "x"}')
    answer = claude_run(tmp_path / "answer.json", "Let us run an ideation session.")
    env = fake(tmp_path, "claude", "run_claude_partial")
    env["FAKE_SEQUENCE"] = os.pathsep.join([str(choice), str(answer)])
    result = ask_json(home, "tengo una idea y no sé por dónde empezar", env=env)
    assert result["task"] == "brainstorming"
    assert result["text"] == "Let us run an ideation session."
    events = [e for e in _events_log(home) if e.get("kind") == "task"]
    assert "Claude" in events[-1]["reason"]


def test_when_the_model_cannot_choose_the_user_gets_a_numbered_choice(home, tmp_path):
    from fixtures.fakes import claude_run

    garbage = claude_run(tmp_path / "choice.json", "I think maybe journeys?")
    env = fake(tmp_path, "claude", "run_claude_partial")
    env["FAKE_SEQUENCE"] = str(garbage)
    result = ask_json(home, "tengo una idea y no sé por dónde empezar", env=env)
    assert result["status"] == "needs_choice" and len(result["options"]) >= 3


def _events_log(home: Path) -> list[dict]:
    path = home / "logs" / "events.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
