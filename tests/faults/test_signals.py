"""A turn ends cleanly however design-agent is stopped: SIGTERM, a closed terminal (SIGHUP),
Ctrl-C pressed again and again, kill -9, or a helper that keeps the CLI's output open.

Real processes throughout: `design-agent ask` as a subprocess, a fake Claude CLI (a real
executable replaying a recorded stream, then hanging), and a private TMPDIR per test so
the scratch folders the runner makes can be counted.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pexpect
import pytest
from fixtures.fakes import alive, bundled_adapters, install_fake, invoke, pids_in, recording

from design_agent.core.settings import Settings
from design_agent.providers.process import group_members
from design_agent.providers.request import ProviderRequest
from design_agent.providers.runner import start
from design_agent.providers.spec import Timeouts

AGENT = [sys.executable, "-m", "design_agent"]
PARTIAL = "Hello from fake server"  # what run_claude_partial says in its first 6 lines
MESSAGE = "Plan a kickoff meeting for the redesign"


@pytest.fixture
def env(home: Path, tmp_path: Path) -> dict[str, str]:
    """design-agent with a fake claude that streams the partial answer, then hangs."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    return {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(install_fake(tmp_path / "bin", "claude")),
        "FAKE_RECORDING": recording("run_claude_partial"),
        "FAKE_MODE": "hang_during",
        "FAKE_AFTER": "6",
        "FAKE_PIDS": str(tmp_path / "pids"),
        "TMPDIR": str(scratch),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
        "LINES": "40",
    }


