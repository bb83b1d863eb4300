"""Pydantic models of every row and result that leaves the memory package.

Callers never see sqlite rows or dicts: each function in `design_agent.memory`
returns one of these, validated on the way out, so a bad row is an error here
and not a surprise in the pipeline or the shell.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

Role = Literal["user", "agent"]
TurnStatus = Literal["complete", "cancelled", "failed"]
FileType = Literal["brief", "research", "design", "other"]
HitKind = Literal["turn", "file", "decision"]

ROLES: tuple[str, ...] = ("user", "agent")
TURN_STATUSES: tuple[str, ...] = ("complete", "cancelled", "failed")
FILE_TYPES: tuple[str, ...] = ("brief", "research", "design", "other")


class Row(BaseModel):
    """Base of the row models: immutable, unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Project(Row):
    """A project: `id` is a slug fixed at creation; `name` may be renamed."""

    id: str
    name: str
    created_at: datetime
    last_accessed: datetime


class ProjectSummary(Project):
    """A project as listed: with its number of turns, files and decisions."""

    turns: int = 0
    files: int = 0
    decisions: int = 0
    active: bool = False


class TurnContent(Row):
    """What a turn says and how it was answered; shared by the row and the export format."""

    timestamp: datetime
    role: Role
    message: str
    task_id: str | None = None
    agent_id: str | None = None
    provider: str | None = None
    model: str | None = None
    status: TurnStatus = "complete"
    tokens: int | None = None
    cost: float | None = None
    validation: dict[str, Any] | None = None
    tier: str | None = None


class Turn(TurnContent):
    """One message of a conversation, the user's or the agent's; `author` is the person who
    wrote it, or whose question an answer answers (None: a one-person home's turn)."""

    id: int
    project_id: str
    parent_id: int | None = None
    author: str | None = None


class FileInfo(Row):
    """A file added to a project, without its text."""

    id: int
    project_id: str
    filename: str
    file_type: FileType
    uploaded_at: datetime
    sha256: str
    chars: int
    author: str | None = None  # who added it (None: a one-person home's file)


class ProjectFile(FileInfo):
    """A file added to a project, with the text extracted from it."""

    content: str


class AddedFile(Row):
    """The result of adding a file: `duplicate` when the same bytes were already there,
    `truncated` when only the beginning of its text was kept (see memory/documents.py)."""

    file: FileInfo
    duplicate: bool
    truncated: bool = False


DecisionStatus = Literal["current", "superseded", "retired"]
DECISION_STATUSES: tuple[str, ...] = ("current", "superseded", "retired")


class Decision(Row):
    """A decision recorded in a project, with why, and the turn where it was made.

    When the team changes its mind it is `superseded` by a newer version (whose
    `replaces_id` names it) or `retired`: it stays, with when (`changed_at`), where in the
    tree (`changed_node_id`; None: on every path) and why it was retired."""

    id: int
    project_id: str
    decision: str
    rationale: str
    conversation_id: int | None = None
    timestamp: datetime
    node_id: int | None = None  # where in the tree it was made; None: on every path
    status: DecisionStatus = "current"
    replaces_id: int | None = None
    changed_at: datetime | None = None
    changed_node_id: int | None = None
    change_reason: str = ""
    author: str | None = None  # who recorded it (None: a one-person home's decision)


class BranchRef(Row):
    """A branch named by a listing: its id and name (None: an unnamed branch)."""

    id: int
    name: str | None = None


class ListedDecision(Decision):
    """A decision with its place in the conversation tree: the number of the turn where it
    was made and the branch that turn was first written on (both None: every path)."""

    turn: int | None = None
    branch: BranchRef | None = None


class DecisionCounts(Row):
    """What a branch's listing leaves out: changed on this path, current on other branches."""

    superseded: int = 0
    retired: int = 0
    elsewhere: int = 0


class ProcessMemory(Row):
    """Agent memory: what the agent decided in which context, and what it learned."""

    id: int
    context: str
    decision: str
    rationale: str
    outcome: str
    lessons: str
    timestamp: datetime
    project_id: str | None = None


class Scored(Row):
    """A search result: a row and its relevance (higher is better)."""

    score: float


class ScoredDecision(Scored):
    """A decision found by search."""

    item: Decision


class ScoredProcessMemory(Scored):
    """A process-memory entry found by search."""

    item: ProcessMemory


