"""Never a blank screen: while the fast model chooses the method, the wait is shown.

A vague request with Claude active makes design-agent ask Claude's fast tier to
choose among the top methods (understanding/model_choice.py). Here the fake
`claude` (a real executable, tests/fixtures/fake_cli.py) answers that call
slowly, or never: the shell shows a one-line status with a spinner while it
waits and erases it after; Ctrl-C during the wait stops the call's process at
once and cancels the turn (nothing answered or saved) and the shell goes on;
`ask --events` prints the wait as two JSON lines; `ask --json` is unchanged.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from fixtures.fakes import alive, claude_run, install_fake, invoke, pids_in

from design_agent.cli.output import Screen
from design_agent.cli.turn_view import TurnView
from design_agent.core.errors import CancelledError
from design_agent.core.events import WorkDone, Working
from design_agent.providers.runner import RunGroup
from design_agent.providers.side_call import side_call

BIN = Path(sys.executable).parent / "design-agent"
TIMEOUT = 15
VAGUE = "I have an idea but I don't know where to begin"  # LOW: the model is asked
CHOICE = '{"task": "brainstorming", "reason": "an idea to open up"}'
ANSWER = "Let us run an ideation session."
STATUS = "choosing the method"


def sequence(tmp_path: Path, *, choice_sleep: float) -> str:
    """The fake's runs in turn: the method choice (after `choice_sleep` s), then answers."""
    choice = claude_run(tmp_path / "choice.json", CHOICE, sleep=choice_sleep)
    answer = claude_run(tmp_path / "answer.json", ANSWER)
    return os.pathsep.join([str(choice), str(answer)])


