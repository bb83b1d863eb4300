"""Hardening: what a provider may see, what design-agent runs, what it reads, what it keeps.

Each test reproduces a failure found by trying to break design-agent:
a secret in the parent environment reaching the AI CLI, a YAML alias bomb
hanging `check`, `providers list` running a user adapter's `binary: rm`, and
a 20 MB answer kept whole in memory and in the database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fixtures.fakes import bundled_adapters, install_fake, invoke, recording

from design_agent.core.settings import Settings
from design_agent.providers.request import ProviderRequest
from design_agent.providers.runner import start

AGENT = [sys.executable, "-m", "design_agent"]
ANSWER_LIMIT_BYTES = 2 * 1024 * 1024
BOMB = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def agent(home: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 20):
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), **(env or {})}
    return subprocess.run(
        [*AGENT, *args], capture_output=True, text=True, env=environ, timeout=timeout
    )


@pytest.fixture
def path_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH holds only this folder (plus /usr/bin for `rm`)."""
    folder = tmp_path / "path-bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    return folder


# 11. The child's environment is an allow-list.


def test_a_secret_in_the_parent_environment_does_not_reach_the_provider(
    run_cli, path_bin, tmp_path, monkeypatch
):
    install_fake(path_bin, "claude")
    log = tmp_path / "log.json"
    monkeypatch.setenv("FAKE_RECORDING", recording("run_claude_partial"))
    monkeypatch.setenv("FAKE_LOG", str(log))
    secrets = {"AWS_SECRET_ACCESS_KEY": "aws-secret", "GITHUB_TOKEN": "ghp_secret"}
    needed = {"ANTHROPIC_API_KEY": "sk-ant-test", "LC_ALL": "C.UTF-8", "HTTPS_PROXY": "http://p"}
    for name, value in {**secrets, **needed}.items():
        monkeypatch.setenv(name, value)
    result = run_cli("providers", "test", "claude", "hi")
    assert result.exit_code == 0, result.output
    seen = json.loads(log.read_text(encoding="utf-8"))["env"]
    assert not set(secrets) & set(seen)
    assert {name: seen.get(name) for name in needed} == needed
    assert seen["PATH"] == os.environ["PATH"] and "DESIGN_AGENT_HOME" not in seen


def test_a_user_adapter_declares_the_variables_its_cli_needs(
    run_cli, home, path_bin, tmp_path, monkeypatch
):
    write(
        home / "adapters" / "mycli.yaml",
        """\
        display_name: My CLI
        binary: mycli
        output: text
        context_limit: 8000
        install_hint: pipx install mycli
        env_passthrough: [MYCLI_*]
        env: {MYCLI_MODE: quiet}
        """,
    )
    install_fake(path_bin, "mycli")
    log = tmp_path / "log.json"
    monkeypatch.setenv("FAKE_MODE", "text")
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.setenv("MYCLI_TOKEN", "t")
    monkeypatch.setenv("OPENAI_API_KEY", "not for mycli")
    assert run_cli("providers", "test", "mycli", "hi").exit_code == 0
    seen = json.loads(log.read_text(encoding="utf-8"))["env"]
    assert seen["MYCLI_TOKEN"] == "t" and seen["MYCLI_MODE"] == "quiet"
    assert "OPENAI_API_KEY" not in seen


def test_the_allow_list_and_each_bundled_adapters_own_variables():
    from design_agent.providers.environment import child_environment

    parent = {
        "PATH": "/bin", "XDG_CONFIG_HOME": "/x", "no_proxy": "localhost", "TZ": "UTC",
        "GEMINI_API_KEY": "g", "GOOGLE_CLOUD_PROJECT": "p", "OPENAI_API_KEY": "o",
        "OLLAMA_HOST": "h", "LLM_USER_PATH": "/l", "AWS_SECRET_ACCESS_KEY": "s",
        "FAKE_MODE": "x", "SSH_AUTH_SOCK": "/s",
    }  # fmt: skip
    adapters = bundled_adapters()
    seen = {name: set(child_environment(adapters[name], parent)) for name in adapters}
    base = {"PATH", "XDG_CONFIG_HOME", "no_proxy", "TZ"}
    assert seen["gemini"] == base | {"GEMINI_API_KEY", "GOOGLE_CLOUD_PROJECT"}
    assert seen["codex"] == base | {"OPENAI_API_KEY"}
    assert seen["ollama"] == base | {"OLLAMA_HOST"}
    assert seen["llm"] >= base | {"LLM_USER_PATH", "OPENAI_API_KEY"}
    assert seen["claude"] == base
    extra = {**parent, "DESIGN_AGENT_ENV_PASSTHROUGH": "AWS_*, SSH_AUTH_SOCK"}
    assert set(child_environment(adapters["claude"], extra)) == base | {
        "AWS_SECRET_ACCESS_KEY",
        "SSH_AUTH_SOCK",
    }


# 12e. YAML aliases are refused in every file design-agent reads.


@pytest.mark.parametrize("command", [["check"], ["ask", "--json", "a usability test plan"]])
def test_a_yaml_alias_bomb_is_refused_at_once(home, command):
    bomb = write(home / "adapters" / "bomb.yaml", BOMB)
    result = agent(home, *command, env={"DESIGN_AGENT_PROVIDER": "offline"}, timeout=15)
    assert result.returncode == 3, result.stderr
    assert f"{bomb}:2: aliases are not allowed" in result.stderr


