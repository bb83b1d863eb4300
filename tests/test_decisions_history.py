"""Decisions that change keep their history: `decisions edit` and `decisions retire` on the
command line and over the API, listings that say which branch each decision belongs to, the
report, export and import, and a database from before the change.

Real things throughout: the CLI through click's CliRunner on the test's home, a live server
on a free port, real SQLite files.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixtures.live_server import LiveServer

from design_agent.core.errors import ConflictError, ExitCode
from design_agent.memory import Memory
from design_agent.memory.db import connect
from design_agent.understanding.intents import detect_action


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")


def as_json(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# -- what is recognised as a change of mind (the handler then asks before changing anything) ---


def supersede(decision: str, rationale: str = "", target: str | None = None, last: bool = False):
    return "decisions.supersede", {
        "decision": decision,
        "rationale": rationale,
        "target": target,
        "last": last,
    }


def retire(target: str | None = None, rationale: str = "", last: bool = False):
    return "decisions.retire", {"target": target, "last": last, "rationale": rationale}


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "we changed our mind: Valencia goes first because the port partners signed",
            supersede("Valencia goes first", "the port partners signed"),
        ),
        ("We've changed our minds, Valencia goes first", supersede("Valencia goes first")),
        (
            "we changed our mind about Madrid: Valencia goes first",
            supersede("Valencia goes first", target="Madrid"),
        ),
        (
            "change the Madrid decision to Valencia goes first",
            supersede("Valencia goes first", target="Madrid"),
        ),
        ("change the last decision to weekly digests", supersede("weekly digests", last=True)),
        ("change of plans: Android only", supersede("Android only")),
        (
            "cambiamos de idea: Valencia va primero porque los socios del puerto firmaron",
            supersede("Valencia va primero", "los socios del puerto firmaron"),
        ),
        (
            "hemos cambiado de opinión sobre Madrid: Valencia va primero",
            supersede("Valencia va primero", target="Madrid"),
        ),
        (
            "cambia la decisión de Madrid por Valencia va primero",
            supersede("Valencia va primero", target="Madrid"),
        ),
        ("forget the Madrid decision", retire("madrid")),
        ("forget the last decision", retire(last=True)),
        (
            "drop the decision about SMS because nobody reads them",
            retire("sms", "nobody reads them"),
        ),
        ("actually we're not doing the Madrid pilot anymore", retire("the madrid pilot")),
        ("we are no longer using Stripe", retire("stripe")),
        ("forget that we decided to open in Madrid", retire("open in madrid")),
        ("borra la última decisión", retire(last=True)),
        ("olvida la decisión de Madrid", retire("madrid")),
        ("ya no vamos a hacer el piloto en Madrid", retire("hacer el piloto en madrid")),
        (
            "al final no vamos a usar WhatsApp porque es caro",
            retire("usar whatsapp", "es caro"),
        ),
        # Not a change of a decision: a design request, a question, or something else.
        ("we changed our mind, let's do a survey", None),
        ("we're not doing interviews anymore, help me plan a survey", None),
        ("ya no vamos a hacer encuestas, ¿qué método uso?", None),
        ("are we not doing the pilot anymore?", None),
        ("forget it", ("conversation.cancel", {})),
        (
            "we decided Madrid goes first",
            ("decisions.record", {"decision": "Madrid goes first", "rationale": ""}),
        ),
        (
            "why do we pay participants 80 euros?",
            ("memory.recall", {"query": "why do we pay participants 80 euros"}),
        ),
        (
            "¿por qué tenemos dos planes?",
            ("memory.recall", {"query": "por qué tenemos dos planes"}),
        ),
        ("why do we have so many drop-offs at checkout?", None),
    ],
)
def test_a_change_of_mind_is_read_from_the_message(message: str, expected: Any) -> None:
    found = detect_action(message, ["claude", "gemini", "offline"], ["Harbour Routes"])
    assert (None if found is None else (found.name, found.input)) == expected


# -- the command line --------------------------------------------------------------------------


def test_a_lead_edits_and_retires_decisions_and_the_history_stays(run_cli):
    run_cli("projects", "create", "Harbour Routes")
    run_cli("decisions", "add", "Madrid goes first", "--why", "biggest market")
    run_cli("decisions", "add", "Release every two weeks", "--why", "clinics want fixes")

    why = ("--why", "the port partners signed")
    edited = as_json(
        run_cli("decisions", "edit", "1", "--decision", "Valencia goes first", *why, "--json")
    )
    assert edited["decision"]["decision"] == "Valencia goes first"
    assert edited["decision"]["replaces_id"] == 1 and edited["decision"]["status"] == "current"
    assert edited["replaced"]["status"] == "superseded" and edited["replaced"]["changed_at"]
    new_id = edited["decision"]["id"]

    kept = run_cli("decisions", "edit", str(new_id), "--decision", "Valencia first, in May")
    assert kept.exit_code == 0 and f"replaced by decision {new_id + 1}" in kept.output
    newest = as_json(run_cli("decisions", "list", "--json"))[0]
    assert newest["rationale"] == "the port partners signed", "no --why keeps the old reason"

    retired = as_json(run_cli("decisions", "retire", "2", "--why", "QA needs time", "--json"))
    assert retired["decision"]["status"] == "retired"
    assert retired["decision"]["change_reason"] == "QA needs time"

    listed = run_cli("decisions", "list")
    assert "Valencia first" in listed.output and "Madrid" not in listed.output
    assert "Not listed: 2 replaced and 1 retired" in listed.output
    assert [d["decision"] for d in as_json(run_cli("decisions", "list", "--json"))] == [
        "Valencia first, in May"
    ]
    history = run_cli("decisions", "list", "--history").output
    assert f"replaced by {new_id}" in history and "retired" in history and "Madrid" in history
    found = run_cli("decisions", "search", "Madrid").output
    assert "Madrid goes first" in found and f"replaced by {new_id}" in found


def test_changing_what_cannot_be_changed_is_one_line_and_its_exit_code(run_cli):
    run_cli("projects", "create", "Harbour Routes")
    run_cli("decisions", "add", "Madrid goes first")
    run_cli("decisions", "edit", "1", "--decision", "Valencia goes first")

    unknown = run_cli("decisions", "retire", "42")
    assert unknown.exit_code == ExitCode.NOT_FOUND == 6
    assert unknown.output.strip().splitlines() == [
        "Error: no decision 42 in project 'harbour-routes'; 'design-agent decisions list "
        "--history' shows the ids"
    ]
    again = run_cli("decisions", "edit", "1", "--decision", "Bilbao goes first")
    assert again.exit_code == ExitCode.USAGE
    assert "already replaced by decision 2" in again.output and "edit 2" in again.output
    assert run_cli("decisions", "retire", "1").exit_code == ExitCode.USAGE
    empty = run_cli("decisions", "edit", "2", "--decision", "  ")
    assert empty.exit_code == ExitCode.USAGE and "needs its text" in empty.output
    missing = run_cli("decisions", "edit", "2")
    assert missing.exit_code == ExitCode.USAGE and "--decision" in missing.output

    run_cli("projects", "create", "Other")
    elsewhere = run_cli("decisions", "retire", "2")  # a decision of Harbour Routes
    assert elsewhere.exit_code == ExitCode.NOT_FOUND
    assert run_cli("decisions", "retire", "2", "--project", "harbour routes").exit_code == 0


def test_the_listing_follows_the_branch_the_conversation_is_on(run_cli, offline):
    run_cli("projects", "create", "Checkout")
    assert run_cli("ask", "plan a usability test for the checkout").exit_code == 0
    run_cli("ask", "we decided to use moderated testing because we need to probe")
    run_cli("ask", "write personas for our shoppers")
    run_cli("ask", "we decided the personas cover first-time buyers")
    # A new branch from turn 2, before the personas decision.
    assert run_cli("ask", "--from", "2", "plan an unmoderated remote test instead").exit_code == 0

    here = run_cli("decisions", "list")
    assert "use moderated testing" in here.output and "first-time buyers" not in here.output
    assert "1 more on other branches (list them with 'decisions list --all-branches'" in here.output
    assert [d["decision"] for d in as_json(run_cli("decisions", "list", "--json"))] == [
        "use moderated testing"
    ]

    everywhere = as_json(run_cli("decisions", "list", "--all-branches", "--json"))
    places = {d["decision"]: (d["turn"], d["branch"]["name"]) for d in everywhere}
    assert places == {
        "the personas cover first-time buyers": (6, None),
        "use moderated testing": (2, None),
    }
    table = run_cli("decisions", "list", "--all-branches").output
    assert "unnamed (turn 6)" in table and "unnamed (turn 2)" in table


def test_a_branch_without_decisions_says_where_they_are(run_cli, offline, cli_store):
    run_cli("projects", "create", "Checkout")
    run_cli("ask", "plan a usability test for the checkout")
    run_cli("ask", "write personas for our shoppers")
    run_cli("ask", "we decided the personas cover first-time buyers")
    run_cli("ask", "--from", "2", "plan an unmoderated remote test instead")
    with Memory.open(cli_store) as memory:  # the home's file, or a team's PostgreSQL
        project = memory.find_project("Checkout")
        remote = memory.find_branch(project.id, 8)  # the exchange of a decision is 5-6
        memory.rename_branch(remote.id, "remote")
    run_cli("ask", "we decided to recruit through the support team")

    run_cli("ask", "--from", "1", "map the journey of a first-time buyer")
    none_here = run_cli("decisions", "list")
    assert none_here.output.strip() == (
        "No decisions on this branch of 'Checkout'; 2 on other branches (list them with "
        "'decisions list --all-branches' or /decisions all)."
    )
    table = run_cli("decisions", "list", "--all-branches").output
    assert "remote (turn 8)" in table and "unnamed (turn 4)" in table

    run_cli("ask", "--branch", "remote", "who should we recruit first?")
    markdown = run_cli("projects", "report", "Checkout", "-o", "-").output
    assert "**recruit through the support team**" in markdown
    assert "branch 'remote', turn 8" in markdown and "first-time buyers" not in markdown


# -- the report --------------------------------------------------------------------------------


def test_the_report_says_what_a_decision_replaced(run_cli, cli_store):
    run_cli("projects", "create", "Harbour Routes")
    run_cli("decisions", "add", "Madrid goes first", "--why", "biggest market")
    run_cli("decisions", "edit", "1", "--decision", "Valencia goes first", "--why", "partners")
    markdown = run_cli("projects", "report", "Harbour Routes", "-o", "-").output
    assert "**Valencia goes first**" in markdown and "*Replaces:* Madrid goes first (" in markdown
    assert "branch '" not in markdown, "a project without branches names none"


# -- the API -----------------------------------------------------------------------------------


@pytest.fixture
def server(home: Path, offline: None) -> Iterator[LiveServer]:
    live = LiveServer(home)
    yield live
    live.stop()


def test_the_web_page_edits_and_retires_decisions_with_the_same_rules(server):
    assert server.json("POST", "/api/v1/projects", {"name": "Harbour Routes"})[0] == 201
    base = "/api/v1/projects/harbour-routes/decisions"
    madrid = server.json("POST", base, {"decision": "Madrid goes first", "rationale": "big"})[1]
    weekly = server.json("POST", base, {"decision": "Weekly releases"})[1]

    status, edited = server.json(
        "PATCH", f"{base}/{madrid['id']}", {"decision": "Valencia goes first"}
    )
    assert status == 200 and edited["decision"]["replaces_id"] == madrid["id"]
    assert edited["decision"]["rationale"] == "big" and edited["replaced"]["status"] == "superseded"
    status, retired = server.json(
        "POST", f"{base}/{weekly['id']}/retire", {"rationale": "QA needs time"}
    )
    assert status == 200 and retired["decision"]["change_reason"] == "QA needs time"

    status, listed = server.json("GET", base)
    assert [d["decision"] for d in listed["decisions"]] == ["Valencia goes first"]
    assert listed["counts"] == {"superseded": 1, "retired": 1, "elsewhere": 0}
    status, history = server.json("GET", f"{base}?history=1&all_branches=1")
    assert [d["status"] for d in history["decisions"]] == ["current", "retired", "superseded"]

    status, again = server.json("PATCH", f"{base}/{madrid['id']}", {"decision": "Bilbao"})
    assert status == 409 and again["error"]["code"] == "conflict"
    assert again["error"]["exit_code"] == ExitCode.USAGE
    status, gone = server.json("POST", f"{base}/999/retire")
    assert status == 404 and gone["error"]["code"] == "not_found"
    assert gone["error"]["exit_code"] == 6 and "no decision 999" in gone["error"]["message"]
    status, empty = server.json("PATCH", f"{base}/{edited['decision']['id']}", {"decision": ""})
    assert status == 422 and empty["error"]["code"] == "invalid"
    status, huge = server.json("POST", f"{base}/99999999999999999999999/retire")
    assert status == 422 and "decision_id" in huge["error"]["message"]


# -- storage -----------------------------------------------------------------------------------


def test_export_and_import_carry_the_history_of_each_decision(tmp_path, memory_target):
    with Memory.open(tmp_path / "laptop.db") as laptop:
        project = laptop.create_project("Harbour Routes")
        asked = laptop.add_turn(project.id, "user", "plan the launch")
        answer = laptop.add_turn(project.id, "agent", "Launch plan.", parent_id=asked.id)
        madrid = laptop.add_decision(project.id, "Madrid goes first", "big", answer.id)
        laptop.add_decision(project.id, "Weekly releases", "")
        later = laptop.add_turn(project.id, "user", "and now?", parent_id=answer.id)
        laptop.supersede_decision(madrid.id, "Valencia goes first", "partners", node_id=later.id)
        laptop.retire_decision(madrid.id + 1, "QA needs time")
        exported = laptop.export_project(project.id, tmp_path / "backup.json")
    document = json.loads((tmp_path / "backup.json").read_text(encoding="utf-8"))
    assert document["version"] == 3
    assert [(d["status"], d["replaces"], d["changed_node"]) for d in document["decisions"]] == [
        ("superseded", None, 3),
        ("retired", None, None),
        ("current", 1, None),
    ]

    with Memory.open(memory_target) as desktop:
        desktop.create_project("Shift the ids")
        desktop.add_decision(desktop.find_project("shift the ids").id, "a first decision")
        restored = desktop.import_project(tmp_path / "backup.json")
        again = desktop.export_project(restored.id)
        assert again.model_dump(exclude={"exported_at"}) == exported.model_dump(
            exclude={"exported_at"}
        )
        current = desktop.list_decisions(restored.id)
        assert [d.decision for d in current] == ["Valencia goes first"]
        assert desktop.earlier_decision_versions(current[0].id)[0].decision == "Madrid goes first"


def test_an_export_from_before_the_history_still_imports(tmp_path, memory_target):
    with Memory.open(tmp_path / "old.db") as old:
        project = old.create_project("Harbour Routes")
        old.add_decision(project.id, "Madrid goes first", "big")
        document = old.export_project(project.id).model_dump(mode="json")
    document["version"] = 2
    for decision in document["decisions"]:
        for key in ("status", "replaces", "changed_at", "changed_node", "change_reason"):
            del decision[key]
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with Memory.open(memory_target) as new:
        restored = new.import_project(path)
        [decision] = new.list_decisions(restored.id)
        assert (decision.decision, decision.status) == ("Madrid goes first", "current")


def test_an_export_whose_history_points_forward_is_refused(tmp_path, run_cli):
    with Memory.open(tmp_path / "a.db") as memory:
        project = memory.create_project("Harbour Routes")
        memory.add_decision(project.id, "Madrid goes first")
        document = memory.export_project(project.id).model_dump(mode="json")
    document["decisions"][0]["replaces"] = 1  # replaces itself
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    refused = run_cli("projects", "import", str(path))
    assert refused.exit_code == ExitCode.USAGE
    assert "decision 1 replaces decision 1, which is not listed before it" in refused.output


def test_a_database_from_before_the_change_keeps_its_decisions_current(tmp_path):
    path = tmp_path / "design-agent.db"
    old = connect(path, version=6)
    now = "2026-05-02T10:00:00+00:00"
    old.execute(
        "INSERT INTO projects (id, name, name_key, search_key, created_at, last_accessed) "
        "VALUES ('harbour', 'Harbour', 'harbour', 1, ?, ?)",
        [now, now],
    )
    old.execute(
        "INSERT INTO project_decisions (project_id, decision, rationale, timestamp) "
        "VALUES ('harbour', 'Madrid goes first', 'big', ?)",
        [now],
    )
    old.close()
    with Memory.open(path) as memory:
        [decision] = memory.list_decisions("harbour")
        assert (decision.status, decision.replaces_id, decision.changed_at) == (
            "current",
            None,
            None,
        )
        newer = memory.supersede_decision(decision.id, "Valencia goes first")
        assert newer.rationale == "big" and newer.replaces_id == decision.id
        with pytest.raises(ConflictError):
            memory.retire_decision(decision.id)
        with pytest.raises(sqlite3.IntegrityError):  # one replacement per decision
            memory.db.execute(
                "INSERT INTO project_decisions (project_id, decision, timestamp, replaces_id) "
                "VALUES ('harbour', 'Bilbao', ?, ?)",
                [now, decision.id],
            )
