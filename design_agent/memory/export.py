"""Export a project to one JSON file and import it back: the backup story.

The file holds no database ids: turns are listed in order and referred to by
their position (`ref`), decisions by their position in `decisions` (1 = the
first), so exporting, importing (into any database) and exporting again gives
the same file, apart from `exported_at`.

Version 3 carries what became of each decision: its status (current, superseded,
retired), the decision it replaces (`replaces`, a decision ref earlier in the file),
when and at which turn it was changed and why it was retired. Version 1 and 2 files
still import: their decisions are all current.

Version 2 carries the conversation tree: every turn but the first names its
parent, the branches (name and tip), the node of each decision, and the state
snapshots as stored (keyframes and deltas, see snapshots.py). A version 1 file
still imports, as the migration to the tree reads an old database: a turn
without a parent follows the one before it, every leaf becomes an unnamed
branch and a decision sits at its turn.

An import file may come from anyone, so it is checked before anything is
written, and refused with one line naming the file (exit 2) when it is
nested deeper than MAX_DEPTH, holds the same file twice, or has a project id
that is not a slug as design-agent makes them (`../../../etc/passwd`). Its
stored preferences are checked too: bad ones are dropped with a warning, and
the ones kept only fill what the user left unset (see preferences.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.core.fsutil import FILE_MODE
from design_agent.core.user_files import write_file
from design_agent.memory import (
    branches,
    conversations,
    decisions,
    files,
    metadata,
    projects,
    snapshots,
)
from design_agent.memory.connection import INTEGRITY_ERRORS, Connection
from design_agent.memory.db import inserted_id, scalar, snapshot, stamp, transaction
from design_agent.memory.models import Decision, DecisionStatus, FileType, Project, Row, TurnContent
from design_agent.memory.text import guess_language, is_slug

FORMAT: Literal["design-agent.project"] = "design-agent.project"
FORMAT_VERSION: Literal[3] = 3
MAX_DEPTH = 64  # far above what an export needs; below SQLite's JSON and Python's limits
Warn = Callable[[str], None]


class ExportedTurn(TurnContent):
    """A turn; `ref` is its position in the file, `parent` the ref of its parent."""

    ref: int
    parent: int | None = None


class ExportedFile(Row):
    """A project file with its text."""

    filename: str
    file_type: FileType
    uploaded_at: datetime
    sha256: str
    content: str


class ExportedDecision(Row):
    """A decision; `turn` is the ref of the turn where it was made, `node` the ref of the
    node of the tree it belongs to (None: every path); `replaces` the position (1 = first)
    of the decision it replaces, `changed_node` the ref of the turn where it was changed."""

    decision: str
    rationale: str
    turn: int | None = None
    timestamp: datetime
    node: int | None = None
    status: DecisionStatus = "current"
    replaces: int | None = None
    changed_at: datetime | None = None
    changed_node: int | None = None
    change_reason: str = ""


class ExportedBranch(Row):
    """A branch; `tip` is the ref of the turn it has reached."""

    name: str | None = None
    tip: int
    created_at: datetime


class ExportedState(Row):
    """The state snapshot stored at the turn `node`, its decision ids made decision refs."""

    node: int
    kind: Literal["keyframe", "delta"]
    depth: int = Field(ge=0)
    payload: dict[str, Any]


class ProjectExport(Row):
    """The whole export file."""

    format: Literal["design-agent.project"] = FORMAT
    version: Literal[1, 2, 3] = FORMAT_VERSION
    exported_at: datetime
    project: Project
    metadata: dict[str, Any]
    turns: list[ExportedTurn]
    files: list[ExportedFile]
    decisions: list[ExportedDecision]
    branches: list[ExportedBranch] = Field(default_factory=list)
    states: list[ExportedState] = Field(default_factory=list)


def build(db: Connection, project_id: str, now: datetime) -> ProjectExport:
    """Everything of one project, read in one snapshot."""
    with snapshot(db):
        turns = conversations.every(db, project_id)
        refs = {turn.id: n for n, turn in enumerate(turns, start=1)}
        decided = list(reversed(decisions.listing(db, project_id, history=True)))
        decision_refs = {d.id: n for n, d in enumerate(decided, start=1)}
        return ProjectExport(
            exported_at=now,
            project=projects.get(db, project_id),
            metadata=metadata.get_all(db, project_id),
            turns=[_turn(t.model_dump(), refs) for t in turns],
            files=[ExportedFile.model_validate(f) for f in files.every(db, project_id)],
            decisions=[_decision(d, refs, decision_refs) for d in decided],
            branches=[
                ExportedBranch(name=b.name, tip=refs[b.tip_id], created_at=b.created_at)
                for b in branches.listing(db, project_id)
            ],
            states=_states(db, project_id, refs, decision_refs),
        )


def _decision(d: Decision, refs: dict[int, int], decision_refs: dict[int, int]) -> ExportedDecision:
    return ExportedDecision(
        decision=d.decision,
        rationale=d.rationale,
        turn=refs.get(d.conversation_id or 0),
        timestamp=d.timestamp,
        node=refs.get(d.node_id or 0),
        status=d.status,
        replaces=decision_refs.get(d.replaces_id or 0),
        changed_at=d.changed_at,
        changed_node=refs.get(d.changed_node_id or 0),
        change_reason=d.change_reason,
    )


def _states(
    db: Connection, project_id: str, refs: dict[int, int], decision_refs: dict[int, int]
) -> list[ExportedState]:
    return [
        ExportedState(
            node=refs[row["node_id"]],
            kind=row["kind"],
            depth=row["depth"],
            payload=json.loads(
                snapshots.remap(row["kind"], row["payload"], _lookup(decision_refs, "decision"))
            ),
        )
        for row in snapshots.every(db, project_id)
    ]


def _lookup(mapping: dict[int, int], what: str) -> Callable[[int], int]:
    """`mapping` as a function that names the id it does not know."""

    def look(key: int) -> int:
        if key not in mapping:
            raise UsageError(f"a state refers to {what} {key}, which this project does not have")
        return mapping[key]

    return look


def _turn(turn: dict[str, Any], refs: dict[int, int]) -> ExportedTurn:
    parent = turn.pop("parent_id")
    turn.pop("project_id")
    turn.pop("author", None)  # people are a team database's: an export carries none
    return ExportedTurn(**turn | {"ref": refs[turn.pop("id")], "parent": refs.get(parent or 0)})


def write(bundle: ProjectExport, path: Path, replace: bool = False) -> None:
    """Write the export as UTF-8 JSON, 0600, atomically, to a new path or (`replace`) over a
    regular file; anything else at the path is refused (user_files.py)."""
    data = (bundle.model_dump_json(indent=2) + "\n").encode("utf-8")
    write_file(path, data, replace=replace, mode=FILE_MODE)


def read(path: Path) -> ProjectExport:
    """Read and validate an export file; UsageError (one line naming it) if it is not one."""
    if not path.is_file():
        raise NotFoundError(f"no such file: {path}")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError as e:
        raise UsageError(f"{path} is nested too deeply to be a design-agent export") from e
    except ValueError as e:
        raise UsageError(f"{path} is not a design-agent project export: {e}") from e
    if _depth(document) > MAX_DEPTH:
        raise UsageError(f"{path} is nested more than {MAX_DEPTH} levels deep; not an export")
    try:
        bundle = ProjectExport.model_validate(document)
    except ValidationError as e:
        raise UsageError(f"{path} is not a design-agent project export: {_first(e)}") from e
    problem = bundle_problem(bundle)
    if problem:
        raise UsageError(f"{path}: {problem}; nothing was imported")
    return bundle


def _depth(document: Any) -> int:
    """How deeply `document` nests (without recursion, whatever its depth)."""
    deepest, stack = 0, [(document, 1)]
    while stack and deepest <= MAX_DEPTH:
        value, level = stack.pop()
        deepest = max(deepest, level)
        children = value.values() if isinstance(value, dict) else value
        if isinstance(value, dict | list):
            stack.extend((child, level + 1) for child in children)
    return deepest


def _first(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    more = f" (and {error.error_count() - 1} more problems)" if error.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}" if where else f"{first['msg']}{more}"


def bundle_problem(bundle: ProjectExport) -> str | None:
    """What makes an export unsafe or inconsistent to import, or None."""
    project_id = bundle.project.id
    if not is_slug(project_id):
        return (
            f"project id '{project_id}' is not a design-agent id (lowercase letters, digits "
            "and hyphens); fix it in the file"
        )
    seen: dict[str, str] = {}
    for f in bundle.files:
        if f.sha256 in seen:
            return (
                f"files '{seen[f.sha256]}' and '{f.filename}' have the same sha256 (the same "
                "file twice); remove one of them"
            )
        seen[f.sha256] = f.filename
    return _tree_problem(bundle) if bundle.version >= 2 else None


def _tree_problem(bundle: ProjectExport) -> str | None:
    """What breaks the tree of a version 2 export: a parent, tip or node that is no turn."""
    refs: set[int] = set()
    for n, turn in enumerate(bundle.turns):
        if turn.ref in refs:
            return f"two turns have ref {turn.ref}"
        if (turn.parent is None) != (n == 0) or (n and turn.parent not in refs):
            return f"turn {turn.ref} needs as parent a turn listed before it (the first, none)"
        refs.add(turn.ref)
    pointers = [
        *(("branch tip", b.tip) for b in bundle.branches),
        *(("state node", st.node) for st in bundle.states),
        *(("decision node", d.node) for d in bundle.decisions if d.node is not None),
        *(("decision change", d.changed_node) for d in bundle.decisions if d.changed_node),
    ]
    for what, ref in pointers:
        if ref not in refs:
            return f"a {what} refers to turn {ref}, which is not in the file"
    return _versions_problem(bundle)


def _versions_problem(bundle: ProjectExport) -> str | None:
    """What breaks the decisions' history: a version that replaces no decision before it."""
    for n, d in enumerate(bundle.decisions, start=1):
        if d.replaces is not None and not 1 <= d.replaces < n:
            return f"decision {n} replaces decision {d.replaces}, which is not listed before it"
    return None


