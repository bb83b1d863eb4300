"""The project context bundle: everything one turn needs, read in one snapshot."""

from __future__ import annotations

import sqlite_utils

from design_agent.memory import conversations, decisions, files, metadata, projects
from design_agent.memory.db import snapshot
from design_agent.memory.models import ProjectContext


def load(
    db: sqlite_utils.Database, project_id: str, turns: int = 10, decision_count: int = 10
) -> ProjectContext:
    """Metadata, briefs, the latest decisions and the last `turns` turns of a project."""
    with snapshot(db):
        return ProjectContext(
            project=projects.get(db, project_id),
            metadata=metadata.get_all(db, project_id),
            briefs=files.of_type(db, project_id, "brief"),
            decisions=decisions.listing(db, project_id, decision_count),
            recent_turns=conversations.recent(db, project_id, turns),
        )
