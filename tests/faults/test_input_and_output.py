"""Faults at the edges of a turn: what comes in (huge, undecodable), what goes out (a
closed pipe, a hostile PDF's library warnings) and what is left behind (the shell's
input history of a deleted project). Each runs design-agent as a real process."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
from fixtures.pdfs import pdf_file

PIPE_CLOSED_EXIT = 141  # 128 + SIGPIPE, as a shell reports it (README: Exit codes)
ESC = "\x1b"
BIN = Path(sys.executable).parent / "design-agent"


def run(
    *args: str, stdin: bytes | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "design_agent", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
    )


def history(*args: str) -> list[dict[str, object]]:
    done = run("history", "--json", *args)
    assert done.returncode == 0, done.stderr
    turns = json.loads(done.stdout)
    assert isinstance(turns, list)
    return turns


def piped(command: str) -> subprocess.CompletedProcess[str]:
    """`command` in bash, with pipefail's status of design-agent (the first command)."""
    script = f"set -o pipefail; {command}"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)


DA = f"'{sys.executable}' -m design_agent"


# -- 4. a hostile PDF's library warnings ---------------------------------------------------


def hostile_pdf() -> bytes:
    """A PDF whose font encoding name holds an OSC 52 clipboard write, a window title and a
    clear-screen sequence: pypdf names it in a warning while reading the text."""
    content = b"BT /F1 12 Tf 72 712 Td (Checkout brief) Tj ET"
    evil = b"/Evil#1B#5D52;c;aGk=#07#1B#5D0;pwned#07#1B#5B2J"
    return pdf_file(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding " + evil + b" >>",
        ]
    )


def test_a_hostile_pdfs_warnings_never_reach_the_terminal_and_are_logged_as_text(tmp_path, home):
    brief = tmp_path / "brief.pdf"
    brief.write_bytes(hostile_pdf())
    assert run("projects", "create", "Checkout").returncode == 0
    added = run("files", "add", str(brief))
    assert added.returncode == 0, added.stderr
    assert ESC.encode() not in added.stdout + added.stderr
    assert b"Advanced encoding" not in added.stderr  # captured, not printed
    told = run("ask", "--provider", "offline", f"here is the brief: {brief}")
    assert ESC.encode() not in told.stdout + told.stderr
    log = (home / "logs" / "design-agent.log").read_text(encoding="utf-8")
    assert "pypdf" in log and "Advanced encoding /Evil" in log  # logged, as text
    assert ESC not in log and "\x07" not in log


def test_server_logs_prints_the_log_without_escape_sequences(home):
    logs = home / "logs"
    logs.mkdir(parents=True, mode=0o700)
    (logs / "server.log").write_text(f"started\n{ESC}]52;c;aGk=\x07{ESC}[2Jwarning\n")
    shown = run("server", "logs", "-n", "10")
    assert shown.returncode == 0, shown.stderr
    assert ESC.encode() not in shown.stdout and b"warning" in shown.stdout


# -- 5. a huge message is read in bounded time --------------------------------------------


def test_a_320000_letter_word_is_answered_and_stored_whole(tmp_path, home):
    """It took 30 s to match before (fuzzy matching grew with the square of a word)."""
    word = "x" * 320_000
    message = f"plan a usability test {word}".encode()  # longer than an argument may be
    # Bounded now (~1 s); before it took 30 s.
    done = run("ask", "--provider", "offline", "--json", "-", stdin=message, timeout=20)
    assert done.returncode == 0, done.stderr
    stored = history("-n", "2")
    assert any(word in str(turn.get("message", "")) for turn in stored)


