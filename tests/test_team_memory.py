"""A team's memory on both stores: people, roles per project, authorship, the audit log.

Ana (admin) starts the team; Ben and Carla are designers. Every call of a Memory that acts
as a person sees only that person's projects and may do only what their role allows.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from design_agent.core.errors import NotAllowedError, NotFoundError, UsageError
from design_agent.memory import Memory
from design_agent.memory.passwords import hash_password, verify_password


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def team(memory_target):
    clock = Clock()
    with Memory.open(memory_target, clock) as memory:
        ana = memory.add_person("Ana", is_admin=True)
        ben, carla = memory.add_person("Ben"), memory.add_person("Carla")
        memory.act_as(ben)
        checkout = memory.create_project("Checkout").id  # Ben's: he made it, he owns it
        memory.act_as(None)
        yield memory, clock, ana, ben, carla, checkout


def test_a_project_is_seen_only_by_its_members_and_the_admin(team):
    memory, _, ana, ben, carla, checkout = team
    memory.act_as(carla)
    assert memory.list_projects() == [] and memory.project_names() == []
    with pytest.raises(NotFoundError) as hidden:
        memory.find_project("checkout")
    assert "Checkout" not in str(hidden.value).replace("'checkout'", "")  # no name leaks
    with pytest.raises(NotFoundError):
        memory.recent_turns(checkout)
    assert memory.search("anything", all_projects=True).total == 0
    memory.act_as(ana)
    assert [p.name for p in memory.list_projects()] == ["Checkout"]
    memory.act_as(ben)
    assert memory.role_in(checkout) == "owner"
    assert [(m.name, m.role) for m in memory.members(checkout)] == [("Ben", "owner")]


def test_viewers_read_editors_write_owners_share(team, tmp_path):
    memory, _, _, ben, carla, checkout = team
    memory.act_as(ben)
    asked = memory.add_turn(checkout, "user", "plan interviews with first-time buyers")
    memory.share_project(checkout, carla.id, "viewer")
    memory.act_as(carla)
    assert [t.message for t in memory.recent_turns(checkout)] == [asked.message]
    assert memory.search("interviews", checkout).total == 1
    for write in (
        lambda: memory.add_turn(checkout, "user", "hi"),
        lambda: memory.add_decision(checkout, "Five interviews"),
        lambda: memory.rename_project(checkout, "Pay"),
        lambda: memory.share_project(checkout, carla.id, "owner"),
        lambda: memory.update_turn(asked.id, message="changed"),
    ):
        with pytest.raises(NotAllowedError, match="Carla is a viewer"):
            write()
    memory.act_as(ben)
    memory.share_project(checkout, carla.id, "editor")
    memory.act_as(carla)
    brief = tmp_path / "brief.md"
    brief.write_text("Buyers abandon at the payment step.", encoding="utf-8")
    assert memory.add_file(checkout, brief).file.author == "Carla"
    made = memory.add_decision(checkout, "Five interviews", "enough to see patterns")
    assert made.author == "Carla"
    with pytest.raises(NotAllowedError, match="only owners may share"):
        memory.share_project(checkout, carla.id, "owner")
    with pytest.raises(NotAllowedError):
        memory.deletion_report(checkout)


def test_history_decisions_and_files_name_who_made_them(team):
    memory, _, _, ben, carla, checkout = team
    memory.act_as(ben)
    memory.share_project(checkout, carla.id, "editor")
    asked = memory.add_turn(checkout, "user", "why do buyers leave at payment?")
    memory.act_as(carla)
    decided = memory.add_decision(checkout, "Moderated tests", "we need to hear why", asked.id)
    newer = memory.supersede_decision(decided.id, "Moderated tests, six sessions")
    assert [t.author for t in memory.recent_turns(checkout)] == ["Ben"]
    assert memory.get_decision(decided.id).author == "Carla" and newer.author == "Carla"
    found = memory.search_decisions(checkout, "why did we choose moderated tests")
    assert found[0].item.author == "Carla"
    memory.act_as(None)  # the operator's own turns name nobody
    assert memory.add_turn(checkout, "user", "from the command line").author is None


def test_the_last_owner_stays_and_roles_change_in_the_audit_log(team):
    memory, clock, _, ben, carla, checkout = team
    memory.act_as(ben)
    with pytest.raises(UsageError, match="at least one owner"):
        memory.share_project(checkout, ben.id, "editor")
    memory.share_project(checkout, carla.id, "viewer")
    clock.now += timedelta(minutes=1)
    memory.share_project(checkout, carla.id, "editor")
    memory.share_project(checkout, carla.id, "editor")  # no change: no line
    memory.unshare_project(checkout, carla.id)
    memory.add_decision(checkout, "Ship guest checkout")
    lines = [(e.actor, e.action, e.detail.get("role")) for e in memory.audit_log(checkout)]
    assert lines == [
        ("Ben", "decision.recorded", None),
        ("Ben", "member.removed", None),
        ("Ben", "member.role_changed", "editor"),
        ("Ben", "member.added", "viewer"),
        ("Ben", "project.created", None),
    ]
    memory.act_as(carla)
    with pytest.raises(NotFoundError):
        memory.audit_log(checkout)
    assert memory.audit_log() == []  # she owns nothing: no lines at all


def test_a_deleted_project_keeps_its_lines_in_the_audit_log(team):
    memory, _, ana, ben, _, checkout = team
    memory.act_as(ben)
    memory.add_turn(checkout, "user", "a question")
    memory.delete_project(memory.deletion_report(checkout))
    memory.act_as(ana)
    deleted = memory.audit_log()[0]
    assert (deleted.actor, deleted.action, deleted.project_id) == (
        "Ben",
        "project.deleted",
        checkout,
    )
    assert deleted.detail == {"name": "Checkout", "turns": 1, "files": 0, "decisions": 0}


def test_each_person_has_their_own_active_project(team):
    memory, _, _, ben, carla, checkout = team
    memory.act_as(carla)
    mine = memory.create_project("Onboarding")
    memory.switch_project(mine.id)
    memory.act_as(ben)
    memory.switch_project(checkout)
    memory.act_as(carla)
    assert memory.active_project().id == mine.id
    memory.act_as(ben)
    assert memory.active_project().id == checkout
    with pytest.raises(NotFoundError):
        memory.switch_project(mine.id)


def test_an_invite_sets_a_password_once_and_expires(team):
    memory, clock, ana, _, carla, _ = team
    link = memory.invite_person(carla.id)
    assert memory.invited_person(link).name == "Carla"
    joined = memory.accept_invite(link, hash_password("carla's long secret"))
    assert joined.has_password
    person, stored = memory.password_of("carla")
    assert person.id == carla.id and verify_password(stored, "carla's long secret")
    assert not verify_password(stored, "carla's long secreT")
    with pytest.raises(NotAllowedError, match="used already"):
        memory.accept_invite(link, hash_password("another long secret"))
    late = memory.invite_person(ana.id)
    clock.now += timedelta(days=8)
    with pytest.raises(NotAllowedError, match="expired"):
        memory.invited_person(late)
    with pytest.raises(UsageError, match="at least 10"):
        hash_password("short")


def test_sessions_and_tokens_end_at_logout_expiry_or_when_disabled(team):
    memory, clock, ana, ben, _, _ = team
    session, token = memory.new_session(ben.id), memory.new_api_token(ben.id, "laptop")
    assert memory.credential_holder(session)[0].name == "Ben"
    assert memory.credential_holder(token)[1] == "token"
    assert memory.credential_holder(session + "x") is None
    assert memory.revoke_credential(session) and memory.credential_holder(session) is None
    other = memory.new_session(ben.id)
    clock.now += timedelta(days=15)
    assert memory.credential_holder(other) is None  # a session lasts 14 days
    assert memory.credential_holder(token) is not None  # a token until revoked
    memory.disable_person(ben.id)
    assert memory.credential_holder(token) is None
    assert memory.password_of("ben") is None
    with pytest.raises(UsageError, match="disabled"):
        memory.new_session(ben.id)
    memory.act_as(ana)
    assert {e.action for e in memory.audit_log()} >= {"person.added", "person.disabled"}


def test_only_an_admin_manages_people(team):
    memory, _, _, ben, carla, _ = team
    memory.act_as(ben)
    for manage in (
        lambda: memory.add_person("Dora"),
        lambda: memory.disable_person(carla.id),
        lambda: memory.invite_person(carla.id),
        lambda: memory.new_api_token(carla.id, "not mine"),
    ):
        with pytest.raises(NotAllowedError, match="only an admin"):
            manage()
    assert memory.new_api_token(ben.id, "mine")  # his own


def test_usage_is_broken_down_by_person(team):
    from design_agent.memory.usage import UsageQuery, usage_report

    memory, _, _, ben, carla, checkout = team
    memory.act_as(ben)
    memory.share_project(checkout, carla.id, "editor")
    for person, cost in ((ben, 0.5), (carla, 0.25), (carla, 0.25)):
        memory.act_as(person)
        memory.add_turn(checkout, "agent", "an answer", provider="claude", cost=cost)
    report = usage_report(memory.db, UsageQuery(by="person", project_id=checkout))
    assert [(r.group, r.turns, r.cost_usd) for r in report.rows] == [
        ("Ben", 1, 0.5),
        ("Carla", 2, 0.5),
    ]


def test_a_one_person_home_writes_no_audit_log(tmp_path):
    with Memory.open(tmp_path / "home.db") as memory:
        project = memory.create_project("Mine").id
        memory.add_decision(project, "A decision")
        memory.delete_project(memory.deletion_report(project))
        assert memory.audit_log() == [] and memory.list_people() == []
