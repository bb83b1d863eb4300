"""Project decisions: what was decided, why, and in which turn; searchable by meaning words.

"why did we choose moderated testing" finds "moderated usability testing":
the question's stop words are dropped and the remaining words are ORed with
prefix matching, ranked by bm25 (decision text weighs more than rationale).

Decisions change as the team changes its mind, and keep their history: `supersede`
adds a new version that replaces one (`replaces_id`), `retire` takes one out of the
current decisions; neither deletes anything. A change happens at a node of the tree
(`changed_node_id`): on a path through that node the decision is no longer current,
on a branch that forked before it, it still is. Without a node (a command, the API) the
change is made where the decision itself was made, so every path that had it sees it.
"""

from __future__ import annotations

from design_agent.core.errors import ConflictError, NotFoundError, UsageError
from design_agent.memory import branches, fts, projects
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import author_of, inserted_id, rows, rows_by_id, scalar, transaction
from design_agent.memory.models import (
    BranchRef,
    Decision,
    DecisionCounts,
    ListedDecision,
    ScoredDecision,
)
from design_agent.memory.text import guess_language, match_expression, query_terms, stem_terms
from design_agent.memory.tree import PATH_CTE, UNLIMITED, number_of

COLUMNS = (
    "id, project_id, decision, rationale, conversation_id, timestamp, node_id, status, "
    f"replaces_id, changed_at, changed_node_id, change_reason, {author_of('')}"
)
# A decision changed (replaced or retired) on the path of the query's node, or on every path.
CHANGED_HERE = (
    "(status != 'current' AND (changed_node_id IS NULL "
    "OR changed_node_id IN (SELECT id FROM path)))"
)
ON_PATH = "(node_id IS NULL OR node_id IN (SELECT id FROM path))"
# A chain of versions longer than this is a loop in a damaged file, not a history.
MAX_VERSIONS = 10_000
FTS_TABLE = "project_decisions_fts"
WEIGHTS = (0.0, 2.0, 1.0)  # scope, decision, rationale


def scope_token(project_id: str) -> str:
    """The token the decision and file indexes hold for a project (see schema.py)."""
    return "p" + project_id.encode("utf-8").hex()


def scoped(project_id: str, expression: str) -> str:
    """`expression` restricted, inside the index, to one project's rows."""
    return f'scope : "{scope_token(project_id)}" AND {expression}'


def add(
    db: Connection,
    project_id: str,
    decision: str,
    rationale: str,
    conversation_id: int | None,
    now: str,
    node_id: int | None = None,
    author_id: int | None = None,
) -> Decision:
    """Record a decision of a project, optionally linked to the turn where it was made, by
    the person `author_id` (None: a one-person home).

    `node_id` places it in the conversation tree (by default at that turn): it is "so far"
    at that node and below it only. A decision with neither is on every path."""
    if not decision.strip():
        raise UsageError('a decision needs its text, e.g. decisions add "Use moderated tests"')
    node_id = conversation_id if node_id is None else node_id
    decision, rationale = decision.strip(), rationale.strip()
    with transaction(db):
        projects.lock(db, project_id)
        for turn in {conversation_id, node_id} - {None}:
            owner = scalar(db, "SELECT project_id FROM conversations WHERE id = ?", [turn])
            if owner != project_id:
                raise UsageError(f"turn {turn} is not a turn of this project")
        decision_id = inserted_id(
            db,
            "INSERT INTO project_decisions (project_id, decision, rationale, conversation_id, "
            "timestamp, node_id, language, author_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                project_id,
                decision,
                rationale,
                conversation_id,
                now,
                node_id,
                language_of(decision, rationale),
                author_id,
            ],
        )
        projects.touch(db, project_id, now)
    return get(db, decision_id)


def language_of(decision: str, rationale: str) -> str:
    """The language a decision is written in (schema.py, version 8)."""
    return guess_language(f"{decision} {rationale}")


