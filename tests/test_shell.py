"""A designer lives in the shell: pexpect drives the installed `design-agent` in a real pty.

Fake provider CLIs (real executables replaying recorded streams) stand in for Claude,
Gemini and Codex; the database is a real SQLite file in the temp home. The recorded
answer is "Hello from fake server. <decision>use cards</decision>", so every answer
proposes one decision, stored only after a "yes".

Each step waits for the text that proves it, never for time; a step that must not
happen is a second pattern, so a wrong turn fails at once instead of at the timeout.
What was typed is echoed back, so an expected text never repeats the message sent.

The stories about the terminal (the first session, the prompt, Ctrl-C, a whole Spanish
session, piped input) spawn the real program; the stories about what the conversation
does drive the same Shell in-process, one line at a time as `design-agent < script`
does, read with the same steps (a `design-agent` start costs ~1 s of CPU).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pexpect
import pytest
from fixtures.fakes import install_fake, recording

from design_agent.cli.context import AppContext
from design_agent.cli.output import console
from design_agent.cli.shell import Shell

BIN = Path(sys.executable).parent / "design-agent"
TIMEOUT = 15
# What a design answer shows; a step that must not be answered expects it as the wrong turn.
ANSWERED = "Hello from fake server"
PROPOSAL = r"The answer proposes these decisions:\s+1\. use cards"


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
    # Every step waits for its proof first, and prompt_toolkit keeps typeahead (its raw mode is
    # set with TCSANOW), so the 50 ms pexpect waits before each send is only lost time.
    child.delaybeforesend = None
    child.delayafterclose = 0
    child.delayafterterminate = 0
    return child


class InProcessShell:
    """The shell on this home in-process, read like pexpect reads a terminal.

    Each line sent is handled at once, as `Shell.run_scripted` handles the lines of a
    script; `expect` then looks in what was printed since the last match, so a step's
    text and its wrong turn are found in the order they were printed."""

    def __init__(self, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
        for name, value in env.items():
            monkeypatch.setenv(name, value)  # as the spawned program's environment
        self.screen = io.StringIO()
        self.seen = 0
        self.before = self.after = ""
        self.app = AppContext()
        self.shell = Shell(self.app.services())
        banner = self.shell.banner()  # printed first, as Shell.run_scripted does
        self._printing(lambda: console().print(banner, markup=False, highlight=False))

    def _printing(self, step: Any) -> None:
        with redirect_stdout(self.screen), redirect_stderr(self.screen):
            step()

    def sendline(self, text: str) -> None:
        assert self.shell.running, f"{text!r} sent after the session ended"
        self._printing(lambda: self.shell.handle(text))

    def expect(self, patterns: str | list[str]) -> int:
        """The index of the pattern found first in what is new on the screen."""
        shown = self.screen.getvalue()
        wanted = patterns if isinstance(patterns, list) else [patterns]
        found = [re.compile(p, re.DOTALL).search(shown, self.seen) for p in wanted]  # as pexpect
        hits = [(m.start(), i, m) for i, m in enumerate(found) if m is not None]
        assert hits, f"none of {patterns!r} was shown:\n{shown[self.seen :]}"
        _, index, match = min(hits, key=lambda hit: hit[:2])
        self.before, self.after = shown[self.seen : match.start()], match.group()
        self.seen = match.end()
        return index

    def leave(self, word: str) -> None:
        """Say the exit word: the session ends, with exit code 0."""
        self.sendline(word)
        assert not self.shell.running and self.shell.exit_code == 0
        self.app.close()


@pytest.fixture
def in_process(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Open the shell in-process (again: a restart) on the test's home."""
    return lambda env=env: InProcessShell(env, monkeypatch)


def say(child: Any, text: str, expect: str, wrong: str | None = None) -> str:
    """Send `text` and wait for `expect`; `wrong` showing up first fails the step at once.
    Returns what was shown from the previous step's match up to `expect`."""
    child.sendline(text)
    index = child.expect([expect] if wrong is None else [expect, wrong])
    shown = child.before + child.after
    assert index == 0, f"after {text!r}, expected {expect!r} but got {child.after!r}:\n{shown}"
    return shown


