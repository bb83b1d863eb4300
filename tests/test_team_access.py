"""Who may call what on a team's server: every endpoint x {anonymous, non-member, viewer,
editor, owner, admin}, on a real server and a real database (both stores).

Each endpoint names the least a caller must be: "open" (anyone, signed in or not),
"person" (anyone signed in; what it lists is filtered to their projects), "viewer",
"editor", "owner" or "admin". A caller below it gets 401 (anonymous), 403 or 404, and an
answer with none of the project's data (SECRET is in its turns, decisions and files); a
caller at or above it gets what they asked for. A new route without a row here fails the
test, so the table stays the whole API.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fixtures.team import PEOPLE, PROJECT, ROLES, SECRET, Team

LEVELS = ("open", "person", "viewer", "editor", "owner", "admin")
RANK = {"anonymous": 0, "nonmember": 1, "viewer": 2, "editor": 3, "owner": 4, "admin": 5}
NEEDED = {"open": 0, "person": 1, "viewer": 2, "editor": 3, "owner": 4, "admin": 5}
BOUNDARY = "----da-boundary"


@dataclass
class Call:
    """One request: what to send (made for each caller: some need a fresh object)."""

    path: str
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Probe:
    method: str
    route: str  # the route's path as the app declares it
    least: str
    make: Callable[[Team, str], Call]
    ok: Callable[[int, bytes], bool] = lambda status, body: 200 <= status < 400
    after: Callable[[Team, str], None] | None = None  # checked after a refused call


def fixed(path: str, body: Any = None) -> Callable[[Team, str], Call]:
    return lambda team, role: Call(path, body)


def _decision(team: Team, role: str) -> int:
    with team.memory("owner") as memory:
        return memory.add_decision(PROJECT, f"A decision for {role} to change").id


def _edit(team: Team, role: str) -> Call:
    decision = _decision(team, role)
    return Call(f"/api/v1/projects/{PROJECT}/decisions/{decision}", {"decision": "Changed"})


def _retire(team: Team, role: str) -> Call:
    return Call(f"/api/v1/projects/{PROJECT}/decisions/{_decision(team, role)}/retire", {})


def _bin(team: Team, role: str) -> Call:
    """A project to delete, with the same members as Checkout, and its confirmation."""
    from design_agent.server.routes_projects import fingerprint

    with team.memory("owner") as memory:
        project = memory.create_project(f"Bin for {role}").id
        memory.share_project(project, team.ids["editor"], "editor")
        memory.share_project(project, team.ids["viewer"], "viewer")
        confirm = fingerprint(memory.deletion_report(project))
    return Call(f"/api/v1/projects/{project}?confirm={confirm}")


def _bin_kept(team: Team, role: str) -> None:
    with team.memory() as memory:
        assert memory.find_project(f"Bin for {role}")


def _temporary_member(team: Team, role: str) -> Call:
    with team.memory() as memory:
        person = memory.add_person(f"Temp {role}")
        memory.share_project(PROJECT, person.id, "viewer")
    return Call(f"/api/v1/projects/{PROJECT}/members/Temp%20{role}")


def _member_kept(team: Team, role: str) -> None:
    with team.memory() as memory:
        assert f"Temp {role}" in [m.name for m in memory.members(PROJECT)]


def _name_kept(team: Team, role: str) -> None:
    with team.memory() as memory:
        assert memory.get_project(PROJECT).name == "Checkout"


def _upload(team: Team, role: str) -> Call:
    text = f"# Notes from {role}\n"
    raw = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{role}.md"\r\nContent-Type: text/markdown\r\n\r\n{text}\r\n'
        f"--{BOUNDARY}--\r\n"
    ).encode()
    content_type = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    return Call(f"/api/v1/projects/{PROJECT}/files", raw=raw, headers=content_type)


def _evidence(team: Team, role: str) -> Call:
    """A Zoom transcript of the role's own (a duplicate by content is refused)."""
    vtt = (
        "WEBVTT\r\n\r\n00:00:01.000 --> 00:00:04.000\r\n"
        f"Ana: As a {role} I book my physio by phone because the app confuses me every time.\r\n"
        "\r\n00:00:05.000 --> 00:00:08.000\r\nLeo: Tell me more about what confuses you.\r\n"
    )
    raw = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="moderator"\r\n\r\nLeo\r\n'
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{role}.vtt"\r\nContent-Type: text/vtt\r\n\r\n{vtt}\r\n'
        f"--{BOUNDARY}--\r\n"
    ).encode()
    content_type = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
    return Call(f"/api/v1/projects/{PROJECT}/evidence", raw=raw, headers=content_type)


