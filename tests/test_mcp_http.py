"""`design-agent serve` also serves MCP at /mcp over streamable HTTP, behind the same token,
Host and Origin checks as its API: the SDK's client (with the token) lists and calls the
tools of a real server on 127.0.0.1; the CLI reads back what it recorded."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from fixtures.mcp_clients import over_http, running_server

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}


def post(url: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) of an MCP initialize POSTed with `headers`."""
    sent = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        **headers,
    }
    request = urllib.request.Request(url, json.dumps(INITIALIZE).encode(), sent, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_mcp_over_http_behind_the_servers_token_host_and_origin(home: Path, run_cli):
    run_cli("projects", "create", "Checkout")
    with running_server(home) as (base, token):
        url = f"{base}/mcp"
        port = base.rsplit(":", 1)[1]
        bearer = {"Authorization": f"Bearer {token}"}
        refused = {
            "no token": post(url, {}),
            "a wrong token": post(url, {"Authorization": "Bearer guess"}),
            "another page": post(url, {**bearer, "Origin": "http://evil.example"}),
            "another host": post(url, {**bearer, "Host": f"evil.example:{port}"}),
        }
        accepted = post(url, {**bearer, "Origin": base})

        async def work(client: Any) -> dict[str, Any]:
            return {
                "tools": [t.name for t in (await client.list_tools()).tools],
                "found": await client.call_tool("find_method", {"request": "plan a diary study"}),
                "recorded": await client.call_tool(
                    "record_decision",
                    {"decision": "Two-week diary", "rationale": "habits show in week two"},
                ),
                "prompts": len((await client.list_prompts()).prompts),
            }

        got = over_http(url, token, work)

    assert {why: status for why, (status, _) in refused.items()} == {
        "no token": 401,
        "a wrong token": 401,
        "another page": 403,
        "another host": 403,
    }
    assert "server status --show-token" in refused["no token"][1]["error"]["message"]
    assert accepted[0] == 200 and accepted[1]["result"]["serverInfo"]["name"] == "design-agent"
    assert "record_decision" in got["tools"] and got["prompts"] > 90
    assert got["found"].structured_content["methods"][0]["method_id"] == "diary_study"
    listed = json.loads(run_cli("decisions", "list", "--json").stdout)
    assert [(d["decision"], d["rationale"]) for d in listed] == [
        ("Two-week diary", "habits show in week two")
    ]
