"""The conversation tree in memory: old databases migrated, forks and branches, the path a
prompt is built from, the project state at every node (keyframes and deltas), crashes that
leave nothing half-written, and exports that carry the tree."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_fixtures import BACKENDS, store
from test_memory_durability import build_version_1

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import Memory, ProjectState, Proposal, StateDecision
from design_agent.memory.connection import INTEGRITY_ERRORS
from design_agent.memory.db import connect
from design_agent.memory.export import FORMAT_VERSION
from design_agent.memory.schema import LATEST_VERSION
from design_agent.memory.search_index import index_statements

NOW = "2025-03-01T10:00:00.000000+00:00"


@pytest.fixture
def memory(memory_target: Path | str) -> Iterator[Memory]:
    with Memory.open(memory_target) as opened:
        yield opened


def count(memory: Memory, table: str) -> int:
    return int(memory.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def ids(turns: list[Any]) -> list[int]:
    return [t.id for t in turns]


def state_of(*decisions: Any, task: str | None = None, **metadata: Any) -> ProjectState:
    held = [StateDecision(id=d.id, decision=d.decision, rationale=d.rationale) for d in decisions]
    return ProjectState(decisions=held, task_id=task, metadata=metadata)


# -- Migration 5 -----------------------------------------------------------------------------


def build_version_4(path: Path) -> None:
    """A database as the current release (schema 4) leaves it: user turns without a parent,
    each answer pointing at its question, two projects' turns interleaved."""
    db = connect(path, version=4)
    for key, project_id in enumerate(("checkout", "onboarding"), 1):
        db.execute(
            "INSERT INTO projects VALUES (?, ?, ?, ?, ?, ?)",
            [project_id, project_id.title(), project_id, key, NOW, NOW],
        )
        for statement in index_statements(project_id, key):
            db.execute(statement)
    for n in range(3):
        for project_id in ("checkout", "onboarding"):
            user = _insert_turn(db, project_id, "user", f"{project_id} question {n}", None)
            _insert_turn(db, project_id, "agent", f"moderated answer {n}", user)
    db.execute(
        "INSERT INTO project_decisions (project_id, decision, rationale, conversation_id, "
        "timestamp) VALUES ('checkout', 'Moderated testing', 'hear why', 2, ?), "
        "('checkout', 'Guest checkout', '', NULL, ?)",
        [NOW, NOW],
    )
    db.close()


def _insert_turn(db: Any, project_id: str, role: str, message: str, parent: int | None) -> int:
    cursor = db.execute(
        "INSERT INTO conversations (project_id, timestamp, role, message, parent_id) "
        "VALUES (?, ?, ?, ?, ?)",
        [project_id, NOW, role, message, parent],
    )
    return int(cursor.lastrowid)


def test_a_current_release_database_becomes_one_chain_per_project(tmp_path):
    path = tmp_path / "design-agent.db"
    build_version_4(path)
    with Memory.open(path) as memory:
        assert memory.db.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION == 11
        for project_id in ("checkout", "onboarding"):
            turns = memory.recent_turns(project_id, 100)
            assert [t.parent_id for t in turns] == [None, *ids(turns)[:-1]]
            assert ids(memory.path_to(turns[-1].id)) == ids(turns)
            (branch,) = memory.branches(project_id)
            assert (branch.name, branch.tip_id, branch.tip_number) == (None, turns[-1].id, 6)
        decided = {d.decision: d.node_id for d in memory.list_decisions("checkout")}
        assert decided == {"Moderated testing": 2, "Guest checkout": None}
        hits = memory.search("moderated", "checkout").groups[0].hits
        assert sorted(h.kind for h in hits) == ["decision", "turn", "turn", "turn"]  # indexes work
        added = memory.add_turn("checkout", "user", "and now unmoderated")
        assert added.parent_id == turns_of(memory, "checkout")[-2].id
        assert memory.branches("checkout")[0].tip_id == added.id
        assert memory.search("unmoderated", "checkout").total == 1


def turns_of(memory: Memory, project_id: str) -> list[Any]:
    return memory.recent_turns(project_id, 1000)