def test_ctrl_c_and_sigterm_stop_a_turn_on_a_2mb_line_at_once(tmp_path, home):
    """Before, a 2 MB line was matched for over 10 minutes and signals waited for it."""
    line = tmp_path / "line.txt"
    line.write_text("plan a test " + "é" * 2_000_000 + "\n", encoding="utf-8")
    for signum in (signal.SIGINT, signal.SIGTERM):
        with line.open("rb") as stdin:
            child = subprocess.Popen(
                [sys.executable, "-m", "design_agent", "ask", "--provider", "offline", "-"],
                stdin=stdin,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            time.sleep(1.5)
            child.send_signal(signum)
            try:
                code = child.wait(timeout=20)  # before: the matching went on for minutes
            finally:
                child.kill()
        # Its code (0 if the turn had ended, 128 + the signal, or the signal itself if it
        # came before the handlers were set on a loaded machine): never a hang, never a crash.
        errors = child.stderr.read() if child.stderr else b""
        assert code in (0, 128 + signum, -signum), errors
        assert b"unexpected" not in errors


# -- 6. a closed standard output never loses the answer -----------------------------------


def test_ask_piped_into_head_saves_the_whole_answer_and_exits_141(home):
    done = piped(f"{DA} ask --no-server --provider offline 'plan a usability test' | head -1")
    assert done.returncode == PIPE_CLOSED_EXIT, done.stderr
    turns = history()
    assert [t["role"] for t in turns] == ["user", "agent"]
    assert turns[1]["status"] == "complete" and "Usability test plan" in str(turns[1]["message"])


def test_ask_events_piped_into_head_saves_the_turn_too(home):
    done = piped(f"{DA} ask --events --provider offline 'make a journey map' | head -1")
    assert done.returncode == PIPE_CLOSED_EXIT, done.stderr
    assert [t["role"] for t in history()] == ["user", "agent"]


def test_a_piped_shell_whose_reader_left_still_answers_and_saves_every_line(home):
    lines = "plan a usability test\\nmake a journey map\\nprioritise the backlog with RICE\\n"
    done = piped(f"printf '{lines}' | {DA} | head -1")
    assert done.returncode == PIPE_CLOSED_EXIT, done.stderr
    turns = history("-n", "20")
    assert [t["role"] for t in turns] == ["user", "agent"] * 3
    assert all(t["status"] == "complete" for t in turns if t["role"] == "agent")


# -- 7. input that is not UTF-8 -----------------------------------------------------------


def test_undecodable_bytes_are_replaced_said_once_and_the_shell_goes_on(home):
    script = b"plan a usability test \xff\xfe caf\xe9\nmake a journey map \xff\nexit\n"
    done = run(stdin=script)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(b"not UTF-8") == 1 and b"unexpected" not in done.stderr
    assert "Customer journey map" in done.stdout.decode("utf-8")
    said = [t["message"] for t in history("-n", "20") if t["role"] == "user"]
    assert said == ["plan a usability test \ufffd\ufffd caf\ufffd", "make a journey map \ufffd"]


def test_undecodable_bytes_in_ask_and_its_argument(home):
    piped_in = run("ask", "--provider", "offline", "-", stdin=b"plan a usability test \xff\n")
    assert piped_in.returncode == 0 and b"not UTF-8" in piped_in.stderr, piped_in.stderr
    argument = subprocess.run(
        [sys.executable, "-m", "design_agent", "ask", "--provider", "offline", b"plan a test \xff"],
        capture_output=True,
    )
    assert argument.returncode == 0, argument.stderr
    assert b"not UTF-8" in argument.stderr


# -- 15. a deleted project's shell input ---------------------------------------------------


def test_deleting_a_project_removes_what_was_typed_in_it_and_keeps_the_rest(home):
    command = str(BIN) if BIN.exists() else shutil.which("design-agent")
    assert command
    for project in ("Alpha", "Beta"):
        assert run("projects", "create", project).returncode == 0
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color"}
    child = pexpect.spawn(command, env=env, encoding="utf-8", timeout=30, dimensions=(40, 100))
    child.delaybeforesend = None
    for project, secret in (("Alpha", "zq7-alpha-secret"), ("Beta", "zq7-beta-secret")):
        child.expect("›")
        child.sendline(f"/switch {project}" if project == "Alpha" else "switch to Beta")
        child.expect("›")
        child.sendline(f"we decided {secret} because it is needed")
    child.expect("›")
    child.sendline("exit")
    child.expect(pexpect.EOF)
    typed = (home / "input-history").read_text(encoding="utf-8")
    assert "zq7-alpha-secret" in typed and "zq7-beta-secret" in typed
    assert run("projects", "delete", "Alpha", "--yes").returncode == 0
    typed = (home / "input-history").read_text(encoding="utf-8")
    assert "zq7-alpha-secret" not in typed and "zq7-beta-secret" in typed
