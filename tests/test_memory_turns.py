"""A conversation remembered: turns saved before and after the provider, context, agent memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import Memory


@pytest.fixture
def memory(memory_target: Path | str):
    with Memory.open(memory_target) as opened:
        yield opened


def test_a_turn_is_saved_before_the_answer_and_completed_after(memory):
    project = memory.create_project("Checkout")
    asked = memory.add_turn(
        project.id, "user", "Plan a usability test for the checkout", task_id="usability_test_plan"
    )
    answer = memory.add_turn(
        project.id,
        "agent",
        "",
        task_id="usability_test_plan",
        agent_id="research_analyst",
        provider="claude",
        model="sonnet",
        parent_id=asked.id,
    )
    done = memory.update_turn(
        answer.id,
        message="## Plan\n1. Recruit 5 participants",
        tokens=812,
        cost=0.0123,
        validation={"method_applied": True, "score": 0.8},
    )
    assert done.status == "complete" and done.tokens == 812 and done.parent_id == asked.id
    assert done.validation == {"method_applied": True, "score": 0.8}
    assert memory.get_turn(answer.id) == done
    assert [t.id for t in memory.recent_turns(project.id, 5)] == [asked.id, answer.id]
    assert memory.recent_turns(project.id, 1) == [done]
    last = memory.last_turn(project.id)
    assert last is not None and last.task_id == "usability_test_plan"
    assert memory.search("recruit participants", project.id).total == 1


def test_a_cancelled_or_failed_answer_keeps_its_partial_text(memory):
    project = memory.create_project("Checkout")
    answer = memory.add_turn(project.id, "agent", "Here is the first half")
    cancelled = memory.update_turn(answer.id, status="cancelled")
    assert (cancelled.message, cancelled.status) == ("Here is the first half", "cancelled")
    failed = memory.add_turn(project.id, "agent", "partial", status="failed")
    assert failed.status == "failed"
    with pytest.raises(UsageError):
        memory.add_turn(project.id, "robot", "beep")
    with pytest.raises(UsageError):
        memory.update_turn(answer.id, status="exploded")
    with pytest.raises(UsageError, match="cannot update"):
        memory.update_turn(answer.id, project_id="elsewhere")
    with pytest.raises(NotFoundError):
        memory.update_turn(999_999, message="x")
    with pytest.raises(NotFoundError):
        memory.add_turn("no-such-project", "user", "hello")


def test_the_context_bundle_has_metadata_briefs_decisions_and_recent_turns(memory, tmp_path):
    project = memory.create_project("Checkout")
    memory.set_metadata(project.id, "users", ["first-time buyers", "returning buyers"])
    memory.set_metadata(project.id, "preferences", {"language": "es", "verbosity": "brief"})
    memory.set_metadata(project.id, "obsolete", "x")
    memory.set_metadata(project.id, "obsolete", None)
    brief = tmp_path / "brief.md"
    brief.write_text("# Brief\nReduce checkout abandonment.", encoding="utf-8")
    memory.add_file(project.id, brief, "brief")
    notes = tmp_path / "notes.txt"
    notes.write_text("raw interview notes", encoding="utf-8")
    memory.add_file(project.id, notes, "research")
    for n in range(15):
        memory.add_turn(project.id, "user" if n % 2 == 0 else "agent", f"turn {n}")
    for n in range(12):
        memory.add_decision(project.id, f"decision {n}", f"because {n}")

    context = memory.project_context(project.id, turns=4, decision_count=3)

    assert context.project.id == project.id
    assert context.metadata == {
        "preferences": {"language": "es", "verbosity": "brief"},
        "users": ["first-time buyers", "returning buyers"],
    }
    assert [b.filename for b in context.briefs] == ["brief.md"]
    assert "abandonment" in context.briefs[0].content
    assert [d.decision for d in context.decisions] == ["decision 11", "decision 10", "decision 9"]
    assert [t.message for t in context.recent_turns] == ["turn 11", "turn 12", "turn 13", "turn 14"]


def test_agent_state_and_process_memory_are_global_and_searchable(memory):
    assert memory.get_state("last_provider", "offline") == "offline"
    memory.set_state("last_provider", "gemini")
    memory.set_state("pending", {"kind": "choice", "options": [1, 2]})
    assert memory.get_state("last_provider") == "gemini"
    assert memory.get_state("pending") == {"kind": "choice", "options": [1, 2]}
    lesson = memory.add_process_memory(
        context="a B2B checkout with few users to recruit",
        decision="moderated remote usability testing",
        rationale="five sessions find most problems",
        outcome="found 12 issues",
        lessons="recruit through the customer success team",
    )
    memory.add_process_memory(context="onboarding survey", decision="unmoderated survey")
    found = memory.search_process_memory("why did we choose moderated testing")
    assert [f.item.id for f in found][:1] == [lesson.id]
    spanish = memory.search_process_memory("¿por qué reclutamos con customer success?")
    assert spanish[0].item == lesson
    assert [p.id for p in memory.list_process_memory()][-1] == lesson.id
    with pytest.raises(UsageError):
        memory.add_process_memory(context="", decision="x")


def test_unicode_and_spanish_text_round_trip_and_are_found_without_accents(memory):
    project = memory.create_project("Investigación Móvil")
    text = "Decidimos hacer pruebas de usabilidad moderadas con 5 participantes 🧪 — ¿por qué?"
    turn = memory.add_turn(project.id, "user", text)
    assert memory.get_turn(turn.id).message == text
    memory.add_decision(
        project.id,
        "Pruebas de usabilidad moderadas",
        "necesitamos entender la investigación de usuarios",
        turn.id,
    )
    for query in (
        "investigacion de usuarios",
        "INVESTIGACIÓN",
        "¿Por qué decidimos hacer pruebas moderadas?",
        "usabilidad",
    ):
        assert memory.search_decisions(project.id, query), query
    hits = memory.search("participantes moderadas", project.id)
    assert hits.groups[0].project.name == "Investigación Móvil"
    assert "participantes" in hits.groups[0].hits[0].snippet


def test_closing_a_session_merges_the_index_it_wrote(memory):
    if memory.backend != "sqlite":
        pytest.skip("FTS5's segments: PostgreSQL's GIN indexes are kept by autovacuum")
    project = memory.create_project("Chatty")
    for n in range(40):  # forty commits, forty small index segments
        memory.add_turn(project.id, "user", f"message number {n} about checkout")

    def segments() -> int:
        return memory.db.execute(
            "SELECT count(DISTINCT segid) FROM conversations_fts_1_idx"
        ).fetchone()[0]

    assert segments() > 1
    memory.maintain()
    assert segments() == 1
    assert memory.search("checkout", project.id, limit=100).total == 40