def test_the_v1_database_of_the_tests_is_migrated_to_the_tree(tmp_path):
    path = tmp_path / "design-agent.db"
    build_version_1(path)
    with Memory.open(path) as memory:
        (root,) = turns_of(memory, "checkout")
        assert root.parent_id is None and memory.path_to(root.id) == [root]
        assert [b.tip_id for b in memory.branches("checkout")] == [root.id]
        answer = memory.add_turn("checkout", "agent", "a plan", parent_id=root.id)
        assert memory.tree("checkout").nodes[-1].id == answer.id
        assert memory.state_at(answer.id) == ProjectState()  # no state saved before


def test_deleting_a_project_deletes_its_branches_and_states_and_their_words(tmp_path):
    path = tmp_path / "design-agent.db"
    with Memory.open(path) as memory:
        doomed, kept = memory.create_project("Doomed"), memory.create_project("Kept")
        for project in (doomed, kept):
            turn = memory.add_turn(project.id, "user", "plan", state=state_of(task="t"))
            memory.fork(turn.id, f"{project.id} branch")
            memory.add_turn(project.id, "agent", "answer", state=state_of(Zq9Secret=project.id))
        memory.delete_project(memory.deletion_report(doomed.id))
        assert [b.name for b in memory.branches(kept.id)] == [None, "kept branch"]
        assert (count(memory, "branches"), count(memory, "state_snapshots")) == (2, 2)
        assert memory.branches(doomed.id) == []
    assert b"doomed" not in b"".join(p.read_bytes() for p in tmp_path.glob("design-agent.db*"))


# -- The tree, forks and branches -------------------------------------------------------------


def conversation(memory: Memory) -> dict[str, Any]:
    """Checkout: ask, answer (moderated), ask again; a fork from the first question."""
    project = memory.create_project("Checkout")
    ask = memory.add_turn(project.id, "user", "How do we test the payment step?", task_id="plan")
    moderated = memory.add_turn(project.id, "agent", "Run moderated sessions.", parent_id=ask.id)
    chosen = memory.add_decision(project.id, "Moderated testing", "hear why", moderated.id)
    follow_up = memory.add_turn(project.id, "user", "Who do we recruit?")
    fork = memory.fork(ask.id, "Unmoderated")
    other = memory.add_turn(project.id, "agent", "Use an unmoderated tool.", branch_id=fork.id)
    return {
        "project": project,
        "ask": ask,
        "moderated": moderated,
        "chosen": chosen,
        "follow_up": follow_up,
        "fork": fork,
        "other": other,
    }


def test_the_path_to_a_node_never_holds_a_sibling_branch(memory):
    c = conversation(memory)
    assert ids(memory.path_to(c["follow_up"].id)) == ids([c["ask"], c["moderated"], c["follow_up"]])
    assert ids(memory.path_to(c["other"].id)) == ids([c["ask"], c["other"]])
    assert ids(memory.path_to(c["follow_up"].id, limit=2)) == ids([c["moderated"], c["follow_up"]])
    assert memory.path_to(c["other"].id, limit=0) == []
    assert ids(memory.children(c["ask"].id)) == ids([c["moderated"], c["other"]])
    with pytest.raises(NotFoundError):
        memory.path_to(9999)


def test_decisions_so_far_are_those_on_the_path(memory):
    c = conversation(memory)
    everywhere = memory.add_decision(c["project"].id, "Mobile first")  # no turn: every path
    assert [d.decision for d in memory.decisions_on_path(c["follow_up"].id)] == [
        "Mobile first",
        "Moderated testing",
    ]
    assert memory.decisions_on_path(c["other"].id) == [everywhere]
    assert memory.decisions_on_path(c["ask"].id) == [everywhere]  # made later, below it
    context = memory.project_context(c["project"].id, turns=5, node_id=c["other"].id)
    assert ids(context.recent_turns) == ids([c["ask"], c["other"]])
    assert context.decisions == [everywhere]


