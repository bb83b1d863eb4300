"""`design-agent mcp install|uninstall CLIENT` on a fake home: each agent's own
configuration gets the server the way the agent documents it, keeps everything else, and
loses only that entry on uninstall. Then the newcomer's story from issue 30, end to end."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fixtures.mcp_clients import over_stdio

GEMINI_SETTINGS = {
    "theme": "GitHub",
    "mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-mcp"], "env": {"T": "x"}}},
    "telemetry": {"enabled": False},
}
CODEX_CONFIG = """\
# my codex settings
model = "gpt-5"  # the default

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
KEY = "value"

[profiles.fast]
model = "gpt-5-mini"
"""
CURSOR_CONFIG = {"mcpServers": {"browser": {"url": "http://localhost:9000/mcp"}}}
# A fake `claude`: records each command line, one JSON list per line; `mcp remove` of a
# server it does not know fails, as the real one does.
FAKE_CLAUDE = """#!{python}
import json, os, sys
with open(os.environ["FAKE_CLAUDE_LOG"], "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
sys.exit(1 if sys.argv[1:3] == ["mcp", "remove"] else 0)
"""


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake HOME (where the agents keep their configuration), and no CODEX_HOME."""
    folder = tmp_path / "user"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return folder


@pytest.fixture
def fake_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`claude` on PATH (the fake above); returns the file its command lines go to."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "claude"
    script.write_text(FAKE_CLAUDE.format(python=sys.executable), encoding="utf-8")
    script.chmod(0o755)
    log = tmp_path / "claude-argv.jsonl"
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_CLAUDE_LOG", str(log))
    return log


def registered(home: Path) -> list[str]:
    """The command an agent is given: this design-agent, its home, `mcp`."""
    return [str(Path(sys.executable).with_name("design-agent")), "--home", str(home), "mcp"]


def command_lines(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def test_gemini_settings_gain_the_server_and_keep_the_rest(run_cli, home, user_home):
    path = user_home / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(GEMINI_SETTINGS, indent=4), encoding="utf-8")

    shown = run_cli("mcp", "install", "gemini", "--print")
    assert json.loads(path.read_text(encoding="utf-8")) == GEMINI_SETTINGS  # nothing written
    assert str(path) in shown.stdout and '"design-agent"' in shown.stdout

    assert run_cli("mcp", "install", "gemini").exit_code == 0
    run_cli("mcp", "install", "gemini")  # again: still one entry, the same
    settings = json.loads(path.read_text(encoding="utf-8"))
    entry = settings["mcpServers"].pop("design-agent")
    assert [entry["command"], *entry["args"]] == registered(home)
    assert settings == GEMINI_SETTINGS
    assert list(json.loads(path.read_text(encoding="utf-8"))) == list(GEMINI_SETTINGS)

    assert run_cli("mcp", "uninstall", "gemini").exit_code == 0
    assert json.loads(path.read_text(encoding="utf-8")) == GEMINI_SETTINGS
    again = run_cli("mcp", "uninstall", "gemini")
    assert again.exit_code == 0 and "not registered" in again.stdout


def test_codex_config_gains_its_table_and_keeps_comments_and_the_rest(run_cli, home, user_home):
    path = user_home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(CODEX_CONFIG, encoding="utf-8")
    path.chmod(0o600)

    assert run_cli("mcp", "install", "codex", "--print").exit_code == 0
    assert path.read_text(encoding="utf-8") == CODEX_CONFIG
    run_cli("mcp", "install", "codex")
    run_cli("mcp", "install", "codex")
    text = path.read_text(encoding="utf-8")
    assert text.startswith(CODEX_CONFIG) and text.count("[mcp_servers.design-agent]") == 1
    config = tomllib.loads(text)
    entry = config["mcp_servers"].pop("design-agent")
    assert [entry["command"], *entry["args"]] == registered(home)
    assert config == tomllib.loads(CODEX_CONFIG)
    assert path.stat().st_mode & 0o777 == 0o600  # replaced whole, its mode kept

    run_cli("mcp", "uninstall", "codex")
    assert path.read_text(encoding="utf-8") == CODEX_CONFIG


def test_codex_home_is_where_codex_reads_it(run_cli, home, user_home, tmp_path, monkeypatch):
    codex_home = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    run_cli("mcp", "install", "codex")
    config = tomllib.loads((codex_home / "config.toml").read_text(encoding="utf-8"))
    assert config["mcp_servers"]["design-agent"]["args"][-1] == "mcp"
    assert not (user_home / ".codex").exists()


def test_codex_refuses_a_form_it_does_not_edit_and_changes_nothing(run_cli, user_home):
    path = user_home / ".codex" / "config.toml"
    path.parent.mkdir()
    inline = 'mcp_servers = { "design-agent" = { command = "old" } }\n'
    path.write_text(inline, encoding="utf-8")
    result = run_cli("mcp", "install", "codex")
    assert result.exit_code == 2 and "edit it by hand" in result.stderr
    assert path.read_text(encoding="utf-8") == inline


def test_cursor_mcp_json_is_made_when_missing_and_kept_when_not(run_cli, home, user_home):
    path = user_home / ".cursor" / "mcp.json"
    run_cli("mcp", "install", "cursor")
    made = json.loads(path.read_text(encoding="utf-8"))
    assert list(made["mcpServers"]) == ["design-agent"]
    run_cli("mcp", "uninstall", "cursor")

    path.write_text(json.dumps(CURSOR_CONFIG), encoding="utf-8")
    run_cli("mcp", "install", "cursor")
    servers = json.loads(path.read_text(encoding="utf-8"))["mcpServers"]
    assert list(servers) == ["browser", "design-agent"]
    run_cli("mcp", "uninstall", "cursor")
    assert json.loads(path.read_text(encoding="utf-8")) == CURSOR_CONFIG


def test_a_settings_file_that_is_not_json_is_left_alone(run_cli, user_home):
    path = user_home / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"theme": "x", // mine\n}', encoding="utf-8")
    result = run_cli("mcp", "install", "gemini")
    assert result.exit_code == 2 and "is not plain JSON (line 1" in result.stderr
    assert path.read_text(encoding="utf-8") == '{"theme": "x", // mine\n}'


def test_claude_is_told_by_its_own_command(run_cli, home, fake_claude):
    assert run_cli("mcp", "install", "claude", "--print").exit_code == 0
    assert not fake_claude.exists()  # --print runs nothing
    result = run_cli("mcp", "install", "claude")
    assert result.exit_code == 0 and "claude mcp add --scope user design-agent --" in result.stdout
    run_cli("mcp", "uninstall", "claude")
    assert command_lines(fake_claude) == [
        ["mcp", "remove", "--scope", "user", "design-agent"],  # an older registration, if any
        ["mcp", "add", "--scope", "user", "design-agent", "--", *registered(home)],
        ["mcp", "remove", "--scope", "user", "design-agent"],
    ]


def test_without_claude_on_path_it_says_exactly_what_to_run(run_cli, home, monkeypatch):
    monkeypatch.setenv("PATH", str(home.parent / "empty-bin"))
    result = run_cli("mcp", "install", "claude")
    assert result.exit_code == 4
    command = " ".join(["claude mcp add --scope user design-agent --", *registered(home)])
    assert result.stderr.strip().endswith(f"run this where it is: {command}")


def test_a_newcomer_registers_it_with_claude_and_their_agent_records_a_decision(
    run_cli, fake_claude
):
    """Issue 30's "done when": `mcp install claude`; the agent, asked for a usability test
    plan, calls find_method and method_brief, writes the plan, records a decision with
    record_decision; `design-agent decisions list` shows it with its reason."""
    assert run_cli("mcp", "install", "claude").exit_code == 0
    added = command_lines(fake_claude)[-1]
    server = added[added.index("--") + 1 :]  # what Claude Code will start

    async def agent(client: Any) -> dict[str, Any]:
        found = await client.call_tool("find_method", {"request": "a usability test plan"})
        method = found.structured_content["methods"][0]["method_id"]
        brief = await client.call_tool("method_brief", {"method_id": method})
        recorded = await client.call_tool(
            "record_decision",
            {
                "decision": "Moderated sessions",
                "rationale": "we need to hear why",
            },
        )
        return {"method": method, "brief": brief, "recorded": recorded}

    done = over_stdio(server, agent)
    assert done["method"] == "usability_test_plan"
    assert "Procedure" in done["brief"].content[0].text
    assert not done["recorded"].is_error

    listed = run_cli("decisions", "list").stdout.splitlines()
    assert listed[0].split() == ["id", "when", "decision", "why", "branch"]
    assert "Moderated sessions  we need to hear why" in listed[1]
