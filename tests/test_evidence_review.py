"""Quotes are verified wherever an answer is reviewed (turn/review.reviewed, one function):
in a turn, in both answers of a comparison (`/compare offline claude`: each answer with its
evidence check, its footer counting the verified quotes), and by MCP's `review_answer`, where
a draft the designer's own agent wrote is checked against the project's evidence as a turn's
answer is: a real quote verified with who and when, an invented one removed and said so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fixtures.fakes import claude_run, install_fake, invoke
from fixtures.mcp_clients import design_agent, over_stdio

DATA = Path(__file__).parent / "data" / "evidence"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
ZOOM = next(s for s in EXPECTED["sessions"] if s["file"] == "01_zoom_en.vtt")
INVENTED = "I always book my sessions on Sunday evenings after planning the whole week ahead."


def a_real_quote() -> tuple[str, str]:
    """(segment id, its words) of a participant's long turn in the Zoom interview."""
    code, segment = next(
        (c, s)
        for c, s in ZOOM["segments"].items()
        if s["role"] != "moderator" and len(s["text"].split()) >= 10
    )
    return code, segment["text"]


def draft() -> str:
    code, text = a_real_quote()
    return (
        "## Booking\n"
        f'- "{text}" [{code}]\n'
        f'- "{INVENTED}" [{code}]\n\n'
        "Confidence: medium. Limitations: one interview."
    )


def test_review_answer_checks_a_drafts_quotes_against_the_evidence(run_cli):
    run_cli("projects", "create", "Booking")
    added = run_cli("evidence", "add", str(DATA / "transcripts" / "01_zoom_en.vtt"))
    assert added.exit_code == 0, added.output

    async def work(client: Any) -> Any:
        return await client.call_tool(
            "review_answer", {"method_id": "affinity_diagramming", "answer": draft()}
        )

    got = over_stdio([design_agent(), "mcp"], work)
    assert not got.is_error, got.content[0].text
    evidence = got.structured_content["evidence"]
    code, text = a_real_quote()
    statuses = {q["quote"][:20]: q["status"] for q in evidence["quotes"]}
    assert statuses == {text[:20]: "verified", INVENTED[:20]: "unsupported"}
    verified = next(q for q in evidence["quotes"] if q["status"] == "verified")
    assert (verified["segment"], verified["participant"]) == (code, "P1") and verified["when"]
    assert evidence["removed"] == 1
    shown = got.content[0].text
    assert "Evidence check" in shown and INVENTED in shown
    failed = {i["id"] for i in got.structured_content["failed"]}
    assert "evidence" in failed  # the checklist says a quote had to be removed


def test_review_answer_without_evidence_says_nothing_of_quotes(run_cli):
    run_cli("projects", "create", "Checkout")

    async def work(client: Any) -> Any:
        return await client.call_tool(
            "review_answer", {"method_id": "usability_test_plan", "answer": "# Plan\nGoals."}
        )

    got = over_stdio([design_agent(), "mcp"], work)
    assert "evidence" not in got.structured_content or got.structured_content["evidence"] is None


def test_a_comparison_checks_each_answers_quotes(home, tmp_path):
    claude = install_fake(tmp_path / "bin", "claude")
    extra = {
        "DESIGN_AGENT_PROVIDER": "offline",
        "DESIGN_AGENT_CLAUDE_BIN": str(claude),
        "FAKE_RECORDING": str(claude_run(tmp_path / "run.json", draft())),
    }
    invoke(home, "projects", "create", "Booking")
    invoke(home, "evidence", "add", str(DATA / "transcripts" / "01_zoom_en.vtt"))
    script = "make an affinity map of the interviews\n/compare offline claude\nexit\n"
    said = invoke(home, input=script, env=extra).stdout
    second = said.split("## 2. claude")[1]
    assert "Evidence check" in second and INVENTED in second
    assert "quotes 1/2 verified, 1 removed" in second
    first = said.split("## 1. offline")[1].split("## 2. claude")[0]
    assert "quotes" in first.split("──")[-1] and "removed" not in first.split("──")[-1]