def on_path(
    db: Connection, node_id: int, limit: int | None = None, history: bool = False
) -> list[Decision]:
    """The decisions made so far at a node: at it or its ancestors, or on every path;
    newest first. A decision made later, or on another branch, is not one of them, nor is
    one replaced or retired on this path (unless `history`: every version on the path)."""
    if scalar(db, "SELECT 1 FROM conversations WHERE id = ?", [node_id]) is None:
        raise NotFoundError(f"no turn {node_id}")
    current = "" if history else f"AND NOT {CHANGED_HERE}"
    found = rows(
        db,
        f"""{PATH_CTE} SELECT {COLUMNS} FROM project_decisions
        WHERE project_id = (SELECT project_id FROM conversations WHERE id = :node)
          AND {ON_PATH} {current}
        ORDER BY id DESC LIMIT :count""",
        {"node": node_id, "limit": UNLIMITED, "count": UNLIMITED if limit is None else limit},
    )
    return [Decision.model_validate(r) for r in found]


def counts(db: Connection, project_id: str, node_id: int | None) -> DecisionCounts:
    """What the current decisions at `node_id` leave out: the ones replaced and retired on
    its path, and the current ones of other branches (None: the whole project's)."""
    if node_id is None:
        found = rows(
            db,
            "SELECT status, count(*) AS n FROM project_decisions WHERE project_id = ? "
            "GROUP BY status",
            [project_id],
        )
        by_status = {r["status"]: r["n"] for r in found}
        return DecisionCounts(
            superseded=by_status.get("superseded", 0), retired=by_status.get("retired", 0)
        )
    params = {"node": node_id, "limit": UNLIMITED, "project": project_id}
    changed = rows(
        db,
        f"""{PATH_CTE} SELECT status, count(*) AS n FROM project_decisions
        WHERE project_id = :project AND {ON_PATH} AND {CHANGED_HERE} GROUP BY status""",
        params,
    )
    by_status = {r["status"]: r["n"] for r in changed}
    elsewhere = scalar(
        db,
        f"""{PATH_CTE} SELECT count(*) FROM project_decisions
        WHERE project_id = :project AND status = 'current' AND NOT {ON_PATH}""",
        params,
    )
    return DecisionCounts(
        superseded=by_status.get("superseded", 0),
        retired=by_status.get("retired", 0),
        elsewhere=int(elsewhere or 0),
    )


def get(db: Connection, decision_id: int) -> Decision:
    """One decision by id."""
    found = rows_by_id(db, "project_decisions", COLUMNS, [decision_id])
    if decision_id not in found:
        raise NotFoundError(f"no decision {decision_id}")
    return Decision.model_validate(found[decision_id])


def listing(
    db: Connection, project_id: str, limit: int | None = None, history: bool = False
) -> list[Decision]:
    """A project's current decisions, newest first (all, or the last `limit`); with
    `history`, the replaced and retired ones too."""
    current = "" if history else "AND status = 'current'"
    found = rows(
        db,
        f"SELECT {COLUMNS} FROM project_decisions WHERE project_id = ? {current} "
        "ORDER BY id DESC LIMIT ?",
        [project_id, UNLIMITED if limit is None else limit],
    )
    return [Decision.model_validate(r) for r in found]


def supersede(
    db: Connection,
    decision_id: int,
    decision: str,
    rationale: str | None,
    now: str,
    node_id: int | None = None,
    author_id: int | None = None,
) -> Decision:
    """A new version of a current decision, replacing it (which is kept, superseded), by
    the person `author_id`.

    `rationale` None keeps the old one's; the change is made at `node_id` (None: where the
    old decision was made). ConflictError when it was already replaced or retired."""
    if not decision.strip():
        raise UsageError('a new version needs its text, e.g. --decision "Valencia goes first"')
    with transaction(db):
        old = _changeable(db, decision_id)
        at = _change_node(db, old, node_id)
        why = old.rationale if rationale is None else rationale.strip()
        _mark(db, old, "superseded", now, at, "")
        new_id = inserted_id(
            db,
            "INSERT INTO project_decisions (project_id, decision, rationale, conversation_id, "
            "timestamp, node_id, replaces_id, language, author_id) "
            "VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?) RETURNING id",
            [old.project_id, decision.strip(), why, now, at, old.id,
             language_of(decision.strip(), why), author_id],
        )  # fmt: skip
        projects.touch(db, old.project_id, now)
    return get(db, new_id)


