"""Two `serve --team` processes on one PostgreSQL database serve one team (issue 28 §3).

Real processes, a real cluster, a slow fake Claude: a turn started through one process is
followed (SSE), reattached to and cancelled through the other; a busy project is 409 from
either; the follower's pool lends no connection while it streams.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from fixtures.fakes import claude_run, install_fake
from fixtures.team_servers import Process

from design_agent.memory import Memory


@pytest.fixture
def two_servers(tmp_path, home, postgres_url) -> Iterator[tuple[Process, Process, dict]]:
    """Ana (admin), Olga (owner), Vera (viewer) and Checkout on the database; two team
    server processes on it; Claude a fake that streams 60 words, one every 50 ms."""
    tokens = {}
    with Memory.open(postgres_url) as memory:
        for name, admin in (("Ana", True), ("Olga", False), ("Vera", False)):
            tokens[name] = memory.new_api_token(memory.add_person(name, admin).id, "tests")
        memory.act_as(memory.find_person("Olga"))
        project = memory.create_project("Checkout").id
        memory.share_project(project, memory.find_person("Vera").id, "viewer")
    fake = install_fake(tmp_path / "bin", "claude")
    answer = claude_run(tmp_path / "slow.json", *[f"word{i} " for i in range(60)])
    env = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_DATABASE_URL": postgres_url,
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(fake),
        "DESIGN_AGENT_ENV_PASSTHROUGH": "FAKE_*",
        "FAKE_RECORDING": str(answer),
        "FAKE_DELAY": "0.05",
    }
    first = Process(env, tmp_path / "first.log")
    try:
        second = Process(env, tmp_path / "second.log")
    except BaseException:
        first.stop()
        raise
    yield first, second, tokens
    first.stop()
    second.stop()


def start(server: Process, token: str, message: str = "plan a usability test") -> str:
    status, body = server.request(token, "POST", "/api/v1/projects/checkout/turns",
                                  {"message": message})  # fmt: skip
    assert status == 202, body
    return str(body["turn_id"])


def test_a_turn_started_on_one_process_is_followed_and_reattached_on_the_other(two_servers):
    first, second, tokens = two_servers
    turn_id = start(first, tokens["Olga"])
    with second.stream(tokens["Vera"], turn_id) as events:
        followed = []
        for message in events:
            followed.append(message)
            if len(followed) == 3:  # while it runs: busy on both, from either process
                for server in (first, second):
                    status, body = server.request(tokens["Olga"], "POST",
                                                  "/api/v1/projects/checkout/turns",
                                                  {"message": "another request"})  # fmt: skip
                    assert status == 409 and body["running_turn_id"] == turn_id
                lent = [
                    second.request(tokens["Ana"], "GET", "/api/v1/status")[1]["pool"]["in_use"]
                    for _ in range(10)
                ]  # each new event is read with a connection lent for that read only
                assert min(lent) == 0 and max(lent) <= 1, lent
    *streamed, end = followed
    assert end["event"] == "end" and end["data"]["status"] == "complete"
    assert [int(m["id"]) for m in streamed] == list(range(1, len(streamed) + 1))
    texts = "".join(m["data"].get("text", "") for m in streamed if m["event"] == "text")
    assert "word0" in texts and "word59" in texts
    with first.stream(tokens["Olga"], turn_id) as events:
        local = list(events)
    assert [m["data"] for m in local] == [m["data"] for m in followed]  # the same turn
    with second.stream(tokens["Vera"], turn_id, after=5) as events:
        resumed = list(events)
    assert resumed[0]["id"] == "6" and [m["data"] for m in resumed] == [
        m["data"] for m in followed[5:]
    ]
    status, summary = second.request(tokens["Vera"], "GET", f"/api/v1/turns/{turn_id}")
    assert summary["status"] == "complete" and summary["person"] == "Olga"
    assert summary["events"] == len(streamed)
    status, history = second.request(tokens["Vera"], "GET", "/api/v1/projects/checkout/history")
    assert [(t["role"], t["author"]) for t in history["turns"]] == [
        ("user", "Olga"),
        ("agent", "Olga"),
    ]


def test_a_turn_is_cancelled_through_the_other_process(two_servers):
    first, second, tokens = two_servers
    turn_id = start(first, tokens["Olga"])
    with second.stream(tokens["Olga"], turn_id) as events:
        seen = []
        for message in events:
            seen.append(message)
            if message["event"] == "text" and len(seen) < 50:
                cancel = f"/api/v1/turns/{turn_id}/cancel"
                assert second.request(tokens["Vera"], "POST", cancel)[0] == 403  # not a viewer
                assert second.request(tokens["Olga"], "POST", cancel)[0] == 202
                seen.append({"cancel_sent": True})
                break
        for message in events:
            seen.append(message)
    assert seen[-1]["event"] == "end" and seen[-1]["data"]["status"] == "cancelled"
    _, history = first.request(tokens["Olga"], "GET", "/api/v1/projects/checkout/history")
    assert history["turns"][-1]["status"] == "cancelled"  # the partial answer, saved
    assert start(second, tokens["Olga"], "a new request")  # the project is free again


def test_a_turn_of_a_process_that_died_frees_its_project(postgres_url):
    from design_agent.memory.postgres import turn_log
    from design_agent.memory.postgres.connection import PgConnection
    from design_agent.memory.url import DatabaseUrl

    db = PgConnection(DatabaseUrl.parse(postgres_url))
    then = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
    turn_log.claim(db, "abc", "checkout", None, "a question", "gone:1", then)
    with pytest.raises(turn_log.Busy) as busy:
        turn_log.claim(db, "def", "checkout", None, "another", "here:2", then)
    assert busy.value.running_id == "abc"
    later = then + timedelta(seconds=turn_log.STALE_SECONDS + 1)
    turn_log.claim(db, "def", "checkout", None, "another", "here:2", later)
    dead = turn_log.get(db, "abc")
    assert dead.status == "failed" and dead.error == turn_log.DIED
    assert turn_log.running_on(db, "checkout") == "def"
    turn_log.finish(db, "def", "complete", 0, None, later)
    assert turn_log.forget(db, later + timedelta(seconds=turn_log.KEEP_SECONDS + 1)) == 2
