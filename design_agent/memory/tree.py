"""The conversation tree: every turn is a node whose parent is the turn it answers or follows.

A project has one root (its first turn). The prompt's recent turns are the path
from the root to the current node (a trace-back projection), read with one
recursive query that follows `parent_id` up the `conversations` primary key, so
it never touches a sibling branch and costs one lookup per turn on the path.

A parent always has a smaller id than its children (it exists when they are
saved, and imports keep the order), so walking up always ends and a listing by
id lists parents before children.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory.branches import node_at
from design_agent.memory.connection import Connection
from design_agent.memory.conversations import COLUMNS, NAMES, to_turn
from design_agent.memory.db import author_of, rows, scalar
from design_agent.memory.models import TreeLine, TreeNode, Turn

SHORT_TEXT = 80  # characters of a turn /tree shows
UNLIMITED = 1 << 62  # a path limit no tree reaches

# The path from a node up to the root (its `:limit` nearest turns); `n`: distance to the node.
PATH_CTE = """WITH RECURSIVE path(id, parent_id, n) AS (
    SELECT id, parent_id, 0 FROM conversations WHERE id = :node
    UNION ALL
    SELECT c.id, c.parent_id, path.n + 1 FROM conversations c JOIN path ON c.id = path.parent_id
    WHERE path.n + 1 < :limit
)"""


def path_to(db: Connection, node_id: int, limit: int | None = None) -> list[Turn]:
    """The turns from the root to `node_id`, root first; with `limit`, only the last ones
    (the prompt's recent turns). NotFoundError if there is no such turn."""
    if limit is not None and limit < 1:
        return []
    found = rows(
        db,
        f"{PATH_CTE} SELECT {_prefixed('t')} FROM path JOIN conversations t ON t.id = path.id "
        "ORDER BY path.n DESC",
        {"node": node_id, "limit": UNLIMITED if limit is None else limit},
    )
    if not found:
        raise NotFoundError(f"no turn {node_id}")
    return [to_turn(r) for r in found]


def path_ids(db: Connection, node_id: int) -> list[int]:
    """The ids of the turns from the root to `node_id`, root first."""
    found = db.execute(
        f"{PATH_CTE} SELECT id FROM path ORDER BY n DESC", {"node": node_id, "limit": UNLIMITED}
    ).fetchall()
    return [int(r[0]) for r in found]


def children(db: Connection, node_id: int) -> list[Turn]:
    """The turns that continue from `node_id`, oldest first."""
    found = rows(
        db, f"SELECT {COLUMNS} FROM conversations WHERE parent_id = ? ORDER BY id", [node_id]
    )
    return [to_turn(r) for r in found]


def number_of(db: Connection, turn_id: int) -> int:
    """A turn's number in its project (1 = the first turn), as /tree shows it."""
    project_id = scalar(db, "SELECT project_id FROM conversations WHERE id = ?", [turn_id])
    if project_id is None:
        raise NotFoundError(f"no turn {turn_id}")
    return int(
        scalar(
            db,
            "SELECT count(*) FROM conversations WHERE project_id = ? AND id <= ?",
            [project_id, turn_id],
        )
    )


def turn_at(db: Connection, project_id: str, number: int) -> Turn:
    """The turn with this number in the project (as /tree numbers them); NotFoundError."""
    found = rows(
        db, f"SELECT {COLUMNS} FROM conversations WHERE id = ?", [node_at(db, project_id, number)]
    )
    return to_turn(found[0])


def tree(db: Connection, project_id: str) -> TreeLine:
    """The project's whole tree: the line from the root, with the forks along it."""
    found = rows(
        db,
        "SELECT id, parent_id, role, task_id, substr(message, 1, ?) AS text "
        "FROM conversations WHERE project_id = ? ORDER BY id",
        [SHORT_TEXT * 4, project_id],
    )
    names = _branch_names(db, project_id)
    kids: dict[int | None, list[int]] = defaultdict(list)
    for r in found:
        kids[r["parent_id"]].append(r["id"])
    built: dict[int, TreeNode] = {}
    for number, r in reversed(list(enumerate(found, start=1))):
        # Children have larger ids than their parent, so they are built by now.
        forks = [_line(built, kids, child) for child in kids[r["id"]][1:]]
        built[r["id"]] = _node(r, number, names.get(r["id"], []), forks)
    roots = kids[None]
    if len(roots) > 1:
        raise UsageError(f"project '{project_id}' has {len(roots)} first turns; expected one")
    return _line(built, kids, roots[0]) if roots else TreeLine()


def _line(built: dict[int, TreeNode], kids: dict[int | None, list[int]], head: int) -> TreeLine:
    nodes, current = [], head
    while True:
        nodes.append(built[current])
        if not kids[current]:
            return TreeLine(nodes=nodes)
        current = kids[current][0]


def _node(row: dict[str, Any], number: int, names: list[str], forks: list[TreeLine]) -> TreeNode:
    return TreeNode(
        id=row["id"],
        number=number,
        role=row["role"],
        task_id=row["task_id"],
        text=short(row["text"]),
        branches=names,
        forks=forks,
    )


def short(text: str) -> str:
    """The start of a turn's text on one line, at most SHORT_TEXT characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= SHORT_TEXT else flat[: SHORT_TEXT - 1].rstrip() + "…"


def _branch_names(db: Connection, project_id: str) -> dict[int, list[str]]:
    found = rows(
        db,
        "SELECT tip_id, name FROM branches WHERE project_id = ? AND name IS NOT NULL ORDER BY id",
        [project_id],
    )
    names: dict[int, list[str]] = defaultdict(list)
    for r in found:
        names[r["tip_id"]].append(r["name"])
    return dict(names)


def _prefixed(alias: str) -> str:
    named = ", ".join(f"{alias}.{c.strip()}" for c in NAMES.split(","))
    return f"{named}, {author_of(alias + '.')}"