def retire(
    db: Connection,
    decision_id: int,
    reason: str,
    now: str,
    node_id: int | None = None,
) -> Decision:
    """Take a current decision out of the current ones, with why; it is kept, retired.
    At `node_id` as for `supersede`; ConflictError when it was already changed."""
    with transaction(db):
        old = _changeable(db, decision_id)
        _mark(db, old, "retired", now, _change_node(db, old, node_id), reason.strip())
        projects.touch(db, old.project_id, now)
    return get(db, decision_id)


def _changeable(db: Connection, decision_id: int) -> Decision:
    """The decision, if it is still current; ConflictError saying what became of it. Its
    project is locked first (PostgreSQL), so two changes of one decision take turns."""
    projects.lock(db, get(db, decision_id).project_id)
    found = get(db, decision_id)
    if found.status == "current":
        return found
    when = found.changed_at.date().isoformat() if found.changed_at else "earlier"
    newer = replacement(db, decision_id)
    if newer is not None:
        raise ConflictError(
            f"decision {decision_id} was already replaced by decision {newer.id} ({when}); "
            f"change that one instead, e.g. design-agent decisions edit {newer.id} --decision ..."
        )
    raise ConflictError(f"decision {decision_id} was already retired ({when}); nothing to change")


def _change_node(db: Connection, old: Decision, node_id: int | None) -> int | None:
    """Where a change of `old` is made: `node_id` (a turn of its project), else its own node."""
    if node_id is None:
        return old.node_id
    owner = scalar(db, "SELECT project_id FROM conversations WHERE id = ?", [node_id])
    if owner != old.project_id:
        raise UsageError(f"turn {node_id} is not a turn of this project")
    return node_id


def _mark(
    db: Connection, old: Decision, status: str, now: str, node: int | None, reason: str
) -> None:
    db.execute(
        "UPDATE project_decisions SET status = ?, changed_at = ?, changed_node_id = ?, "
        "change_reason = ? WHERE id = ?",
        [status, now, node, reason, old.id],
    )


def replacement(db: Connection, decision_id: int) -> Decision | None:
    """The version that replaced a decision, or None."""
    found = rows(
        db, f"SELECT {COLUMNS} FROM project_decisions WHERE replaces_id = ?", [decision_id]
    )
    return Decision.model_validate(found[0]) if found else None


def latest_version(db: Connection, decision_id: int) -> Decision:
    """The newest version of a decision: itself, or the one that replaced it, and so on."""
    found = get(db, decision_id)
    for _ in range(MAX_VERSIONS):
        newer = replacement(db, found.id)
        if newer is None:
            break
        found = newer
    return found


def earlier_versions(db: Connection, decision_id: int) -> list[Decision]:
    """The versions a decision replaced, the one it replaced directly first."""
    found: list[Decision] = []
    replaced = get(db, decision_id).replaces_id
    while replaced is not None and len(found) < MAX_VERSIONS:
        found.append(get(db, replaced))
        replaced = found[-1].replaces_id
    return found


def placed(db: Connection, decisions: list[Decision]) -> list[ListedDecision]:
    """The decisions with their place in the tree: the number of their turn and the branch
    it was first written on (none for a decision made on every path)."""
    found: list[ListedDecision] = []
    for d in decisions:
        turn = branch = None
        if d.node_id is not None:
            turn = number_of(db, d.node_id)
            line = branches.find(db, d.project_id, turn)
            branch = BranchRef(id=line.id, name=line.name)
        found.append(ListedDecision(**dict(d), turn=turn, branch=branch))
    return found


def search(db: Connection, project_id: str, query: str, limit: int = 10) -> list[ScoredDecision]:
    """A project's decisions that match the words of `query`, best first."""
    if is_postgres(db):
        from design_agent.memory.postgres import search as postgres

        ranked = postgres.decisions(db, project_id, query, limit)
    else:
        expression = match_expression(stem_terms(query_terms(query)), ["decision", "rationale"])
        if expression is None:
            return []
        ranked = fts.ranked(db, FTS_TABLE, scoped(project_id, expression), WEIGHTS, limit=limit)
    found = rows_by_id(db, "project_decisions", COLUMNS, [i for i, _ in ranked])
    return [
        ScoredDecision(item=Decision.model_validate(found[i]), score=score)
        for i, score in ranked
        if i in found
    ]
