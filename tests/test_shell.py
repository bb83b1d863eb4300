"""A designer lives in the shell: pexpect drives the installed `design-agent` in a real pty.

Fake provider CLIs (real executables replaying recorded streams) stand in for Claude,
Gemini and Codex; the database is a real SQLite file in the temp home.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from fixtures.fakes import install_fake, recording

BIN = Path(sys.executable).parent / "design-agent"
TIMEOUT = 20


@pytest.fixture
def env(home: Path, tmp_path: Path) -> dict[str, str]:
    bins = tmp_path / "bin"
    claude = install_fake(bins, "claude")
    gemini = install_fake(bins, "gemini")
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("provider: claude\n", encoding="utf-8")
    return {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_CLAUDE_BIN": str(claude),
        "DESIGN_AGENT_GEMINI_BIN": str(gemini),
        "FAKE_RECORDING": recording("run_claude_partial"),
        "TERM": "xterm-256color",
        # Without it every prompt waits a second for a cursor-position reply.
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "COLUMNS": "100",
        "LINES": "40",
    }


def open_shell(env: dict[str, str]) -> pexpect.spawn:
    command = str(BIN) if BIN.exists() else shutil.which("design-agent")
    assert command, "design-agent is not installed in this environment"
    child = pexpect.spawn(command, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100))
    child.delayafterclose = 0
    child.delayafterterminate = 0
    return child


def say(child: pexpect.spawn, text: str, expect: str) -> str:
    child.sendline(text)
    child.expect(expect)
    return child.before + child.after


def new_project(child: pexpect.spawn, name: str) -> None:
    """Create a project by saying so and skip its three context questions."""
    say(child, f"create a project called {name}", "users")
    for _ in range(3):
        child.sendline("skip")
    child.expect("work on")


def leave(child: pexpect.spawn) -> None:
    child.sendline("exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_newcomers_first_session(env):
    child = open_shell(env)
    child.expect("No project yet")
    say(child, "I'm starting a new project for a mobile checkout redesign", "Who are the users")
    say(child, "first-time buyers on phones", "What problem")
    say(child, "they abandon at the payment step", "constraints")
    say(child, "launch in March, two designers", "What would you like to work on")
    out = say(child, "Can you make a journey map of our checkout?", "checklist")
    assert "Hello from fake server" in out
    assert "Decision recorded: use cards" in out
    assert "Customer journey map" in out and "claude" in out
    leave(child)


def test_switching_projects_and_coming_back(env, home):
    child = open_shell(env)
    say(child, "create a project called Enterprise Dashboard", "Who are the users")
    say(child, "skip", "What problem")
    say(child, "skip", "constraints")
    say(child, "skip", "work on")
    say(child, "Plan a design critique for the dashboard", "checklist")
    say(child, "new project: Marketing Website", "Who are the users")
    for _ in range(3):
        child.sendline("skip")
    child.expect("work on")
    out = say(child, "switch to enterprise dashbord", r"\(yes/no\)")
    assert "Enterprise Dashboard" in out
    out = say(child, "yes", r"decision\(s\) recorded")
    assert "Last conversation" in out and "design critique" in out
    out = say(child, "what projects do I have?", "Marketing Website")
    leave(child)


def test_changing_provider_by_talking(env):
    env = {**env, "FAKE_RECORDING": recording("run_gemini_stream")}
    child = open_shell(env)
    new_project(child, "Checkout")
    say(child, "use Gemini from now on", "From now on answers come from Gemini")
    out = say(child, "write user stories for saved cards", "checklist")
    assert "gemini" in out and "Hello from fake server" in out
    leave(child)


def test_decision_recall_across_a_restart(env):
    child = open_shell(env)
    new_project(child, "Checkout")
    say(child, "Plan a design critique of the card layout", "Decision recorded")
    leave(child)
    child = open_shell(env)
    child.expect("Project: Checkout")
    out = say(child, "why did we go with cards?", "Why:")
    assert "use cards" in out and "turn #" in out
    leave(child)


def test_delete_needs_an_explicit_yes(env, home):
    child = open_shell(env)
    new_project(child, "Marketing Website")
    say(child, "Plan a design critique of the hero banner", "checklist")
    out = say(child, "delete the Marketing Website project", "Type 'yes'")
    assert "2 turns" in out and "1 decisions" in out
    say(child, "no", "nothing was deleted")
    say(child, "delete the Marketing Website project", "Type 'yes'")
    say(child, "yes", "Deleted 'Marketing Website'")
    say(child, "/projects", "no projects yet")
    leave(child)


def test_ctrl_c_mid_stream_cancels_and_keeps_the_partial_answer(env, home):
    env = {
        **env,
        "FAKE_RECORDING": recording("run_claude_partial"),
        "FAKE_MODE": "hang_during",
        "FAKE_AFTER": "6",
    }
    child = open_shell(env)
    new_project(child, "Checkout")
    child.sendline("Plan a kickoff meeting for the redesign")
    child.expect("Hello")
    child.sendintr()
    child.expect("Cancelled", timeout=5)
    say(child, "/history 2", "user: Plan a kickoff meeting")
    child.expect(r"agent \[cancelled\]: Hello from fake server")
    leave(child)


def test_a_spanish_session_end_to_end(env):
    child = open_shell(env)
    say(child, "empiezo un proyecto nuevo para el rediseño del checkout móvil", "usuarios")
    say(child, "compradores primerizos", "problema")
    say(child, "abandonan en el pago", "restricción")
    say(child, "saltar", "trabajar")
    out = say(child, "necesito un mapa de viaje del cliente", "checklist")
    assert "Mapa de viaje" in out or "mapa de viaje" in out.lower()
    out = say(child, "¿qué proyectos tengo?", "Tus proyectos")
    leave(child)


def test_scripted_use_reads_one_message_per_line(env):
    script = "create a project called Scripted\nskip\nskip\nskip\n/projects\nsalir\n"
    result = subprocess.run(
        [str(BIN)], input=script, capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0
    assert "* Scripted" in result.stdout
    assert "\x1b[" not in result.stdout  # plain text when not on a terminal


def test_input_history_is_private(env, home):
    child = open_shell(env)
    leave(child)
    assert oct((home / "input-history").stat().st_mode & 0o777) == "0o600"


def test_a_multi_line_paste_is_one_message(env):
    child = open_shell(env)
    child.expect("exit to leave")
    child.send("\x1b[200~create a project called\nPasted Project\x1b[201~")
    child.send("\r")
    child.expect("Created and switched to project 'Pasted Project'")
    child.expect("Who are the users")
    leave(child)


def test_ctrl_c_at_the_prompt_clears_the_line(env):
    child = open_shell(env)
    child.expect("exit to leave")
    child.send("half-typed message")
    child.sendintr()
    child.sendline("/projects")
    child.expect("no projects yet")
    leave(child)
