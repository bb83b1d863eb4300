"""A designer uses design-agent through its HTTP API, as the web page does.

A real server (uvicorn on 127.0.0.1, a free port) on a temp home with a real
SQLite file; the offline provider or a fake Claude CLI answers. The client is
the standard library's http.client.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.fakes import claude_run, install_fake, recording
from fixtures.live_server import LiveServer


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")


@pytest.fixture
def server(home: Path, offline: None) -> Iterator[LiveServer]:
    live = LiveServer(home)
    yield live
    live.stop()


def create(server: LiveServer, name: str) -> dict:
    status, body = server.json("POST", "/api/v1/projects", {"name": name})
    assert status == 201, body
    return body


def test_a_designer_creates_a_project_asks_and_watches_the_answer_stream(server):
    project = create(server, "Mobile Checkout")
    assert project["id"] == "mobile-checkout" and project["active"] is True
    status, body = server.json("POST", "/api/v1/projects", {"name": "mobile checkout"})
    assert status == 409 and body["error"]["code"] == "conflict"

    turn_id = server.start_turn("mobile-checkout", "plan a usability test for the checkout")
    messages = list(server.events(turn_id))

    *events, end = messages
    assert [int(m["id"]) for m in events] == list(range(1, len(events) + 1))
    assert events[0]["event"] == "preferences" and events[-1]["event"] == "finished"
    assert all(m["event"] == m["data"]["kind"] for m in events)  # the `ask --events` objects
    finished = events[-1]["data"]
    assert finished["task"] == "usability_test_plan" and finished["project"] == "Mobile Checkout"
    assert end["data"] == {"status": "complete", "exit_code": 0, "error": None}
    assert all(m["comments"][0].startswith("t=") for m in events)

    status, turn = server.json("GET", f"/api/v1/turns/{turn_id}")
    assert turn["status"] == "complete" and turn["events"] == len(events)
    status, history = server.json("GET", "/api/v1/projects/mobile-checkout/history?limit=10")
    assert [t["role"] for t in history["turns"]] == ["user", "agent"]
    assert history["turns"][1]["task_id"] == "usability_test_plan"
    assert history["turns"][1]["task_name"] == "Usability test plan"
    _, spanish = server.json("GET", "/api/v1/projects/mobile-checkout/history?lang=es")
    assert spanish["turns"][1]["task_name"] == "Plan de prueba de usabilidad"
    status, listed = server.json("GET", "/api/v1/projects")
    assert listed["projects"][0]["turns"] == 2


def test_reattaching_by_id_replays_the_events_after_the_last_one_seen(server):
    create(server, "Onboarding")
    turn_id = server.start_turn("onboarding", "journey map for first-time buyers")
    everything = list(server.events(turn_id))
    resumed = list(server.events(turn_id, headers={"Last-Event-ID": "3"}))
    assert resumed[0]["id"] == "4"
    assert [m.get("data") for m in resumed] == [m.get("data") for m in everything[3:]]
    after = list(server.events(turn_id, query="?after=5"))
    assert after[0]["id"] == "6" and after[-1]["event"] == "end"


def test_rename_activate_and_delete_with_the_counted_confirmation(server):
    create(server, "Old idea")
    create(server, "Keeper")
    status, renamed = server.json("PATCH", "/api/v1/projects/old-idea", {"name": "Older idea"})
    assert status == 200 and renamed["name"] == "Older idea" and renamed["id"] == "old-idea"
    assert server.json("POST", "/api/v1/projects/old-idea/activate")[0] == 200
    status, state = server.json("GET", "/api/v1/status")
    assert state["active_project"] == {"id": "old-idea", "name": "Older idea"}

    status, preview = server.json("POST", "/api/v1/projects/old-idea/delete-preview")
    assert preview["counts"]["decisions"] == 0 and preview["confirm"]
    status, body = server.json("DELETE", "/api/v1/projects/old-idea")
    assert status == 400 and body["error"]["code"] == "bad_request"
    # Something is added after the preview: the old confirmation no longer deletes.
    decision = {"decision": "Ship it", "rationale": "tests pass"}
    assert server.json("POST", "/api/v1/projects/old-idea/decisions", decision)[0] == 201
    status, body = server.json("DELETE", f"/api/v1/projects/old-idea?confirm={preview['confirm']}")
    assert status == 409 and body["error"]["code"] == "changed"
    assert body["preview"]["counts"]["decisions"] == 1
    fresh = body["preview"]["confirm"]
    status, _, data = server.request("DELETE", f"/api/v1/projects/old-idea?confirm={fresh}")
    assert status == 204 and data == b""
    status, listed = server.json("GET", "/api/v1/projects")
    assert [p["id"] for p in listed["projects"]] == ["keeper"]


def test_decisions_files_search_and_tree_of_a_project(server, tmp_path):
    create(server, "Checkout")
    decision = {"decision": "Use moderated testing", "rationale": "we need to probe why"}
    status, recorded = server.json("POST", "/api/v1/projects/checkout/decisions", decision)
    assert status == 201 and recorded["decision"] == "Use moderated testing"
    status, listed = server.json("GET", "/api/v1/projects/checkout/decisions")
    assert [d["rationale"] for d in listed["decisions"]] == ["we need to probe why"]

    status, body = upload(server, "checkout", "brief.md", b"# Brief\nCheckout abandonment is 70%.")
    assert status == 201 and body["file"]["filename"] == "brief.md" and not body["duplicate"]
    status, again = upload(server, "checkout", "brief.md", b"# Brief\nCheckout abandonment is 70%.")
    assert again["duplicate"] is True
    status, files = server.json("GET", "/api/v1/projects/checkout/files")
    assert [f["filename"] for f in files["files"]] == ["brief.md"]

    status, found = server.json("GET", "/api/v1/search?q=moderated&project=checkout")
    assert status == 200 and found["results"]["groups"][0]["hits"][0]["kind"] == "decision"
    status, everywhere = server.json("GET", "/api/v1/search?q=abandonment&all=1")
    assert everywhere["results"]["groups"][0]["project"]["id"] == "checkout"
    status, body = server.json("GET", "/api/v1/search?q=x")
    assert status == 400

    turn_id = server.start_turn("checkout", "plan a usability test for the checkout")
    assert server.wait_turn(turn_id)["status"] == "complete"
    status, tree = server.json("GET", "/api/v1/projects/checkout/tree")
    assert status == 200 and tree["tree"]["nodes"] and tree["current"]


def test_research_files_uploaded_in_the_page_become_evidence_sessions(server):
    create(server, "Booking")
    data = Path(__file__).parent / "data" / "evidence"
    vtt = (data / "transcripts" / "01_zoom_en.vtt").read_bytes()
    status, body = upload(server, "booking", "01_zoom_en.vtt", vtt, to="evidence")
    assert status == 201 and body["session"]["code"] == "S01" and not body["duplicate"]
    assert body["session"]["participants"] == ["P1"] and body["session"]["segments"] == 30
    status, again = upload(server, "booking", "01_zoom_en.vtt", vtt, to="evidence")
    assert again["duplicate"] is True
    status, bad = upload(server, "booking", "plain.txt", b"no labels at all here", to="evidence")
    assert status == 409 and bad["error"]["code"] == "needs_answer"  # the page asks
    assert "plain.txt:1: no speaker labels" in bad["error"]["message"]
    assert bad["question"] == {"ask": "labels", "source": "plain.txt", "options": []}
    status, odd = upload(server, "booking", "slides.key", b"not research", to="evidence")
    assert status == 400 and "slides.key" in odd["error"]["message"]
    status, listed = server.json("GET", "/api/v1/projects/booking/evidence")
    assert [s["code"] for s in listed["sessions"]] == ["S01"]


def upload(
    server: LiveServer,
    project: str,
    name: str,
    data: bytes,
    kind: str = "brief",
    to: str = "files",
):
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n{kind}\r\n'.encode(),
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: text/markdown\r\n\r\n".encode()
        + data
        + b"\r\n",
        f"--{boundary}--\r\n".encode(),
    ]
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    status, _, body = server.request(
        "POST", f"/api/v1/projects/{project}/{to}", headers=headers, raw=b"".join(parts)
    )
    return status, json.loads(body)


def test_settings_and_providers_change_as_config_and_providers_use_do(server, home):
    status, settings = server.json("GET", "/api/v1/settings")
    assert settings["settings"]["language"]["value"] == "auto"
    status, changed = server.json("PATCH", "/api/v1/settings", {"language": "es"})
    assert status == 200 and changed["settings"]["language"] == {"value": "es", "source": "file"}
    assert "language: es" in (home / "settings.yaml").read_text(encoding="utf-8")
    status, body = server.json("PATCH", "/api/v1/settings", {"colour": "blue"})
    assert status == 422 and "unknown setting" in body["error"]["message"]
    status, body = server.json("PATCH", "/api/v1/settings", {"tier": "huge"})
    assert status == 422 and body["error"]["code"] == "invalid"

    status, listed = server.json("GET", "/api/v1/providers")
    names = {p["name"]: p for p in listed["providers"]}
    assert names["offline"]["installed"] and names["offline"]["active"]
    status, report = server.json("GET", "/api/v1/providers/offline/doctor")
    assert status == 200 and report["verdict"] == "ready"
    status, body = server.json("POST", "/api/v1/providers/use", {"name": "nosuch"})
    assert status == 404 and body["error"]["exit_code"] == 6


def test_a_provider_that_is_not_installed_cannot_be_chosen(server, monkeypatch, tmp_path):
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", str(tmp_path / "missing" / "claude"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    status, body = server.json("POST", "/api/v1/providers/use", {"name": "claude"})
    assert status == 409 and body["error"]["code"] == "provider_unavailable"
    assert body["error"]["exit_code"] == 4


def test_errors_are_one_json_shape_with_the_cli_exit_code(server):
    status, body = server.json("GET", "/api/v1/projects/nosuch/history")
    assert status == 404 and body["error"]["exit_code"] == 6 and body["error"]["message"]
    status, body = server.json("GET", "/api/v1/projects/Not%20A%20Slug/history")
    assert status == 400 and body["error"]["code"] == "bad_request"
    status, body = server.json("GET", "/api/v1/turns/abc123")
    assert status == 404 and body["error"]["code"] == "not_found"
    status, body = server.json("POST", "/api/v1/projects", {})
    assert (
        status == 422 and body["error"]["code"] == "invalid" and "name" in body["error"]["message"]
    )
    create(server, "Empty")
    status, body = server.json("POST", "/api/v1/projects/empty/turns", {"message": "   "})
    assert status == 400


def test_a_citation_opens_its_guide_section_in_english_or_spanish(server):
    status, guide = server.json("GET", "/api/v1/guides/test_plan.md")
    assert status == 200 and guide["title"]
    anchors = [s["anchor"] for s in guide["sections"]]
    assert "procedure" in anchors
    status, spanish = server.json("GET", "/api/v1/guides/test_plan?lang=es")
    assert status == 200 and spanish["guide_id"] == "test_plan.md"
    assert server.json("GET", "/api/v1/guides/nosuch.md")[0] == 404


def test_the_api_describes_itself_without_loading_anything_from_the_internet(server):
    status, schema = server.json("GET", "/api/openapi.json")
    assert status == 200 and "/api/v1/projects/{project_id}/turns" in schema["paths"]
    status, _, page = server.request("GET", "/api/docs")
    assert status == 200 and b"/api/v1/turns/{turn_id}/events" in page
    assert b"<script" not in page and b"cdn" not in page.lower()


def test_a_failing_provider_ends_the_turn_failed_with_its_exit_code(home, tmp_path, monkeypatch):
    fake_env(monkeypatch, tmp_path, recording("run_claude_partial"), FAKE_MODE="crash")
    live = LiveServer(home)
    try:
        create(live, "Crashy")
        turn_id = live.start_turn("crashy", "plan a usability test for the checkout")
        end = list(live.events(turn_id))[-1]
        assert end["data"]["status"] == "failed" and end["data"]["exit_code"] == 5
        assert end["data"]["error"]
    finally:
        live.stop()


def fake_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, record: str, **extra: str) -> None:
    """Claude is a fake CLI replaying `record` (FAKE_* settings in `extra`)."""
    binary = install_fake(tmp_path / "bin", "claude")
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "claude")
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", str(binary))
    monkeypatch.setenv("FAKE_RECORDING", record)
    for name, value in extra.items():
        monkeypatch.setenv(name, value)


def slow_answer(tmp_path: Path, pieces: int = 200) -> str:
    """A recorded Claude run that streams `pieces` words (slow with FAKE_DELAY)."""
    return str(claude_run(tmp_path / "slow.json", *[f"word{i} " for i in range(pieces)]))
