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

# Version 5: the conversation becomes a tree (see tree.py, branches.py, snapshots.py).
# Every turn but a project's first gets a parent: a turn saved without one (a user's turn,
# until now) follows the turn saved just before it in its project, so an old project
# becomes one chain and its agent turns keep pointing at their questions. Every leaf
# becomes the tip of an unnamed branch. A decision is placed at the turn it was linked to;
# one without a turn stays NULL, which means "made on every path".
V5: tuple[str, ...] = (
    """UPDATE conversations SET parent_id = (
        SELECT max(p.id) FROM conversations p
        WHERE p.project_id = conversations.project_id AND p.id < conversations.id)
    WHERE parent_id IS NULL""",
    """CREATE TABLE branches (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name TEXT,
        name_key TEXT,
        tip_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        CHECK ((name IS NULL) = (name_key IS NULL)),
        UNIQUE (project_id, name_key)
    )""",
    "CREATE INDEX branches_tip ON branches(tip_id)",
    # Turns go only with their project today, but a tool that deletes a last turn should
    # not lose its line: the branch steps back to the parent (a root's goes by cascade).
    """CREATE TRIGGER branches_step_back BEFORE DELETE ON conversations
        WHEN old.parent_id IS NOT NULL
        BEGIN UPDATE branches SET tip_id = old.parent_id WHERE tip_id = old.id; END""",
    """INSERT INTO branches (project_id, tip_id, created_at)
        SELECT project_id, id, timestamp FROM conversations c
        WHERE NOT EXISTS (SELECT 1 FROM conversations k WHERE k.parent_id = c.id)
        ORDER BY id""",
    # The state the conversation builds, per node: a full keyframe, or a delta from the
    # state of the nearest ancestor that has a snapshot (see snapshots.py).
    """CREATE TABLE state_snapshots (
        node_id INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
        kind TEXT NOT NULL CHECK (kind IN ('keyframe', 'delta')),
        depth INTEGER NOT NULL CHECK (depth >= 0),
        payload TEXT NOT NULL CHECK (json_valid(payload))
    )""",
    "ALTER TABLE project_decisions ADD COLUMN node_id INTEGER "
    "REFERENCES conversations(id) ON DELETE SET NULL",
    "UPDATE project_decisions SET node_id = conversation_id WHERE conversation_id IS NOT NULL",
    "CREATE INDEX project_decisions_node ON project_decisions(node_id)",
)

# Version 6: what `design-agent usage` reports per answer, as the provider gave it: tokens in
# and out (the `tokens` column keeps their sum), and the seconds to the first token and in all,
# in milliseconds. Older turns keep NULL there: "not reported", never a guess. The partial
# index serves the budget's question before each turn: a project's cost this month.
V6: tuple[str, ...] = (
    "ALTER TABLE conversations ADD COLUMN tokens_in INTEGER",
    "ALTER TABLE conversations ADD COLUMN tokens_out INTEGER",
    "ALTER TABLE conversations ADD COLUMN first_token_ms INTEGER",
    "ALTER TABLE conversations ADD COLUMN total_ms INTEGER",
    "CREATE INDEX conversations_cost ON conversations(project_id, timestamp) "
    "WHERE cost IS NOT NULL",
)

# Version 7: decisions change as the team changes its mind, and keep their history. A
# decision is `current`, `superseded` (a newer version replaces it: that one's `replaces_id`
# names it) or `retired`; `changed_at` says when it stopped being current, `changed_node_id`
# where in the tree (only paths through that turn see the change; NULL: every path), and
# `change_reason` why it was retired. A decision is replaced at most once (the index).
V7: tuple[str, ...] = (
    "ALTER TABLE project_decisions ADD COLUMN status TEXT NOT NULL DEFAULT 'current' "
    "CHECK (status IN ('current', 'superseded', 'retired'))",
    "ALTER TABLE project_decisions ADD COLUMN replaces_id INTEGER "
    "REFERENCES project_decisions(id) ON DELETE SET NULL",
    "ALTER TABLE project_decisions ADD COLUMN changed_at TEXT",
    "ALTER TABLE project_decisions ADD COLUMN changed_node_id INTEGER "
    "REFERENCES conversations(id) ON DELETE SET NULL",
    "ALTER TABLE project_decisions ADD COLUMN change_reason TEXT NOT NULL DEFAULT ''",
    "CREATE UNIQUE INDEX project_decisions_replaces ON project_decisions(replaces_id) "
    "WHERE replaces_id IS NOT NULL",
    "CREATE INDEX project_decisions_changed_node ON project_decisions(changed_node_id)",
)

# Version 8: each searchable row keeps the language it is written in: "en", "es", or "" when
# its words do not tell (text.guess_language). PostgreSQL indexes a row with its language's
# stemmer (postgres/schema.py has the same version 8), and `db copy` carries it both ways.
# The rows already here get theirs now: guess_language is an SQL function on every
# connection (db.add_functions). Setting `language` alone fires none of the index triggers.
LANGUAGE_OF: dict[str, str] = {
    "conversations": "message",
    "project_files": "content",
    "project_decisions": "decision || ' ' || rationale",
    "process_memory": "context || ' ' || decision || ' ' || rationale || ' ' || outcome "
    "|| ' ' || lessons",
}
V8: tuple[str, ...] = (
    *(f"ALTER TABLE {table} ADD COLUMN language TEXT NOT NULL DEFAULT ''" for table in LANGUAGE_OF),
    *(
        f"UPDATE {table} SET language = guess_language({text})"
        for table, text in LANGUAGE_OF.items()
    ),
)