def restore(
    db: Connection,
    bundle: ProjectExport,
    name: str | None,
    providers: Collection[str] | None = None,
    warn: Warn | None = None,
) -> Project:
    """Create the exported project (under `name` if given) with all of its rows.

    Stored preferences that are not valid here are dropped, each told to `warn`."""
    problem = bundle_problem(bundle)
    if problem:
        raise UsageError(f"this export cannot be imported: {problem}")
    bundle = _checked_preferences(bundle, providers, warn)
    try:
        return _restore(db, bundle, name)
    except INTEGRITY_ERRORS as e:
        raise UsageError(f"this export is not consistent ({e}); nothing was imported") from e
    except ValidationError as e:
        raise UsageError(f"this export has a state that is not one: {_first(e)}") from e


def _checked_preferences(
    bundle: ProjectExport, providers: Collection[str] | None, warn: Warn | None
) -> ProjectExport:
    if "preferences" not in bundle.metadata:
        return bundle
    # Loaded for an import only: every command opens the memory, few read settings.
    from design_agent.core.preferences import clean_preferences

    kept, problems = clean_preferences(bundle.metadata["preferences"], providers)
    for problem in problems:
        (warn or (lambda _: None))(f"{problem}; not imported")
    updated = {**bundle.metadata, "preferences": kept or None}
    return bundle.model_copy(update={"metadata": updated})