def new_project(child: Any, name: str) -> None:
    """Create a project by naming it and skip its three context questions."""
    say(child, f"create a project called {name}", "Who are the users")
    say(child, "skip", "What problem")
    say(child, "skip", "constraints")
    say(child, "skip", "What would you like to work on")


def leave(child: Any, word: str = "exit", bye: str = "Bye.") -> None:
    """Leave the shell: a terminal session says `bye` and the program exits 0."""
    if isinstance(child, InProcessShell):
        child.leave(word)  # the goodbye is printed at the terminal's prompt only
        return
    child.sendline(word)
    child.expect(bye)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def cli_json(run_cli: Any, *args: str) -> Any:
    """`design-agent ARGS --json` (in process, same home) as data, after the shell exited."""
    result = run_cli(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# -- the stories of the shell ----------------------------------------------------------------


def test_a_newcomers_first_session(env, run_cli):
    child = open_shell(env)
    child.expect("No project yet")
    say(child, "I'm starting a new project for a mobile checkout redesign", "be called")
    say(child, "Mobile Checkout", "Who are the users of Mobile Checkout")
    say(child, "first-time buyers on phones", "What problem")
    say(child, "they abandon at the payment step", "constraints")
    say(child, "launch in March, two designers", "What would you like to work on")
    out = say(child, "Can you make a journey map of our checkout?", "checklist")
    assert ANSWERED in out and "<decision>" not in out
    assert "Customer journey map" in out and "claude" in out
    assert "The answer proposes these decisions" in out and "use cards" in out
    say(child, "yes", r"Saved 1 decision\(s\):\s+- use cards")
    leave(child)
    shown = cli_json(run_cli, "projects", "show", "Mobile Checkout")
    assert shown["metadata"] == {
        "description": "mobile checkout redesign",
        "users": "first-time buyers on phones",
        "problem": "they abandon at the payment step",
        "constraints": "launch in March, two designers",
    }
    assert shown["decisions"] == 1


def test_switching_projects_and_coming_back(in_process):
    child = in_process()
    new_project(child, "Enterprise Dashboard")
    say(child, "Plan a design critique for the dashboard", PROPOSAL)
    say(child, "yes", r"Saved 1 decision")
    say(child, "new project: Marketing Website", "Who are the users of Marketing Website")
    say(child, "skip", "What problem")
    say(child, "skip", "constraints")
    say(child, "skip", "work on")
    out = say(child, "switch to enterprise dashbord", r"\(yes/no\)")
    assert "Did you mean 'Enterprise Dashboard'" in out
    out = say(child, "yes", r"1 decision\(s\) recorded")
    assert "Switched to 'Enterprise Dashboard'" in out and "design critique" in out
    # Every exchange is a turn: the project's creation, its questions, "yes", the switch.
    out = say(child, "what projects do I have?", r"- Marketing Website \(10 turns")
    assert r"* Enterprise Dashboard (14 turns, 1 decisions)" in out
    leave(child)


def test_changing_provider_by_talking(env, in_process):
    env = {**env, "FAKE_RECORDING": recording("run_gemini_stream")}
    child = in_process(env)
    new_project(child, "Checkout")
    say(child, "use Gemini from now on", "From now on answers come from Gemini")
    out = say(child, "write user stories for saved cards", "checklist")
    assert "gemini" in out and ANSWERED in out and "proposes these decisions" in out
    say(child, "no", "I did not save them")
    say(child, "/decisions", "No decisions recorded in 'Checkout' yet")
    leave(child)


def test_decision_recall_across_a_restart(in_process):
    child = in_process()
    new_project(child, "Checkout")
    say(child, "Plan a design critique of the card layout", PROPOSAL)
    say(child, "yes", r"Saved 1 decision\(s\):\s+- use cards")
    leave(child)
    child = in_process()
    child.expect("Project: Checkout")
    out = say(child, "why did we go with cards?", "Why:")
    assert "use cards" in out and "turn #" in out
    leave(child)


def test_delete_needs_an_explicit_yes(in_process):
    child = in_process()
    new_project(child, "Marketing Website")
    say(child, "Plan a design critique of the hero banner", PROPOSAL)
    say(child, "yes", r"Saved 1 decision")
    out = say(child, "delete the Marketing Website project", "Type 'yes'")
    assert "2 turns" in out and "1 decisions" in out
    say(child, "no", "nothing was deleted")
    say(child, "delete the Marketing Website project", "Type 'yes'")
    say(child, "yes", "Deleted 'Marketing Website'")
    say(child, "/projects", "no projects yet")
    leave(child)


def test_ctrl_c_mid_stream_cancels_and_keeps_the_partial_answer(env):
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
    assert "proposes" not in child.before  # a cancelled answer proposes no decision
    say(child, "/history 2", "user: Plan a kickoff meeting")
    child.expect(r"agent \[cancelled\]: Hello from fake server")
    say(child, "/decisions", "No decisions recorded")
    leave(child)


def test_a_spanish_session_end_to_end(in_process, run_cli):
    child = in_process()
    say(child, "empiezo un proyecto nuevo para el rediseño del checkout móvil", "Cómo se llamará")
    say(child, "saltar", "Quiénes son los usuarios")  # named after what it is for
    say(child, "compradores primerizos", "problema")
    say(child, "abandonan en el pago", "restricción")
    say(child, "saltar", "trabajar")
    out = say(child, "necesito un mapa de viaje del cliente", "checklist")
    assert "Mapa de viaje del cliente" in out and "La respuesta propone" in out
    say(child, "¿qué proyectos tengo?", r"\* Rediseño del checkout móvil \(10 turnos")
    leave(child, "salir", bye="Hasta luego")
    shown = cli_json(run_cli, "projects", "show", "Rediseño del checkout móvil")
    assert shown["metadata"]["users"] == "compradores primerizos"
    assert "constraints" not in shown["metadata"]


def test_scripted_use_reads_one_message_per_line(env):
    script = "create a project called Scripted\nskip\nskip\nskip\n/projects\nsalir\n"
    result = subprocess.run(
        [str(BIN)], input=script, capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 0
    assert "* Scripted" in result.stdout
    assert "\x1b[" not in result.stdout  # plain text when not on a terminal


def test_the_prompt_clears_on_ctrl_c_takes_a_paste_whole_and_keeps_a_private_history(env, home):
    child = open_shell(env)
    child.expect("exit to leave")
    # Ctrl-C at the prompt clears the line.
    child.expect("design-agent ›")  # the prompt is up: keys now go to it
    child.send("half-typed message")
    child.sendintr()
    child.sendline("/projects")
    child.expect("no projects yet")
    # A multi-line paste is one message.
    child.send("\x1b[200~create a project called\nPasted Project\x1b[201~")
    child.send("\r")
    child.expect("Created and switched to project 'Pasted Project'")
    child.expect("Who are the users")
    leave(child)
    # The input history is private.
    assert oct((home / "input-history").stat().st_mode & 0o777) == "0o600"


# -- interruptions: what people say when something else was expected -------------------------


def test_requests_in_the_interview_are_answered_not_stored(in_process, run_cli):
    child = in_process()
    say(child, "create a project called Atlas", "Who are the users of Atlas")
    out = say(child, "what projects do I have?", r"\* Atlas \(2 turns", wrong="What problem")
    assert "Your projects" in out
    out = say(child, "can you plan a usability test?", "checklist", wrong="What problem")
    assert ANSWERED in out and "Usability test plan" in out
    leave(child)
    assert cli_json(run_cli, "projects", "show", "Atlas")["metadata"] == {}


def test_a_switch_in_the_middle_of_a_question(in_process, run_cli):
    child = in_process()
    new_project(child, "Beta")
    new_project(child, "Alpha")
    say(child, "help me with the thing", r"Reply with a number.*\s+1\. .*\s+2\. ", wrong=ANSWERED)
    # An aside puts the question again, options and all.
    say(child, "thanks!", r"You're welcome.*\s+.*Reply with a number.*\s+1\. .*\s+2\. ")
    say(child, "switch to Beta", "Switched to 'Beta'")
    say(child, "2", "There is no open question", wrong=ANSWERED)
    leave(child)
    turns = cli_json(run_cli, "history", "--project", "Alpha")
    kinds = [(t["validation"] or {}).get("exchange") for t in turns if t["role"] == "agent"]
    assert kinds[-2:] == ["choice", "conversation.small_talk"]  # the question, no answer
    assert all(t["task_id"] is None for t in turns)
    beta = cli_json(run_cli, "history", "--project", "Beta")
    assert [t["message"] for t in beta if t["role"] == "user"][-2:] == ["switch to Beta", "2"]
    assert all(t["task_id"] is None for t in beta)


def test_a_restart_in_the_middle_of_the_interview(in_process, run_cli):
    child = in_process()
    say(child, "create a project called Atlas", "Who are the users of Atlas")
    say(child, "first-time buyers", "What problem")
    leave(child)
    child = in_process()
    child.expect("Project: Atlas")
    # The question left open is put again, so no answer is given to a hidden question.
    child.expect("Still open from last time: What problem are you solving")
    swallowed = "Any constraints|Thanks, I saved that"
    say(child, "make a journey map of our checkout", "checklist", wrong=swallowed)
    leave(child)
    assert cli_json(run_cli, "projects", "show", "Atlas")["metadata"] == {
        "users": "first-time buyers"
    }


def test_a_whole_spanish_session(env, run_cli):
    child = open_shell(env)
    say(child, "crea un proyecto llamado Atlas", "Quiénes son los usuarios de Atlas")
    say(child, "saltar", "Qué problema")
    say(child, "saltar", "Alguna restricción")
    say(child, "saltar", "En qué quieres trabajar")
    out = say(child, "necesito un mapa de viaje del cliente", "checklist")
    assert ANSWERED in out and "Mapa de viaje del cliente" in out
    assert "La respuesta propone estas decisiones" in out and "¿Las guardo?" in out
    say(child, "sí", r"He guardado 1 decisión\(es\):\s+- use cards")
    # Shorter: the same method again, and no proposal of what is saved already.
    out = say(child, "más corto", "checklist", wrong="propone")
    assert ANSWERED in out and "Mapa de viaje del cliente" in out
    out = say(child, "¿qué hemos decidido?", "Por qué")
    assert "Decisiones de 'Atlas'" in out and out.count("use cards") == 1
    leave(child, "salir", bye="Hasta luego")
    child = open_shell(env)
    child.expect("tu equipo de diseño de producto")
    child.expect("Proyecto: Atlas. Última conversación: .*, sobre mapa de viaje")
    child.expect("salir para terminar")
    leave(child, "salir", bye="Hasta luego")


def test_an_uninstalled_provider_by_talking_keeps_the_current_one(env, tmp_path, home, in_process):
    # Only the fakes and the system: no codex anywhere on PATH.
    env = {**env, "PATH": os.pathsep.join([str(tmp_path / "bin"), "/usr/bin", "/bin"])}
    child = in_process(env)
    new_project(child, "Checkout")
    say(child, "use codex from now on", "Codex is not installed", wrong="answers come from")
    out = say(child, "make a journey map of our checkout", "checklist")
    assert ANSWERED in out and "claude/" in out
    leave(child)
    assert (home / "settings.yaml").read_text(encoding="utf-8") == "provider: claude\n"


def test_small_talk_on_a_first_run_creates_no_project(in_process, run_cli):
    child = in_process()
    child.expect("No project yet")
    say(child, "hola", "¡Hola! Cuéntame tu proyecto", wrong="creado|created")
    say(child, "how are you?", "ready to work", wrong="creado|created")
    leave(child)
    assert cli_json(run_cli, "projects", "list") == []


def test_delete_this_project_with_si(in_process, run_cli):
    child = in_process()
    new_project(child, "Atlas")
    new_project(child, "Beta")
    say(child, "delete this project", "Delete project 'Beta'")
    say(child, "sí", "He borrado 'Beta'")  # a reply in Spanish is answered in Spanish
    leave(child)
    assert [p["name"] for p in cli_json(run_cli, "projects", "list")] == ["Atlas"]


def test_going_back_forking_and_resuming_a_branch(in_process, run_cli):
    """Back by talking (confirmed), a named fork, and the next session opens on it."""
    child = in_process()
    child.expect("exit to leave")
    new_project(child, "Atlas")
    say(child, "plan a usability test for the checkout", "checklist")
    say(child, "write personas for our shoppers", "checklist")
    say(child, "we decided to use moderated testing because we need to probe", "Recorded")
    # Creating Atlas and its three questions are turns 1-8: the first answer is turn 10.
    say(child, "go back to before we chose moderated testing", r"Go back to turn 10.*\(yes/no\)")
    say(child, "yes", "Now at turn 10")
    say(child, "/fork remote", r"Started a branch \(remote\) at turn 10")
    say(child, "plan an unmoderated remote test instead", "checklist")
    tree = say(child, "/tree", "you are here")
    assert "(remote)" in tree
    leave(child)
    child = in_process()
    child.expect("Continuing from turn 16")
    # The decision was made after the fork, on the other branch: said so, never "none yet".
    say(child, "¿qué hemos decidido?", "No hay decisiones en esta rama de 'Atlas'; hay 1 en otras")
    say(child, "vuelve al turno 12", r"¿Vuelvo al turno 12.*\(sí/no\)")
    say(child, "sí", "Ahora estás en el turno 12")
    say(child, "¿qué hemos decidido?", "use moderated testing")
    leave(child, "salir", bye="Hasta luego")
    child = in_process()
    # Resumed, in the language of the last session, after "¿qué hemos decidido?" (19-20).
    child.expect("Sigues desde el turno 20")
    leave(child, "salir", bye="Hasta luego")
    branches = cli_json(run_cli, "history", "--tree")
    assert branches["current"] is not None


def test_comparing_two_providers_and_keeping_one(env, run_cli, tmp_path, in_process):
    """Claude and Gemini answer the same request at once; the user keeps one, with why."""
    record = json.loads(Path(recording("run_gemini_stream")).read_text(encoding="utf-8"))
    record["stdout"] = record["stdout"].replace('"Hello from "', '"Gemini thinks "')
    gemini = tmp_path / "gemini-other.json"
    gemini.write_text(json.dumps(record), encoding="utf-8")
    env = {**env, "FAKE_RECORDING_GEMINI": str(gemini)}
    child = in_process(env)
    new_project(child, "Checkout")
    say(child, "write user stories for saved cards", "checklist")
    out = say(child, "compare with gemini", "Which answer do you keep, 1 or 2")
    first, second = out.split("2. gemini")
    assert ANSWERED in first and "Gemini thinks fake server" in second and ANSWERED not in second
    say(child, "1 because it is more complete", "Kept claude's answer")
    say(child, "compara claude y gemini", r"¿Con qué respuesta te quedas, 1 o 2\?")
    say(child, "la 2 porque es más corta", "Me quedo con la respuesta de gemini")
    leave(child, "salir", bye="Hasta luego")
    # Each choice is a decision on the branch of the answer kept: both, on every branch.
    decided = cli_json(run_cli, "decisions", "list", "--all-branches")
    reasons = sorted(d["rationale"] for d in decided)
    assert reasons == ["es más corta", "it is more complete"]


def test_replies_in_words_in_a_real_terminal(env, run_cli):
    """A method list answered "solo la 2" after an aside, and a proposal kept with "sí, la
    1", in a real pty; then the same in English with "just 2" and "keep the first one"."""
    child = open_shell(env)
    say(child, "crea un proyecto llamado Brote", "Quiénes son los usuarios de Brote")
    for question in ("Qué problema", "Alguna restricción", "En qué quieres trabajar"):
        say(child, "saltar", question)
    asked = say(child, "ayúdame con algo", r"Responde con un número.*\s+1\. .*\s+2\. ([^\r\n]+)")
    second = child.match.group(1).strip()
    assert ANSWERED not in asked
    # A side question is answered, and the list is put again once.
    say(child, "¿qué proyectos tengo?", r"Brote[\s\S]*Responde con un número", wrong=ANSWERED)
    out = say(child, "solo la 2", "checklist")
    assert ANSWERED in out and second in out
    say(child, "sí, la 1", r"He guardado 1 decisión\(es\):\s+- use cards")
    out = say(child, "help me with the thing", r"Reply with a number.*\s+1\. .*\s+2\. ([^\r\n]+)")
    second = child.match.group(1).strip()
    out = say(child, "just 2", "checklist")
    assert ANSWERED in out and second in out
    assert "proposes" not in out  # "use cards" is kept already: nothing to ask
    # A reply with no question open answers nothing, and says so.
    say(child, "keep the first one", "There is no open question", wrong="Reply with a number")
    leave(child)
    turns = cli_json(run_cli, "history", "--project", "Brote")
    answered = [t["task_id"] for t in turns if t["role"] == "agent" and t["task_id"]]
    assert len(answered) == 2  # two answers, no request answered by accident