# Version 9: a team (issue 28 §2). People, each with a name (its folded key unique), an
# argon2id password hash once their invite is used, and a flag for an instance admin;
# people are disabled, never deleted, so authorship and the audit log keep their names.
# A project's members, each with one role; the turns, files and decisions each person
# made (author_id; NULL: made in a one-person home, before accounts). Credentials are
# stored as SHA-256 hashes of random tokens: invites (single use, with an expiry),
# sessions (the page's cookie) and personal API tokens. The audit log only ever grows:
# triggers refuse to change or delete a row of it (`db copy --replace` sets them aside
# inside its own transaction). A deleted project's entries stay (no foreign key).
V9: tuple[str, ...] = (
    """CREATE TABLE people (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
        password_hash TEXT,
        created_at TEXT NOT NULL,
        disabled_at TEXT
    )""",
    """CREATE TABLE project_members (
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
        added_at TEXT NOT NULL,
        PRIMARY KEY (project_id, person_id)
    )""",
    "CREATE INDEX project_members_person ON project_members(person_id)",
    *(
        f"ALTER TABLE {table} ADD COLUMN author_id INTEGER REFERENCES people(id) ON DELETE SET NULL"
        for table in ("conversations", "project_files", "project_decisions")
    ),
    """CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        person_id INTEGER,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        project_id TEXT,
        detail TEXT NOT NULL CHECK (json_valid(detail))
    )""",
    "CREATE INDEX audit_log_project ON audit_log(project_id, id)",
    """CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END""",
    """CREATE TABLE api_tokens (
        id INTEGER PRIMARY KEY,
        person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        label TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        revoked_at TEXT
    )""",
    "CREATE INDEX api_tokens_person ON api_tokens(person_id)",
    """CREATE TABLE invites (
        token_hash TEXT PRIMARY KEY,
        person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
    )""",
    "CREATE INDEX invites_person ON invites(person_id)",
    """CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        person_id INTEGER NOT NULL REFERENCES people(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
    )""",
    "CREATE INDEX sessions_person ON sessions(person_id)",
)
# The triggers that keep the audit log append-only (set aside by `db copy --replace`).
AUDIT_GUARDS = ("audit_log_no_update", "audit_log_no_delete")

# Version 10: research evidence (design_agent/evidence/). A session is one file (an
# interview, a survey export, a reviews file) with its code (S03, never reused in its
# project: evidence_counters); a speaker is a participant (P3, or R12 for a survey's
# respondent, C4 for a review's author) or a moderator (M1), one code per name across the
# project's sessions; a segment is one speaker turn with its stable id (S03.T047), its time
# and its text, searched by FTS5 in the project's own evidence_fts_<search_key> (made with
# the project, search_index.py, or at a project's first evidence); a survey's rows are kept
# as JSON answers keyed by question (the questions are the session's).
EVIDENCE_TABLES: tuple[str, ...] = (
    """CREATE TABLE evidence_sessions (
        id INTEGER PRIMARY KEY,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        code TEXT NOT NULL,
        title TEXT NOT NULL,
        source TEXT NOT NULL,
        format TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('interview', 'survey', 'reviews')),
        language TEXT NOT NULL DEFAULT '',
        sha256 TEXT NOT NULL,
        questions TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(questions)),
        added_at TEXT NOT NULL,
        UNIQUE (project_id, sha256),
        UNIQUE (project_id, code)
    )""",
    """CREATE TABLE evidence_speakers (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES evidence_sessions(id) ON DELETE CASCADE,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('participant', 'moderator')),
        participant TEXT NOT NULL,
        UNIQUE (session_id, name_key)
    )""",
    "CREATE INDEX evidence_speakers_project ON evidence_speakers(project_id, name_key)",
    """CREATE TABLE evidence_segments (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES evidence_sessions(id) ON DELETE CASCADE,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        speaker_id INTEGER NOT NULL REFERENCES evidence_speakers(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        code TEXT NOT NULL,
        start_seconds REAL,
        text TEXT NOT NULL,
        language TEXT NOT NULL DEFAULT '',
        UNIQUE (project_id, code)
    )""",
    "CREATE INDEX evidence_segments_session ON evidence_segments(session_id, seq)",
    "CREATE INDEX evidence_segments_speaker ON evidence_segments(speaker_id)",
    """CREATE TABLE evidence_responses (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES evidence_sessions(id) ON DELETE CASCADE,
        project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        respondent TEXT NOT NULL,
        answers TEXT NOT NULL CHECK (json_valid(answers))
    )""",
    "CREATE INDEX evidence_responses_session ON evidence_responses(session_id, id)",
    """CREATE TABLE evidence_counters (
        project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        next_session INTEGER NOT NULL
    )""",
)
V10: tuple[str, ...] = EVIDENCE_TABLES
# Version 11 is PostgreSQL's evidence index scoped by project (postgres/schema.py V11);
# SQLite's evidence search is each project's own FTS5 index already: nothing changes here.
V11: tuple[str, ...] = ()

MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: V1,
    2: V2,
    3: V3,
    4: V4,
    5: V5,
    6: V6,
    7: V7,
    8: V8,
    9: V9,
    10: V10,
    11: V11,
}
LATEST_VERSION = max(MIGRATIONS)


def steps(version: int, target: int) -> list[str]:
    """The migrations' statements that take a database from `version` to `target`."""
    return [statement for step in range(version + 1, target + 1) for statement in MIGRATIONS[step]]