def test_fork_name_rename_and_find_branches(memory):
    c = conversation(memory)
    project_id = c["project"].id
    main, fork = memory.branches(project_id)
    assert (main.tip_id, fork.tip_id, fork.name) == (
        c["follow_up"].id,
        c["other"].id,
        "Unmoderated",
    )
    assert memory.find_branch(project_id, "unmoderated ") == fork  # any case, spaces
    assert memory.find_branch(project_id, "#2") == main  # turn 2 was first written on main
    assert memory.find_branch(project_id, 4) == fork
    with pytest.raises(UsageError, match="already has a branch named 'Unmoderated'"):
        memory.fork(c["moderated"].id, "UNMODERATED")
    with pytest.raises(UsageError, match="numbers name turns"):
        memory.rename_branch(main.id, "42")
    renamed = memory.rename_branch(main.id, "Moderated")
    assert memory.find_branch(project_id, "moderated").id == renamed.id
    assert memory.rename_branch(main.id, None).name is None
    with pytest.raises(NotFoundError, match="its branches: Unmoderated"):
        memory.find_branch(project_id, "diary study")
    with pytest.raises(NotFoundError, match="turns are 1 to 4"):
        memory.find_branch(project_id, "9")


def test_a_turn_extends_the_branch_it_follows(memory):
    c = conversation(memory)
    project_id = c["project"].id
    second = memory.add_turn(project_id, "agent", "A diary study.", parent_id=c["ask"].id)
    assert memory.branches(project_id)[-1].tip_id == second.id  # a third line, unnamed
    at_tip = memory.fork(c["follow_up"].id, "Recruiting")
    reply = memory.add_turn(project_id, "agent", "Recruit five.", parent_id=c["follow_up"].id)
    assert memory.find_branch(project_id, "recruiting").tip_id == reply.id  # the newest moved
    assert memory.branches(project_id)[0].tip_id == c["follow_up"].id  # and main stayed
    with pytest.raises(UsageError, match="ends at turn"):
        memory.add_turn(project_id, "user", "x", parent_id=c["ask"].id, branch_id=at_tip.id)
    stranger = memory.create_project("Other")
    with pytest.raises(UsageError, match="not a turn of project"):
        memory.add_turn(stranger.id, "user", "x", parent_id=c["ask"].id)


def test_a_deleted_tip_moves_its_branch_back_to_the_parent(memory):
    c = conversation(memory)
    with memory.transaction():  # turns go only with their project; a tool might do this
        memory.db.execute("DELETE FROM conversations WHERE id = ?", [c["follow_up"].id])
    assert memory.branches(c["project"].id)[0].tip_id == c["moderated"].id
    assert memory.path_ids(c["moderated"].id) == [c["ask"].id, c["moderated"].id]


def test_the_tree_lists_lines_and_forks_with_numbers_and_branch_names(memory):
    c = conversation(memory)
    line = memory.tree(c["project"].id)
    assert [(n.number, n.role, n.branches) for n in line.nodes] == [
        (1, "user", []),
        (2, "agent", []),
        (3, "user", []),
    ]
    assert line.nodes[0].task_id == "plan" and line.nodes[0].text.startswith("How do we test")
    (fork,) = line.nodes[0].forks
    assert [(n.number, n.branches) for n in fork.nodes] == [(4, ["Unmoderated"])]
    assert memory.turn_at(c["project"].id, 4) == c["other"]
    assert memory.turn_number(c["other"].id) == 4


def test_a_long_conversation_is_a_flat_line_any_json_reader_can_read(memory):
    project = memory.create_project("Long")
    for n in range(1500):
        memory.add_turn(project.id, "user" if n % 2 == 0 else "agent", f"turn {n} " * 30)
    line = memory.tree(project.id)
    assert len(line.nodes) == 1500 and len(line.nodes[-1].text) <= 80
    assert json.loads(line.model_dump_json())["nodes"][-1]["number"] == 1500
    assert memory.tree(memory.create_project("Empty").id).nodes == []


# -- Project state: keyframes and deltas ------------------------------------------------------


def test_states_are_keyframes_every_n_nodes_and_deltas_between(memory):
    project = memory.create_project("Checkout")
    kinds = []
    for n in range(7):
        turn = memory.add_turn(project.id, "user", f"turn {n}")
        kinds.append(memory.save_state(turn.id, state_of(task=f"t{n}", step=n), keyframe_every=3))
    assert kinds == ["keyframe", "delta", "delta", "keyframe", "delta", "delta", "keyframe"]
    assert memory.state_at(turn.id) == state_of(task="t6", step=6)
    delta = memory.db.execute(
        "SELECT payload FROM state_snapshots WHERE node_id = ?", [turn.id - 1]
    ).fetchone()[0]
    assert json.loads(delta) == {"metadata_set": {"step": 5}, "task_id": "t5"}