@pytest.fixture
def env(home: Path, tmp_path: Path) -> dict[str, str]:
    """Claude active (the fake), its runs logged and its pids noted."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("provider: claude\n", encoding="utf-8")
    return {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_CLAUDE_BIN": str(install_fake(tmp_path / "bin", "claude")),
        "FAKE_LOG": str(tmp_path / "fake-log.json"),
        "FAKE_PIDS": str(tmp_path / "pids"),
        "TERM": "xterm-256color",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # else every prompt waits a second for the cursor
        "COLUMNS": "100",
        "LINES": "40",
    }


def open_shell(env: dict[str, str]) -> pexpect.spawn:
    command = str(BIN) if BIN.exists() else shutil.which("design-agent")
    assert command, "design-agent is not installed in this environment"
    child = pexpect.spawn(command, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 100))
    child.delaybeforesend = None
    child.logfile_read = io.StringIO()  # everything the terminal was sent
    child.expect("exit to leave")
    return child


def wait_for(path: Path, within: float = TIMEOUT) -> None:
    """Until `path` exists: the fake writes its FAKE_LOG once it has read its request."""
    deadline = time.monotonic() + within
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


def all_gone(pids: list[int], within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not any(alive(pid) for pid in pids)


CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def screen_after(raw: str) -> list[str]:
    """The lines a terminal shows after `raw` was written on fresh lines: enough of a
    terminal for rich's redrawn lines (carriage return, new line, cursor up, erase line);
    colours and other sequences change no character."""
    lines, row, col, at = [""], 0, 0, 0
    while at < len(raw):
        found = CSI.match(raw, at)
        if found:
            number, op = found.groups()
            if op == "A":
                row = max(0, row - int(number or 1))
            elif op == "K":
                lines[row] = "" if number == "2" else lines[row][:col]
            at = found.end()
            continue
        char, at = raw[at], at + 1
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
            lines += [""] * (row + 1 - len(lines))
        elif char.isprintable():
            lines[row] = lines[row][:col].ljust(col) + char + lines[row][col + 1 :]
            col += 1
    return [line.rstrip() for line in lines]


# -- the shell, in a real terminal -----------------------------------------------------------


def test_the_shell_shows_the_wait_on_one_line_then_erases_it(env, tmp_path):
    env["FAKE_SEQUENCE"] = sequence(tmp_path, choice_sleep=1.5)
    child = open_shell(env)
    child.sendline(VAGUE)
    # Visible while the model is still choosing: before any answer, with its hint.
    assert child.expect([STATUS, ANSWER]) == 0
    child.expect(r"Ctrl-C cancels")
    child.expect("checklist")  # the answer's footer: the turn is over
    shown = child.logfile_read.getvalue()
    start = shown.rfind("\n", 0, shown.index(STATUS)) + 1
    screen = screen_after(shown[start : shown.index("checklist", start)])
    assert not [line for line in screen if STATUS in line], screen
    assert ANSWER in "\n".join(screen)
    assert shown.count(STATUS) > 3  # redrawn in place: the spinner turned
    child.sendline("exit")
    child.expect(pexpect.EOF)


def test_ctrl_c_during_the_wait_stops_the_model_and_the_shell_goes_on(env, tmp_path):
    env["FAKE_SEQUENCE"] = sequence(tmp_path, choice_sleep=60)  # a model that never answers
    child = open_shell(env)
    child.sendline(VAGUE)
    assert child.expect([STATUS, ANSWER]) == 0
    wait_for(tmp_path / "fake-log.json")  # the fake is running, asked to choose
    started = time.monotonic()
    child.sendintr()
    child.expect(r"Cancelled: stopped while choosing the method; nothing was answered", timeout=5)
    assert time.monotonic() - started < 3.0
    assert all_gone(pids_in(tmp_path / "pids")), "the model's process outlived the cancel"
    # The shell goes on: the next request is answered, and the cancelled one was not kept.
    child.sendline("plan a usability test for the checkout")
    assert child.expect(["checklist", "Error"]) == 0
    child.sendline("/history")
    child.expect(r"user: plan a usability test")
    assert "I have an idea" not in child.before
    child.sendline("exit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# -- ask ----------------------------------------------------------------------------------------


def test_ask_events_prints_the_wait_and_ask_json_is_unchanged(home, env, tmp_path):
    env["FAKE_SEQUENCE"] = sequence(tmp_path, choice_sleep=0.2)
    result = invoke(home, "ask", "--events", VAGUE, env=env)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [event["kind"] for event in events]
    working, done = events[kinds.index("working")], events[kinds.index("work_done")]
    assert kinds.index("intent") < kinds.index("working") < kinds.index("work_done")
    assert kinds.index("work_done") + 1 == kinds.index("task")  # the choice it waited for
    assert working == {
        "kind": "working",
        "work": "choosing_method",
        "label": "choosing the method…",
        "provider": "Claude Code",
        "timeout": 12.0,
    }
    assert done["work"] == "choosing_method" and done["status"] == "done"
    assert done["ms"] >= 200
    # --json: one object, the turn's end, as before. The same vague message again is a close
    # call between going on and asking anew: the fake first reads it as something new.
    verdict = claude_run(tmp_path / "verdict.json", '{"reading": "new_request"}')
    env["FAKE_SEQUENCE"] = os.pathsep.join([str(verdict), sequence(tmp_path, choice_sleep=0)])
    answer = json.loads(invoke(home, "ask", "--json", VAGUE, env=env).stdout)
    assert answer["kind"] == "finished" and answer["task"] == "brainstorming"
    assert "working" not in json.dumps(answer)


def test_ctrl_c_during_the_wait_ends_ask_with_130_and_saves_nothing(home, env, tmp_path):
    env["FAKE_SEQUENCE"] = sequence(tmp_path, choice_sleep=60)
    process = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "ask", "--events", VAGUE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line)["kind"] == "working":
            break
    wait_for(tmp_path / "fake-log.json")
    process.send_signal(signal.SIGINT)
    rest, stderr = process.communicate(timeout=10)
    assert process.returncode == 130, stderr
    ended = [json.loads(line) for line in rest.splitlines()]
    assert [e["kind"] for e in ended] == ["work_done"] and ended[0]["status"] == "cancelled"
    assert "stopped while choosing the method" in stderr
    assert all_gone(pids_in(tmp_path / "pids"))
    turns = json.loads(invoke(home, "history", "--json").stdout)
    assert (turns["turns"] if isinstance(turns, dict) else turns) == []


# -- the pieces ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("work", "language", "label"),
    [
        ("choosing_method", "en", "choosing the method…"),
        ("choosing_method", "es", "eligiendo el método…"),
        ("reading_reply", "en", "reading your reply…"),
        ("reading_reply", "es", "leyendo tu respuesta…"),
    ],
)
def test_a_side_call_is_announced_and_gives_back_its_result(work, language, label):
    steps = side_call(work, language, lambda: {"task": "personas"}, "Claude Code", 5.0)
    events = []
    try:
        while True:
            events.append(next(steps))
    except StopIteration as end:
        result = end.value
    assert result == {"task": "personas"}
    assert events[0] == Working(work=work, label=label, provider="Claude Code", timeout=5.0)
    assert isinstance(events[1], WorkDone) and events[1].status == "done"
    assert len(events) == 2


def test_a_cancel_during_a_side_call_closes_the_wait_then_ends_the_turn():
    group = RunGroup()

    def asked() -> None:
        group.cancel()  # Ctrl-C while the model is asked: its run is stopped, None comes back

    with group.scope():
        steps = side_call("choosing_method", "es", asked)
        assert isinstance(next(steps), Working)
        done = next(steps)
        assert isinstance(done, WorkDone) and done.status == "cancelled"
        with pytest.raises(CancelledError, match="detenido mientras se elegía el método"):
            next(steps)
        # A turn already cancelled asks nothing and shows no wait.
        calls: list[int] = []
        with pytest.raises(CancelledError):
            next(side_call("reading_reply", "en", lambda: calls.append(1)))
        assert calls == []


def test_a_timeout_is_not_a_cancel():
    """The call's own run ended (timed out): the caller gets None and decides without it."""
    with RunGroup().scope():
        steps = side_call("choosing_method", "en", lambda: None)
        next(steps)
        assert next(steps).status == "done"  # type: ignore[union-attr]
        with pytest.raises(StopIteration):
            next(steps)


def view_on(terminal: bool) -> tuple[TurnView, io.StringIO]:
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=terminal, width=80, _environ={"TERM": "xterm"})
    return TurnView("text", Screen(console, out)), out


def test_off_a_terminal_the_wait_prints_nothing():
    view, out = view_on(terminal=False)
    view.show(Working(work="choosing_method", label="choosing the method…"))
    view.show(WorkDone(work="choosing_method", ms=10.0))
    view.close()
    assert out.getvalue() == ""


def test_on_a_terminal_the_next_event_erases_the_wait():
    from design_agent.core.events import QuestionAsked

    view, out = view_on(terminal=True)
    view.show(Working(work="reading_reply", label="reading your reply…"))
    assert view.status is not None and view.status.shown
    view.show(QuestionAsked(question="which one?"))  # no WorkDone: the next event ends it too
    assert view.status is None
    view.close()
    raw = out.getvalue()
    assert "reading your reply…" in raw and "Ctrl-C cancels" in raw
    assert not [line for line in screen_after(raw) if "reading your reply" in line]
