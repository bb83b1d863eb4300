"""The team's own method, wherever design-agent shows methods.

A method written with `methods new` from the team's own guide (prose, no standard
sections) answers offline with that prose placed under its outline and goes to the
model as the guide's own parts; `match --explain` marks it and says how it scored;
a report names it as the team's; an export says the project used it, and an import
into a home without it warns; the web page's method list marks it, and a server that
is running sees it without a restart.
"""

from __future__ import annotations

import json
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.live_server import LiveServer

GUIDE = """\
# How we review pricing pages

We look at the pricing page the way a first-time buyer does, plans side by side.

**Steps**
1. List every plan and what it includes, and mark the differences a buyer cannot see.
2. Rate each finding by how much it stops someone choosing: blocker, major, minor.

**Watch out**
- Reviewing the page alone, without the checkout that follows it.
"""
REQUEST = "a pricing page review for our invoicing app"


@pytest.fixture
def team(run_cli: Any, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home with the team's pricing page review, from its own guide; answers offline."""
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    guide = tmp_path / "pricing.md"
    guide.write_text(GUIDE, encoding="utf-8")
    result = run_cli(
        "methods", "new", "--from-guide", str(guide), "--name", "Pricing page review",
        "--name-es", "Revisión de página de precios", "--agent", "content_specialist",
        "--outputs", "Plan comparison, Findings by severity",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return home


def test_its_own_guide_answers_offline_and_goes_to_the_model_in_its_own_parts(run_cli, team):
    answer = run_cli("ask", "--no-server", REQUEST)
    assert answer.exit_code == 0, answer.output
    plans = answer.stdout.split("## 1. Plan comparison")[1].split("## 2.")[0]
    assert "List every plan and what it includes" in plans  # its steps under the outline
    assert "[to fill]" not in answer.stdout
    sources = answer.stdout.split("## Sources")[1]
    assert "[pricing_page_review.md > Steps]" in sources
    prompt = run_cli("ask", "--show-prompt", REQUEST).stdout
    assert '<section title="Steps">' in prompt and '<section title="Watch out">' in prompt
    assert "e.g. [pricing_page_review.md > Steps]" in prompt  # never a section it lacks


def test_match_explain_marks_the_teams_methods_and_how_each_scored(run_cli, team):
    shown = run_cli("match", "--explain", REQUEST).stdout
    first = shown.splitlines()[1]
    assert first.startswith(" 1. pricing_page_review") and first.endswith("yours")
    assert "shares: pricing, page, review" in shown
    assert "your team's methods: pricing_page_review #1 (" in shown
    found = json.loads(run_cli("match", "--explain", "--json", "journey map").stdout)
    assert found["best"]["task_id"] == "journey_mapping"
    (mine,) = found["team_methods"]
    assert mine["task_id"] == "pricing_page_review" and mine["score"] < 50


def test_reports_and_exports_say_the_method_is_the_teams(run_cli, team, tmp_path):
    assert run_cli("ask", "--no-server", REQUEST).exit_code == 0
    report = tmp_path / "report.md"
    assert run_cli("projects", "report", "-o", str(report)).exit_code == 0
    said = "- **Method:** Pricing page review, your team's own method"
    assert said in report.read_text(encoding="utf-8")
    export = tmp_path / "general.json"
    exported = run_cli("projects", "export", "General", str(export))
    assert exported.exit_code == 0
    assert "this project used your team's own method(s) pricing_page_review" in exported.stdout
    other = tmp_path / "other-home"
    imported = run_cli("--home", str(other), "projects", "import", str(export))
    assert imported.exit_code == 0, imported.output
    assert "Imported 'General'" in imported.stdout
    warning = f"Warning: {export}: this project used the method(s) pricing_page_review, which "
    assert imported.stderr.startswith(warning)


@pytest.fixture
def server(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    live = LiveServer(home)
    yield live
    live.stop()


def test_the_page_lists_the_teams_methods_and_sees_a_new_one_at_once(run_cli, home, server):
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "tasks.yaml").write_text(
        textwrap.dedent(
            """\
            tasks:
              - id: onboarding_audit
                name: Onboarding audit
            """
        )
    )
    status, body = server.json("GET", "/api/v1/methods?lang=es")
    assert status == 200
    (left_out,) = body["left_out"]
    assert left_out.startswith("Aviso: tu método 'onboarding_audit' queda fuera")
    assert not [m for m in body["methods"] if m["team"]]
    names = {m["id"]: m["name"] for m in body["methods"]}
    assert names["journey_mapping"] == "Mapa de viaje del cliente"
    added = run_cli(
        "methods", "new", "--name", "Pricing page review", "--description", "Review it.",
        "--agent", "content_specialist", "--outputs", "Findings",
    )  # fmt: skip
    assert added.exit_code == 0, added.output
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        body = server.json("GET", "/api/v1/methods")[1]
        if any(m["team"] for m in body["methods"]):
            break
        time.sleep(0.2)
    (ours,) = [m for m in body["methods"] if m["team"]]
    assert ours["id"] == "pricing_page_review" and ours["persona"] == "Content Design Specialist"
    assert ours["guides"] == ["pricing_page_review.md"]


PROSE = """\
# Read-aloud walkthrough

We read the product's words aloud, the way a tired customer would meet them.

First we collect every string of the flow into one sheet, screen by screen.

Finally we rewrite each unclear string and note why, so the team learns the pattern.
"""


def test_a_guide_of_plain_paragraphs_still_gives_a_useful_offline_answer(run_cli, home, tmp_path):
    guide = tmp_path / "copy.md"
    guide.write_text(PROSE, encoding="utf-8")
    made = run_cli(
        "methods", "new", "--from-guide", str(guide), "--agent", "content_specialist",
        "--outputs", "String inventory, Rewrites with reasons",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    answer = run_cli("ask", "--no-server", "a read-aloud walkthrough of the signup flow").stdout
    assert "# Read-aloud walkthrough" in answer and "[to fill]" not in answer
    inventory = answer.split("## 1. String inventory")[1].split("## 2.")[0]
    assert "collect every string of the flow" in inventory
    rewrites = answer.split("## 2. Rewrites with reasons")[1]
    assert "rewrite each unclear string" in rewrites
    assert "[read_aloud_walkthrough.md > Part 2]" in answer.split("## Sources")[1]


def test_a_method_whose_words_another_method_wins_is_told_at_once(run_cli, home, tmp_path):
    made = run_cli(
        "methods", "new", "--name", "Copy review", "--description", "Review the words.",
        "--agent", "content_specialist", "--outputs", "Rewrites",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    assert '  no  "copy review" -> ux_writing_review (' in made.stdout
    assert "add its words to the keywords (design-agent methods edit copy_review)" in made.stdout
    assert "its keywords collide with other methods" in made.stdout
    assert "The closest methods: ux_writing_review (" in made.stdout
