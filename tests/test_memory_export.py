"""Backing a project up to one JSON file and bringing it back, here or on another machine."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from design_agent.core.errors import UsageError
from design_agent.memory import Memory


def populated(memory: Memory, tmp_path: Path) -> str:
    project = memory.create_project("Mobile Checkout")
    asked = memory.add_turn(project.id, "user", "¿Cómo probamos el pago? 🧾", task_id="test_plan")
    answer = memory.add_turn(
        project.id,
        "agent",
        "Moderated tests.",
        parent_id=asked.id,
        provider="claude",
        model="sonnet",
        tokens=120,
        cost=0.01,
        validation={"checks": {"method": True}, "score": 0.9},
    )
    memory.add_turn(project.id, "agent", "partial answ", status="cancelled", parent_id=asked.id)
    memory.add_decision(project.id, "Moderated usability testing", "hear the why", answer.id)
    memory.add_decision(project.id, "Guest checkout", "")
    memory.set_metadata(project.id, "goals", ["fewer abandoned carts"])
    brief = tmp_path / "brief.md"
    brief.write_text("# Brief\nfirst-time buyers", encoding="utf-8")
    memory.add_file(project.id, brief)
    return project.id


def comparable(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "exported_at"}


def test_export_then_import_elsewhere_gives_the_same_project(tmp_path, memory_target):
    with Memory.open(tmp_path / "laptop.db") as laptop:
        project_id = populated(laptop, tmp_path)
        exported = laptop.export_project(project_id, tmp_path / "backup.json")
    backup = tmp_path / "backup.json"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    document = json.loads(backup.read_text(encoding="utf-8"))
    assert document["format"] == "design-agent.project" and len(document["turns"]) == 3
    assert document["turns"][1]["parent"] == 1 and document["decisions"][0]["turn"] == 2

    with Memory.open(memory_target) as desktop:  # a laptop's project, onto either store
        desktop.create_project("Something else")
        desktop.add_turn(desktop.find_project("something else").id, "user", "shift the ids")
        restored = desktop.import_project(backup)
        assert restored == exported.project
        again = desktop.export_project(restored.id)
        assert comparable(again.model_dump()) == comparable(exported.model_dump())
        assert desktop.search("moderated", restored.id).total == 2
        assert desktop.search_decisions(restored.id, "why moderated")[0].item.conversation_id


def test_import_over_an_existing_project_needs_another_name(tmp_path, memory_target):
    with Memory.open(memory_target) as memory:
        project_id = populated(memory, tmp_path)
        exported = memory.export_project(project_id)
        with pytest.raises(UsageError, match="--name"):
            memory.import_project(exported)
        copy = memory.import_project(exported, name="Checkout (restored)")
        assert (copy.id, copy.name) == ("checkout-restored", "Checkout (restored)")
        assert memory.deletion_report(copy.id).turns == 3
        memory.delete_project(memory.deletion_report(project_id))
        assert memory.import_project(exported).id == project_id


def test_a_file_that_is_not_an_export_is_refused(tmp_path):
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"format": "something else"}', encoding="utf-8")
    with (
        Memory.open(tmp_path / "design-agent.db") as memory,
        pytest.raises(UsageError, match="not a design-agent project export"),
    ):
        memory.import_project(bogus)