def test_a_state_needs_a_turn_and_a_sensible_keyframe_interval(memory):
    c = conversation(memory)
    with pytest.raises(NotFoundError):
        memory.state_at(9999)
    with pytest.raises(NotFoundError):
        memory.save_state(9999, ProjectState())
    with pytest.raises(UsageError, match="N of 1 or more"):
        memory.save_state(c["ask"].id, ProjectState(), keyframe_every=0)
    assert count(memory, "state_snapshots") == 0


def test_going_back_restores_the_state_as_it_was_there(memory):
    c = conversation(memory)
    memory.save_state(c["ask"].id, state_of(task="plan", goal="fewer abandoned carts"))
    decided = state_of(c["chosen"], task="plan", goal="fewer abandoned carts")
    memory.save_state(c["moderated"].id, decided)
    assert memory.state_at(c["follow_up"].id) == decided  # no state of its own: inherited
    assert memory.state_at(c["other"].id) == state_of(task="plan", goal="fewer abandoned carts")
    with pytest.raises(UsageError, match="not this project's"):
        memory.save_state(
            c["other"].id, ProjectState(decisions=[StateDecision(id=999, decision="x")])
        )


def test_saving_a_state_above_saved_ones_keeps_theirs(memory):
    c = conversation(memory)
    memory.save_state(c["ask"].id, state_of(task="plan"))
    below = ProjectState(task_id="plan", pending=[Proposal(decision="Moderated testing")])
    memory.save_state(c["follow_up"].id, below)
    memory.save_state(c["moderated"].id, state_of(task="other", note=1))  # between them
    memory.save_state(c["ask"].id, state_of(task="changed", goal="g"))  # and a re-save
    assert memory.state_at(c["follow_up"].id) == below
    assert memory.state_at(c["moderated"].id) == state_of(task="other", note=1)
    assert memory.state_at(c["other"].id) == state_of(task="changed", goal="g")


# -- Property tests: random trees against a brute-force replay --------------------------------


class Crash(Exception):
    """A process dying in the middle of a save, as the test simulates it."""


KEYS = st.sampled_from(["goal", "users", "constraints", "deadline"])
VALUES = st.one_of(st.integers(-3, 3), st.booleans(), st.text(max_size=3), st.none())
CHANGE = st.one_of(
    st.tuples(st.just("set"), KEYS, VALUES),
    st.tuples(st.just("unset"), KEYS, st.none()),
    st.tuples(st.just("decide"), st.sampled_from(["moderated", "diary study", "café"]), st.none()),
    st.tuples(st.just("undecide"), st.integers(0, 5), st.none()),
    st.tuples(st.just("task"), st.sampled_from(["plan", "survey", None]), st.none()),
    st.tuples(st.just("propose"), st.text(min_size=1, max_size=4), st.none()),
)
STEP = st.tuples(
    st.integers(0, 1000),  # the parent: one of the nodes so far
    st.lists(CHANGE, max_size=3),
    st.sampled_from(["state", "state", "state", "none", "resave", "crash"]),
)


def changed(memory: Memory, project_id: str, node: int, base: ProjectState, change: Any) -> Any:
    """`base` with one random change; a decision made at `node` is a real one there."""
    what, key, value = change
    data = base.model_dump()
    if what == "set" and value is not None:
        data["metadata"][key] = value
    elif what in ("set", "unset"):
        data["metadata"].pop(key, None)
    elif what == "decide":
        made = memory.add_decision(project_id, key, "because", node_id=node)
        data["decisions"].append({"id": made.id, "decision": made.decision, "rationale": "because"})
    elif what == "undecide" and data["decisions"]:
        data["decisions"].pop(key % len(data["decisions"]))
    elif what == "task":
        data["task_id"] = key
    elif what == "propose":
        data["pending"] = [*data["pending"], {"decision": key}][-2:]
    return ProjectState.model_validate(data)


class Model:
    """The brute force: parents, the states saved, and the replay from the root."""

    def __init__(self) -> None:
        self.parent: dict[int, int | None] = {}
        self.saved: dict[int, ProjectState] = {}

    def path(self, node: int) -> list[int]:
        found: list[int] = []
        current: int | None = node
        while current is not None:
            found.append(current)
            current = self.parent[current]
        return found[::-1]

    def state(self, node: int) -> ProjectState:
        """Replay from the root: the last state saved on the way down to `node`."""
        state = ProjectState()
        for step in self.path(node):
            state = self.saved.get(step, state)
        return state


