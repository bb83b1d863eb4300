"""The database schema, as forward migrations: MIGRATIONS[n] takes version n-1 to n.

`PRAGMA user_version` holds the version. Migrations only ever add; a database
written by a newer design-agent is refused, never changed (see db.py).

Full-text search (FTS5, unicode61 with remove_diacritics 2, contentless,
kept in sync by triggers):

- project_files_fts and project_decisions_fts are single tables with a
  `scope` column holding one token per project ('p' + hex of its id), so a
  scoped query is `scope : "p..." AND (...)` inside the index.
- conversations hold almost every row (a million turns), and FTS5's bm25
  counts each query word over the whole table before ranking. So each
  project gets its own conversations_fts_<search_key> table and triggers,
  created with the project (search_index.py): a scoped search touches one
  project's index only, and deleting a project drops its index in one step.
"""

from __future__ import annotations

FTS_OPTIONS = "content='', tokenize='unicode61 remove_diacritics 2'"

V1_TABLES: tuple[str, ...] = (
    """CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        search_key INTEGER NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_accessed TEXT NOT NULL
    )""",
    """CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        timestamp TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'agent')),
        message TEXT NOT NULL,
        task_id TEXT,
        agent_id TEXT,
        provider TEXT,
        model TEXT,
        status TEXT NOT NULL DEFAULT 'complete'
            CHECK (status IN ('complete', 'cancelled', 'failed')),
        tokens INTEGER,
        cost REAL,
        validation TEXT CHECK (validation IS NULL OR json_valid(validation)),
        parent_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL
    )""",
    "CREATE INDEX conversations_project ON conversations(project_id, id)",
    # Foreign-key checks on delete look rows up by these columns: index them.
    "CREATE INDEX conversations_parent ON conversations(parent_id)",
    """CREATE TRIGGER conversations_stay_in_project BEFORE UPDATE OF project_id
        ON conversations WHEN new.project_id IS NOT old.project_id
        BEGIN SELECT RAISE(ABORT, 'a turn cannot move to another project'); END""",
    """CREATE TABLE project_files (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        filename TEXT NOT NULL,
        content TEXT NOT NULL,
        file_type TEXT NOT NULL CHECK (file_type IN ('brief', 'research', 'design', 'other')),
        uploaded_at TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        UNIQUE (project_id, sha256)
    )""",
    """CREATE TABLE project_decisions (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        decision TEXT NOT NULL,
        rationale TEXT NOT NULL DEFAULT '',
        conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
        timestamp TEXT NOT NULL
    )""",
    "CREATE INDEX project_decisions_project ON project_decisions(project_id, id)",
    "CREATE INDEX project_decisions_turn ON project_decisions(conversation_id)",
    """CREATE TABLE project_metadata (
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL,
        PRIMARY KEY (project_id, key)
    )""",
    """CREATE TABLE process_memory (
        id INTEGER PRIMARY KEY,
        context TEXT NOT NULL,
        decision TEXT NOT NULL,
        rationale TEXT NOT NULL DEFAULT '',
        outcome TEXT NOT NULL DEFAULT '',
        lessons TEXT NOT NULL DEFAULT '',
        timestamp TEXT NOT NULL
    )""",
    """CREATE TABLE agent_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL
    )""",
)


def _fts_sync(table: str, fts: str, columns: list[str], scope: bool) -> tuple[str, ...]:
    """The FTS table over `table` and the three triggers that keep it in sync."""
    fts_columns = (["scope"] if scope else []) + columns

    def values(row: str) -> str:
        cells = [f"{row}.{c}" for c in columns]
        if scope:
            cells.insert(0, f"'p' || hex({row}.project_id)")
        return ", ".join([f"{row}.id", *cells])

    names = ", ".join(fts_columns)
    insert = f"INSERT INTO {fts}(rowid, {names}) VALUES ({values('new')});"
    delete = f"INSERT INTO {fts}({fts}, rowid, {names}) VALUES ('delete', {values('old')});"
    return (
        f"CREATE VIRTUAL TABLE {fts} USING fts5({names}, {FTS_OPTIONS})",
        f"CREATE TRIGGER {table}_fts_insert AFTER INSERT ON {table} BEGIN {insert} END",
        f"CREATE TRIGGER {table}_fts_delete AFTER DELETE ON {table} BEGIN {delete} END",
        f"CREATE TRIGGER {table}_fts_update AFTER UPDATE OF {', '.join(columns)} ON {table} "
        f"BEGIN {delete} {insert} END",
    )


V1: tuple[str, ...] = (
    *V1_TABLES,
    *_fts_sync("project_files", "project_files_fts", ["filename", "content"], scope=True),
    *_fts_sync("project_decisions", "project_decisions_fts", ["decision", "rationale"], scope=True),
)

# Version 2: process memory becomes searchable ("the same for process memory").
V2: tuple[str, ...] = (
    *_fts_sync(
        "process_memory",
        "process_memory_fts",
        ["context", "decision", "rationale", "outcome", "lessons"],
        scope=False,
    ),
    """INSERT INTO process_memory_fts(rowid, context, decision, rationale, outcome, lessons)
        SELECT id, context, decision, rationale, outcome, lessons FROM process_memory""",
)

# Version 3: the model tier (fast/deep) that answered a turn gets its own column.
V3: tuple[str, ...] = ("ALTER TABLE conversations ADD COLUMN tier TEXT",)

# Version 4: a process-memory entry made in a project links to it, so deleting the project
# deletes the entry (and its index entry, by the trigger). Older entries are linked by the
# context the decisions handler wrote: the project's name, or "<name>: <task name>".
V4: tuple[str, ...] = (
    "ALTER TABLE process_memory ADD COLUMN project_id TEXT "
    "REFERENCES projects(id) ON DELETE CASCADE",
    "CREATE INDEX process_memory_project ON process_memory(project_id)",
    """UPDATE process_memory SET project_id = (
        SELECT p.id FROM projects p
        WHERE process_memory.context = p.name
           OR substr(process_memory.context, 1, length(p.name) + 2) = p.name || ': '
        ORDER BY length(p.name) DESC LIMIT 1)
    WHERE project_id IS NULL""",
)

MIGRATIONS: dict[int, tuple[str, ...]] = {1: V1, 2: V2, 3: V3, 4: V4}
LATEST_VERSION = max(MIGRATIONS)
