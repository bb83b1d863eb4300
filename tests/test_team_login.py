"""The command line against a team's server: `login URL`, the commands that go there as
that person, the ones that say they act on this home, and `logout` (issue 28 §2).

A real team server (uvicorn on 127.0.0.1, a real database on both stores) with Olga, who
owns Checkout and recorded why they chose moderated tests, Vera, an editor there, and
Paul, who may only read it. Each terminal is a home of its own. `ask` and the shell run
as the real console script.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.live_server import LiveServer

from design_agent.core.errors import ExitCode
from design_agent.memory import Memory
from design_agent.memory.passwords import hash_password
from design_agent.memory.url import DatabaseUrl

PASSWORDS = {
    "Olga": "olga's long passphrase",
    "Vera": "vera's long passphrase",
    "Paul": "paul's long passphrase",
}


class Setup:
    def __init__(self, server: LiveServer, database: str, terminal: Path) -> None:
        self.server, self.database, self.terminal = server, database, terminal

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def cli(
        self, *args: str, input: str | None = None, home: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        """The real console script, on the person's own home (Vera's by default)."""
        env = {**os.environ, "DESIGN_AGENT_HOME": str(home or self.terminal)}
        env.pop("DESIGN_AGENT_DATABASE_URL", None)
        return subprocess.run(
            [sys.executable, "-m", "design_agent", *args], input=input, env=env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip


@pytest.fixture(params=["sqlite", "postgresql"])
def team(request, tmp_path, home, monkeypatch) -> Iterator[Setup]:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    database = (
        str(tmp_path / "team.db") if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )  # fmt: skip
    with Memory.open(database) as memory:
        for name, password in PASSWORDS.items():
            person = memory.add_person(name)
            memory.accept_invite(memory.invite_person(person.id), hash_password(password))
        memory.act_as(memory.find_person("Olga"))
        project = memory.create_project("Checkout").id
        memory.switch_project(project)
        memory.share_project(project, memory.find_person("Vera").id, "editor")
        memory.share_project(project, memory.find_person("Paul").id, "viewer")
        memory.add_decision(project, "Moderated usability tests", "we need to hear why")
    server = LiveServer(tmp_path / "server-home", database=DatabaseUrl.parse(database), team=True)
    terminal = tmp_path / "vera"
    terminal.mkdir(mode=0o700)
    yield Setup(server, database, terminal)
    server.stop()


def test_a_designer_logs_in_and_the_team_commands_go_to_the_server(team, run_cli, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(team.terminal))
    wrong = run_cli("login", team.url, "--name", "vera", input="not her password\n")
    assert wrong.exit_code == ExitCode.NOT_ALLOWED and "wrong name or password" in wrong.output
    assert not (team.terminal / "team.json").exists()
    done = run_cli("login", team.url + "/", "--name", "vera", input=PASSWORDS["Vera"] + "\n")
    assert done.exit_code == 0, done.output
    assert f"Logged in to {team.url} as Vera" in done.output
    saved = team.terminal / "team.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    login = json.loads(saved.read_text(encoding="utf-8"))
    assert login["url"] == team.url and PASSWORDS["Vera"] not in saved.read_text()
    with Memory.open(team.database) as memory:
        assert memory.credential_holder(login["token"])[0].name == "Vera"

    listed = json.loads(run_cli("projects", "list", "--json").output)
    assert [(p["name"], p["role"]) for p in listed] == [("Checkout", "editor")]
    assert "editor" in run_cli("projects", "list").output
    assert run_cli("projects", "switch", "checkout").output.strip() == "Active project: Checkout"
    decisions = run_cli("decisions", "list")
    assert decisions.exit_code == 0 and "Olga" in decisions.output, decisions.output
    found = json.loads(run_cli("decisions", "search", "why moderated", "--json").output)
    assert found[0]["author"] == "Olga"
    hits = json.loads(run_cli("search", "moderated", "--json").output)
    assert hits["groups"][0]["project"]["name"] == "Checkout"
    shared = run_cli("decisions", "add", "Recruit from support", "--project", "checkout")
    assert shared.exit_code == 0 and "by Vera" in shared.output
    own = run_cli("projects", "create", "Vera's research")
    assert own.exit_code == 0 and "you own it" in own.output
    added = run_cli("decisions", "add", "Diary study first", "--why", "context matters")
    assert added.exit_code == 0 and "by Vera" in added.output
    history = json.loads(run_cli("history", "--json").output)
    assert history == []  # Vera's new project has no turns yet

    local = run_cli("config", "show")
    assert local.exit_code == 0
    assert f"logged in to {team.url} as Vera; this command acts on this computer's own home" in (
        local.stderr
    )
    assert "acts on this computer" not in run_cli("projects", "list").stderr

    out = run_cli("logout")
    assert out.exit_code == 0 and "its token ended on the server" in out.output
    assert not saved.exists()
    with Memory.open(team.database) as memory:
        assert memory.credential_holder(login["token"]) is None
    assert "Vera's research" not in run_cli("projects", "list").output  # this home's own now


def test_ask_and_the_shell_go_to_the_server_as_that_person(team):
    token = _login(team, "Vera")
    asked = team.cli("ask", "--project", "Checkout", "why did we choose moderated tests?")
    assert asked.returncode == 0, asked.stderr
    assert "Moderated usability tests" in asked.stdout and "by Olga" in asked.stdout
    paul = team.terminal.parent / "paul"
    paul.mkdir(mode=0o700)
    _login(team, "Paul", paul)
    viewer = team.cli("ask", "--project", "Checkout", "plan a usability test", home=paul)
    assert viewer.returncode == ExitCode.NOT_ALLOWED
    assert viewer.stderr.strip().startswith("Error: Paul is a viewer")
    assert viewer.stderr.count("\n") == 1
    read = team.cli("decisions", "search", "why moderated", "--project", "checkout", home=paul)
    assert read.returncode == 0 and "Olga" in read.stdout  # a viewer reads and searches
    shell = team.cli(
        input="/switch checkout\nwhy did we choose moderated tests?\n/decisions\n/quit\n"
    )
    assert shell.returncode == 0, shell.stderr
    assert "Vera on the team's server" in shell.stdout
    assert shell.stdout.count("by Olga") >= 1 and "Olga" in shell.stdout.split("/decisions")[-1]
    assert token


def test_a_login_that_ended_or_a_server_out_of_reach_says_so_in_one_line(team):
    token = _login(team, "Vera")
    with Memory.open(team.database) as memory:
        memory.revoke_credential(token)
    ended = team.cli("ask", "--project", "Checkout", "why did we choose moderated tests?")
    assert ended.returncode == ExitCode.NOT_ALLOWED
    assert "sign in again" in ended.stderr and ended.stderr.count("\n") == 1
    listed = team.cli("projects", "list")
    assert listed.returncode == ExitCode.NOT_ALLOWED and f"design-agent login {team.url}" in (
        listed.stderr
    )
    login = json.loads((team.terminal / "team.json").read_text(encoding="utf-8"))
    login["url"] = "http://127.0.0.1:9"  # nothing listens there
    (team.terminal / "team.json").write_text(json.dumps(login), encoding="utf-8")
    away = team.cli("ask", "why did we choose moderated tests?")
    assert away.returncode == ExitCode.DATABASE_UNAVAILABLE
    assert "cannot reach the team's server" in away.stderr and away.stderr.count("\n") == 1
    history = team.cli("history")
    assert history.returncode == ExitCode.DATABASE_UNAVAILABLE


def _login(team: Setup, name: str, home: Path | None = None) -> str:
    done = team.cli("login", team.url, "--name", name, input=PASSWORDS[name] + "\n", home=home)
    assert done.returncode == 0, done.stderr
    saved = (home or team.terminal) / "team.json"
    return str(json.loads(saved.read_text(encoding="utf-8"))["token"])
