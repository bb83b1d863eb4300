"""The project registry: create, find, list, switch, rename and delete projects.

A project's `id` is the slug of its first name, fixed for life (rows, exports
and the active pointer refer to it); renaming changes the name and its lookup
key only. Lookup is case- and accent-insensitive: "mobile checkout",
"Mobile-Checkout" and "móbile checkout" all find "Mobile Checkout".

Writers take turns. On SQLite one write transaction runs at a time (BEGIN IMMEDIATE).
On PostgreSQL many do: a write to a project first locks the project's row (`lock`), so
two turns saved at once in one project get one parent each, in order, while other
projects go on; creating and renaming check a name and then write it, so they take one
lock for the whole registry (an advisory lock, held to the end of the transaction).
"""

from __future__ import annotations

import difflib
from typing import Any

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import agent_memory, search_index
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import one, rows, scalar, transaction, wipe_free_pages
from design_agent.memory.models import DeletionReport, Person, Project, ProjectSummary
from design_agent.memory.text import slugify

COLUMNS = "id, name, created_at, last_accessed"
ACTIVE_KEY = "active_project"
REGISTRY_LOCK = 0x6465_7369_676E_0002  # "design" + 2: creating or renaming a project
CONVERSATION_KEY = "conversation:"  # + project id: conversation.state_key, one layer up
MAX_NAME = 100


def _key_of(name: str) -> str:
    clean = " ".join(name.split())
    if not clean:
        raise UsageError("a project needs a name, e.g. design-agent projects create 'Checkout'")
    if len(clean) > MAX_NAME:
        raise UsageError(f"a project name has at most {MAX_NAME} characters")
    key = slugify(clean)
    if not key:
        raise UsageError(f"'{name}' has no letters or digits; choose a name with some")
    return key


def create(db: Connection, name: str, now: str, project_id: str | None = None) -> Project:
    """Create a project; UsageError if one with the same name (any case/accents) exists.

    `project_id` keeps a given id (an imported project's); by default it is the slug.
    """
    key = _key_of(name)
    with transaction(db):
        _lock_registry(db)
        existing = one(db, f"SELECT {COLUMNS} FROM projects WHERE name_key = ?", [key])
        if existing is not None:
            raise UsageError(
                f"a project named '{existing['name']}' already exists; "
                f"switch to it with: design-agent projects switch '{existing['name']}'"
            )
        if project_id is not None and scalar(
            db, "SELECT 1 FROM projects WHERE id = ?", [project_id]
        ):
            raise UsageError(f"a project with id '{project_id}' already exists")
        project_id = project_id or _free_id(db, key)
        search_key = search_index.next_search_key(db)
        db.execute(
            "INSERT INTO projects (id, name, name_key, search_key, created_at, last_accessed) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [project_id, " ".join(name.split()), key, search_key, now, now],
        )
        if not is_postgres(db):  # PostgreSQL's turns are all in one index (postgres/schema)
            search_index.create_index(db, project_id, search_key)
    return get(db, project_id)


def _lock_registry(db: Connection) -> None:
    """Hold the registry to the end of the transaction (PostgreSQL; see the module doc)."""
    if is_postgres(db):
        db.execute("SELECT pg_advisory_xact_lock(?)", [REGISTRY_LOCK])


def lock(db: Connection, project_id: str, touch: str | None = None) -> Project:
    """The project, its row locked to the end of the write transaction on PostgreSQL (one
    writer per project at a time; SQLite's write lock is already the whole file's); with
    `touch`, marked as used then, in the same statement. NotFoundError when there is no
    such project."""
    if touch is not None:  # an UPDATE locks the row as FOR NO KEY UPDATE does
        sql, params = (
            f"UPDATE projects SET last_accessed = ? WHERE id = ? RETURNING {COLUMNS}",
            [
                touch,
                project_id,
            ],
        )
    elif is_postgres(db):
        sql, params = f"SELECT {COLUMNS} FROM projects WHERE id = ? FOR NO KEY UPDATE", [project_id]
    else:
        return get(db, project_id)
    row = one(db, sql, params)
    if row is None:
        raise NotFoundError(f"no project with id '{project_id}'")
    return Project.model_validate(row)


def _free_id(db: Connection, key: str) -> str:
    # A renamed project keeps its id, so a new project may need "-2", "-3", ...
    candidate, n = key, 1
    while scalar(db, "SELECT 1 FROM projects WHERE id = ?", [candidate]):
        n += 1
        candidate = f"{key}-{n}"
    return candidate


