"""Who may do what in which project: each member's role (owner, editor, viewer).

A viewer reads and searches; an editor also talks, uploads and records decisions; an owner
also shares, renames and deletes. An instance admin may do everything everywhere, and so
may whoever works on the database without a person (the command line of the team's
admin, a one-person home): `role_of` answers "admin" for them. A project keeps at least
one owner: the last one cannot be removed or made less.
"""

from __future__ import annotations

from typing import Any

from design_agent.core.errors import UsageError
from design_agent.memory.connection import Connection
from design_agent.memory.db import one, rows, transaction
from design_agent.memory.models import TEAM_ROLES, Member, Person

COLUMNS = "m.project_id, m.person_id, p.name, m.role, m.added_at"
# The projects a person is a member of, as an SQL condition on a projects row `alias`.
MEMBER_OF = "{alias}.id IN (SELECT project_id FROM project_members WHERE person_id = {param})"


def role_of(db: Connection, project_id: str, person: Person | None) -> str | None:
    """The person's role in the project: "admin" (None: the database's own operator, or
    an instance admin), "owner", "editor", "viewer", or None for a non-member."""
    if person is None or person.is_admin:
        return "admin"
    row = one(
        db,
        "SELECT role FROM project_members WHERE project_id = ? AND person_id = ?",
        [project_id, person.id],
    )
    return None if row is None else str(row["role"])


def members(db: Connection, project_id: str) -> list[Member]:
    """The project's members, owners first, then by name."""
    found = rows(
        db,
        f"""SELECT {COLUMNS} FROM project_members m JOIN people p ON p.id = m.person_id
        WHERE m.project_id = ?
        ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 ELSE 2 END, p.name_key""",
        [project_id],
    )
    return [Member.model_validate(r) for r in found]


def share(
    db: Connection, project_id: str, person_id: int, role: str, now: str
) -> tuple[Member, str | None]:
    """Give the person `role` in the project (a new member, or a changed role): the member
    and the role they had before (None: none)."""
    if role not in TEAM_ROLES:
        raise UsageError(f"a role is one of {', '.join(TEAM_ROLES)}, not '{role}'")
    with transaction(db):
        before = _role(db, project_id, person_id)
        if before == "owner" and role != "owner":
            _keep_an_owner(db, project_id, person_id)
        if before is None:
            db.execute(
                "INSERT INTO project_members (project_id, person_id, role, added_at) "
                "VALUES (?, ?, ?, ?)",
                [project_id, person_id, role, now],
            )
        elif before != role:
            db.execute(
                "UPDATE project_members SET role = ? WHERE project_id = ? AND person_id = ?",
                [role, project_id, person_id],
            )
    return _member(db, project_id, person_id), before


def unshare(db: Connection, project_id: str, person_id: int) -> str | None:
    """Take the person out of the project: the role they had (None: they had none)."""
    with transaction(db):
        before = _role(db, project_id, person_id)
        if before == "owner":
            _keep_an_owner(db, project_id, person_id)
        db.execute(
            "DELETE FROM project_members WHERE project_id = ? AND person_id = ?",
            [project_id, person_id],
        )
    return before


def _role(db: Connection, project_id: str, person_id: int) -> str | None:
    row = one(
        db,
        "SELECT role FROM project_members WHERE project_id = ? AND person_id = ?",
        [project_id, person_id],
    )
    return None if row is None else str(row["role"])


def _member(db: Connection, project_id: str, person_id: int) -> Member:
    row = one(
        db,
        f"SELECT {COLUMNS} FROM project_members m JOIN people p ON p.id = m.person_id "
        "WHERE m.project_id = ? AND m.person_id = ?",
        [project_id, person_id],
    )
    assert row is not None
    return Member.model_validate(row)


def _keep_an_owner(db: Connection, project_id: str, person_id: int) -> None:
    others: Any = one(
        db,
        "SELECT count(*) AS n FROM project_members "
        "WHERE project_id = ? AND role = 'owner' AND person_id <> ?",
        [project_id, person_id],
    )
    if not others or not others["n"]:
        raise UsageError(
            "a project keeps at least one owner: make someone else owner first "
            "(design-agent projects share PROJECT NAME --role owner)"
        )