def test_aliases_are_refused_in_settings_and_the_catalogue(run_cli, home):
    write(home / "settings.yaml", "provider: &p claude\nmodel: *p\n")
    shown = run_cli("config", "show")
    assert shown.exit_code == 3 and "settings.yaml:2: aliases are not allowed" in shown.stderr
    (home / "settings.yaml").unlink()
    write(home / "config" / "tasks.yaml", "tasks:\n  - &t {id: x}\n  - *t\n")
    checked = run_cli("check")
    assert checked.exit_code == 3 and "tasks.yaml:3: aliases are not allowed" in checked.stderr


# 12f. Listing and checking run nothing a user adapter names.


def rm_adapter(home: Path, victim: Path) -> None:
    write(
        home / "adapters" / "cleaner.yaml",
        f"""\
        display_name: Cleaner
        binary: rm
        args: [-rf, "{victim}"]
        version_args: [-rf, "{victim}"]
        output: text
        context_limit: 8000
        install_hint: nothing to install
        """,
    )


def test_list_doctor_and_check_never_run_a_user_adapter(run_cli, home, path_bin, tmp_path):
    victim = tmp_path / "victim"
    (victim / "keep").mkdir(parents=True)
    rm_adapter(home, victim)
    assert run_cli("check").exit_code == 0
    rows = {row["name"]: row for row in json.loads(run_cli("providers", "list", "--json").output)}
    assert rows["cleaner"]["installed"] and not rows["cleaner"]["probed"]
    assert rows["cleaner"]["version"] is None
    assert "not probed" in run_cli("providers", "list").output
    doctor = json.loads(run_cli("providers", "doctor", "--json").output)
    assert {d["name"]: d["verdict"] for d in doctor}["cleaner"] == "not probed"
    assert (victim / "keep").is_dir()


def test_doctor_runs_a_user_adapter_only_when_named_and_declared(
    run_cli, home, path_bin, tmp_path, monkeypatch
):
    adapter = """\
        display_name: My CLI
        binary: mycli
        output: text
        context_limit: 8000
        install_hint: pipx install mycli
        """
    write(home / "adapters" / "mycli.yaml", adapter)
    install_fake(path_bin, "mycli")
    monkeypatch.setenv("FAKE_MODE", "text")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "log.json"))
    silent = run_cli("providers", "doctor", "mycli")
    assert "mycli: not probed" in silent.output and "version_args" in silent.output
    assert not (tmp_path / "log.json").exists()
    write(home / "adapters" / "mycli.yaml", adapter + "version_args: [--version]\n")
    named = run_cli("providers", "doctor", "mycli")
    assert named.exit_code == 0 and "ok mycli: ready [fake-cli 1.0.0]" in named.output


@pytest.mark.parametrize(
    "binary", ["rm -rf /tmp/x", "sh;reboot", "bin/mycli", "~/bin/mycli", "$(id)", "-rf"]
)
def test_binary_must_be_a_command_name_or_an_absolute_path(run_cli, home, binary):
    write(
        home / "adapters" / "odd.yaml",
        f"display_name: Odd\nbinary: '{binary}'\noutput: text\n"
        "context_limit: 8000\ninstall_hint: none\n",
    )
    result = run_cli("check")
    assert result.exit_code == 3
    assert "odd.yaml:2: adapter 'odd': binary:" in result.stderr


# 12g. A huge answer is cut at ANSWER_LIMIT_BYTES; the stream still drains.


def test_a_huge_answer_is_cut_with_a_note_in_the_users_language(tmp_path, monkeypatch):
    fake = install_fake(tmp_path / "bin", "claude")
    monkeypatch.setenv("FAKE_MODE", "bigstream")
    monkeypatch.setenv("FAKE_BIG_MB", "3")
    request = ProviderRequest(prompt="hola", language="es")
    settings = Settings(bins={"claude": str(fake)})
    events = list(start(bundled_adapters()["claude"], request, settings))
    done = events[-1]
    assert done.status == "ok" and done.truncated
    assert done.text.endswith("[respuesta cortada en 2 MB]")
    assert ANSWER_LIMIT_BYTES <= len(done.text.encode("utf-8")) <= ANSWER_LIMIT_BYTES + 100


RSS_PROBE = """\
import atexit, resource, sys
from design_agent.cli import main
atexit.register(lambda: print("maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                              file=sys.stderr))
sys.argv = ["design-agent", *sys.argv[1:]]
main()
"""


def test_a_20_mb_answer_keeps_memory_bounded_and_stores_2_mb(home, tmp_path):
    fake = install_fake(tmp_path / "bin", "claude")
    env = {
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(fake),
        "FAKE_MODE": "bigstream",
        "FAKE_BIG_MB": "20",
    }
    environ = {**os.environ, "DESIGN_AGENT_HOME": str(home), **env}
    message = "We need a usability test plan for the new checkout"
    result = subprocess.run(
        [sys.executable, "-c", RSS_PROBE, "ask", "--json", message],
        capture_output=True, text=True, env=environ, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    answer = json.loads(result.stdout)
    assert answer["status"] == "complete" and answer["text"].endswith("[answer cut at 2 MB]")
    maxrss_mb = int(result.stderr.split("maxrss")[-1]) / 1024
    # About 100 MB alone; 135-175 MB while the parallel suite loads the machine (the reader
    # thread's allocations are freed later); an unbounded answer took over 1 GB.
    assert maxrss_mb < 200, f"design-agent used {maxrss_mb:.0f} MB for a 20 MB answer"
    turns = json.loads(invoke(home, "history", "--json", "-n", "2").stdout)  # read in-process
    stored = (turns["turns"] if isinstance(turns, dict) else turns)[-1]
    assert len(stored["message"].encode("utf-8")) <= ANSWER_LIMIT_BYTES + 100
    assert stored["validation"]["truncated"] is True
