"""Project files: briefs, research notes and other documents, stored as text.

What is read, and how much of it, is decided in documents.py: known document
types only, no links out of their folder, the text capped ("truncated").
Adding the same bytes twice to a project is detected by sha256 and returns
the file already stored instead of a copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import projects
from design_agent.memory.connection import Connection
from design_agent.memory.db import author_of, inserted_id, one, rows, transaction
from design_agent.memory.documents import MAX_FILE_BYTES, read_document
from design_agent.memory.models import FILE_TYPES, AddedFile, FileInfo, ProjectFile
from design_agent.memory.text import guess_language

INFO_COLUMNS = (
    "id, project_id, filename, file_type, uploaded_at, sha256, length(content) AS chars, "
    + author_of("")
)
FULL_COLUMNS = f"{INFO_COLUMNS}, content"


def add(
    db: Connection,
    project_id: str,
    path: Path,
    file_type: str,
    now: str,
    max_bytes: int = MAX_FILE_BYTES,
    author_id: int | None = None,
) -> AddedFile:
    """Add the file at `path` to a project as `file_type` (brief, research, design, other),
    by the person `author_id` (None: a one-person home)."""
    if file_type not in FILE_TYPES:
        raise UsageError(f"a file's type is one of {', '.join(FILE_TYPES)}, not '{file_type}'")
    document = read_document(path, max_bytes)
    with transaction(db):
        projects.lock(db, project_id)
        existing = _by_hash(db, project_id, document.sha256)
        if existing is not None:
            return AddedFile(file=existing, duplicate=True, truncated=document.truncated)
        file_id = inserted_id(
            db,
            "INSERT INTO project_files (project_id, filename, content, file_type, uploaded_at, "
            "sha256, language, author_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [project_id, document.filename, document.text, file_type, now, document.sha256,
             guess_language(document.text), author_id],
        )  # fmt: skip
        projects.touch(db, project_id, now)
    added = info(db, file_id)
    return AddedFile(file=added, duplicate=False, truncated=document.truncated)


def _by_hash(db: Connection, project_id: str, sha256: str) -> FileInfo | None:
    row = one(
        db,
        f"SELECT {INFO_COLUMNS} FROM project_files WHERE project_id = ? AND sha256 = ?",
        [project_id, sha256],
    )
    return None if row is None else FileInfo.model_validate(row)


def info(db: Connection, file_id: int) -> FileInfo:
    """A file's details without its text."""
    row = one(db, f"SELECT {INFO_COLUMNS} FROM project_files WHERE id = ?", [file_id])
    if row is None:
        raise NotFoundError(f"no file {file_id}")
    return FileInfo.model_validate(row)


def get(db: Connection, file_id: int) -> ProjectFile:
    """A file with its text."""
    row = one(db, f"SELECT {FULL_COLUMNS} FROM project_files WHERE id = ?", [file_id])
    if row is None:
        raise NotFoundError(f"no file {file_id}")
    return ProjectFile.model_validate(row)


def listing(db: Connection, project_id: str) -> list[FileInfo]:
    """A project's files, oldest first, without their text."""
    found = rows(
        db,
        f"SELECT {INFO_COLUMNS} FROM project_files WHERE project_id = ? ORDER BY id",
        [project_id],
    )
    return [FileInfo.model_validate(r) for r in found]


def of_type(db: Connection, project_id: str, file_type: str) -> list[ProjectFile]:
    """A project's files of one type, with their text, oldest first."""
    found = rows(
        db,
        f"SELECT {FULL_COLUMNS} FROM project_files WHERE project_id = ? AND file_type = ? "
        "ORDER BY id",
        [project_id, file_type],
    )
    return [ProjectFile.model_validate(r) for r in found]


def every(db: Connection, project_id: str) -> list[dict[str, Any]]:
    """All of a project's files as rows with their text (for export)."""
    return rows(
        db,
        "SELECT filename, file_type, uploaded_at, sha256, content FROM project_files "
        "WHERE project_id = ? ORDER BY id",
        [project_id],
    )
