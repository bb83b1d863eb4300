"""design-agent's memory: projects, conversations, files, decisions and agent memory
in one SQLite file with full-text search. Use the `Memory` facade."""

from __future__ import annotations

from design_agent.memory.export import ProjectExport
from design_agent.memory.facade import Memory, utc_now
from design_agent.memory.models import (
    AddedFile,
    Decision,
    DeletionReport,
    FileInfo,
    ProcessMemory,
    Project,
    ProjectContext,
    ProjectFile,
    ProjectHits,
    ProjectSummary,
    ScoredDecision,
    ScoredProcessMemory,
    SearchHit,
    SearchResults,
    Turn,
)

__all__ = [
    "AddedFile",
    "Decision",
    "DeletionReport",
    "FileInfo",
    "Memory",
    "ProcessMemory",
    "Project",
    "ProjectContext",
    "ProjectExport",
    "ProjectFile",
    "ProjectHits",
    "ProjectSummary",
    "ScoredDecision",
    "ScoredProcessMemory",
    "SearchHit",
    "SearchResults",
    "Turn",
    "utc_now",
]
