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

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import (
    agent_memory,
    branches,
    context,
    conversations,
    decisions,
    files,
    lookup,
    metadata,
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
    Branch,
    Decision,
    DecisionCounts,
    DeletionReport,
    FileInfo,
    ListedDecision,
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
)
from design_agent.memory.url import DatabaseUrl

if TYPE_CHECKING:
    from design_agent.memory.evidence_store import EvidenceStore

    # Export and import are rare: their models and YAML load only when one is made.
    from design_agent.memory.export import ProjectExport

Clock = Callable[[], datetime]
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

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group several writes so they commit together or not at all."""
        with transaction(self.db):
            yield

    # Projects -------------------------------------------------------------

    def create_project(self, name: str) -> Project:
        """Create a project; UsageError if the name (ignoring case/accents) is taken."""
        return projects.create(self.db, name, self._now())

    def find_project(self, name: str) -> Project:
        """The project with this name or id, ignoring case and accents; NotFoundError."""
        return projects.find(self.db, name)

    def lookup_project(self, name: str) -> lookup.ProjectLookup:
        """What `name` finds: the project (`exact`), else a guess to confirm (`suggestion`),
        and every project's name; never raises (see memory/lookup.py)."""
        return lookup.lookup(self.db, name)

    def project_exists(self, project_id: str) -> bool:
        """Whether a project with exactly this id exists."""
        try:
            self.get_project(project_id)
        except NotFoundError:
            return False
        return True

    def get_project(self, project_id: str) -> Project:
        """The project with exactly this id; NotFoundError."""
        return projects.get(self.db, project_id)

    def list_projects(self) -> list[ProjectSummary]:
        """All projects, last used first, with turn/file/decision counts."""
        return projects.summaries(self.db)

    def project_names(self) -> list[str]:
        """Every project's name, last used first: cheap enough for every turn."""
        return projects.names(self.db)

    def switch_project(self, project_id: str) -> Project:
        """Make a project the active one and mark it as used now."""
        return projects.switch(self.db, project_id, self._now())

    def active_project(self) -> Project | None:
        """The active project, or None."""
        return projects.active(self.db)

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
        return projects.rename(self.db, project_id, new_name)

    def deletion_report(self, project_id: str) -> DeletionReport:
        """The turns, files, decisions, metadata and process memory deleting it removes."""
        return projects.deletion_report(self.db, project_id)

    def delete_project(self, confirmed: DeletionReport) -> DeletionReport:
        """Delete the project of a report the user confirmed; UsageError if it changed since.

        Everything of it goes: its rows, its process memory and conversation state, and
        their bytes in the file (see projects.delete)."""
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
        turn = conversations.update(self.db, turn_id, changes)
        self._written.add(turn.project_id)
        return turn

    def get_turn(self, turn_id: int) -> Turn:
        """One turn by id; NotFoundError."""
        return conversations.get(self.db, turn_id)

    def recent_turns(self, project_id: str, n: int = 10) -> list[Turn]:
        """The last `n` turns of a project, oldest first."""
        return conversations.recent(self.db, project_id, n)

    def last_turn(self, project_id: str) -> Turn | None:
        """The latest turn of a project (its timestamp and task_id), or None."""
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
        return tree.tree(self.db, project_id)

    def turn_number(self, turn_id: int) -> int:
        """A turn's number in its project (1 = its first), as /tree shows it."""
        return tree.number_of(self.db, turn_id)

    def turn_at(self, project_id: str, number: int) -> Turn:
        """The turn with this number in the project; NotFoundError."""
        return tree.turn_at(self.db, project_id, number)

    def fork(self, node_id: int, name: str | None = None) -> Branch:
        """A new branch from a turn (named or not): the next turn saved after that turn
        continues it (`add_turn(..., branch_id=...)` or `parent_id=node_id`)."""
        return branches.fork(self.db, node_id, name, self._now())

    def branches(self, project_id: str) -> list[Branch]:
        """A project's branches, oldest first."""
        return branches.listing(self.db, project_id)

    def rename_branch(self, branch_id: int, name: str | None) -> Branch:
        """Name a branch, rename it, or (None) make it unnamed; UsageError if taken."""
        return branches.rename(self.db, branch_id, name)

    def find_branch(self, project_id: str, name_or_turn: str | int) -> Branch:
        """The branch with this name (any case, accents), or the oldest one through turn
        number `name_or_turn` ("12", "#12"); NotFoundError naming the branches."""
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
        return metadata.get_all(self.db, project_id)

    def set_metadata(self, project_id: str, key: str, value: Any) -> None:
        """Store a JSON value under `key` for a project; None removes it."""
        metadata.set_value(self.db, project_id, key, value, self._now())

    # Research evidence -----------------------------------------------------

    @property
    def evidence(self) -> EvidenceStore:
        """Sessions, speakers, segments and survey rows (memory/evidence_store.py)."""
        from design_agent.memory.evidence_store import EvidenceStore

        return EvidenceStore(self.db, self._now)

    # Files ----------------------------------------------------------------

    def add_file(
        self,
        project_id: str,
        path: Path | str,
        file_type: str = "brief",
        max_bytes: int = MAX_FILE_BYTES,
    ) -> AddedFile:
        """Add a text, markdown or PDF file; `duplicate` if the same bytes are already there."""
        return files.add(self.db, project_id, Path(path), file_type, self._now(), max_bytes)

    def list_files(self, project_id: str) -> list[FileInfo]:
        """A project's files, without their text."""
        return files.listing(self.db, project_id)

    def get_file(self, file_id: int) -> ProjectFile:
        """One file with its text."""
        return files.get(self.db, file_id)

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
        return decisions.add(
            self.db, project_id, decision, rationale, conversation_id, self._now(), node_id
        )

    def list_decisions(
        self, project_id: str, limit: int | None = None, history: bool = False
    ) -> list[Decision]:
        """A project's current decisions, newest first; `history`: replaced and retired too."""
        return decisions.listing(self.db, project_id, limit, history)

    def get_decision(self, decision_id: int, project_id: str | None = None) -> Decision:
        """One decision by id (of `project_id`, when given); NotFoundError saying where
        the ids are."""
        try:
            found = decisions.get(self.db, decision_id)
        except NotFoundError:
            found = None
        if found is None or project_id not in (None, found.project_id):
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
        return decisions.supersede(self.db, decision_id, decision, rationale, self._now(), node_id)

    def retire_decision(
        self, decision_id: int, reason: str = "", node_id: int | None = None
    ) -> Decision:
        """Retire a current decision (kept, no longer current), with why; as supersede."""
        return decisions.retire(self.db, decision_id, reason, self._now(), node_id)

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
        return decisions.counts(self.db, project_id, node_id)

    def place_decisions(self, found: list[Decision]) -> list[ListedDecision]:
        """The decisions with the turn number and the branch each was made on."""
        return decisions.placed(self.db, found)

    def search_decisions(
        self, project_id: str, query: str, limit: int = 10
    ) -> list[ScoredDecision]:
        """A project's decisions matching `query` ("why did we choose ..."), best first."""
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
        return search.search(self.db, query, None if all_projects else project_id, limit)

    def project_context(
        self,
        project_id: str,
        turns: int = 10,
        decision_count: int = 10,
        node_id: int | None = None,
    ) -> ProjectContext:
        """Metadata, briefs, latest decisions and recent turns of a project, in one read;
        at `node_id`, the turns and decisions of the path to that node only."""
        return context.load(self.db, project_id, turns, decision_count, node_id)

    def export_project(
        self, project_id: str, path: Path | str | None = None, replace: bool = False
    ) -> ProjectExport:
        """The whole project as one document; also written to `path` (0600) if given, over
        an existing regular file only when `replace` (user_files.py)."""
        from design_agent.memory import export

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