def grow(memory: Memory, project_id: str, model: Model, step: Any) -> None:
    pick, changes, how = step
    nodes = list(model.parent)
    parent = nodes[pick % len(nodes)] if nodes else None
    if how == "resave" and nodes:
        state = model.state(parent)
        for change in changes:
            state = changed(memory, project_id, parent, state, change)
        memory.save_state(parent, state, keyframe_every=3)
        model.saved[parent] = state
        return
    if how == "crash" and nodes:
        crash(memory, project_id, parent, model, pick % 4)
        return
    turn = memory.add_turn(project_id, "user", f"node {len(nodes)}", parent_id=parent)
    model.parent[turn.id] = parent
    if how != "none":
        state = model.state(turn.id)
        for change in changes:
            state = changed(memory, project_id, turn.id, state, change)
        memory.save_state(turn.id, state, keyframe_every=3)
        model.saved[turn.id] = state


def crash(memory: Memory, project_id: str, parent: Any, model: Model, where: int) -> None:
    """A save dies after the node is inserted: before the state, after it, or inside it
    (in the caller's transaction, or in the one `add_turn(state=...)` opens)."""
    before = {t: count(memory, t) for t in ("conversations", "state_snapshots", "branches")}
    ghost = ProjectState(decisions=[StateDecision(id=10**9, decision="never made")])
    if where == 3:  # one call saves both: the state is refused after the node's insert
        with pytest.raises(UsageError):
            memory.add_turn(project_id, "user", "Zq8Crash", parent_id=parent, state=ghost)
    else:
        with pytest.raises((Crash, UsageError)), memory.transaction():
            turn = memory.add_turn(project_id, "user", "Zq8Crash words", parent_id=parent)
            if where == 0:
                raise Crash
            if where == 1:
                memory.save_state(turn.id, model.state(parent), keyframe_every=3)
                raise Crash
            memory.save_state(turn.id, ghost, keyframe_every=3)  # refused inside the save
    assert {t: count(memory, t) for t in before} == before
    assert memory.search("Zq8Crash", project_id).total == 0


def stored(memory: Memory, state: ProjectState) -> ProjectState:
    """`state` as the store keeps it: PostgreSQL's text holds no NUL (U+FFFD instead)."""
    if memory.backend == "sqlite":
        return state
    return ProjectState.model_validate_json(state.model_dump_json().replace("\\u0000", "\ufffd"))


def check(memory: Memory, project_id: str, model: Model) -> None:
    tips = {b.tip_id for b in memory.branches(project_id)}
    for node in model.parent:
        assert memory.state_at(node) == stored(memory, model.state(node))
        path = model.path(node)
        assert ids(memory.path_to(node)) == path  # never a node off the way to the root
        expected = {d.id for d in memory.list_decisions(project_id) if d.node_id in {*path, None}}
        assert {d.id for d in memory.decisions_on_path(node)} == expected
        if node not in model.parent.values():
            assert node in tips  # every leaf is the tip of a branch


@pytest.fixture(scope="module", params=BACKENDS)
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Memory]:
    with (
        store(request, request.param, tmp_path_factory.mktemp("tree")) as target,
        Memory.open(target) as opened,
    ):
        yield opened


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEP, min_size=1, max_size=25))
def test_state_at_every_node_equals_a_replay_from_the_root(shared, steps):
    project_id = shared.create_project(f"Random {count(shared, 'projects')}").id
    model = Model()
    for step in steps:
        grow(shared, project_id, model, step)
    check(shared, project_id, model)


# -- Export and import ----------------------------------------------------------------------


