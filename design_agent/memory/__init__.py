"""design-agent's memory: projects, conversations (a tree of turns, with the project state
at each node), files, decisions and agent memory, with full-text search, in one database:
the home's SQLite file, or a team's PostgreSQL (memory/postgres/, loaded only then). Use
the `Memory` facade; it is the same on both."""

from __future__ import annotations

from design_agent.memory.facade import Memory, utc_now
from design_agent.memory.models import (
    AddedFile,
    Branch,
    Decision,
    DeletionReport,
    FileInfo,
    ProcessMemory,
    Project,
    ProjectContext,
    ProjectFile,
    ProjectHits,
    ProjectState,
    ProjectSummary,
    Proposal,
    ScoredDecision,
    ScoredProcessMemory,
    SearchHit,
    SearchResults,
    StateDecision,
    TreeLine,
    TreeNode,
    Turn,
)

__all__ = [
    "AddedFile",
    "Branch",
    "Decision",
    "DeletionReport",
    "FileInfo",
    "Memory",
    "ProcessMemory",
    "Project",
    "ProjectContext",
    "ProjectFile",
    "ProjectHits",
    "ProjectState",
    "ProjectSummary",
    "Proposal",
    "ScoredDecision",
    "ScoredProcessMemory",
    "SearchHit",
    "SearchResults",
    "StateDecision",
    "TreeLine",
    "TreeNode",
    "Turn",
    "utc_now",
]
