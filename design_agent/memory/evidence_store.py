"""`Memory.evidence`: a project's research evidence behind one object (memory/evidence.py
holds the SQL)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from design_agent.core.evidence import (
    AddedEvidence,
    EvidenceSegment,
    EvidenceSession,
    Parsed,
    SegmentHit,
    SurveyQuestion,
)
from design_agent.memory import evidence
from design_agent.memory.connection import Connection
from design_agent.memory.db import transaction


class EvidenceStore:
    """Sessions, speakers, segments and survey rows of the memory's projects."""

    def __init__(self, db: Connection, now: Callable[[], str]) -> None:
        self.db, self._now = db, now

    def add(self, project_id: str, parsed: Parsed, sha256: str) -> AddedEvidence:
        """Store one parsed file (or find the same bytes already stored)."""
        return evidence.add(self.db, project_id, parsed, sha256, self._now())

    def add_all(self, project_id: str, files: Sequence[tuple[Parsed, str]]) -> list[AddedEvidence]:
        """Store several parsed files in one transaction: all of them, or none."""
        with transaction(self.db):
            return [self.add(project_id, parsed, sha) for parsed, sha in files]

    def sessions(self, project_id: str) -> list[EvidenceSession]:
        return evidence.sessions(self.db, project_id)

    def session(self, project_id: str, code: str) -> EvidenceSession:
        """A session by code (S03, 3) or file name; NotFoundError naming the codes."""
        return evidence.get_session(self.db, project_id, code)

    def remove(self, project_id: str, code: str) -> EvidenceSession:
        return evidence.remove(self.db, project_id, code)

    def segments(self, session_id: int) -> list[EvidenceSegment]:
        return evidence.segments_of(self.db, session_id)

    def by_code(self, project_id: str, codes: Sequence[str]) -> dict[str, EvidenceSegment]:
        return evidence.segments_by_code(self.db, project_id, codes)

    def search(self, project_id: str, query: str, limit: int = 50) -> list[SegmentHit]:
        """The best `limit` segments for `query` in one project, with snippets."""
        return evidence.search(self.db, project_id, query, limit)

    def survey(self, session_id: int) -> tuple[list[SurveyQuestion], list[dict[str, Any]]]:
        return evidence.survey(self.db, session_id)

    def participants(self, project_id: str, kind: str = "interview") -> list[str]:
        return evidence.participants(self.db, project_id, kind)

    def names(self, project_id: str) -> dict[str, str]:
        return evidence.names(self.db, project_id)
