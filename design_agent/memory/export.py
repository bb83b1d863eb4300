"""Export a project to one JSON file and import it back: the backup story.

The file holds no database ids: turns are listed in order and referred to by
their position (`ref`), so exporting, importing (into any database) and
exporting again gives the same file, apart from `exported_at`.

An import file may come from anyone, so it is checked before anything is
written, and refused with one line naming the file (exit 2) when it is
nested deeper than MAX_DEPTH, holds the same file twice, or has a project id
that is not a slug as design-agent makes them (`../../../etc/passwd`). Its
stored preferences are checked too: bad ones are dropped with a warning, and
the ones kept only fill what the user left unset (see preferences.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import sqlite_utils
from pydantic import ValidationError

from design_agent.errors import NotFoundError, UsageError
from design_agent.fsutil import write_private_text
from design_agent.memory import conversations, decisions, files, metadata, projects
from design_agent.memory.db import scalar, snapshot, stamp, transaction
from design_agent.memory.models import FileType, Project, Row, TurnContent
from design_agent.memory.text import is_slug
from design_agent.preferences import clean_preferences

FORMAT: Literal["design-agent.project"] = "design-agent.project"
FORMAT_VERSION: Literal[1] = 1
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
    """A decision; `turn` is the ref of the turn where it was made."""

    decision: str
    rationale: str
    turn: int | None = None
    timestamp: datetime


class ProjectExport(Row):
    """The whole export file."""

    format: Literal["design-agent.project"] = FORMAT
    version: Literal[1] = FORMAT_VERSION
    exported_at: datetime
    project: Project
    metadata: dict[str, Any]
    turns: list[ExportedTurn]
    files: list[ExportedFile]
    decisions: list[ExportedDecision]


def build(db: sqlite_utils.Database, project_id: str, now: datetime) -> ProjectExport:
    """Everything of one project, read in one snapshot."""
    with snapshot(db):
        turns = conversations.every(db, project_id)
        refs = {turn.id: n for n, turn in enumerate(turns, start=1)}
        return ProjectExport(
            exported_at=now,
            project=projects.get(db, project_id),
            metadata=metadata.get_all(db, project_id),
            turns=[_turn(t.model_dump(), refs) for t in turns],
            files=[ExportedFile.model_validate(f) for f in files.every(db, project_id)],
            decisions=[
                ExportedDecision(
                    decision=d.decision,
                    rationale=d.rationale,
                    turn=refs.get(d.conversation_id or 0),
                    timestamp=d.timestamp,
                )
                for d in reversed(decisions.listing(db, project_id))
            ],
        )


def _turn(turn: dict[str, Any], refs: dict[int, int]) -> ExportedTurn:
    parent = turn.pop("parent_id")
    turn.pop("project_id")
    return ExportedTurn(**turn | {"ref": refs[turn.pop("id")], "parent": refs.get(parent or 0)})


def write(bundle: ProjectExport, path: Path) -> None:
    """Write the export as UTF-8 JSON, 0600, atomically."""
    write_private_text(path, bundle.model_dump_json(indent=2) + "\n")


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
    return None


def restore(
    db: sqlite_utils.Database,
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
    except sqlite3.IntegrityError as e:
        raise UsageError(f"this export is not consistent ({e}); nothing was imported") from e


def _checked_preferences(
    bundle: ProjectExport, providers: Collection[str] | None, warn: Warn | None
) -> ProjectExport:
    if "preferences" not in bundle.metadata:
        return bundle
    kept, problems = clean_preferences(bundle.metadata["preferences"], providers)
    for problem in problems:
        (warn or (lambda _: None))(f"{problem}; not imported")
    updated = {**bundle.metadata, "preferences": kept or None}
    return bundle.model_copy(update={"metadata": updated})


def _restore(db: sqlite_utils.Database, bundle: ProjectExport, name: str | None) -> Project:
    with transaction(db):
        project = _create(db, bundle.project, name)
        ids = _insert_turns(db, project.id, bundle.turns)
        for f in bundle.files:
            db.execute(
                "INSERT INTO project_files (project_id, filename, content, file_type, "
                "uploaded_at, sha256) VALUES (?, ?, ?, ?, ?, ?)",
                [project.id, f.filename, f.content, f.file_type, stamp(f.uploaded_at), f.sha256],
            )
        for d in bundle.decisions:
            db.execute(
                "INSERT INTO project_decisions (project_id, decision, rationale, "
                "conversation_id, timestamp) VALUES (?, ?, ?, ?, ?)",
                [project.id, d.decision, d.rationale, ids.get(d.turn or 0), stamp(d.timestamp)],
            )
        for key, value in bundle.metadata.items():
            metadata.set_value(db, project.id, key, value, stamp(bundle.exported_at))
    return projects.get(db, project.id)


def _create(db: sqlite_utils.Database, exported: Project, name: str | None) -> Project:
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


def _exists(db: sqlite_utils.Database, exported: Project) -> bool:
    try:
        projects.find(db, exported.name)
    except NotFoundError:
        return scalar(db, "SELECT 1 FROM projects WHERE id = ?", [exported.id]) is not None
    return True


def _insert_turns(
    db: sqlite_utils.Database, project_id: str, turns: list[ExportedTurn]
) -> dict[int, int]:
    ids: dict[int, int] = {}
    for turn in turns:
        validation = None if turn.validation is None else json.dumps(turn.validation)
        cursor = db.execute(
            "INSERT INTO conversations (project_id, timestamp, role, message, task_id, agent_id, "
            "provider, model, status, tokens, cost, validation, parent_id, tier) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            ],
        )
        ids[turn.ref] = int(cursor.lastrowid or 0)
    return ids
