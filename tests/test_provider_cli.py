"""`design-agent providers list / doctor / use / test`, as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fixtures.fakes import alive, install_fake, pids_in, recording

ANSWER = "Hello from fake server. <decision>use cards</decision>"


@pytest.fixture
def path_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH holds only this folder: a machine with no AI CLI until a test installs one."""
    folder = tmp_path / "path-bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    return folder


@pytest.fixture
def fake_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def configure(recorded: str | None, mode: str = "replay", **env: object) -> None:
        if recorded:
            monkeypatch.setenv("FAKE_RECORDING", recording(recorded))
        monkeypatch.setenv("FAKE_MODE", mode)
        for key, value in env.items():
            monkeypatch.setenv(f"FAKE_{key.upper()}", str(value))

    return configure


def listing(run_cli) -> dict[str, dict]:  # type: ignore[no-untyped-def, type-arg]
    result = run_cli("providers", "list", "--json")
    assert result.exit_code == 0, result.output
    return {row["name"]: row for row in json.loads(result.output)}


def test_list_on_a_fresh_machine(run_cli, path_bin):
    rows = listing(run_cli)
    assert rows["offline"]["active"] and rows["offline"]["installed"]
    assert not rows["claude"]["installed"] and rows["claude"]["version"] is None
    text = run_cli("providers", "list").output
    assert "To install:" in text and "npm install -g @openai/codex" in text


def test_list_shows_versions_and_the_active_provider(run_cli, path_bin, monkeypatch):
    install_fake(path_bin, "claude")
    monkeypatch.setenv("FAKE_VERSION", "2.1.197 (Claude Code)")
    rows = listing(run_cli)
    assert rows["claude"] == {
        "name": "claude", "display_name": "Claude Code", "installed": True,
        "binary": str(path_bin / "claude"), "version": "2.1.197 (Claude Code)", "active": True,
        "install_hint": "npm install -g @anthropic-ai/claude-code", "probed": True,
        "login": "logged_in",  # `claude auth status`, answered by the fake
    }  # fmt: skip
    assert not rows["offline"]["active"]


def test_use_sets_and_validates_the_provider(run_cli, path_bin, home):
    result = run_cli("providers", "use", "gemini")
    assert result.exit_code == 0 and "provider = gemini" in result.output
    assert "not installed yet: npm install -g @google/gemini-cli" in result.stderr
    assert "provider: gemini" in (home / "settings.yaml").read_text(encoding="utf-8")
    assert listing(run_cli)["gemini"]["active"]
    wrong = run_cli("providers", "use", "gpt9")
    assert wrong.exit_code == 6 and "no provider 'gpt9'; known providers: claude" in wrong.stderr
    assert run_cli("providers", "use", "auto").exit_code == 0
    assert listing(run_cli)["offline"]["active"]


def test_doctor_ready(run_cli, path_bin, fake_env):
    install_fake(path_bin, "claude")
    fake_env("run_claude_partial")
    result = run_cli("providers", "doctor", "claude")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ok claude: ready [fake-cli 1.0.0] - answered a test request")


def test_doctor_not_logged_in_gives_the_login_command(run_cli, path_bin, fake_env):
    install_fake(path_bin, "gemini")
    fake_env("noauth_gemini_stream")
    result = run_cli("providers", "doctor", "gemini")
    assert result.exit_code == 4
    assert "!! gemini: not logged in" in result.output
    assert "fix: run 'gemini' once and choose a login method" in result.output


def test_doctor_broken_and_not_installed(run_cli, path_bin, fake_env):
    install_fake(path_bin, "codex")
    fake_env(None, mode="garbage")
    broken = run_cli("providers", "doctor", "codex")
    assert broken.exit_code == 5 and "!! codex: broken" in broken.output
    missing = run_cli("providers", "doctor", "claude")
    assert missing.exit_code == 4
    assert "fix: npm install -g @anthropic-ai/claude-code" in missing.output


