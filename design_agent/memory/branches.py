"""Branches: the lines of a project's conversation tree, each a pointer to the turn it has
reached (its tip), with an optional name unique in the project ("unmoderated").

Every leaf of the tree is the tip of a branch. When a turn is saved as a child of
`parent`, one branch moves to it (`advance`), in the same transaction:

- the branch the caller names (`ask --branch NAME`), which must end at `parent`;
- else the newest branch that ends at `parent`: right after `/fork` at the tip of a
  line, two branches end there and the user continues on the fork;
- else none ends there (a child of a turn in the middle of a line, a second answer
  to the same question, a project's first turn): a new unnamed branch starts.

Names are matched ignoring case, accents and punctuation (their key is the slug of
the name, like a project's). A name cannot be a number: numbers name turns.
"""

from __future__ import annotations

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.core.numbers import TURN_HINT, bounded, turn_number
from design_agent.memory import projects
from design_agent.memory.connection import Connection
from design_agent.memory.db import inserted_id, one, rows, scalar, transaction
from design_agent.memory.models import Branch
from design_agent.memory.text import slugify

MAX_NAME = 60
SELECT = """SELECT b.id, b.project_id, b.name, b.tip_id, b.created_at,
    (SELECT count(*) FROM conversations c WHERE c.project_id = b.project_id AND c.id <= b.tip_id)
    AS tip_number FROM branches b"""


def get(db: Connection, branch_id: int) -> Branch:
    """One branch by id; NotFoundError."""
    row = one(db, f"{SELECT} WHERE b.id = ?", [branch_id])
    if row is None:
        raise NotFoundError(f"no branch {branch_id}")
    return Branch.model_validate(row)


def listing(db: Connection, project_id: str) -> list[Branch]:
    """A project's branches, oldest first."""
    found = rows(db, f"{SELECT} WHERE b.project_id = ? ORDER BY b.id", [project_id])
    return [Branch.model_validate(r) for r in found]


def fork(db: Connection, node_id: int, name: str | None, now: str) -> Branch:
    """A new branch from the turn `node_id`: the next turn saved as its child continues it."""
    with transaction(db):
        project_id = _project_of(db, node_id)
        projects.lock(db, project_id)
        name, key = _named(db, project_id, name)
        branch_id = inserted_id(
            db,
            "INSERT INTO branches (project_id, name, name_key, tip_id, created_at) "
            "VALUES (?, ?, ?, ?, ?) RETURNING id",
            [project_id, name, key, node_id, now],
        )
    return get(db, branch_id)


def rename(db: Connection, branch_id: int, name: str | None) -> Branch:
    """Give a branch a name, another name, or none (`name` None or blank)."""
    with transaction(db):
        projects.lock(db, get(db, branch_id).project_id)
        branch = get(db, branch_id)
        name, key = _named(db, branch.project_id, name, branch_id)
        db.execute(
            "UPDATE branches SET name = ?, name_key = ? WHERE id = ?", [name, key, branch_id]
        )
    return get(db, branch_id)


def _named(
    db: Connection, project_id: str, name: str | None, branch_id: int = 0
) -> tuple[str | None, str | None]:
    """The clean name and its lookup key; UsageError if it is unusable or taken."""
    clean = " ".join((name or "").split())
    if not clean:
        return None, None
    key = slugify(clean)
    if len(clean) > MAX_NAME or not key or key.replace("-", "").isdigit():
        raise UsageError(
            f"a branch name has letters and at most {MAX_NAME} characters (numbers name "
            f"turns), e.g. 'unmoderated'; not {clean!r}"
        )
    taken = scalar(
        db,
        "SELECT name FROM branches WHERE project_id = ? AND name_key = ? AND id != ?",
        [project_id, key, branch_id],
    )
    if taken is not None:
        raise UsageError(f"this project already has a branch named '{taken}'; choose another")
    return clean, key


def find(db: Connection, project_id: str, name_or_turn: str | int) -> Branch:
    """The branch with this name; or, given a turn number, the oldest branch through that
    turn (the line it was first written on). NotFoundError naming the branches there are."""
    if isinstance(name_or_turn, str) and slugify(name_or_turn):
        branch_id = scalar(
            db,
            "SELECT id FROM branches WHERE project_id = ? AND name_key = ?",
            [project_id, slugify(name_or_turn)],
        )
        if branch_id is not None:
            return get(db, int(branch_id))
    number = name_or_turn if isinstance(name_or_turn, int) else turn_number(name_or_turn)
    if number is None:
        raise NotFoundError(_unknown(db, project_id, str(name_or_turn)))
    return get(db, _oldest_through(db, node_at(db, project_id, number)))


