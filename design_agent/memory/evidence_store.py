"""`Memory.evidence`: a project's research evidence behind one object (memory/evidence.py
holds the SQL). Every call is checked against the acting person's role in the project, as
the memory's own calls are (`Memory.require`: a viewer reads, an editor adds and removes)."""

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

READ, WRITE = "viewer", "editor"


class EvidenceStore:
    """Sessions, speakers, segments and survey rows of the memory's projects."""

    def __init__(
        self, db: Connection, now: Callable[[], str], require: Callable[[str, str], None]
    ) -> None:
        self.db, self._now, self._require = db, now, require

    def add(self, project_id: str, parsed: Parsed, sha256: str) -> AddedEvidence:
        """Store one parsed file (or find the same bytes already stored)."""
        self._require(project_id, WRITE)
        return evidence.add(self.db, project_id, parsed, sha256, self._now())

    def add_all(self, project_id: str, files: Sequence[tuple[Parsed, str]]) -> list[AddedEvidence]:
        """Store several parsed files in one transaction: all of them, or none."""
        with transaction(self.db):
            return [self.add(project_id, parsed, sha) for parsed, sha in files]

    def sessions(self, project_id: str) -> list[EvidenceSession]:
        self._require(project_id, READ)
        return evidence.sessions(self.db, project_id)

    def session(self, project_id: str, code: str) -> EvidenceSession:
        """A session by code (S03, 3) or file name; NotFoundError naming the codes."""
        self._require(project_id, READ)
        return evidence.get_session(self.db, project_id, code)

    def remove(self, project_id: str, code: str) -> EvidenceSession:
        self._require(project_id, WRITE)
        return evidence.remove(self.db, project_id, code)

    def segments(self, session_id: int) -> list[EvidenceSegment]:
        """A session's segments (its id comes from `sessions` or `session`, checked there)."""
        return evidence.segments_of(self.db, session_id)

    def by_code(self, project_id: str, codes: Sequence[str]) -> dict[str, EvidenceSegment]:
        self._require(project_id, READ)
        return evidence.segments_by_code(self.db, project_id, codes)

    def search(self, project_id: str, query: str, limit: int = 50) -> list[SegmentHit]:
        """The best `limit` segments for `query` in one project, with snippets."""
        self._require(project_id, READ)
        return evidence.search(self.db, project_id, query, limit)

    def survey(self, session_id: int) -> tuple[list[SurveyQuestion], list[dict[str, Any]]]:
        """A survey session's questions and rows (its id checked where it was found)."""
        return evidence.survey(self.db, session_id)

    def participants(self, project_id: str, kind: str = "interview") -> list[str]:
        self._require(project_id, READ)
        return evidence.participants(self.db, project_id, kind)

    def names(self, project_id: str) -> dict[str, str]:
        self._require(project_id, READ)
        return evidence.names(self.db, project_id)
