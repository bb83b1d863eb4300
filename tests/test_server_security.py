"""The server guards private work: the token, the cookie, Host and Origin, no CORS,
validated ids and paths, a private server file, and loopback unless asked otherwise.

Each test tries the attack a browser page or another local user could make.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.live_server import LiveServer
from test_server_api import create, upload

from design_agent.core.errors import UsageError
from design_agent.server.serve import check_host

AGENT = [sys.executable, "-m", "design_agent"]


@pytest.fixture
def server(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    live = LiveServer(home)
    yield live
    live.stop()


def test_the_api_needs_the_token_as_a_bearer_or_as_the_cookie_the_url_sets(server):
    assert server.request("GET", "/api/v1/status", auth=False)[0] == 401
    wrong = {"Authorization": "Bearer not-the-token"}
    status, _, body = server.request("GET", "/api/v1/status", auth=False, headers=wrong)
    assert status == 401 and json.loads(body)["error"]["code"] == "unauthorized"
    assert server.request("GET", "/api/v1/status")[0] == 200  # Bearer

    status, headers, _ = server.request("GET", f"/?token={server.token}", auth=False)
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"design_agent_token={server.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    jar = {"Cookie": f"design_agent_token={server.token}"}
    assert server.request("GET", "/api/v1/projects", auth=False, headers=jar)[0] == 200
    bad_jar = {"Cookie": "design_agent_token=guess"}
    assert server.request("GET", "/api/v1/projects", auth=False, headers=bad_jar)[0] == 401
    assert server.request("GET", "/?token=guess", auth=False)[0] == 401


def test_the_page_needs_the_cookie_and_its_html_is_locked_down(server):
    status, headers, page = server.request("GET", "/", auth=False)
    assert status == 401 and b"design-agent serve" in page
    jar = {"Cookie": f"design_agent_token={server.token}"}
    status, headers, page = server.request("GET", "/", auth=False, headers=jar)
    assert status == 200 and headers["content-type"].startswith("text/html")
    csp = headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_a_foreign_host_is_refused_even_for_reading(server):
    for method, path in (("GET", "/api/v1/status"), ("GET", "/"), ("POST", "/api/v1/projects")):
        headers = {"Host": "evil.com"}
        status, _, body = server.request(method, path, {"name": "x"}, headers=headers)
        assert status == 403, (method, path)
        assert json.loads(body)["error"]["code"] == "forbidden_host"
    rebinding = {"Host": f"evil.com:{server.port}"}
    assert server.request("GET", "/api/v1/status", headers=rebinding)[0] == 403
    for name in ("127.0.0.1", "localhost"):
        assert (
            server.request("GET", "/api/v1/status", headers={"Host": f"{name}:{server.port}"})[0]
            == 200
        )


def test_a_change_from_another_origin_is_refused_and_no_cors_header_is_ever_sent(server):
    evil = {"Origin": "http://evil.com"}
    status, headers, _ = server.request("POST", "/api/v1/projects", {"name": "Pwned"}, headers=evil)
    assert status == 403 and "access-control-allow-origin" not in headers
    assert server.json("GET", "/api/v1/projects")[1]["projects"] == []
    own = {"Origin": f"http://127.0.0.1:{server.port}"}
    assert server.request("POST", "/api/v1/projects", {"name": "Mine"}, headers=own)[0] == 201
    preflight = {
        "Origin": "http://evil.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    for path in ("/api/v1/projects", "/api/v1/status", "/"):
        for auth in (True, False):
            _, headers, _ = server.request("OPTIONS", path, headers=preflight, auth=auth)
            assert not [h for h in headers if h.startswith("access-control-")], (path, headers)
    _, headers, _ = server.request("GET", "/api/v1/status", headers={"Origin": "http://evil.com"})
    assert not [h for h in headers if h.startswith("access-control-")]


def test_ids_and_file_names_cannot_reach_outside_the_data(server, home):
    for guide in ("..%2F..%2Fsettings.yaml", "..", "...md", ".hidden.md", "a%00.md"):
        status, _, body = server.request("GET", f"/api/v1/guides/{guide}")
        assert status in (400, 404), guide
        assert b"provider" not in body
    assert server.request("GET", "/api/v1/guides/..%5Csettings.yaml")[0] in (400, 404)
    assert server.request("GET", "/api/v1/projects/..%2F..%2Fetc/history")[0] in (400, 404)
    assert server.request("GET", "/api/v1/projects/UPPER/history")[0] == 400
    assert server.request("GET", "/api/v1/turns/..%2Fx")[0] in (400, 404)
    assert server.request("GET", "/static/..%2F..%2Fsettings.py")[0] == 404

    create(server, "Uploads")
    for name in ("../../evil.md", "/etc/evil.md", "..\\evil.md", ".bashrc", ""):
        status, body = upload(server, "uploads", name, b"text")
        assert status in (400, 422), name
    assert not list(home.parent.glob("**/evil.md"))
    status, body = upload(server, "uploads", "brief.md", b"a brief")
    assert status == 201


def test_an_upload_past_the_limit_is_refused_with_413(server):
    create(server, "Big")
    server.context.upload_limit_mb = 1
    status, body = upload(server, "big", "huge.md", b"x" * (1024 * 1024 + 10))
    assert status == 413 and body["error"]["code"] == "too_large"
    assert server.json("GET", "/api/v1/projects/big/files")[1]["files"] == []
    status, body = upload(server, "big", "huger.md", b"x" * (3 * 1024 * 1024))
    assert status == 413 and body["error"]["code"] == "too_large"  # refused before reading


def test_only_loopback_is_bound_unless_another_host_is_asked_for_explicitly():
    for host in ("127.0.0.1", "localhost", "::1"):
        assert check_host(host, explicit=False) is False
    with pytest.raises(UsageError, match=r"--host 0\.0\.0\.0"):
        check_host("0.0.0.0", explicit=False)
    assert check_host("0.0.0.0", explicit=True) is True


def serve(home: Path) -> tuple[subprocess.Popen[str], str]:
    """`design-agent serve` as a real process; returns it and the URL it printed."""
    env = {**os.environ, "DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline"}
    process = subprocess.Popen([*AGENT, "serve"], stdout=subprocess.PIPE, text=True, env=env)
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


def stop(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGTERM)
    return process.wait(timeout=15)


def test_each_start_has_a_new_token_in_a_private_file_and_an_old_token_stops_working(home):
    from urllib.error import HTTPError
    from urllib.request import Request, urlopen

    def status_with(port: int, token: str) -> int:
        request = Request(f"http://127.0.0.1:{port}/api/v1/status")
        request.add_header("Authorization", f"Bearer {token}")
        try:
            with urlopen(request, timeout=10) as response:
                return int(response.status)
        except HTTPError as e:
            return e.code

    first, url = serve(home)
    try:
        info = json.loads((home / "server.json").read_text())
        assert stat.S_IMODE((home / "server.json").stat().st_mode) == 0o600
        assert url == f"http://127.0.0.1:{info['port']}/?token={info['token']}"
        assert info["pid"] == first.pid and info["host"] == "127.0.0.1"
        assert status_with(info["port"], info["token"]) == 200
    finally:
        assert stop(first) == 0
    assert not (home / "server.json").exists()

    second, url = serve(home)
    try:
        again = json.loads((home / "server.json").read_text())
        assert again["token"] != info["token"]
        assert status_with(again["port"], info["token"]) == 401
        assert status_with(again["port"], again["token"]) == 200
    finally:
        assert stop(second) == 0


def test_importing_the_cli_or_running_ask_does_not_load_the_web_stack():
    code = (
        "import sys\n"
        "from design_agent.cli import cli\n"
        "import design_agent.cli.ask, design_agent.server.commands\n"
        "web = [m for m in sys.modules if m.split('.')[0] in ('fastapi', 'uvicorn', 'starlette')]\n"
        "print(web)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_server_file_left_by_a_dead_server_is_stale_and_removed(home, run_cli):
    home.mkdir(parents=True, exist_ok=True)
    dead = {"pid": 2**22 + 12345, "port": 9, "host": "127.0.0.1", "token": "old"}
    (home / "server.json").write_text(json.dumps(dead), encoding="utf-8")
    result = run_cli("server", "status")
    assert result.exit_code == 6 and "No server is running" in result.output
    assert not (home / "server.json").exists()
    alive_but_silent = {**dead, "pid": os.getpid()}  # a live pid whose port does not answer
    (home / "server.json").write_text(json.dumps(alive_but_silent), encoding="utf-8")
    assert run_cli("server", "stop").exit_code == 6
    assert not (home / "server.json").exists()