def _restore(db: Connection, bundle: ProjectExport, name: str | None) -> Project:
    with transaction(db):
        project = _create(db, bundle.project, name)
        ids = _insert_turns(db, project.id, _linked(bundle))
        for f in bundle.files:
            db.execute(
                "INSERT INTO project_files (project_id, filename, content, file_type, "
                "uploaded_at, sha256, language) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [project.id, f.filename, f.content, f.file_type, stamp(f.uploaded_at), f.sha256,
                 guess_language(f.content)],
            )  # fmt: skip
        decision_ids = _insert_decisions(db, project.id, bundle, ids)
        _insert_branches(db, project.id, bundle, ids)
        for st in bundle.states:
            payload = json.dumps(st.payload, ensure_ascii=False)
            moved = snapshots.remap(st.kind, payload, _lookup(decision_ids, "decision"))
            snapshots.insert(db, ids[st.node], st.kind, st.depth, moved)
        for key, value in bundle.metadata.items():
            metadata.set_value(db, project.id, key, value, stamp(bundle.exported_at))
    return projects.get(db, project.id)


def _linked(bundle: ProjectExport) -> list[ExportedTurn]:
    """The turns with their parents; a version 1 file's turn without one (or with one
    not listed before it) follows the turn before it, as migration 5 links old turns."""
    if bundle.version >= 2:
        return bundle.turns
    linked: list[ExportedTurn] = []
    seen: set[int] = set()
    for turn in bundle.turns:
        if linked and (turn.parent is None or turn.parent not in seen):
            turn = turn.model_copy(update={"parent": linked[-1].ref})
        linked.append(turn)
        seen.add(turn.ref)
    return linked