def start_ask(env: dict[str, str]) -> subprocess.Popen[str]:
    """`design-agent ask --events`, returned once the partial answer has streamed."""
    process = subprocess.Popen(
        [*AGENT, "ask", "--events", MESSAGE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    streamed = ""
    for line in process.stdout:
        event = json.loads(line)
        streamed += event["text"] if event["kind"] == "text" else ""
        if streamed == PARTIAL:
            return process
    raise AssertionError(f"{streamed!r} streamed: {process.communicate()[1]}")


def last_turn(env: dict[str, str]) -> dict:
    """The last turn stored, read afterwards in-process."""
    result = invoke(Path(env["DESIGN_AGENT_HOME"]), "history", "--json", "-n", "5")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    return (data["turns"] if isinstance(data, dict) else data)[-1]


def assert_nothing_left(env: dict[str, str], within: float = 2.0) -> None:
    """The fake CLI's whole group is gone and no scratch folder is left in TMPDIR."""
    pids = pids_in(Path(env["FAKE_PIDS"]))
    assert pids, "the fake CLI never started"
    deadline = time.monotonic() + within
    while (group_members(pids[0]) or any(alive(p) for p in pids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert group_members(pids[0]) == [] and not any(alive(p) for p in pids)
    assert list(Path(env["TMPDIR"]).iterdir()) == []


def assert_partial_saved(env: dict[str, str]) -> None:
    turn = last_turn(env)
    assert turn["role"] == "agent" and turn["status"] == "cancelled"
    assert turn["message"] == PARTIAL


# -- SIGTERM and a closed terminal cancel the turn like Ctrl-C ---------------------------------


def test_sigterm_mid_stream_cancels_saves_the_partial_and_exits_143(env):
    process = start_ask(env)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=10)
    assert process.returncode == 128 + signal.SIGTERM == 143, stderr
    assert "partial answer was saved" in stderr
    assert_nothing_left(env)
    assert_partial_saved(env)


def test_sighup_mid_stream_cancels_saves_the_partial_and_exits_129(env):
    process = start_ask(env)
    process.send_signal(signal.SIGHUP)
    process.communicate(timeout=10)
    assert process.returncode == 128 + signal.SIGHUP == 129
    assert_nothing_left(env)
    assert_partial_saved(env)


def _in_terminal(env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """`design-agent ask` as the controlling process of a new pseudo-terminal."""
    master, slave = os.openpty()
    process = subprocess.Popen(
        [*AGENT, "ask", MESSAGE],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(slave)
    return process, master


def _read_until(master: int, text: bytes, timeout: float = 10.0) -> bytes:
    seen, deadline = b"", time.monotonic() + timeout
    while text not in seen and time.monotonic() < deadline:
        if select.select([master], [], [], 0.1)[0]:
            seen += os.read(master, 65536)
    assert text in seen, seen[-2000:]
    return seen


def test_closing_the_terminal_mid_stream_keeps_the_partial_and_exits_129(env):
    process, master = _in_terminal(env)
    _read_until(master, b"fake server")
    os.close(master)  # the terminal window is closed: the kernel sends SIGHUP
    assert process.wait(timeout=10) == 129
    assert_nothing_left(env)
    assert_partial_saved(env)


def test_sigterm_mid_answer_in_the_shell_saves_the_partial_and_ends_it_with_143(env):
    shell = pexpect.spawn(
        sys.executable,
        ["-m", "design_agent"],
        env={**env, "PROMPT_TOOLKIT_NO_CPR": "1"},
        encoding="utf-8",
        timeout=10,
        dimensions=(40, 100),
    )
    shell.expect("exit to leave")
    shell.sendline(MESSAGE)
    shell.expect("fake server")
    shell.kill(signal.SIGTERM)
    shell.expect(pexpect.EOF)
    shell.close()
    assert shell.exitstatus == 143
    assert_nothing_left(env)
    assert_partial_saved(env)


# -- Ctrl-C pressed again and again ------------------------------------------------------------


def test_ctrl_c_pressed_repeatedly_still_exits_130_with_the_partial_saved(env):
    process = start_ask(env)
    deadline = time.monotonic() + 5
    while process.poll() is None and time.monotonic() < deadline:
        process.send_signal(signal.SIGINT)  # someone hammering Ctrl-C
        time.sleep(0.01)
    _, stderr = process.communicate(timeout=5)
    assert process.returncode == 130, stderr
    assert "Aborted" not in stderr and "Traceback" not in stderr
    assert_nothing_left(env)
    assert_partial_saved(env)


# -- kill -9 of design-agent -------------------------------------------------------------------


def test_the_provider_dies_with_a_killed_design_agent(env):
    process = start_ask(env)
    fake_pid = pids_in(Path(env["FAKE_PIDS"]))[0]
    process.kill()
    process.wait(timeout=5)
    deadline = time.monotonic() + 2
    while alive(fake_pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive(fake_pid), "the provider outlived design-agent"


def test_a_stale_scratch_folder_is_removed_by_the_next_run(env):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that no longer runs: the owner of a folder left by a kill -9
    stale = Path(env["TMPDIR"]) / f"design-agent-run-{gone.pid}-abc123"
    stale.mkdir(mode=0o700)
    (stale / "system-prompt.md").write_text("the system prompt of a killed run")
    mine = Path(env["TMPDIR"]) / f"design-agent-run-{os.getpid()}-live99"
    mine.mkdir(mode=0o700)  # its owner (this test) still runs: kept
    quick = {**env, "FAKE_MODE": "replay"}
    result = subprocess.run([*AGENT, "ask", "--json", MESSAGE], capture_output=True, env=quick)
    assert result.returncode == 0, result.stderr
    assert not stale.exists()
    assert [p.name for p in Path(env["TMPDIR"]).iterdir()] == [mine.name]


# -- a helper that leaves the CLI's group but keeps its output open ----------------------------


def test_a_setsid_helper_holding_stdout_does_not_hold_up_a_finished_answer(tmp_path, monkeypatch):
    spec = bundled_adapters()["claude"]
    spec = spec.model_copy(update={"timeouts": Timeouts(first_output=5, idle=5, total=20)})
    for key, value in {
        "FAKE_RECORDING": recording("run_claude_partial"),
        "FAKE_MODE": "helper_setsid",
        "FAKE_PIDS": str(tmp_path / "pids"),
    }.items():
        monkeypatch.setenv(key, value)
    settings = Settings(bins={"claude": str(install_fake(tmp_path / "bin", "claude"))})
    begun = time.monotonic()
    try:
        run = start(spec, ProviderRequest(prompt="hello"), settings)
        events = list(run)
    finally:
        helper = pids_in(tmp_path / "pids")[-1]
        escaped = alive(helper)
        if escaped:
            os.kill(helper, signal.SIGKILL)  # it left our group: only its pid reaches it
    assert time.monotonic() - begun < 2.0
    assert events[-1].status == "ok"
    assert events[-1].text == "Hello from fake server. <decision>use cards</decision>"
    assert escaped, "the helper really had left the CLI's group"
