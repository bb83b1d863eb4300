"""`Memory`: the one object the rest of design-agent uses to remember things.

One interface, two stores: it opens the SQLite file (the default, one designer's home)
or a PostgreSQL database (a team's server, psycopg imported only then), as a
`connection.Connection`, and delegates to one module per concept (projects,
conversations, files, decisions, metadata, agent_memory, search, context, export),
which write their SQL once where the dialects agree and per dialect where they differ.
Every row it returns is a pydantic model.

Everything is scoped to one project id, except what is global by nature
(agent state, process memory) and `search(..., all_projects=True)`.

    with Memory.open(home.database_file) as memory:   # or "postgresql://user@host/db"
        project = memory.create_project("Mobile Checkout")
        memory.switch_project(project.id)
        turn = memory.add_turn(project.id, "user", "Plan a usability test")
        memory.add_decision(project.id, "Moderated usability testing",
                            "we need to probe why users hesitate", turn.id)
        memory.search("why did we choose moderated testing", project.id)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from design_agent.core.errors import NotAllowedError, NotFoundError, UsageError
from design_agent.memory import (
    agent_memory,
    audit,
    branches,
    context,
    conversations,
    decisions,
    files,
    lookup,
    members,
    metadata,
    people,
    projects,
    search,
    search_index,
    snapshots,
    tree,
)
from design_agent.memory.connection import Connection, Dialect
from design_agent.memory.db import connect, stamp, transaction
from design_agent.memory.documents import MAX_FILE_BYTES
from design_agent.memory.faults import STORAGE_ERRORS
from design_agent.memory.models import (
    AddedFile,
    AuditEntry,
    Branch,
    Decision,
    DecisionCounts,
    DeletionReport,
    FileInfo,
    ListedDecision,
    Member,
    Person,
    ProcessMemory,
    Project,
    ProjectContext,
    ProjectFile,
    ProjectState,
    ProjectSummary,
    ScoredDecision,
    ScoredProcessMemory,
    SearchResults,
    TreeLine,
    Turn,
    role_allows,
)
from design_agent.memory.url import DatabaseUrl

if TYPE_CHECKING:
    from design_agent.memory.evidence_store import EvidenceStore

    # Export and import are rare: their models and YAML load only when one is made.
    from design_agent.memory.export import ProjectExport

Clock = Callable[[], datetime]
# What a person must be in a project to do each kind of thing (models.role_allows).
READ, WRITE, OWN = "viewer", "editor", "owner"
MERGE_PAGES = 2000  # ~8 MB of index rewritten at most per project when a session ends


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


class Memory:
    """Projects, conversations, files, decisions and agent memory in one database.

    Open with `Memory.open(path_or_url)`; close with `close()` or a `with` block. Use an
    instance from one thread at a time. On SQLite it holds one connection, and several
    processes may use the same file at once (WAL, busy timeout, immediate write
    transactions); on PostgreSQL it borrows a connection from the process's pool per
    operation, and writers of one project take turns (its row is locked).

    In a team (`act_as(person)`) every call is made as that person: what they may not see
    is not found (NotFoundError), what their role does not allow is NotAllowedError, the
    turns, decisions and files they make carry their name, and what changes who may do
    what (shares, deletes, decisions) is written to the audit log. Without a person the
    memory is its database's operator's (a one-person home, the team admin's command
    line), who may do everything.
    """

    def __init__(self, target: Path | str | DatabaseUrl, clock: Clock | None = None) -> None:
        """Open the database `target` names (created and migrated as needed); see `open`."""
        self.url = target if isinstance(target, DatabaseUrl) else DatabaseUrl.parse(target)
        self.db: Connection
        if self.url.path is not None:
            self.path = self.url.path
            self.db = connect(self.path)
        else:
            self.url.require_driver()
            from design_agent.memory.postgres.connection import PgConnection

            # Where the database is, for messages (recovery.py, faults.py): the URL, no password.
            self.path = Path(self.url.redacted())
            self.db = PgConnection(self.url)
        self._clock = clock or utc_now
        self._written: set[str] = set()  # projects whose turn index grew in this session
        self.actor: Person | None = None  # the person acting (a team), else the operator
        self.operator = "command line"  # who acts without a person, in the audit log
        self._roles: dict[str, str | None] = {}  # the actor's role per project, read once
        self._team: bool | None = None  # whether the database has people (then: audited)

    @classmethod
    def open(cls, target: Path | str | DatabaseUrl, clock: Clock | None = None) -> Memory:
        """Open the SQLite file at a path or `sqlite:///` URL, or the PostgreSQL database of
        a `postgresql://` URL; ConfigError if it is newer or not ours."""
        return cls(target, clock)

    @property
    def backend(self) -> Dialect:
        """Which store this is: "sqlite" or "postgresql"."""
        return self.db.dialect

    def close(self) -> None:
        """Tidy the indexes written in this session (see `maintain`), then close."""
        try:
            self.maintain()
        except STORAGE_ERRORS:
            pass  # busy, read-only, full or damaged: the next session tidies up instead
        finally:
            self.db.close()

    def maintain(self, pages: int = MERGE_PAGES) -> None:
        """Merge the turn indexes of the projects written in this session.

        Each saved turn adds a small index segment; searches slow down as they
        pile up. This bounded merge (about `pages` pages per project) runs when
        the session ends, so saving a turn never waits for it. (PostgreSQL's GIN indexes
        are kept by autovacuum: nothing to do.)
        """
        if self.backend != "sqlite":
            self._written.clear()
            return
        for project_id in sorted(self._written):
            search_index.merge_project(self.db, project_id, pages)
        self._written.clear()

    def optimize(self) -> None:
        """Merge every full-text index completely (after a bulk import, or for a benchmark);
        on PostgreSQL, refresh the planner's statistics (ANALYZE)."""
        if self.backend == "sqlite":
            search_index.optimize_all(self.db)
        else:
            self.db.execute("ANALYZE")

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _now(self) -> str:
        return stamp(self._clock())

    # Who acts ---------------------------------------------------------------

    def act_as(self, person: Person | None) -> Memory:
        """Make every call of this memory as `person` (None: as the database's operator)."""
        self.actor = person
        self._roles.clear()
        return self

    @property
    def _author(self) -> int | None:
        return None if self.actor is None else self.actor.id

    def role_in(self, project_id: str) -> str | None:
        """The actor's role in the project: "admin" (every right), "owner", "editor",
        "viewer", or None (not a member: the project is not theirs to see)."""
        if self.actor is None or self.actor.is_admin:
            return "admin"
        if project_id not in self._roles:
            self._roles[project_id] = members.role_of(self.db, project_id, self.actor)
        return self._roles[project_id]

    def require(self, project_id: str, needed: str = READ) -> None:
        """NotFoundError unless the actor may see the project; NotAllowedError unless their
        role there allows `needed` (viewer: read, editor: write, owner: own)."""
        role = self.role_in(project_id)
        if role_allows(role, needed):
            return
        if role is None:
            raise NotFoundError(f"no project with id '{project_id}'")
        assert self.actor is not None
        what = {WRITE: "talk, upload or record decisions", OWN: "share, rename or delete"}
        raise NotAllowedError(
            f"{self.actor.name} is a {role} of project '{project_id}': only "
            f"{'editors and owners' if needed == WRITE else 'owners'} may "
            f"{what.get(needed, needed)} there; ask one of its owners (projects members)"
        )

    def _seen(self, project: Project) -> Project:
        self.require(project.id)
        return project

    @property
    def team(self) -> bool:
        """Whether this database is a team's (it has people): then changes are audited."""
        if self.actor is not None:
            return True
        if self._team is None:
            self._team = people.count(self.db) > 0
        return self._team

    def _audit(self, action: str, project_id: str | None, **detail: Any) -> None:
        """One line of the audit log, in the caller's transaction (a team's database only)."""
        if not self.team:
            return
        actor = self.actor.name if self.actor is not None else self.operator
        audit.record(self.db, self._now(), self._author, actor, action, project_id, detail)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group several writes so they commit together or not at all."""
        with transaction(self.db):
            yield

    # Projects -------------------------------------------------------------

    def create_project(self, name: str) -> Project:
        """Create a project; UsageError if the name (ignoring case/accents) is taken. In a
        team its creator is its owner."""
        with transaction(self.db):
            project = projects.create(self.db, name, self._now())
            if self.actor is not None:
                members.share(self.db, project.id, self.actor.id, OWN, self._now())
                self._roles.pop(project.id, None)
            self._audit("project.created", project.id, name=project.name)
        return project

    def find_project(self, name: str) -> Project:
        """The project with this name or id, ignoring case and accents, among those the
        actor may see; NotFoundError."""
        return projects.find(self.db, name, self.actor)

    def lookup_project(self, name: str) -> lookup.ProjectLookup:
        """What `name` finds: the project (`exact`), else a guess to confirm (`suggestion`),
        and every project's name; never raises (see memory/lookup.py)."""
        return lookup.lookup(self.db, name, self.actor)

    def project_exists(self, project_id: str) -> bool:
        """Whether a project with exactly this id exists."""
        try:
            self.get_project(project_id)
        except NotFoundError:
            return False
        return True

    def get_project(self, project_id: str) -> Project:
        """The project with exactly this id; NotFoundError."""
        self.require(project_id)
        return projects.get(self.db, project_id)

    def list_projects(self) -> list[ProjectSummary]:
        """All projects (the actor's), last used first, with turn/file/decision counts."""
        return projects.summaries(self.db, self.actor)

    def project_names(self) -> list[str]:
        """Every project's name (the actor's), last used first: cheap enough for every turn."""
        return projects.names(self.db, self.actor)

    def switch_project(self, project_id: str) -> Project:
        """Make a project the active one (the actor's own) and mark it as used now."""
        self.require(project_id)
        return projects.switch(self.db, project_id, self._now(), self.actor)

    def active_project(self) -> Project | None:
        """The active project (the actor's own), or None."""
        return projects.active(self.db, self.actor)

    def resolve_project(self, name: str | None = None) -> Project:
        """The project called `name`, or the active one; UsageError if there is neither."""
        if name:
            return self.find_project(name)
        current = self.active_project()
        if current is None:
            raise UsageError(
                "no active project; create one with: design-agent projects create NAME "
                "(or pass --project NAME)"
            )
        return current

    def rename_project(self, project_id: str, new_name: str) -> Project:
        """Rename a project (its id stays the same)."""
        self.require(project_id, OWN)
        with transaction(self.db):
            old = projects.get(self.db, project_id).name
            renamed = projects.rename(self.db, project_id, new_name)
            self._audit("project.renamed", project_id, old=old, new=renamed.name)
        return renamed

    def deletion_report(self, project_id: str) -> DeletionReport:
        """The turns, files, decisions, metadata and process memory deleting it removes."""
        self.require(project_id, OWN)
        return projects.deletion_report(self.db, project_id)

    def delete_project(self, confirmed: DeletionReport) -> DeletionReport:
        """Delete the project of a report the user confirmed; UsageError if it changed since.

        Everything of it goes: its rows, its process memory and conversation state, and
        their bytes in the file (see projects.delete); in a team, its line in the audit log
        stays (with its name and counts)."""
        self.require(confirmed.project.id, OWN)
        if not self.team:
            return projects.delete(self.db, confirmed)
        with transaction(self.db):
            self._audit(
                "project.deleted",
                confirmed.project.id,
                name=confirmed.project.name,
                turns=confirmed.turns,
                files=confirmed.files,
                decisions=confirmed.decisions,
            )
            return projects.delete(self.db, confirmed)

    # Turns ----------------------------------------------------------------

    def add_turn(
        self,
        project_id: str,
        role: str,
        message: str,
        task_id: str | None = None,
        agent_id: str | None = None,
        provider: str | None = None,
        model: str | None = None,
        status: str = "complete",
        tokens: int | None = None,
        cost: float | None = None,
        validation: dict[str, Any] | None = None,
        parent_id: int | None = None,
        tier: str | None = None,
        *,
        branch_id: int | None = None,
        state: ProjectState | None = None,
        keyframe_every: int = snapshots.KEYFRAME_EVERY,
        language: str | None = None,
    ) -> Turn:
        """Save one turn (role "user" or "agent"; status complete, cancelled or failed).

        It is a child of `parent_id`, else of the tip of `branch_id`, else of the project's
        latest turn; `state` (the project state at it) is saved in the same transaction.
        `language` ("en", "es", ...) says which stemmer indexes it on PostgreSQL; by default
        it is told from the message (text.guess_language)."""
        fields = {
            "role": role,
            "message": message,
            "task_id": task_id,
            "agent_id": agent_id,
            "provider": provider,
            "model": model,
            "status": status,
            "tokens": tokens,
            "cost": cost,
            "validation": validation,
            "parent_id": parent_id,
            "tier": tier,
            "language": language,
        }
        self.require(project_id, WRITE)
        if self.actor is not None:
            fields["author_id"] = self.actor.id
        return self._save_turn(project_id, fields, branch_id, state, keyframe_every)

    def _save_turn(
        self,
        project_id: str,
        fields: dict[str, Any],
        branch_id: int | None,
        state: ProjectState | None,
        keyframe_every: int,
    ) -> Turn:
        if state is None:
            turn = conversations.add(self.db, project_id, fields, self._now(), branch_id)
        else:
            with transaction(self.db):  # the node and its state: both or neither
                turn = conversations.add(self.db, project_id, fields, self._now(), branch_id)
                snapshots.save_new(self.db, turn, state, keyframe_every)
        self._written.add(project_id)
        return turn

    def update_turn(self, turn_id: int, **changes: Any) -> Turn:
        """Change a saved turn: message, status, task_id, agent_id, provider, model,
        tokens, cost, validation or language (e.g. the final text and status of an answer;
        a new message is given its language unless one is given)."""
        if self.actor is not None:
            self.require(self.get_turn(turn_id).project_id, WRITE)
        turn = conversations.update(self.db, turn_id, changes)
        self._written.add(turn.project_id)
        return turn

    def get_turn(self, turn_id: int) -> Turn:
        """One turn by id; NotFoundError."""
        turn = conversations.get(self.db, turn_id)
        if self.actor is not None and self.role_in(turn.project_id) is None:
            raise NotFoundError(f"no turn {turn_id}")
        return turn

    def recent_turns(self, project_id: str, n: int = 10) -> list[Turn]:
        """The last `n` turns of a project, oldest first."""
        self.require(project_id)
        return conversations.recent(self.db, project_id, n)

    def last_turn(self, project_id: str) -> Turn | None:
        """The latest turn of a project (its timestamp and task_id), or None."""
        self.require(project_id)
        return conversations.last(self.db, project_id)

    # The conversation tree ------------------------------------------------

    def path_to(self, node_id: int, limit: int | None = None) -> list[Turn]:
        """The turns from the root to `node_id`, root first (the last `limit` of them): the
        prompt's history, never a sibling branch's turns."""
        return tree.path_to(self.db, node_id, limit)

    def path_ids(self, node_id: int) -> list[int]:
        """The ids of the turns from the root to `node_id`, root first (no texts read)."""
        return tree.path_ids(self.db, node_id)

    def children(self, node_id: int) -> list[Turn]:
        """The turns that continue from `node_id`, oldest first."""
        return tree.children(self.db, node_id)

    def tree(self, project_id: str) -> TreeLine:
        """A project's conversation tree: the line from its first turn, with its forks."""
        self.require(project_id)
        return tree.tree(self.db, project_id)

    def turn_number(self, turn_id: int) -> int:
        """A turn's number in its project (1 = its first), as /tree shows it."""
        return tree.number_of(self.db, turn_id)

    def turn_at(self, project_id: str, number: int) -> Turn:
        """The turn with this number in the project; NotFoundError."""
        self.require(project_id)
        return tree.turn_at(self.db, project_id, number)

    def fork(self, node_id: int, name: str | None = None) -> Branch:
        """A new branch from a turn (named or not): the next turn saved after that turn
        continues it (`add_turn(..., branch_id=...)` or `parent_id=node_id`)."""
        if self.actor is not None:
            self.require(self.get_turn(node_id).project_id, WRITE)
        return branches.fork(self.db, node_id, name, self._now())

    def branches(self, project_id: str) -> list[Branch]:
        """A project's branches, oldest first."""
        self.require(project_id)
        return branches.listing(self.db, project_id)

    def rename_branch(self, branch_id: int, name: str | None) -> Branch:
        """Name a branch, rename it, or (None) make it unnamed; UsageError if taken."""
        return branches.rename(self.db, branch_id, name)

    def find_branch(self, project_id: str, name_or_turn: str | int) -> Branch:
        """The branch with this name (any case, accents), or the oldest one through turn
        number `name_or_turn` ("12", "#12"); NotFoundError naming the branches."""
        self.require(project_id)
        return branches.find(self.db, project_id, name_or_turn)

    def save_state(
        self,
        node_id: int,
        state: ProjectState,
        keyframe_every: int = snapshots.KEYFRAME_EVERY,
    ) -> str:
        """Store the project state at a node (a delta, or a keyframe: which one is returned).
        Inside `transaction()` it commits with the node, or not at all."""
        return snapshots.save(self.db, node_id, state, keyframe_every)

    def state_at(self, node_id: int) -> ProjectState:
        """The project state at a node (its nearest ancestor's if it has none saved)."""
        return snapshots.state_at(self.db, node_id)

    def decisions_on_path(
        self, node_id: int, limit: int | None = None, history: bool = False
    ) -> list[Decision]:
        """The current decisions made so far at a node (on its path, or on every path), newest
        first; with `history`, the ones replaced or retired on that path too."""
        return decisions.on_path(self.db, node_id, limit, history)

    # Metadata -------------------------------------------------------------

    def metadata(self, project_id: str) -> dict[str, Any]:
        """A project's metadata (goals, users, constraints, preferences, ...)."""
        self.require(project_id)
        return metadata.get_all(self.db, project_id)

    def set_metadata(self, project_id: str, key: str, value: Any) -> None:
        """Store a JSON value under `key` for a project; None removes it."""
        self.require(project_id, WRITE)
        metadata.set_value(self.db, project_id, key, value, self._now())

    # Research evidence -----------------------------------------------------

    @property
    def evidence(self) -> EvidenceStore:
        """Sessions, speakers, segments and survey rows (memory/evidence_store.py)."""
        from design_agent.memory.evidence_store import EvidenceStore

        return EvidenceStore(self.db, self._now, self.require)

    # Files ----------------------------------------------------------------

    def add_file(
        self,
        project_id: str,
        path: Path | str,
        file_type: str = "brief",
        max_bytes: int = MAX_FILE_BYTES,
    ) -> AddedFile:
        """Add a text, markdown or PDF file; `duplicate` if the same bytes are already there."""
        self.require(project_id, WRITE)
        return files.add(
            self.db, project_id, Path(path), file_type, self._now(), max_bytes, self._author
        )

    def list_files(self, project_id: str) -> list[FileInfo]:
        """A project's files, without their text."""
        self.require(project_id)
        return files.listing(self.db, project_id)

    def get_file(self, file_id: int) -> ProjectFile:
        """One file with its text."""
        found = files.get(self.db, file_id)
        if self.actor is not None and self.role_in(found.project_id) is None:
            raise NotFoundError(f"no file {file_id}")
        return found

    # Decisions ------------------------------------------------------------

    def add_decision(
        self,
        project_id: str,
        decision: str,
        rationale: str = "",
        conversation_id: int | None = None,
        node_id: int | None = None,
    ) -> Decision:
        """Record a decision, why, the turn where it was made (optionally), and the node of
        the tree it belongs to (by default that turn; with neither, every path)."""
        self.require(project_id, WRITE)
        with transaction(self.db):
            made = decisions.add(
                self.db, project_id, decision, rationale, conversation_id, self._now(), node_id,
                self._author,
            )  # fmt: skip
            self._audit("decision.recorded", project_id, id=made.id, decision=made.decision)
        return made

    def list_decisions(
        self, project_id: str, limit: int | None = None, history: bool = False
    ) -> list[Decision]:
        """A project's current decisions, newest first; `history`: replaced and retired too."""
        self.require(project_id)
        return decisions.listing(self.db, project_id, limit, history)

    def get_decision(self, decision_id: int, project_id: str | None = None) -> Decision:
        """One decision by id (of `project_id`, when given); NotFoundError saying where
        the ids are."""
        try:
            found = decisions.get(self.db, decision_id)
        except NotFoundError:
            found = None
        hidden = found is not None and self.role_in(found.project_id) is None
        if found is None or hidden or project_id not in (None, found.project_id):
            where = "" if project_id is None else f" in project '{project_id}'"
            raise NotFoundError(
                f"no decision {decision_id}{where}; 'design-agent decisions list --history' "
                "shows the ids"
            )
        return found

    def supersede_decision(
        self,
        decision_id: int,
        decision: str,
        rationale: str | None = None,
        node_id: int | None = None,
    ) -> Decision:
        """A new version of a current decision that replaces it (kept, superseded); None
        `rationale` keeps the old one's. At `node_id` of the tree (None: where it was made).
        ConflictError when it was already replaced or retired."""
        old = self.get_decision(decision_id)
        self.require(old.project_id, WRITE)
        with transaction(self.db):
            new = decisions.supersede(
                self.db, decision_id, decision, rationale, self._now(), node_id, self._author
            )
            self._audit(
                "decision.replaced", old.project_id, id=new.id, replaces=old.id,
                decision=new.decision,
            )  # fmt: skip
        return new

    def retire_decision(
        self, decision_id: int, reason: str = "", node_id: int | None = None
    ) -> Decision:
        """Retire a current decision (kept, no longer current), with why; as supersede."""
        old = self.get_decision(decision_id)
        self.require(old.project_id, WRITE)
        with transaction(self.db):
            retired = decisions.retire(self.db, decision_id, reason, self._now(), node_id)
            self._audit(
                "decision.retired", old.project_id, id=old.id, decision=old.decision,
                reason=reason,
            )  # fmt: skip
        return retired

    def decision_replacement(self, decision_id: int) -> Decision | None:
        """The version that replaced a decision, or None."""
        return decisions.replacement(self.db, decision_id)

    def latest_decision_version(self, decision_id: int) -> Decision:
        """The newest version of a decision (itself when nothing replaced it)."""
        return decisions.latest_version(self.db, decision_id)

    def earlier_decision_versions(self, decision_id: int) -> list[Decision]:
        """The versions a decision replaced, the one it replaced directly first."""
        return decisions.earlier_versions(self.db, decision_id)

    def decision_counts(self, project_id: str, node_id: int | None = None) -> DecisionCounts:
        """Replaced and retired on the path to `node_id`, and current on other branches
        (None: replaced and retired in the whole project)."""
        self.require(project_id)
        return decisions.counts(self.db, project_id, node_id)

    def place_decisions(self, found: list[Decision]) -> list[ListedDecision]:
        """The decisions with the turn number and the branch each was made on."""
        return decisions.placed(self.db, found)

    def search_decisions(
        self, project_id: str, query: str, limit: int = 10
    ) -> list[ScoredDecision]:
        """A project's decisions matching `query` ("why did we choose ..."), best first."""
        self.require(project_id)
        return decisions.search(self.db, project_id, query, limit)

    # Agent memory ---------------------------------------------------------

    def add_process_memory(
        self,
        context: str,
        decision: str,
        rationale: str = "",
        outcome: str = "",
        lessons: str = "",
        project_id: str | None = None,
    ) -> ProcessMemory:
        """Remember what the agent decided in which context, why, the outcome, the lessons;
        `project_id` links the entry to its project, so deleting the project deletes it."""
        entry = {
            "context": context,
            "decision": decision,
            "rationale": rationale,
            "outcome": outcome,
            "lessons": lessons,
        }
        return agent_memory.add_process_memory(self.db, entry, self._now(), project_id)

    def list_process_memory(self, limit: int = 20) -> list[ProcessMemory]:
        """The latest process-memory entries, newest first."""
        return agent_memory.list_process_memory(self.db, limit)

    def search_process_memory(self, query: str, limit: int = 10) -> list[ScoredProcessMemory]:
        """Process-memory entries matching `query`, best first."""
        return agent_memory.search_process_memory(self.db, query, limit)

    def get_state(self, key: str, default: Any = None) -> Any:
        """A value of agent state (JSON), or `default`."""
        return agent_memory.get_state(self.db, key, default)

    def delete_state(self, key: str) -> None:
        """Forget a value of agent state."""
        agent_memory.delete_state(self.db, key)

    def set_state(self, key: str, value: Any) -> None:
        """Store a JSON value of agent state."""
        agent_memory.set_state(self.db, key, value, self._now())

    # Search, context, export ----------------------------------------------

    def search(
        self,
        query: str,
        project_id: str | None = None,
        *,
        all_projects: bool = False,
        limit: int = 20,
    ) -> SearchResults:
        """Turns, files and decisions matching `query` in one project, or in all projects
        when `all_projects` is true (grouped by project). One of the two is required."""
        if all_projects == (project_id is not None):
            raise UsageError("search one project (project_id) or all of them, not both")
        if project_id is not None:
            self.require(project_id)
            return search.search(self.db, query, project_id, limit)
        among = projects.visible_ids(self.db, self.actor)  # a person's projects only
        return search.search(self.db, query, None, limit, among)

    def project_context(
        self,
        project_id: str,
        turns: int = 10,
        decision_count: int = 10,
        node_id: int | None = None,
    ) -> ProjectContext:
        """Metadata, briefs, latest decisions and recent turns of a project, in one read;
        at `node_id`, the turns and decisions of the path to that node only."""
        self.require(project_id)
        return context.load(self.db, project_id, turns, decision_count, node_id)

    def export_project(
        self, project_id: str, path: Path | str | None = None, replace: bool = False
    ) -> ProjectExport:
        """The whole project as one document; also written to `path` (0600) if given, over
        an existing regular file only when `replace` (user_files.py)."""
        from design_agent.memory import export

        self.require(project_id)
        bundle = export.build(self.db, project_id, self._clock())
        if path is not None:
            export.write(bundle, Path(path), replace)
        return bundle

    def import_project(
        self,
        source: Path | str | ProjectExport,
        name: str | None = None,
        *,
        providers: Collection[str] | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> Project:
        """Recreate an exported project (under `name` if given); UsageError if it exists or
        the file is unsafe. Stored preferences not valid here (`providers` are this home's
        adapter names) are dropped, each one told to `warn`."""
        from design_agent.memory import export

        bundle = source if isinstance(source, export.ProjectExport) else export.read(Path(source))
        return export.restore(self.db, bundle, name, providers, warn)

    # A team: people, roles, the audit log -----------------------------------

    def add_person(self, name: str, is_admin: bool = False) -> Person:
        """Add a person to the team (no password until they use an invite)."""
        self._require_admin()
        with transaction(self.db):
            person = people.add(self.db, name, is_admin, self._now())
            self._team = True
            self._audit("person.added", None, name=person.name, admin=is_admin)
        return person

    def find_person(self, name: str) -> Person:
        """The person called `name`; NotFoundError naming who there is."""
        return people.find(self.db, name)

    def get_person(self, person_id: int) -> Person:
        return people.get(self.db, person_id)

    def list_people(self) -> list[Person]:
        """Everyone of the team, by name."""
        return people.listing(self.db)

    def disable_person(self, person_id: int) -> Person:
        """Disable a person: no more signing in; their sessions and tokens end now."""
        self._require_admin()
        with transaction(self.db):
            person = people.disable(self.db, person_id, self._now())
            self._audit("person.disabled", None, name=person.name)
        return person

    def invite_person(self, person_id: int) -> str:
        """A new single-use invite for the person (the token for their link)."""
        self._require_admin()
        with transaction(self.db):
            token = people.invite(self.db, person_id, self._clock())
            self._audit("person.invited", None, name=people.get(self.db, person_id).name)
        return token

    def invited_person(self, token: str) -> Person:
        """Who an invite is for, while it can be used; NotAllowedError otherwise."""
        return people.invited(self.db, token, self._clock())

    def accept_invite(self, token: str, password_hash: str) -> Person:
        """Set the password (its hash) of the invite's person; the invite is spent."""
        with transaction(self.db):
            person = people.accept_invite(self.db, token, password_hash, self._clock())
            self._audit("person.joined", None, name=person.name)
        return person

    def password_of(self, name: str) -> tuple[Person, str] | None:
        """An active person called `name` and their password hash (for signing in)."""
        return people.password_of(self.db, name)

    def rehash_password(self, person_id: int, password_hash: str) -> None:
        people.set_password_hash(self.db, person_id, password_hash)

    def new_session(self, person_id: int) -> str:
        """A session for the person (the page's cookie): its token, given once."""
        return people.new_session(self.db, person_id, self._clock())

    def new_api_token(self, person_id: int, label: str) -> str:
        """A personal API token for the person: given once, stored hashed."""
        if self.actor is not None and self.actor.id != person_id:
            self._require_admin()
        with transaction(self.db):
            token = people.new_api_token(self.db, person_id, label, self._now())
            name = people.get(self.db, person_id).name
            self._audit("person.token", None, name=name, label=label)
        return token

    def credential_holder(self, token: str) -> tuple[Person, str] | None:
        """Who a session or API token belongs to and which it is, while it is valid."""
        return people.holder(self.db, token, self._clock())

    def revoke_credential(self, token: str) -> bool:
        """End a session or API token (logout): whether one was ended."""
        return people.revoke(self.db, token, self._now())

    def _require_admin(self) -> None:
        if self.actor is not None and not self.actor.is_admin:
            raise NotAllowedError(f"only an admin may do that, and {self.actor.name} is not one")

    def members(self, project_id: str) -> list[Member]:
        """The project's members and their roles (owners first)."""
        self.require(project_id)
        return members.members(self.db, project_id)

    def share_project(self, project_id: str, person_id: int, role: str) -> Member:
        """Give a person a role in the project (an owner's or an admin's to do)."""
        self.require(project_id, OWN)
        with transaction(self.db):
            person = people.get(self.db, person_id)
            if not person.active:
                raise UsageError(f"{person.name} is disabled; a disabled person gets no role")
            member, before = members.share(self.db, project_id, person_id, role, self._now())
            if before != role:
                action = "member.added" if before is None else "member.role_changed"
                self._audit(action, project_id, name=person.name, role=role, before=before)
        self._roles.pop(project_id, None)
        return member

    def unshare_project(self, project_id: str, person_id: int) -> str | None:
        """Take a person out of the project: the role they had (None: none)."""
        self.require(project_id, OWN)
        with transaction(self.db):
            name = people.get(self.db, person_id).name
            before = members.unshare(self.db, project_id, person_id)
            if before is not None:
                self._audit("member.removed", project_id, name=name, before=before)
        self._roles.pop(project_id, None)
        return before

    def audit_log(self, project_id: str | None = None, limit: int = 200) -> list[AuditEntry]:
        """The newest lines of the audit log, newest first: of one project (its owners' and
        admins' to read), or every line (an admin's), or a person's projects' lines."""
        if project_id is not None:
            self.require(project_id, OWN)
            return audit.entries(self.db, project_id, limit)
        if self.actor is None or self.actor.is_admin:
            return audit.entries(self.db, None, limit)
        owned = [
            p for p in (projects.visible_ids(self.db, self.actor) or [])
            if self.role_in(p) == OWN
        ]  # fmt: skip
        return audit.entries(self.db, None, limit, owned)