def _insert_decisions(
    db: Connection, project_id: str, bundle: ProjectExport, ids: dict[int, int]
) -> dict[int, int]:
    """Insert the decisions; their new ids by their position in the file (1 = first)."""
    new_ids: dict[int, int] = {}
    for n, d in enumerate(bundle.decisions, start=1):
        node = d.node if bundle.version >= 2 else d.turn  # v1: at its turn, like migration 5
        new_ids[n] = inserted_id(
            db,
            "INSERT INTO project_decisions (project_id, decision, rationale, "
            "conversation_id, timestamp, node_id, status, replaces_id, changed_at, "
            "changed_node_id, change_reason, language) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                project_id,
                d.decision,
                d.rationale,
                ids.get(d.turn or 0),
                stamp(d.timestamp),
                ids.get(node or 0),
                d.status,
                new_ids.get(d.replaces or 0),
                stamp(d.changed_at) if d.changed_at else None,
                ids.get(d.changed_node or 0),
                d.change_reason,
                decisions.language_of(d.decision, d.rationale),
            ],
        )
    return new_ids


def _insert_branches(
    db: Connection, project_id: str, bundle: ProjectExport, ids: dict[int, int]
) -> None:
    if not bundle.branches:
        branches.from_leaves(db, project_id)
        return
    for b in bundle.branches:
        branches.restore(db, project_id, b.name, ids[b.tip], stamp(b.created_at))


def _create(db: Connection, exported: Project, name: str | None) -> Project:
    """Insert the project row and its index, keeping the exported id when it is free."""
    if name is None and _exists(db, exported):
        raise UsageError(
            f"project '{exported.name}' already exists here; delete it first, or import "
            "under another name: design-agent projects import FILE --name 'NEW NAME'"
        )
    kept_id = None if name else exported.id
    created = projects.create(db, name or exported.name, stamp(exported.created_at), kept_id)
    db.execute(
        "UPDATE projects SET last_accessed = ? WHERE id = ?",
        [stamp(exported.last_accessed), created.id],
    )
    return created


def _exists(db: Connection, exported: Project) -> bool:
    try:
        projects.find(db, exported.name)
    except NotFoundError:
        return scalar(db, "SELECT 1 FROM projects WHERE id = ?", [exported.id]) is not None
    return True


def _insert_turns(db: Connection, project_id: str, turns: list[ExportedTurn]) -> dict[int, int]:
    ids: dict[int, int] = {}
    for turn in turns:
        validation = None if turn.validation is None else json.dumps(turn.validation)
        ids[turn.ref] = inserted_id(
            db,
            "INSERT INTO conversations (project_id, timestamp, role, message, task_id, agent_id, "
            "provider, model, status, tokens, cost, validation, parent_id, tier, language) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                project_id,
                stamp(turn.timestamp),
                turn.role,
                turn.message,
                turn.task_id,
                turn.agent_id,
                turn.provider,
                turn.model,
                turn.status,
                turn.tokens,
                turn.cost,
                validation,
                ids.get(turn.parent or 0),
                turn.tier,
                guess_language(turn.message),
            ],
        )
    return ids