def test_doctor_all_as_json(run_cli, path_bin):
    result = run_cli("providers", "doctor", "--json")
    verdicts = {d["name"]: d["verdict"] for d in json.loads(result.output)}
    assert verdicts["offline"] == "ready" and verdicts["claude"] == "not installed"
    assert result.exit_code == 0  # the active provider (offline) is ready


def test_test_streams_the_answer_then_the_figures(run_cli, path_bin, fake_env):
    install_fake(path_bin, "claude")
    fake_env("run_claude_partial")
    result = run_cli("providers", "test", "claude", "Say hello")
    assert result.exit_code == 0, result.output
    assert result.stdout == ANSWER + "\n"
    figures = result.stderr.strip()
    assert figures.startswith("-- claude · sonnet (fast: short, direct request)")
    assert "tokens 11 in / 17 out" in figures and "cost $0.00029" in figures
    assert "first token" in figures and "total" in figures


def test_test_reads_the_prompt_from_stdin_and_routes_its_tier(
    run_cli, path_bin, fake_env, tmp_path
):
    install_fake(path_bin, "gemini")
    fake_env("run_gemini_stream", log=tmp_path / "log.json")
    result = run_cli("providers", "test", "gemini", "-", input="Compare A and B")
    assert result.exit_code == 0
    assert "gemini-2.5-pro (deep: asks for reasoning ('compare'))" in result.stderr
    assert json.loads((tmp_path / "log.json").read_text())["stdin"] == "Compare A and B"


def test_test_failure_is_one_line_and_its_exit_code(run_cli, path_bin, fake_env):
    install_fake(path_bin, "claude")
    fake_env("noauth_claude_stream")
    result = run_cli("providers", "test", "claude", "hello")
    assert result.exit_code == 4
    assert result.stderr.startswith("Error: Claude Code is not logged in")
    assert len(result.stderr.strip().splitlines()) == 1


def test_test_json(run_cli, path_bin, fake_env):
    install_fake(path_bin, "codex")
    fake_env("run_codex_stdin")
    done = json.loads(run_cli("providers", "test", "codex", "hi", "--json").stdout)
    assert done["kind"] == "done" and done["status"] == "ok" and done["text"] == ANSWER


def test_a_new_cli_needs_only_a_yaml_file(run_cli, home, tmp_path, fake_env):
    (home / "adapters").mkdir(parents=True)
    (home / "adapters" / "mycli.yaml").write_text(
        "display_name: My CLI\nbinary: mycli\nargs: [ask]\noutput: text\n"
        "context_limit: 8000\ninstall_hint: pipx install mycli\n",
        encoding="utf-8",
    )
    fake = install_fake(tmp_path / "bin", "mycli")
    fake_env(None, mode="text")
    os.environ["DESIGN_AGENT_MYCLI_BIN"] = str(fake)
    try:
        check = json.loads(run_cli("check", "--json").output)
        assert not [p for p in check["problems"] if "adapters" in p]
        assert listing(run_cli)["mycli"]["installed"]
        result = run_cli("providers", "test", "mycli", "hi")
    finally:
        del os.environ["DESIGN_AGENT_MYCLI_BIN"]
    assert result.exit_code == 0 and result.stdout == "Hello from plain text ñandú\n"


def test_ctrl_c_during_test_keeps_the_partial_answer_and_leaves_no_process(tmp_path, home):
    fake = install_fake(tmp_path / "bin", "claude")
    pids = tmp_path / "pids"
    env = {
        **os.environ,
        "DESIGN_AGENT_CLAUDE_BIN": str(fake),
        "FAKE_RECORDING": recording("run_claude_partial"),
        "FAKE_MODE": "ignore_sigint",
        "FAKE_AFTER": "6",
        "FAKE_PIDS": str(pids),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "providers", "test", "claude", "hello"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    seen = b""
    while b"fake server" not in seen:
        seen += os.read(proc.stdout.fileno(), 1024)
    begun = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert time.monotonic() - begun < 3.0
    assert proc.returncode == 130
    assert (seen + out).decode() == "Hello from fake server\n"
    assert "Cancelled; the partial answer is above." in err.decode()
    assert pids_in(pids) and not any(alive(pid) for pid in pids_in(pids))
