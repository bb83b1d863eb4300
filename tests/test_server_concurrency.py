"""Several things at once on one home: turns on two projects, a cancel that must stop only
its own turn, a dropped browser, a server stopped mid-turn, and the shell and `ask`
working on the same database while the server runs a turn.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pexpect
import pytest
from fixtures.fakes import install_fake, invoke
from fixtures.live_server import LiveServer, parse_sse
from test_server_api import create, fake_env, slow_answer

AGENT = [sys.executable, "-m", "design_agent"]
ASKED = "plan a usability test for the checkout"


def wait_for_text(server: LiveServer, turn_id: str) -> None:
    """Until the answer has begun to stream (a text event came)."""
    for message in server.events(turn_id):
        if message["event"] == "text":
            return
    raise AssertionError("the turn ended before any text streamed")


def agent_turns(server: LiveServer, project: str) -> list[dict]:
    status, body = server.json("GET", f"/api/v1/projects/{project}/history?limit=50")
    assert status == 200, body
    return [t for t in body["turns"] if t["role"] == "agent"]


def test_cancelling_one_turn_stops_only_it_and_a_busy_project_answers_409(
    home, tmp_path, monkeypatch
):
    fake_env(monkeypatch, tmp_path, slow_answer(tmp_path, 60), FAKE_DELAY="0.05")
    server = LiveServer(home)
    try:
        create(server, "Alpha")
        create(server, "Beta")
        alpha = server.start_turn("alpha", ASKED)
        beta = server.start_turn("beta", ASKED)
        status, busy = server.json("POST", "/api/v1/projects/alpha/turns", {"message": "again"})
        assert status == 409 and busy["error"]["code"] == "project_busy"
        assert busy["running_turn_id"] == alpha
        wait_for_text(server, alpha)
        wait_for_text(server, beta)  # both stream at the same time
        assert server.json("GET", f"/api/v1/turns/{beta}")[1]["status"] == "running"

        assert server.json("POST", f"/api/v1/turns/{alpha}/cancel")[0] == 202
        assert server.wait_turn(alpha)["status"] == "cancelled"
        ended = server.wait_turn(beta)
        assert ended["status"] == "complete" and ended["exit_code"] == 0
    finally:
        server.stop()
    with server.context.memory() as memory:
        alpha_answer = memory.recent_turns("alpha", 5)[-1]
        beta_answer = memory.recent_turns("beta", 5)[-1]
    assert alpha_answer.status == "cancelled" and alpha_answer.message.startswith("word0")
    assert beta_answer.status == "complete" and "word59" in beta_answer.message


def test_a_dropped_client_never_stops_the_turn_and_reattaching_replays_it(
    home, tmp_path, monkeypatch
):
    fake_env(monkeypatch, tmp_path, slow_answer(tmp_path, 40), FAKE_DELAY="0.02")
    server = LiveServer(home)
    try:
        create(server, "Gamma")
        turn_id = server.start_turn("gamma", ASKED)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request(
            "GET",
            f"/api/v1/turns/{turn_id}/events",
            headers={"Authorization": f"Bearer {server.token}"},
        )
        seen = []
        for message in parse_sse(conn.getresponse()):
            seen.append(message)
            if message["event"] == "text":
                break
        conn.close()  # the browser tab is closed mid-answer

        ended = server.wait_turn(turn_id)
        assert ended["status"] == "complete"
        replay = list(server.events(turn_id))
        assert [m["data"] for m in replay[: len(seen)]] == [m["data"] for m in seen]
        assert replay[-2]["event"] == "finished" and replay[-1]["data"]["status"] == "complete"
        assert "word39" in agent_turns(server, "gamma")[-1]["message"]
    finally:
        server.stop()


def test_stopping_the_server_mid_turn_saves_the_turn_as_cancelled(home, tmp_path):
    binary = install_fake(tmp_path / "bin", "claude")
    env = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(binary),
        "FAKE_RECORDING": slow_answer(tmp_path, 400),
        "FAKE_DELAY": "0.05",
    }
    process = subprocess.Popen([*AGENT, "serve"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        process.stdout.readline()
        info = json.loads((home / "server.json").read_text())
        client = Client(info)
        assert client.call("POST", "/api/v1/projects", {"name": "Delta"})[0] == 201
        status, body = client.call("POST", "/api/v1/projects/delta/turns", {"message": ASKED})
        assert status == 202
        client.until_text(body["turn_id"])
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
        assert time.monotonic() - started < 8
    finally:
        if process.poll() is None:
            process.kill()
    assert not (home / "server.json").exists()
    # What was saved, as `history` shows it (in-process: the server is the process under test).
    history = invoke(home, "history", "--json", "-p", "delta")
    turns = json.loads(history.stdout)
    turns = turns["turns"] if isinstance(turns, dict) else turns
    assert [t["status"] for t in turns if t["role"] == "agent"] == ["cancelled"]


class Client:
    """A minimal client of a server described by its server.json."""

    def __init__(self, info: dict) -> None:
        self.port = info["port"]
        self.headers = {"Authorization": f"Bearer {info['token']}"}

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            headers = {**self.headers, "Content-Type": "application/json"}
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()

    def until_text(self, turn_id: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("GET", f"/api/v1/turns/{turn_id}/events", headers=self.headers)
            for message in parse_sse(conn.getresponse()):
                if message["event"] == "text":
                    return
        finally:
            conn.close()
        raise AssertionError("no text streamed")


@pytest.mark.skipif(shutil.which("design-agent") is None, reason="design-agent not installed")
def test_the_shell_and_ask_work_on_the_same_home_while_a_server_turn_runs(
    home, tmp_path, monkeypatch
):
    # The served answer streams for about 10 s: the shell and `ask` run meanwhile.
    fake_env(monkeypatch, tmp_path, slow_answer(tmp_path, 200), FAKE_DELAY="0.05")
    server = LiveServer(home)
    try:
        create(server, "Served")
        create(server, "Asked")
        turn_id = server.start_turn("served", ASKED)
        wait_for_text(server, turn_id)
        env = {**os.environ, "DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline"}
        ask = subprocess.Popen(
            [*AGENT, "ask", "--json", "-p", "Asked", "journey map for first-time buyers"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        shell = pexpect.spawn(
            shutil.which("design-agent") or "design-agent",
            env={**env, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "COLUMNS": "100"},
            encoding="utf-8",
            timeout=60,
            dimensions=(40, 100),
        )
        try:
            shell.sendline("/projects")  # typed ahead: the shell keeps it
            shell.expect("Your projects:")
            shell.expect("Asked")
            shell.sendline("exit")
            shell.expect("Bye.")
        finally:
            shell.close(force=True)
        out, err = ask.communicate(timeout=120)
        assert ask.returncode == 0, err
        assert json.loads(out)["task"] == "journey_mapping"
        assert server.json("GET", f"/api/v1/turns/{turn_id}")[1]["status"] == "running"
        assert server.wait_turn(turn_id, within=60)["status"] == "complete"
    finally:
        server.stop()
    with server.context.memory() as memory:
        served = memory.recent_turns("served", 10)
        asked = memory.recent_turns("asked", 10)
    assert [t.role for t in served] == ["user", "agent"] and "word199" in served[-1].message
    assert [t.role for t in asked] == ["user", "agent"] and asked[-1].task_id == "journey_mapping"