def get(db: Connection, project_id: str) -> Project:
    """The project with this exact id; NotFoundError otherwise."""
    row = one(db, f"SELECT {COLUMNS} FROM projects WHERE id = ?", [project_id])
    if row is None:
        raise NotFoundError(f"no project with id '{project_id}'")
    return Project.model_validate(row)


def seen_by(person: Person | None, alias: str = "projects") -> tuple[str, dict[str, Any]]:
    """The condition (for a WHERE) that keeps the projects `person` may see, and its
    parameter: every project for None (the database's own operator) or an admin."""
    if person is None or person.is_admin:
        return "1 = 1", {}
    return (
        f"{alias}.id IN (SELECT project_id FROM project_members WHERE person_id = :member)",
        {"member": person.id},
    )


def find(db: Connection, name: str, person: Person | None = None) -> Project:
    """The project called `name` (or with that id), ignoring case and accents, among those
    `person` may see (NotFoundError, naming only those, when it is not one of them)."""
    key = slugify(name)
    visible, member = seen_by(person)
    row = one(
        db,
        f"SELECT {COLUMNS} FROM projects WHERE (name_key = :key OR id IN (:raw, :key)) "
        f"AND {visible} ORDER BY name_key = :key DESC LIMIT 1",
        {"key": key, "raw": name, **member},
    )
    if row is None:
        raise NotFoundError(_not_found_message(db, name, person))
    return Project.model_validate(row)


def _not_found_message(db: Connection, name: str, person: Person | None = None) -> str:
    visible, member = seen_by(person)
    found = rows(db, f"SELECT name FROM projects WHERE {visible} ORDER BY name", member)
    names = [r["name"] for r in found]
    close = _close_names(db, name, names)
    hint = f" Did you mean: {', '.join(close)}?" if close else ""
    known = f" Projects: {', '.join(names)}." if names and not close else ""
    return (
        f"no project named '{name}'.{hint}{known} "
        f"Create it with: design-agent projects create '{name}'"
    )


def _close_names(db: Connection, name: str, names: list[str]) -> list[str]:
    """Up to three names like `name`: by trigrams on PostgreSQL (pg_trgm, indexed), else
    difflib's ratio over every name."""
    if is_postgres(db):
        from design_agent.memory.postgres.search import similar_projects

        return [found for _, found in similar_projects(db, name, 3) if found in names]
    return difflib.get_close_matches(name, names, n=3, cutoff=0.5)


def summaries(db: Connection, person: Person | None = None) -> list[ProjectSummary]:
    """Every project `person` may see, most recently used first, with its counts and the
    active flag (the person's own active project)."""
    active = agent_memory.get_state(db, active_key(person))
    visible, member = seen_by(person, "p")
    found = rows(
        db,
        f"""SELECT {COLUMNS},
            (SELECT count(*) FROM conversations c WHERE c.project_id = p.id) AS turns,
            (SELECT count(*) FROM project_files f WHERE f.project_id = p.id) AS files,
            (SELECT count(*) FROM project_decisions d
             WHERE d.project_id = p.id AND d.status = 'current') AS decisions
        FROM projects p WHERE {visible} ORDER BY last_accessed DESC, id""",
        member,
    )
    return [ProjectSummary.model_validate({**r, "active": r["id"] == active}) for r in found]


def names(db: Connection, person: Person | None = None) -> list[str]:
    """Every project's name `person` may see, most recently used first (no counts: read at
    every turn)."""
    visible, member = seen_by(person)
    found = db.execute(
        f"SELECT name FROM projects WHERE {visible} ORDER BY last_accessed DESC, id", member
    )
    return [str(row[0]) for row in found]


def visible_ids(db: Connection, person: Person | None) -> list[str] | None:
    """The ids of the projects `person` may see; None: every project."""
    if person is None or person.is_admin:
        return None
    visible, member = seen_by(person)
    return [str(r[0]) for r in db.execute(f"SELECT id FROM projects WHERE {visible}", member)]


def active_key(person: Person | None) -> str:
    """Where the active project is kept: one for the home, one per person of a team."""
    return ACTIVE_KEY if person is None else f"{ACTIVE_KEY}:{person.id}"


def touch(db: Connection, project_id: str, now: str) -> None:
    """Record that the project was just used (it moves to the top of the list)."""
    db.execute("UPDATE projects SET last_accessed = ? WHERE id = ?", [now, project_id])


