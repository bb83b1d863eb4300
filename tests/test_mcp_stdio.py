"""An agent drives `design-agent mcp` (a real subprocess) with the MCP SDK's own client:
it lists the tools, resources and prompts, calls every tool, and what it changed is read
back through the CLI's JSON commands, from the same home."""

from __future__ import annotations

import json
from typing import Any

from fixtures.mcp_clients import design_agent, over_stdio

TOOLS = [
    "find_method",
    "method_brief",
    "review_answer",
    "project_context",
    "record_decision",
    "retire_decision",
    "search_memory",
    "list_projects",
    "switch_project",
]
PAGES = 50  # resources/list pages followed at most


async def every_resource(client: Any) -> list[Any]:
    found, cursor = [], None
    for _ in range(PAGES):
        page = await client.list_resources(cursor=cursor)
        found += page.resources
        cursor = page.next_cursor
        if cursor is None:
            return found
    raise AssertionError(f"resources/list did not end within {PAGES} pages")


def test_the_catalogue_as_tools_resources_and_prompts(run_cli):
    run_cli("projects", "create", "Checkout")

    async def work(client: Any) -> dict[str, Any]:
        tools = (await client.list_tools()).tools
        resources = await every_resource(client)
        section = await client.read_resource("design-agent://guides/test_plan.md#procedure")
        spanish = await client.read_resource("design-agent://guides/es/test_plan.md#procedimiento")
        prompts = (await client.list_prompts()).prompts
        prompt = await client.get_prompt("usability_test_plan", {"request": "for the new checkout"})
        return {
            "tools": tools,
            "uris": {r.uri for r in resources},
            "section": section.contents[0].text,
            "spanish": spanish.contents[0].text,
            "prompts": {p.name for p in prompts},
            "prompt": prompt.messages[0].content.text,
        }

    seen = over_stdio([design_agent(), "mcp"], work)
    assert [t.name for t in seen["tools"]] == TOOLS
    for tool in seen["tools"]:
        assert tool.input_schema["type"] == "object" and tool.output_schema
        assert "\n" not in tool.description and len(tool.description) <= 100
    assert {
        "design-agent://guides/test_plan.md#procedure",
        "design-agent://guides/es/test_plan.md#procedimiento",
        "design-agent://materials/sus_questionnaire.csv",
        "design-agent://projects/checkout/decisions",
    } <= seen["uris"]
    assert len(seen["uris"]) > 1000  # every section of every guide, in both languages
    assert seen["section"].startswith("## Procedure\n")
    assert seen["spanish"].startswith("## Procedimiento\n")
    assert {"usability_test_plan", "journey_mapping", "prioritization"} <= seen["prompts"]
    assert seen["prompt"].rstrip().endswith("<request>\nfor the new checkout\n</request>")
    assert "<guide " in seen["prompt"] and "'Checkout'" not in seen["prompt"]


def test_an_agent_calls_every_tool_and_the_memory_shows_it(run_cli):
    run_cli("projects", "create", "Onboarding")
    run_cli("projects", "create", "Checkout")
    cli_error = run_cli("decisions", "retire", "999").stderr.strip().removeprefix("Error: ")

    async def work(client: Any) -> dict[str, Any]:
        async def call(tool: str, **arguments: Any) -> Any:
            return await client.call_tool(tool, arguments)

        found = await call("find_method", request="we need a usability test plan")
        brief = await call("method_brief", method_id="usability_test_plan")
        kept = await call(
            "record_decision",
            decision="Moderated remote sessions only",
            rationale="we need to hear why people hesitate",
        )
        dropped = await call("record_decision", decision="Weekly releases", rationale="cadence")
        await call("retire_decision", id=dropped.structured_content["decision"]["id"])
        draft = (
            "# Usability test plan\nResearch goals: can first-time buyers pay? Confidence: "
            "medium. Limitations: five participants. [test_plan.md > Procedure] "
            "[test_plan.md > Secret sauce]"
        )
        return {
            "found": found,
            "brief": brief,
            "kept": kept,
            "review": await call("review_answer", method_id="usability_test_plan", answer=draft),
            "context": await call("project_context"),
            "search": await call("search_memory", query="hesitate"),
            "projects": await call("list_projects"),
            "switched": await call("switch_project", name="onboarding"),
            "missing": await call("retire_decision", id=999, project="Checkout"),
            "unknown": await call("method_brief", method_id="usability_tset_plan"),
            "invalid": await call("find_method", request="x", colour="blue"),
        }

    got = over_stdio([design_agent(), "mcp"], work)
    assert not any(got[k].is_error for k in ("found", "brief", "kept", "review", "context"))
    best = got["found"].structured_content["methods"][0]
    assert best["method_id"] == "usability_test_plan" and best["band"] == "HIGH"
    assert "method_brief" in got["found"].content[0].text

    brief = got["brief"].structured_content
    assert brief["project"] == "Checkout" and brief["outline"] and brief["checks"]
    assert "[test_plan.md > Procedure]" in brief["sections"]
    assert '<guide source="test_plan.md"' in brief["brief"] and "<request>" not in brief["brief"]
    assert "users" in " ".join(brief["needs"])  # an empty project states no users yet
    assert "what the team needs to learn" in brief["needs"]  # the method's own input

    review = got["review"].structured_content
    assert review["invalid_citations"] == ["[test_plan.md > Secret sauce]"]
    assert "confidence stated" in review["passed"]
    assert "Secret sauce" in got["review"].content[0].text

    context = got["context"].structured_content
    assert [d["decision"] for d in context["decisions"]] == ["Moderated remote sessions only"]
    assert got["search"].structured_content["hits"][0]["kind"] == "decision"
    names = {p["name"]: p["active"] for p in got["projects"].structured_content["projects"]}
    assert names == {"Checkout": True, "Onboarding": False}
    assert got["switched"].content[0].text == "Active project: Onboarding"

    # Errors come back as tool errors, with the commands' own one-line messages.
    assert got["missing"].is_error
    assert got["missing"].content[0].text == cli_error.replace("onboarding", "checkout")
    assert got["unknown"].is_error
    assert "did you mean usability_test_plan?" in got["unknown"].content[0].text
    assert got["invalid"].is_error and "colour" in got["invalid"].content[0].text

    # What the agent changed, read back by the CLI.
    listed = json.loads(run_cli("decisions", "list", "--json", "-p", "Checkout").stdout)
    assert [(d["decision"], d["rationale"]) for d in listed] == [
        ("Moderated remote sessions only", "we need to hear why people hesitate")
    ]
    history = json.loads(
        run_cli("decisions", "list", "--history", "--json", "-p", "Checkout").stdout
    )
    assert {d["decision"]: d["status"] for d in history}["Weekly releases"] == "retired"
    projects = json.loads(run_cli("projects", "list", "--json").stdout)
    assert [p["name"] for p in projects if p["active"]] == ["Onboarding"]


def test_the_handshake_claude_code_speaks_today_works_too(run_cli):
    """`initialize` first (protocol 2025-11-25 and before), as the agents released today do."""

    async def work(client: Any) -> Any:
        return await client.call_tool("find_method", {"request": "journey map for renewals"})

    found = over_stdio([design_agent(), "mcp"], work, mode="legacy")
    assert found.structured_content["methods"][0]["method_id"] == "journey_mapping"
