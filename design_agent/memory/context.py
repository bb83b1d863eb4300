"""The project context bundle: everything one turn needs, read in one snapshot."""

from __future__ import annotations

from design_agent.core.errors import UsageError
from design_agent.memory import conversations, decisions, files, metadata, projects, tree
from design_agent.memory.connection import Connection
from design_agent.memory.db import snapshot
from design_agent.memory.models import ProjectContext


def load(
    db: Connection,
    project_id: str,
    turns: int = 10,
    decision_count: int = 10,
    node_id: int | None = None,
) -> ProjectContext:
    """Metadata, briefs, the latest decisions and the last `turns` turns of a project.

    At a node of the tree (`node_id`), the turns are the last ones on the path to it and
    the decisions those made so far there: never a sibling branch's."""
    with snapshot(db):
        if node_id is None:
            recent = conversations.recent(db, project_id, turns)
            decided = decisions.listing(db, project_id, decision_count)
        else:
            recent = tree.path_to(db, node_id, turns)
            decided = decisions.on_path(db, node_id, decision_count)
        if recent and recent[-1].project_id != project_id:
            raise UsageError(f"turn {node_id} is not a turn of project '{project_id}'")
        return ProjectContext(
            project=projects.get(db, project_id),
            metadata=metadata.get_all(db, project_id),
            briefs=files.of_type(db, project_id, "brief"),
            decisions=decided,
            recent_turns=recent,
        )