def _own_token(team: Team, role: str) -> Call:
    """`logout` ends the token it is sent with: a fresh one, so the caller's stays."""
    if role == "anonymous":
        return Call("/api/v1/tokens/current")
    with team.memory() as memory:
        token = memory.new_api_token(team.ids[role], "to end")
    return Call("/api/v1/tokens/current", headers={"Authorization": f"Bearer {token}"})


def _turn(team: Team, role: str) -> Call:
    return Call(f"/api/v1/projects/{PROJECT}/turns", {"message": "plan a usability test"})


def _wait_idle(team: Team, role: str) -> None:
    """A turn started by an allowed caller ends before the next caller starts one."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if team.server.context.turns.running_on(PROJECT) is None:
            return
        time.sleep(0.05)
    raise AssertionError("the turn did not end within 60 s")


def _is(status: int, *words: str) -> Callable[[int, bytes], bool]:
    return lambda got, body: got == status and all(w.encode() in body for w in words)


def probes(finished_turn: str) -> list[Probe]:
    project = f"/api/v1/projects/{PROJECT}"
    turn = f"/api/v1/turns/{finished_turn}"
    return [
        Probe("GET", "/", "open", fixed("/")),
        Probe("GET", "/invite", "open", fixed("/invite")),
        Probe("GET", "/api/docs", "person", fixed("/api/docs")),
        Probe("GET", "/api/openapi.json", "person", fixed("/api/openapi.json")),
        Probe("GET", "/api/v1/status", "person", fixed("/api/v1/status")),
        Probe("GET", "/api/v1/me", "person", fixed("/api/v1/me")),
        Probe("GET", "/api/v1/projects", "person", fixed("/api/v1/projects")),
        Probe(
            "POST",
            "/api/v1/projects",
            "person",
            lambda team, role: Call("/api/v1/projects", {"name": f"Own of {role}"}),
        ),
        Probe(
            "PATCH",
            "/api/v1/projects/{project_id}",
            "owner",
            fixed(project, {"name": "Checkout"}),
            after=_name_kept,
        ),
        Probe(
            "POST", "/api/v1/projects/{project_id}/activate", "viewer", fixed(f"{project}/activate")
        ),
        Probe(
            "POST",
            "/api/v1/projects/{project_id}/delete-preview",
            "owner",
            fixed(f"{project}/delete-preview"),
        ),
        Probe("DELETE", "/api/v1/projects/{project_id}", "owner", _bin, after=_bin_kept),
        Probe("POST", "/api/v1/projects/{project_id}/turns", "editor", _turn),
        Probe("GET", "/api/v1/turns/{turn_id}", "viewer", fixed(turn)),
        Probe("GET", "/api/v1/turns/{turn_id}/events", "viewer", fixed(f"{turn}/events")),
        Probe("POST", "/api/v1/turns/{turn_id}/cancel", "editor", fixed(f"{turn}/cancel")),
        Probe(
            "GET", "/api/v1/projects/{project_id}/history", "viewer", fixed(f"{project}/history")
        ),
        Probe("GET", "/api/v1/projects/{project_id}/tree", "viewer", fixed(f"{project}/tree")),
        Probe(
            "GET",
            "/api/v1/search",
            "viewer",
            fixed(f"/api/v1/search?q=abandon+payment&project={PROJECT}"),
        ),
        Probe("GET", "/api/v1/search", "person", fixed("/api/v1/search?q=abandon+payment&all=1")),
        Probe(
            "GET",
            "/api/v1/projects/{project_id}/decisions",
            "viewer",
            fixed(f"{project}/decisions"),
        ),
        Probe(
            "POST",
            "/api/v1/projects/{project_id}/decisions",
            "editor",
            fixed(f"{project}/decisions", {"decision": "Recorded by someone"}),
        ),
        Probe("PATCH", "/api/v1/projects/{project_id}/decisions/{decision_id}", "editor", _edit),
        Probe(
            "POST",
            "/api/v1/projects/{project_id}/decisions/{decision_id}/retire",
            "editor",
            _retire,
        ),
        Probe(
            "GET",
            "/api/v1/projects/{project_id}/conversation",
            "viewer",
            fixed(f"{project}/conversation"),
        ),
        Probe(
            "POST",
            "/api/v1/projects/{project_id}/goto",
            "editor",
            fixed(f"{project}/goto", {"target": "1"}),
        ),
        Probe(
            "POST",
            "/api/v1/projects/{project_id}/fork",
            "editor",
            lambda team, role: Call(f"{project}/fork", {"turn": 1, "name": f"fork of {role}"}),
        ),
        Probe("GET", "/api/v1/projects/{project_id}/files", "viewer", fixed(f"{project}/files")),
        Probe("POST", "/api/v1/projects/{project_id}/files", "editor", _upload),
        Probe(
            "GET", "/api/v1/projects/{project_id}/evidence", "viewer", fixed(f"{project}/evidence")
        ),
        Probe("POST", "/api/v1/projects/{project_id}/evidence", "editor", _evidence),
        Probe(
            "GET", "/api/v1/projects/{project_id}/members", "viewer", fixed(f"{project}/members")
        ),
        Probe(
            "PUT",
            "/api/v1/projects/{project_id}/members/{name}",
            "owner",
            fixed(f"{project}/members/Vera", {"role": "viewer"}),
        ),
        Probe(
            "DELETE",
            "/api/v1/projects/{project_id}/members/{name}",
            "owner",
            _temporary_member,
            after=_member_kept,
        ),
        Probe("GET", "/api/v1/audit", "owner", fixed(f"/api/v1/audit?project={PROJECT}")),
        Probe("GET", "/api/v1/audit", "person", fixed("/api/v1/audit")),
        Probe("GET", "/api/v1/projects/{project_id}/report", "viewer", fixed(f"{project}/report")),
        Probe(
            "GET",
            "/api/v1/projects/{project_id}/report",
            "viewer",
            fixed(f"{project}/report?format=html"),
        ),
        Probe("GET", "/api/v1/projects/{project_id}/export", "viewer", fixed(f"{project}/export")),
        Probe("GET", "/api/v1/providers", "person", fixed("/api/v1/providers")),
        Probe(
            "GET",
            "/api/v1/providers/{name}/doctor",
            "admin",
            fixed("/api/v1/providers/offline/doctor?timeout=5"),
        ),
        Probe(
            "POST",
            "/api/v1/providers/use",
            "admin",
            fixed("/api/v1/providers/use", {"name": "offline"}),
        ),
        Probe("GET", "/api/v1/settings", "admin", fixed("/api/v1/settings")),
        Probe("PATCH", "/api/v1/settings", "admin", fixed("/api/v1/settings", {"language": "en"})),
        Probe("GET", "/api/v1/guides/{guide_id}", "person", fixed("/api/v1/guides/test_plan.md")),
        Probe("GET", "/api/v1/methods", "person", fixed("/api/v1/methods")),
        Probe(
            "POST",
            "/api/v1/ask",
            "editor",
            fixed("/api/v1/ask", {"message": "plan a usability test", "project": "Checkout"}),
        ),
        Probe(
            "POST",
            "/api/v1/session",
            "open",
            lambda team, role: Call(
                "/api/v1/session", {"name": f"{role} {team.database}", "password": "not a password"}
            ),
            ok=_is(401, "wrong name or password"),
        ),
        Probe("DELETE", "/api/v1/session", "person", fixed("/api/v1/session")),
        Probe(
            "POST",
            "/api/v1/invite/check",
            "open",
            fixed("/api/v1/invite/check", {"token": "no-such-invite-token"}),
            ok=_is(401, "invite link"),
        ),
        Probe(
            "POST",
            "/api/v1/invite/accept",
            "open",
            fixed("/api/v1/invite/accept", {"token": "no-such-invite-token", "password": "a" * 12}),
            ok=_is(401, "invite link"),
        ),
        Probe(
            "POST",
            "/api/v1/tokens",
            "open",
            lambda team, role: Call(
                "/api/v1/tokens", {"name": f"{role} {team.database}", "password": "not a password"}
            ),
            ok=_is(401, "wrong name or password"),
        ),
        Probe("DELETE", "/api/v1/tokens/current", "person", _own_token),
    ]


def routes(team: Team) -> set[tuple[str, str]]:
    """Every (method, path) the app serves, but the static files."""
    return set(_walk(team.server.server.config.app.routes, ""))


def _walk(found: list[Any], prefix: str) -> Iterator[tuple[str, str]]:
    for route in found:
        included = getattr(route, "original_router", None)  # FastAPI >= 0.16x wraps routers
        if included is not None:
            yield from _walk(included.routes, prefix + route.include_context.prefix)
            continue
        for method in getattr(route, "methods", None) or ():
            if method != "HEAD":
                yield method, prefix + route.path


@pytest.fixture(params=["sqlite", "postgresql"])
def team(request, home, tmp_path, monkeypatch) -> Iterator[Team]:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    database = (
        tmp_path / "team.db"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    started = Team(home, database)
    yield started
    started.stop()


def test_every_endpoint_answers_each_role_as_its_least_role_says(team):
    status, started = team.json(
        "editor",
        "POST",
        f"/api/v1/projects/{PROJECT}/turns",
        {"message": "plan interviews with buyers"},
    )
    assert status == 202, started
    _wait_idle(team, "editor")
    table = probes(started["turn_id"])
    assert {(p.method, p.route) for p in table} == routes(team), "a route has no row here"
    for probe in table:
        for role in ROLES:
            call = probe.make(team, role)
            status, _, body = team.request(
                role, probe.method, call.path, call.body, raw=call.raw, headers=call.headers
            )
            where = f"{probe.method} {call.path} as {role}"
            if RANK[role] >= NEEDED[probe.least]:
                assert probe.ok(status, body), f"{where}: {status} {body[:300]!r}"
                if probe.route.endswith("/turns"):
                    _wait_idle(team, role)
            else:
                expected = {401} if role == "anonymous" else {403, 404}
                assert status in expected, f"{where}: {status} {body[:300]!r}"
                assert SECRET.encode() not in body, f"{where} leaked the project's data"
                if probe.after is not None:
                    probe.after(team, role)
            if probe.least == "person" and role == "nonmember":
                assert SECRET.encode() not in body, f"{where}: a list showed another's project"


def test_an_answer_names_who_made_each_thing(team):
    _, history = team.json("viewer", "GET", f"/api/v1/projects/{PROJECT}/history")
    assert [t["author"] for t in history["turns"]] == ["Olga"]
    _, decisions = team.json("viewer", "GET", f"/api/v1/projects/{PROJECT}/decisions")
    assert decisions["decisions"][0]["author"] == "Olga"
    _, files = team.json("viewer", "GET", f"/api/v1/projects/{PROJECT}/files")
    assert files["files"][0]["author"] == "Olga"
    status, recorded = team.json(
        "editor",
        "POST",
        f"/api/v1/projects/{PROJECT}/decisions",
        {"decision": "Recruit from support", "rationale": "they talk"},
    )
    assert status == 201 and recorded["author"] == "Eddie"
    _, report = team.request("viewer", "GET", f"/api/v1/projects/{PROJECT}/report")[::2]
    assert "by Eddie" in report.decode() and "by Olga" in report.decode()
    _, audit = team.json("owner", "GET", f"/api/v1/audit?project={PROJECT}")
    assert (audit["entries"][0]["actor"], audit["entries"][0]["action"]) == (
        "Eddie",
        "decision.recorded",
    )
    _, listed = team.json("viewer", "GET", "/api/v1/projects")
    assert [(p["id"], p["role"]) for p in listed["projects"]] == [(PROJECT, "viewer")]
    _, mine = team.json("nonmember", "GET", "/api/v1/projects")
    assert mine["projects"] == []


def test_state_changing_requests_need_the_header_and_an_origin_of_its_own(team):
    headers = {"X-Design-Agent": ""}
    body = {"decision": "From another site"}
    status, _, data = team.request(
        "owner", "POST", f"/api/v1/projects/{PROJECT}/decisions", body, headers=headers
    )
    assert status == 403 and b"forbidden_header" in data
    evil = {"Origin": "https://evil.example.com"}
    status, _, data = team.request(
        "owner", "POST", f"/api/v1/projects/{PROJECT}/decisions", body, headers=evil
    )
    assert status == 403 and b"forbidden_origin" in data
    with team.memory() as memory:
        assert "From another site" not in [d.decision for d in memory.list_decisions(PROJECT)]
    status, _, _ = team.request("owner", "GET", "/api/v1/projects", headers={"X-Design-Agent": ""})
    assert status == 200  # reading needs no header


def test_a_person_signs_in_with_a_password_gets_a_lax_session_and_signs_out(team):
    from design_agent.memory.passwords import hash_password

    with team.memory() as memory:
        link = memory.invite_person(team.ids["viewer"])
    status, _, data = team.request(
        "anonymous", "POST", "/api/v1/invite/accept", {"token": link, "password": "short"}
    )
    assert status == 400 and b"at least 10" in data  # the invite is not spent by a refusal
    status, got, data = team.request(
        "anonymous",
        "POST",
        "/api/v1/invite/accept",
        {"token": link, "password": "vera's long secret"},
    )
    assert status == 200 and json.loads(data)["person"]["name"] == "Vera"
    cookie = got["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    session = cookie.split(";")[0]
    page = team.server.request("GET", "/", headers={"Cookie": session}, auth=False)
    assert page[0] == 200 and b'id="composer"' in page[2]  # the app, not the sign-in page
    anonymous = team.server.request("GET", "/", auth=False)
    assert anonymous[0] == 200 and b'data-form="sign-in"' in anonymous[2]
    wrong = team.request(
        "anonymous", "POST", "/api/v1/session", {"name": "vera", "password": "vera's long secreT"}
    )
    assert wrong[0] == 401
    status, got, _ = team.request(
        "anonymous", "POST", "/api/v1/session", {"name": "VERA", "password": "vera's long secret"}
    )
    assert status == 200
    fresh = got["set-cookie"].split(";")[0]
    headers = {"Cookie": fresh, "X-Design-Agent": "1"}
    status, _, _ = team.server.request("GET", "/api/v1/me", headers=headers, auth=False)
    assert status == 200
    status, got, _ = team.server.request("DELETE", "/api/v1/session", headers=headers, auth=False)
    assert status == 204 and "Max-Age=0" in got["set-cookie"]
    status, _, data = team.server.request("GET", "/api/v1/me", headers=headers, auth=False)
    assert status == 401 and b"sign in again" in data  # the session ended on the server
    assert hash_password  # argon2-cffi is what hashed it (tests/test_team_memory.py)


def test_five_wrong_passwords_hold_the_name_back(team):
    from design_agent.server import team_auth

    with team.memory() as memory:
        memory.accept_invite(memory.invite_person(team.ids["editor"]), _hash("eddie's secret!"))
    try:
        for _ in range(team_auth.MAX_FAILURES):
            assert (
                team.request(
                    "anonymous",
                    "POST",
                    "/api/v1/tokens",
                    {"name": "Eddie", "password": "guess guess"},
                )[0]
                == 401
            )
        status, _, data = team.request(
            "anonymous", "POST", "/api/v1/tokens", {"name": "Eddie", "password": "eddie's secret!"}
        )
        assert status == 429 and b"too many failed sign-ins" in data
    finally:
        team_auth.throttle.passed("Eddie")
    status, _, data = team.request(
        "anonymous", "POST", "/api/v1/tokens", {"name": "Eddie", "password": "eddie's secret!"}
    )
    token = json.loads(data)["token"]
    assert status == 201 and token not in hashlib.sha256(token.encode()).hexdigest()
    mine = team.server.request(
        "GET", "/api/v1/me", auth=False, headers={"Authorization": f"Bearer {token}"}
    )
    assert json.loads(mine[2])["person"]["name"] == "Eddie"


def _hash(password: str) -> str:
    from design_agent.memory.passwords import hash_password

    return hash_password(password)


def test_people_in_the_table_are_the_fixture_people():
    assert set(PEOPLE) | {"anonymous"} == set(ROLES) and set(NEEDED) == set(LEVELS)


def test_a_team_server_does_not_serve_mcp(team):
    """/mcp's tools act for a home's owner: on a team's server nobody reaches them."""
    for role in ROLES:
        status, _, body = team.request(role, "POST", "/mcp", {"jsonrpc": "2.0", "id": 1})
        assert status == 403 and SECRET.encode() not in body, (role, status, body[:200])