def rename(db: Connection, project_id: str, new_name: str) -> Project:
    """Give a project a new name (its id does not change)."""
    key = _key_of(new_name)
    with transaction(db):
        _lock_registry(db)
        clash = one(
            db, "SELECT id, name FROM projects WHERE name_key = ? AND id != ?", [key, project_id]
        )
        if clash is not None:
            raise UsageError(f"another project is already named '{clash['name']}'")
        db.execute(
            "UPDATE projects SET name = ?, name_key = ? WHERE id = ?",
            [" ".join(new_name.split()), key, project_id],
        )
    return get(db, project_id)


def active(db: Connection, person: Person | None = None) -> Project | None:
    """The active project (the person's own, in a team), or None (never set, deleted
    since, or no longer shared with them)."""
    project_id = agent_memory.get_state(db, active_key(person))
    if not isinstance(project_id, str):
        return None
    visible, member = seen_by(person)
    row = one(
        db,
        f"SELECT {COLUMNS} FROM projects WHERE id = :id AND {visible}",
        {"id": project_id, **member},
    )
    return None if row is None else Project.model_validate(row)


def switch(db: Connection, project_id: str, now: str, person: Person | None = None) -> Project:
    """Make the project active (for the person, in a team) and mark it as just used."""
    with transaction(db):
        get(db, project_id)
        agent_memory.set_state(db, active_key(person), project_id, now)
        touch(db, project_id, now)
    return get(db, project_id)


def deletion_report(db: Connection, project_id: str) -> DeletionReport:
    """What deleting the project would remove."""

    def count(table: str) -> int:
        return int(scalar(db, f"SELECT count(*) FROM {table} WHERE project_id = ?", [project_id]))

    return DeletionReport(
        project=get(db, project_id),
        turns=count("conversations"),
        files=count("project_files"),
        decisions=count("project_decisions"),
        metadata=count("project_metadata"),
        process_memory=count("process_memory"),
    )


def delete(db: Connection, confirmed: DeletionReport) -> DeletionReport:
    """Delete a project and everything of it, if it still matches what the user confirmed.

    Its rows (turns, files, decisions, metadata and, by their link, its process
    memory), its turn index, its conversation state and the active pointer go in
    one transaction. With secure_delete ON the freed bytes are zeroed; the shared
    indexes are merged so no segment keeps its words; every free page is
    overwritten (pages freed earlier may hold its words); the write-ahead log is
    checkpointed and truncated so no old page stays in the -wal file.

    On PostgreSQL the rows go in one transaction; their old versions stay in the table
    files until (auto)vacuum reuses the space: the server's administrator owns that."""
    if is_postgres(db):
        with transaction(db):
            return _delete_rows(db, confirmed)
    db.execute("PRAGMA secure_delete = ON")
    try:
        with transaction(db):
            current = _delete_rows(db, confirmed)
            search_index.purge_shared(db)
            wipe_free_pages(db)
    finally:
        db.execute("PRAGMA secure_delete = FAST")
    if not db.in_transaction:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # best effort: a reader may hold it
    return current


def _delete_rows(db: Connection, confirmed: DeletionReport) -> DeletionReport:
    project_id = confirmed.project.id
    lock(db, project_id)  # no turn is saved in it meanwhile (PostgreSQL)
    current = deletion_report(db, project_id)
    if _counts(current) != _counts(confirmed):
        raise UsageError(
            f"project '{current.project.name}' changed since you confirmed "
            f"({_describe(current)} now); run the delete again to confirm these counts"
        )
    if is_postgres(db):
        # Its branches first: deleting a turn steps its branch back (a trigger), and a
        # trigger may not change a row the same DELETE is removing.
        db.execute("DELETE FROM branches WHERE project_id = ?", [project_id])
    else:
        search_key = scalar(db, "SELECT search_key FROM projects WHERE id = ?", [project_id])
        search_index.drop_index(db, int(search_key))
    db.execute("DELETE FROM projects WHERE id = ?", [project_id])
    agent_memory.delete_state(db, f"{CONVERSATION_KEY}{project_id}")
    if agent_memory.get_state(db, ACTIVE_KEY) == project_id:
        agent_memory.delete_state(db, ACTIVE_KEY)
    return current


def _counts(report: DeletionReport) -> tuple[Any, ...]:
    return (report.turns, report.files, report.decisions, report.metadata)


def _describe(report: DeletionReport) -> str:
    return f"{report.turns} turns, {report.files} files, {report.decisions} decisions"
