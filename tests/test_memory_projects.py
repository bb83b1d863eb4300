"""A user's projects: create, find by any spelling, list, switch, rename, delete; isolation."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import Memory


class Clock:
    """A clock that moves one minute per reading, so 'last used' order is certain."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


@pytest.fixture
def memory(memory_target: Path | str):
    with Memory.open(memory_target, clock=Clock()) as opened:
        yield opened


def fill(memory: Memory, project_id: str, words: str) -> None:
    """A turn pair, a decision and some metadata, all mentioning `words`."""
    question = memory.add_turn(project_id, "user", f"How should we test the {words}?")
    memory.add_turn(
        project_id, "agent", f"Run moderated tests of the {words}.", parent_id=question.id
    )
    memory.add_decision(
        project_id,
        f"Moderated usability testing of the {words}",
        "we need to hear why people hesitate",
        question.id,
    )
    memory.set_metadata(project_id, "goals", [f"better {words}"])


def test_names_are_found_whatever_the_case_accents_or_punctuation(memory):
    created = memory.create_project("Mobile Checkout")
    assert created.id == "mobile-checkout"
    for spelling in (
        "mobile checkout",
        "MOBILE-CHECKOUT",
        "  Móbile   Checkout ",
        "mobile-checkout",
    ):
        assert memory.find_project(spelling).id == created.id
    cafe = memory.create_project("Café Móvil")
    assert memory.find_project("cafe movil").id == cafe.id == "cafe-movil"
    with pytest.raises(UsageError, match="already exists"):
        memory.create_project("mobile CHECKOUT")
    with pytest.raises(NotFoundError, match="Did you mean: Mobile Checkout"):
        memory.find_project("Mobile Chekout")
    with pytest.raises(UsageError):
        memory.create_project("  !!! ")


def test_list_is_ordered_by_last_use_with_counts_and_the_active_flag(memory):
    older = memory.create_project("Onboarding")
    newer = memory.create_project("Checkout")
    fill(memory, older.id, "sign-up form")
    assert [p.name for p in memory.list_projects()] == ["Onboarding", "Checkout"]
    memory.switch_project(newer.id)
    listed = memory.list_projects()
    assert [(p.name, p.turns, p.decisions, p.active) for p in listed] == [
        ("Checkout", 0, 0, True),
        ("Onboarding", 2, 1, False),
    ]
    assert memory.active_project() == memory.get_project(newer.id)


def test_rename_keeps_the_id_and_everything_in_the_project(memory):
    project = memory.create_project("Checkout")
    fill(memory, project.id, "payment page")
    memory.create_project("Onboarding")
    renamed = memory.rename_project(project.id, "Checkout 2.0")
    assert (renamed.id, renamed.name) == ("checkout", "Checkout 2.0")
    assert memory.find_project("checkout 2.0").id == "checkout"
    assert len(memory.recent_turns("checkout", 10)) == 2
    with pytest.raises(UsageError, match="already named"):
        memory.rename_project(project.id, "onboarding")
    again = memory.create_project("Checkout")  # the old name is free again, the id is not
    assert again.id == "checkout-2"
    assert memory.find_project("checkout").id == "checkout-2"


def test_delete_reports_counts_then_removes_exactly_that_project(memory):
    doomed = memory.create_project("Doomed")
    kept = memory.create_project("Kept")
    fill(memory, doomed.id, "checkout flow")
    fill(memory, kept.id, "checkout flow")
    memory.switch_project(doomed.id)
    report = memory.deletion_report(doomed.id)
    assert (report.turns, report.files, report.decisions, report.metadata) == (2, 0, 1, 1)
    before = memory.search("checkout flow", kept.id)

    memory.delete_project(report)

    assert [p.name for p in memory.list_projects()] == ["Kept"]
    assert memory.active_project() is None
    for table in ("conversations", "project_files", "project_decisions", "project_metadata"):
        left = memory.db.execute(
            f"SELECT count(*) FROM {table} WHERE project_id = ?", [doomed.id]
        ).fetchone()[0]
        assert left == 0, table
    if memory.backend == "sqlite":  # its own turn index is gone too
        leftovers = memory.db.execute(
            "SELECT name FROM sqlite_master WHERE name LIKE 'conversations_fts_1%'"
        ).fetchall()
        assert leftovers == []
    found = memory.search("checkout flow", all_projects=True)
    assert [g.project.id for g in found.groups] == [kept.id]
    assert memory.search("checkout flow", kept.id) == before
    assert memory.deletion_report(kept.id).turns == 2


def test_delete_refuses_counts_that_changed_since_the_confirmation(memory):
    project = memory.create_project("Busy")
    report = memory.deletion_report(project.id)
    memory.add_turn(project.id, "user", "one more thing")
    with pytest.raises(UsageError, match="changed since you confirmed"):
        memory.delete_project(report)
    assert memory.find_project("busy")


def test_two_projects_never_see_each_other(memory):
    checkout = memory.create_project("Checkout")
    onboarding = memory.create_project("Onboarding")
    fill(memory, checkout.id, "checkout")
    fill(memory, onboarding.id, "onboarding")
    for own, other in ((checkout, onboarding), (onboarding, checkout)):
        assert {t.project_id for t in memory.recent_turns(own.id, 50)} == {own.id}
        assert {d.project_id for d in memory.list_decisions(own.id)} == {own.id}
        assert {d.item.project_id for d in memory.search_decisions(own.id, "moderated")} == {own.id}
        hits = memory.search("moderated tests", own.id)
        assert [g.project.id for g in hits.groups] == [own.id]
        assert memory.search(other.id, own.id).groups == []
        assert memory.metadata(own.id) == {"goals": [f"better {own.id}"]}
    both = memory.search("moderated", all_projects=True)
    assert sorted(g.project.id for g in both.groups) == [checkout.id, onboarding.id]
    with pytest.raises(UsageError, match="not a turn of"):
        memory.add_turn(
            checkout.id, "agent", "answer", parent_id=memory.last_turn(onboarding.id).id
        )
    with pytest.raises(UsageError):
        memory.search("moderated")  # neither a project nor all_projects: refused


def test_the_database_and_its_wal_files_are_private(tmp_path):
    path = tmp_path / "fresh" / "design-agent.db"
    old = os.umask(0)  # even with a permissive umask
    try:
        with Memory.open(path) as memory:
            memory.add_turn(memory.create_project("P").id, "user", "hello")
            files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
            assert [stat.S_IMODE(f.stat().st_mode) for f in files] == [0o600] * 3
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