class SearchHit(Scored):
    """One turn, file or decision that matched a search, with a short excerpt."""

    kind: HitKind
    id: int
    project_id: str
    timestamp: datetime
    title: str
    snippet: str


class ProjectHits(Row):
    """The hits of one project, best first."""

    project: Project
    hits: list[SearchHit]


class SearchResults(Row):
    """Search results grouped by project (one group when the search was scoped)."""

    query: str
    terms: list[str]
    all_projects: bool
    groups: list[ProjectHits] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def total(self) -> int:
        """The number of hits in all groups."""
        return sum(len(group.hits) for group in self.groups)


class DeletionReport(Row):
    """What deleting a project removes; pass it back to confirm the deletion."""

    project: Project
    turns: int
    files: int
    decisions: int
    metadata: int
    process_memory: int = 0


class ProjectContext(Row):
    """Everything the pipeline needs about a project for one turn, loaded at once."""

    project: Project
    metadata: dict[str, Any]
    briefs: list[ProjectFile]
    decisions: list[Decision]
    recent_turns: list[Turn]


class Branch(Row):
    """A line of the conversation tree, named or not, and the turn it has reached (`tip_id`,
    `tip_number` as /tree numbers it). A turn saved as the child of a tip moves the tip."""

    id: int
    project_id: str
    name: str | None = None
    tip_id: int
    tip_number: int
    created_at: datetime


class TreeNode(Row):
    """One turn of the tree, as /tree shows it: its number in the project (1 = the first
    turn), role, task, the start of its text and the names of the branches ending here.

    Its first child is the next node of the line it is on; `forks` are the lines that start
    at its other children. So the nesting grows only where the conversation forks, and a
    2,000-turn conversation is one flat list (JSON readers recurse on nesting)."""

    id: int
    number: int
    role: Role
    task_id: str | None = None
    text: str
    branches: list[str] = Field(default_factory=list)
    forks: list[TreeLine] = Field(default_factory=list)


class TreeLine(Row):
    """Turns that follow each other, each the first child of the one before."""

    nodes: list[TreeNode] = Field(default_factory=list)


class StateDecision(Row):
    """A decision as the project state holds it (its id in project_decisions)."""

    id: int
    decision: str
    rationale: str = ""


class Proposal(Row):
    """A decision proposed by the model and not yet confirmed by the user."""

    decision: str
    rationale: str = ""


class ProjectState(Row):
    """What the conversation has built up to one node of the tree (see snapshots.py)."""

    decisions: list[StateDecision] = Field(default_factory=list)
    task_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    pending: list[Proposal] = Field(default_factory=list)

    @field_validator("decisions")
    @classmethod
    def _by_id(cls, value: list[StateDecision]) -> list[StateDecision]:
        # One order, so two equal states compare equal whatever order they were built in.
        ordered = sorted(value, key=lambda d: d.id)
        if len({d.id for d in ordered}) != len(ordered):
            raise ValueError("a decision appears twice in the state")
        return ordered


# -- A team (issue 28 §2): people, their roles in projects, what they did -----------------

TeamRole = Literal["owner", "editor", "viewer"]
# In order of what each may do: a viewer reads and searches, an editor also talks, uploads
# and records decisions, an owner also shares, renames and deletes the project.
TEAM_ROLES: tuple[TeamRole, ...] = ("viewer", "editor", "owner")


def role_allows(role: str | None, needed: str) -> bool:
    """Whether `role` ("admin" for an instance admin) may do what `needed` may."""
    if role == "admin":
        return True
    if role not in TEAM_ROLES or needed not in TEAM_ROLES:
        return False
    return TEAM_ROLES.index(role) >= TEAM_ROLES.index(needed)


class Person(Row):
    """Someone of the team: `is_admin` sees and may do everything; `has_password` once the
    invite was used; a disabled person can no longer sign in (their work keeps their name)."""

    id: int
    name: str
    is_admin: bool = False
    created_at: datetime
    disabled_at: datetime | None = None
    has_password: bool = False

    @property
    def active(self) -> bool:
        return self.disabled_at is None


class Member(Row):
    """A person's role in a project."""

    project_id: str
    person_id: int
    name: str
    role: TeamRole
    added_at: datetime


class AuditEntry(Row):
    """One line of the append-only audit log: who did what, when, in which project."""

    id: int
    at: datetime
    person_id: int | None = None
    actor: str
    action: str
    project_id: str | None = None
    detail: dict[str, Any] = Field(default_factory=dict)