def test_export_and_import_carry_the_tree(tmp_path, memory_target):
    with Memory.open(tmp_path / "laptop.db") as laptop:
        c = conversation(laptop)
        project_id = c["project"].id
        laptop.save_state(c["ask"].id, state_of(task="plan"))
        laptop.save_state(c["moderated"].id, state_of(c["chosen"], task="plan"), keyframe_every=2)
        laptop.save_state(c["other"].id, state_of(task="survey", tool="maze"))
        laptop.add_decision(project_id, "Unmoderated tool", "", node_id=c["other"].id)
        exported = laptop.export_project(project_id, tmp_path / "backup.json")
        tree = laptop.tree(project_id)
    assert exported.version == FORMAT_VERSION == 3
    assert [b.name for b in exported.branches] == [None, "Unmoderated"]
    assert [d.node for d in exported.decisions] == [2, 4]
    with Memory.open(memory_target) as desktop:  # the same on a team's PostgreSQL
        desktop.add_turn(desktop.create_project("First").id, "user", "shift every id")
        restored = desktop.import_project(tmp_path / "backup.json")
        again = desktop.export_project(restored.id)
        assert again.model_dump(exclude={"exported_at"}) == exported.model_dump(
            exclude={"exported_at"}
        )
        assert strip_ids(desktop.tree(restored.id).model_dump()) == strip_ids(tree.model_dump())
        other = desktop.find_branch(restored.id, "unmoderated").tip_id
        assert desktop.state_at(other).metadata == {"tool": "maze"}
        assert [d.decision for d in desktop.decisions_on_path(other)] == ["Unmoderated tool"]
        moderated = desktop.turn_at(restored.id, 2).id
        assert [d.decision for d in desktop.state_at(moderated).decisions] == ["Moderated testing"]


def strip_ids(tree: Any) -> Any:
    """A tree without database ids: numbers, texts and names must survive an import."""
    if isinstance(tree, dict):
        return {k: strip_ids(v) for k, v in tree.items() if k != "id"}
    if isinstance(tree, list):
        return [strip_ids(v) for v in tree]
    return tree


def version_1_export(path: Path) -> Path:
    """An export as the current release writes it (format version 1)."""
    turn = {"timestamp": NOW, "status": "complete", "parent": None}
    document = {
        "format": "design-agent.project",
        "version": 1,
        "exported_at": NOW,
        "project": {"id": "old", "name": "Old", "created_at": NOW, "last_accessed": NOW},
        "metadata": {},
        "turns": [
            turn | {"ref": 1, "role": "user", "message": "plan a test"},
            turn | {"ref": 2, "role": "agent", "message": "moderated", "parent": 1},
            turn | {"ref": 3, "role": "agent", "message": "cancelled", "parent": 1},
            turn | {"ref": 4, "role": "user", "message": "recruit whom?"},
        ],
        "files": [],
        "decisions": [{"decision": "Moderated", "rationale": "", "turn": 2, "timestamp": NOW}],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_an_old_export_imports_as_one_chain(memory, tmp_path):
    project = memory.import_project(version_1_export(tmp_path / "old.json"))
    turns = turns_of(memory, project.id)
    assert [t.parent_id for t in turns] == [None, turns[0].id, turns[0].id, turns[2].id]
    assert [b.tip_id for b in memory.branches(project.id)] == [turns[1].id, turns[3].id]
    (decision,) = memory.list_decisions(project.id)
    assert decision.node_id == turns[1].id
    assert memory.decisions_on_path(turns[3].id) == []  # made on the other answer's line


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["turns"][2].update(parent=None), "needs as parent"),
        (lambda d: d["turns"][1].update(parent=3), "needs as parent"),
        (lambda d: d["branches"][0].update(tip=99), "branch tip refers to turn 99"),
        (lambda d: d["states"][0]["payload"]["decisions"].append({"id": 7, "decision": "x"}), "7"),
        (lambda d: d["states"][0].update(payload={"bogus": 1}), "not one"),
    ],
)
def test_an_inconsistent_tree_in_an_export_is_refused(memory, tmp_path, change, problem):
    c = conversation(memory)
    memory.save_state(c["ask"].id, state_of(task="plan"))
    document = memory.export_project(c["project"].id).model_dump(mode="json")
    change(document)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    before = count(memory, "conversations")
    with pytest.raises(UsageError, match=problem):
        memory.import_project(path, name="Edited")
    assert count(memory, "conversations") == before


def test_sqlite_keeps_foreign_keys_of_the_tree(memory):
    c = conversation(memory)
    with pytest.raises(INTEGRITY_ERRORS):
        memory.db.execute("INSERT INTO state_snapshots VALUES (9999, 'keyframe', 0, '{}')")
    assert c["fork"].tip_number == 1  # as it was made: at the question