def _oldest_through(db: Connection, node_id: int) -> int:
    # Every leaf is a tip, so some branch ends at the turn or below it.
    return int(
        scalar(
            db,
            """WITH RECURSIVE below(id) AS (
                SELECT CAST(? AS BIGINT) UNION ALL
                SELECT c.id FROM conversations c JOIN below ON c.parent_id = below.id)
            SELECT min(b.id) FROM branches b JOIN below ON b.tip_id = below.id""",
            [node_id],
        )
    )


def _unknown(db: Connection, project_id: str, text: str) -> str:
    names = [b.name for b in listing(db, project_id) if b.name]
    known = f"; its branches: {', '.join(names)}" if names else "; it has no named branches"
    return f"no branch named '{text}' in this project{known} (or give a turn number)"


def node_at(db: Connection, project_id: str, number: int) -> int:
    """The id of the turn with this number in the project (1 = its first); NotFoundError."""
    found = None
    if bounded(number, "turn", TURN_HINT) >= 1:
        found = scalar(
            db,
            "SELECT id FROM conversations WHERE project_id = ? ORDER BY id LIMIT 1 OFFSET ?",
            [project_id, number - 1],
        )
    if found is None:
        count = scalar(db, "SELECT count(*) FROM conversations WHERE project_id = ?", [project_id])
        raise NotFoundError(f"no turn {number} in this project (its turns are 1 to {count})")
    return int(found)


def parent_for(
    db: Connection, project_id: str, parent_id: int | None, branch_id: int | None
) -> int | None:
    """The parent a new turn gets: the one given; else the tip of the branch given; else the
    project's latest turn (a line, as before the tree); None for a project's first turn."""
    if parent_id is not None:
        if _project_of(db, parent_id) != project_id:
            raise UsageError(f"turn {parent_id} is not a turn of project '{project_id}'")
        return parent_id
    if branch_id is not None:
        return _branch_of(db, project_id, branch_id).tip_id
    value = scalar(db, "SELECT max(id) FROM conversations WHERE project_id = ?", [project_id])
    return None if value is None else int(value)


def advance(
    db: Connection,
    project_id: str,
    parent_id: int | None,
    node_id: int,
    branch_id: int | None,
    now: str,
) -> None:
    """Move a branch to the new turn `node_id`, child of `parent_id` (rules: module doc)."""
    if branch_id is not None:
        branch = _branch_of(db, project_id, branch_id)
        if branch.tip_id != parent_id:
            raise UsageError(
                f"branch {branch.name or branch.id} ends at turn {branch.tip_number}; "
                "a turn on it must follow that one"
            )
    elif parent_id is not None:  # the newest branch ending at the parent, in one statement
        moved = db.execute(
            "UPDATE branches SET tip_id = ? WHERE id = (SELECT max(id) FROM branches "
            "WHERE tip_id = ? AND project_id = ?)",
            [node_id, parent_id, project_id],
        )
        if moved.rowcount:
            return
    if branch_id is None:
        db.execute(
            "INSERT INTO branches (project_id, tip_id, created_at) VALUES (?, ?, ?)",
            [project_id, node_id, now],
        )
    else:
        db.execute("UPDATE branches SET tip_id = ? WHERE id = ?", [node_id, branch_id])


def _branch_of(db: Connection, project_id: str, branch_id: int) -> Branch:
    branch = get(db, branch_id)
    if branch.project_id != project_id:
        raise UsageError(f"branch {branch_id} is not a branch of project '{project_id}'")
    return branch


def _project_of(db: Connection, node_id: int) -> str:
    value = scalar(db, "SELECT project_id FROM conversations WHERE id = ?", [node_id])
    if value is None:
        raise NotFoundError(f"no turn {node_id}")
    return str(value)


def restore(
    db: Connection, project_id: str, name: str | None, tip_id: int, created_at: str
) -> None:
    """Recreate an exported branch (import), its name checked like a new one's."""
    name, key = _named(db, project_id, name)
    db.execute(
        "INSERT INTO branches (project_id, name, name_key, tip_id, created_at) "
        "VALUES (?, ?, ?, ?, ?)",
        [project_id, name, key, tip_id, created_at],
    )


def from_leaves(db: Connection, project_id: str) -> None:
    """An unnamed branch at every leaf of a project (what migration 5 does to old ones)."""
    db.execute(
        """INSERT INTO branches (project_id, tip_id, created_at)
        SELECT project_id, id, timestamp FROM conversations c
        WHERE project_id = ?
          AND NOT EXISTS (SELECT 1 FROM conversations k WHERE k.parent_id = c.id)
        ORDER BY id""",
        [project_id],
    )
