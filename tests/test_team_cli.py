"""The team admin's commands on both stores: users, invite links, tokens, shares, the audit.

The admin works at the server's shell, on the team's database: there is no open sign-up,
the first admin is made here, and every change lands in the audit log under
"command line (USER)".
"""

from __future__ import annotations

import json

from design_agent.core.errors import ExitCode
from design_agent.memory import Memory


def test_the_admin_adds_people_and_gets_single_use_links(run_cli, cli_store):
    missing = run_cli("users", "add", "ana", "--admin")
    assert missing.exit_code == ExitCode.USAGE and "--url" in missing.output
    assert missing.output.count("\n") == 1  # one line, and nobody was added
    added = run_cli("users", "add", "ana", "--admin", "--url", "https://design.example.com")
    assert added.exit_code == 0, added.output
    link = added.output.strip().splitlines()[-1]
    assert link.startswith("https://design.example.com/invite#") and len(link) > 70
    with Memory.open(cli_store) as memory:
        memory.set_state("team.url", "http://127.0.0.1:8765")  # what `serve --team` records
    ben = json.loads(run_cli("users", "add", "Ben", "--json").output)
    assert ben["invite_url"].startswith("http://127.0.0.1:8765/invite#")
    assert ben["person"]["state"] == "invited" and not ben["person"]["is_admin"]
    taken = run_cli("users", "add", "BEN")
    assert taken.exit_code == ExitCode.USAGE and "already a person" in taken.output
    token = link.partition("#")[2]
    with Memory.open(cli_store) as memory:
        assert memory.invited_person(token).name == "ana"
    again = run_cli("users", "invite", "ana", "--json")
    with Memory.open(cli_store) as memory:  # a new link ends the old one
        assert memory.invited_person(json.loads(again.output)["invite_url"].partition("#")[2])
        try:
            memory.invited_person(token)
        except Exception as e:
            assert "used already" in str(e)
        else:
            raise AssertionError("the old link still works")
    listed = json.loads(run_cli("users", "list", "--json").output)["people"]
    assert [(p["name"], p["is_admin"], p["state"]) for p in listed] == [
        ("ana", True, "invited"),
        ("Ben", False, "invited"),
    ]


def test_tokens_are_shown_once_and_end_when_their_person_is_disabled(run_cli, cli_store):
    run_cli("users", "add", "ben", "--url", "http://127.0.0.1:1")
    made = run_cli("users", "token", "ben", "--label", "laptop")
    assert made.exit_code == 0
    token = made.stdout.strip()
    with Memory.open(cli_store) as memory:
        assert memory.credential_holder(token)[0].name == "ben"
        stored = [r[0] for r in memory.db.execute("SELECT token_hash FROM api_tokens")]
        assert token not in stored and len(stored) == 1  # only its hash is kept
    assert run_cli("users", "disable", "ben").exit_code == 0
    with Memory.open(cli_store) as memory:
        assert memory.credential_holder(token) is None
    assert json.loads(run_cli("users", "list", "--json").output)["people"][0]["state"] == (
        "disabled"
    )
    nobody = run_cli("users", "disable", "zoe")
    assert nobody.exit_code == ExitCode.NOT_FOUND and "People: ben" in nobody.output


def test_owners_share_projects_and_the_audit_log_says_who_did_what(run_cli, cli_store):
    run_cli("users", "add", "ben", "--url", "http://127.0.0.1:1")
    run_cli("projects", "create", "Mobile Checkout")
    neither = run_cli("projects", "share", "mobile checkout", "ben")
    assert neither.exit_code == ExitCode.USAGE and "--role" in neither.output
    shared = run_cli("projects", "share", "mobile checkout", "ben", "--role", "viewer")
    assert shared.output.strip() == "ben is now viewer of 'Mobile Checkout'."
    run_cli("projects", "share", "mobile checkout", "ben", "--role", "owner")
    members = json.loads(run_cli("projects", "members", "mobile checkout", "--json").output)
    assert [(m["name"], m["role"]) for m in members["members"]] == [("ben", "owner")]
    last = run_cli("projects", "share", "mobile checkout", "ben", "--remove")
    assert last.exit_code == ExitCode.USAGE and "at least one owner" in last.output
    run_cli("decisions", "add", "Guest checkout stays", "--why", "half the buyers use it")
    log = json.loads(run_cli("audit", "--project", "mobile checkout", "--json").output)
    actions = [(e["action"], e["detail"].get("role")) for e in log["entries"]]
    assert actions == [
        ("decision.recorded", None),
        ("member.role_changed", "owner"),
        ("member.added", "viewer"),
        ("project.created", None),
    ]
    assert all(e["actor"].startswith("command line (") for e in log["entries"])
    text = run_cli("audit", "-n", "2").output
    assert "decision.recorded" in text and "person.added" not in text


def test_usage_by_person_and_a_home_without_people_says_so(run_cli, cli_store):
    assert "Nobody yet" in run_cli("users", "list").output
    assert run_cli("audit").output.strip() == "The audit log is empty."
    by_person = run_cli("usage", "--all", "--by", "person", "--json")
    assert by_person.exit_code == 0 and json.loads(by_person.output)["by"] == "person"
