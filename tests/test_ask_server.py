"""A designer runs `design-agent serve` once; each `ask` then goes through it, and looks the same.

One real server per module (`design-agent serve` in a subprocess, a fake Claude
CLI, a temp home) and `ask` run as a real subprocess through the console
script's entry (design_agent.launch.entry). The in-process answer to compare with is
the same command, run by click's CliRunner on a twin home that lived through
the same commands. A run that went through the server leaves the list of the
modules it imported (DESIGN_AGENT_TEST_MODULES_FILE): that is how each story
knows which path it took, and that the fast path imported no heavy library.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fixtures.fakes import FIXTURES, install_fake, recording

from design_agent.cli import cli
from design_agent.core.cache import CACHE_ENV
from design_agent.core.paths import resolve_home
from design_agent.core.server_env import FINGERPRINT_PATTERNS, _matches, environment_fingerprint
from design_agent.launch.remote_ask import parse_argv
from design_agent.launch.remote_ask import resolve_home as fast_resolve_home
from design_agent.memory import Memory

ENTRY = [sys.executable, "-m", "design_agent.launch.entry"]
HEAVY = ("pydantic", "rich", "click", "sqlite3", "rapidfuzz", "platformdirs", "http.client")
START_SECONDS = 30.0


class Server:
    """A running `design-agent serve`, its home, a twin home without a server, their env."""

    def __init__(self, root: Path, cache: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.twin = root / "twin"
        self.env = _base_env(root, cache)
        self.process: subprocess.Popen[str] | None = None
        self.count = 0

    def start(self) -> None:
        env = {**self.env, "DESIGN_AGENT_HOME": str(self.home)}
        log = (self.root / "serve.log").open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "design_agent", "serve"], env=env, stdout=log, stderr=log
        )
        deadline = time.monotonic() + START_SECONDS
        while not (self.home / "server.json").exists():
            assert self.process.poll() is None, (self.root / "serve.log").read_text()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)

    def project(self) -> str:
        """A new project, in both homes (same name, same empty state)."""
        self.count += 1
        name = f"Checkout {self.count}"
        for home in (self.home, self.twin):
            memory = Memory.open(home / "design-agent.db")
            try:
                memory.create_project(name)
            finally:
                memory.close()
        return name

    def ask(self, *args: str, env: dict[str, str] | None = None, home: Path | None = None) -> Ran:
        """`design-agent ask ARGS` as a real process against the server's home."""
        modules = self.root / f"modules-{time.monotonic_ns()}.txt"
        environ = {
            **self.env,
            "DESIGN_AGENT_HOME": str(home or self.home),
            "DESIGN_AGENT_TEST_MODULES_FILE": str(modules),
            **(env or {}),
        }
        result = subprocess.run(
            [*ENTRY, "ask", *args],
            env=environ,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
        imported = modules.read_text(encoding="utf-8").split() if modules.exists() else None
        return Ran(result.returncode, result.stdout, result.stderr, imported)

    def ask_in_process(self, *args: str) -> Ran:
        """The same `ask`, in this process, on the twin home (no server there)."""
        env = {**self.env, "DESIGN_AGENT_HOME": str(self.twin)}
        result = CliRunner().invoke(cli, ["ask", *args], env=env, catch_exceptions=False)
        return Ran(result.exit_code, result.stdout, result.stderr, None)


class Ran:
    def __init__(self, code: int, out: str, err: str, modules: list[str] | None) -> None:
        self.code, self.out, self.err, self.modules = code, out, err, modules

    @property
    def through_server(self) -> bool:
        return self.modules is not None

    def __repr__(self) -> str:
        return f"Ran({self.code}, out={self.out[-300:]!r}, err={self.err[-300:]!r})"


def _base_env(root: Path, cache: Path) -> dict[str, str]:
    """The environment both the server and every `ask` run in (so their fingerprints
    agree): the fake Claude answers; a fake Gemini streams a little, then hangs. The run's
    shared catalogue cache (conftest.py), as every home of the suite has it."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DESIGN_AGENT_", "FAKE_"))}
    claude = install_fake(root / "bin", "claude")
    gemini = root / "bin" / "gemini"
    gemini.write_text(
        "#!/bin/sh\nFAKE_MODE=hang_during FAKE_AFTER=3 "
        f"FAKE_RECORDING={recording('run_gemini_stream')} "
        f'exec {sys.executable} {FIXTURES / "fake_cli.py"} "$@"\n',
        encoding="utf-8",
    )
    gemini.chmod(0o755)
    return {
        **environ,
        "DESIGN_AGENT_ENV_PASSTHROUGH": "FAKE_*",
        CACHE_ENV: str(cache),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_MODEL_REVIEW": "off",  # the fake replays the answer, not a verdict
        "DESIGN_AGENT_CLAUDE_BIN": str(claude),
        "DESIGN_AGENT_GEMINI_BIN": str(gemini),
        "FAKE_RECORDING": recording("run_claude_partial"),
    }


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("served"), shared_cache)
    running.start()
    try:
        yield running
    finally:
        running.stop()


TIMINGS = ("ms", "timings", "first_token_seconds")


def without_timings(value: Any) -> Any:
    """`value` (JSON data) without the step timings, which differ from run to run."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def events_of(output: str) -> list[Any]:
    return [without_timings(json.loads(line)) for line in output.splitlines()]


def test_a_text_answer_through_the_server_is_the_in_process_answer(server: Server) -> None:
    project = server.project()
    message = "Plan a usability test for the new checkout"
    served = server.ask("--project", project, message)
    local = server.ask_in_process("--project", project, message)
    assert served.through_server, served
    assert served.code == local.code == 0
    assert "Hello from fake server" in served.out
    assert (served.out, served.err) == (local.out, local.err)
    assert not [m for m in served.modules or [] if m.startswith(HEAVY)]


def test_json_and_continue_say_the_same_on_both_paths(server: Server) -> None:
    project = server.project()
    for args in (
        ("--project", project, "--json", "Plan a usability test for the new checkout"),
        ("--project", project, "--continue", "--json", "and the recruiting screener"),
    ):
        served, local = server.ask(*args), server.ask_in_process(*args)
        assert served.through_server, served
        assert served.code == local.code == 0
        assert without_timings(json.loads(served.out)) == without_timings(json.loads(local.out))
        assert served.err == local.err
    assert served.err.startswith(f"Continuing '{project}' from turn 2")


def test_events_are_the_same_objects_but_for_their_timings(server: Server) -> None:
    project = server.project()
    args = ("--events", "--project", project, "We need a journey map of first-time buyers")
    served, local = server.ask(*args), server.ask_in_process(*args)
    assert served.through_server, served
    assert served.code == local.code == 0
    assert events_of(served.out) == events_of(local.out)


def in_a_terminal(argv: list[str], env: dict[str, str], columns: int = 70) -> tuple[int, bytes]:
    """Run `argv` in a pseudo-terminal `columns` wide; its exit code and every byte it wrote."""
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    environ = {**env, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    process = subprocess.Popen(argv, stdin=follower, stdout=follower, stderr=follower, env=environ)
    os.close(follower)
    output = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the process closed the terminal
            break
        if not data:
            break
        output += data
    os.close(leader)
    return process.wait(timeout=10), output


def test_in_a_terminal_the_answer_has_the_same_colours_and_width(server: Server) -> None:
    project = server.project()
    args = ["ask", "--project", project, "Plan a usability test for the new checkout"]
    modules = server.root / f"modules-{project}.txt"
    env = {**server.env, "DESIGN_AGENT_HOME": str(server.home)}
    served = in_a_terminal([*ENTRY, *args], {**env, "DESIGN_AGENT_TEST_MODULES_FILE": str(modules)})
    assert modules.exists(), served  # it went through the server
    twin = {**server.env, "DESIGN_AGENT_HOME": str(server.twin)}
    local = in_a_terminal([*ENTRY, "ask", "--no-server", *args[1:]], twin)
    assert served[0] == local[0] == 0
    # The live window's redraws depend on timing; what follows the answer does not.
    after = b"The answer proposes"
    assert served[1].split(after, 1)[1] == local[1].split(after, 1)[1]
    assert served[1].startswith(b"\x1b[?25l")  # the live window hid the cursor: a terminal
    assert b"\x1b[2m\xe2\x94\x80\xe2\x94\x80 " in served[1]  # the footer, dim
    assert b"Hello from" + b" " * 20 in served[1]  # padded to the terminal's 70 columns


def test_an_unknown_project_is_exit_6_with_the_same_line(server: Server) -> None:
    served = server.ask("--project", "Nope", "journey map")
    local = server.ask_in_process("--project", "Nope", "journey map")
    assert served.through_server, served
    assert served.code == local.code == 6
    assert served.err == local.err and served.err.startswith("Error: no project named 'Nope'")
    assert served.out == ""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_cancels_the_server_turn_and_keeps_the_partial_answer(
    server: Server, signum: int
) -> None:
    project = server.project()
    args = ["ask", "--events", "--provider", "gemini", "--project", project, "plan a diary study"]
    env = {**server.env, "DESIGN_AGENT_HOME": str(server.home)}
    process = subprocess.Popen(
        [*ENTRY, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    for line in process.stdout:  # bounded: the fake hangs 60 s at most
        if json.loads(line)["kind"] == "text":
            break
    started = time.monotonic()
    process.send_signal(signum)
    _out, err = process.communicate(timeout=15)
    assert process.returncode == 128 + signum, err
    assert time.monotonic() - started < 3.0
    assert err.startswith("Error: ")
    memory = Memory.open(server.home / "design-agent.db")
    try:
        last = memory.recent_turns(memory.find_project(project).id, 1)[-1]
    finally:
        memory.close()
    assert last.status == "cancelled" and last.message


def test_a_stale_server_file_means_the_normal_path(server: Server, tmp_path: Path) -> None:
    home = tmp_path / "stale"
    home.mkdir()
    gone = subprocess.Popen(["true"])
    gone.wait()
    info = json.loads((server.home / "server.json").read_text(encoding="utf-8"))
    (home / "server.json").write_text(json.dumps({**info, "pid": gone.pid}), encoding="utf-8")
    ran = server.ask("Plan a usability test for the new checkout", home=home)
    assert not ran.through_server
    assert ran.code == 0 and "Hello from fake server" in ran.out


def test_another_environment_means_the_normal_path(server: Server) -> None:
    project = server.project()
    ran = server.ask("--project", project, "Plan a usability test", env={"FAKE_OTHER": "1"})
    assert not ran.through_server
    assert ran.code == 0 and "Hello from fake server" in ran.out


@pytest.mark.parametrize(
    ("argv", "fast"),
    [
        (["ask", "plan a test"], True),
        (["--home", "/h", "ask", "-p", "Acme", "--tier=deep", "--events", "-"], True),
        (["ask", "--project=Acme", "--from", "2", "--", "--not-an-option"], True),
        (["ask", "--over-budget", "--continue", "--json", "plan a test"], True),
        (["ask", "--no-server", "plan a test"], False),
        (["ask", "--file", "brief.md", "plan a test"], False),
        (["ask", "--show-prompt", "plan a test"], False),
        (["ask", "--help"], False),
        (["ask", "--tier", "huge", "plan a test"], False),
        (["ask", "one", "two"], False),
        (["--debug", "ask", "plan a test"], False),
        (["history"], False),
    ],
)
def test_only_the_ask_forms_the_fast_path_knows_take_it(argv: list[str], fast: bool) -> None:
    assert (parse_argv(argv) is not None) is fast


@pytest.mark.parametrize(
    "env",
    [
        {"DESIGN_AGENT_HOME": "~/designs/../designs"},
        {"XDG_CONFIG_HOME": "/tmp/xdg-config"},
        {"XDG_CONFIG_HOME": "relative/config"},
        {"XDG_CONFIG_HOME": ""},
    ],
)
def test_the_fast_path_finds_the_same_home(env: dict[str, str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("DESIGN_AGENT_HOME")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert fast_resolve_home(None) == str(resolve_home(None))
    assert fast_resolve_home("~/x/./y") == str(resolve_home("~/x/./y"))


def test_the_fingerprint_covers_every_bundled_adapters_variables() -> None:
    import hashlib
    from fnmatch import fnmatchcase

    environ = {"PATH": "/bin", "DESIGN_AGENT_PROVIDER": "claude", "TERM": "xterm"}
    digest = hashlib.sha256(b"DESIGN_AGENT_PROVIDER\0claude\0PATH\0/bin\0").hexdigest()
    assert environment_fingerprint(environ) == digest  # TERM is the terminal's, not the turn's
    names = ["FAKE_MODE", "FAKE", "PATH", "PATHS", "LC_ALL", "A_B", "ANTHROPIC_API_KEY"]
    for pattern in ["FAKE_*", "PATH", "LC_*", "A?B", "F*E*", "[AB]_B", "*_KEY"]:
        for name in names:  # the shortcut for plain patterns agrees with fnmatch
            assert _matches(name, pattern) == fnmatchcase(name, pattern), (name, pattern)

    from fixtures.fakes import bundled_adapters

    for spec in bundled_adapters().values():
        for pattern in spec.env_passthrough:
            example = pattern.replace("*", "X")
            assert any(fnmatchcase(example, p) for p in FINGERPRINT_PATTERNS), pattern


@pytest.mark.parametrize(
    ("isatty", "size", "env"),
    [
        (True, (120, 40), {"TERM": "xterm-256color"}),
        (True, (100, 30), {"TERM": "xterm", "COLORTERM": "truecolor", "COLUMNS": "90"}),
        (True, (100, 30), {"TERM": "dumb", "COLUMNS": "70"}),
        (True, None, {"TERM": "xterm", "NO_COLOR": "1", "LINES": "50"}),
        (False, (100, 30), {"TERM": "xterm-256color"}),
        (False, None, {"FORCE_COLOR": "1"}),
        (True, (100, 30), {"TTY_COMPATIBLE": "0"}),
    ],
)
def test_the_server_renders_for_the_clients_terminal(isatty, size, env, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The console the server builds decides as one built in the client's terminal."""
    import io

    from rich.console import Console

    from design_agent.server.ask_route import ClientWriter, Terminal, client_console

    class Stdout(io.StringIO):
        def isatty(self) -> bool:
            return isatty

    def terminal_size(fd: int) -> os.terminal_size:
        if size is None:
            raise OSError("not a terminal")
        return os.terminal_size(size)

    def no_terminal(fd: int) -> os.terminal_size:
        raise OSError("the server's own terminal, if any, must not count")

    seen = ("is_terminal", "color_system", "no_color", "is_dumb_terminal", "is_interactive", "size")
    monkeypatch.setattr(os, "get_terminal_size", terminal_size)
    local = Console(file=Stdout(), highlight=False, soft_wrap=True, _environ=env)
    expected = [getattr(local, name) for name in seen]
    monkeypatch.setattr(os, "get_terminal_size", no_terminal)
    terminal = Terminal(isatty=isatty, size=size, env=env)
    served = client_console(terminal, ClientWriter(isatty, "utf-8"))
    assert [getattr(served, name) for name in seen] == expected


def test_the_fast_path_leaves_a_busy_project_to_the_normal_path(server: Server) -> None:
    """While a turn runs on the project (e.g. from the web page), `ask` on it runs
    in-process, as it did before servers existed."""
    project = server.project()
    args = ["ask", "--events", "--provider", "gemini", "--project", project, "plan a diary study"]
    env = {**server.env, "DESIGN_AGENT_HOME": str(server.home)}
    holder = subprocess.Popen(
        [*ENTRY, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        for line in holder.stdout:  # bounded: the fake hangs 60 s at most
            if json.loads(line)["kind"] == "text":
                break
        ran = server.ask("--project", project, "Plan a usability test for the new checkout")
        assert not ran.through_server and ran.code == 0
    finally:
        holder.send_signal(signal.SIGINT)
        holder.communicate(timeout=15)


def test_an_answer_piped_into_head_is_saved_whole_and_exits_141(server: Server) -> None:
    """`ask ... | head -1` through the server: the reader goes away after one line; the
    turn is still streamed to its end and saved, and the exit code says SIGPIPE."""
    project = server.project()
    env = {**server.env, "DESIGN_AGENT_HOME": str(server.home)}
    command = " ".join([*ENTRY, "ask", "--project", f"'{project}'", "'plan a usability test'"])
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command} | head -1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 141, done.stderr
    memory = Memory.open(server.home / "design-agent.db")
    try:
        turns = memory.recent_turns(memory.find_project(project).id)
    finally:
        memory.close()
    assert [turn.status for turn in turns][-1] == "complete"
    assert "Hello from fake server" in turns[-1].message
