"""The models of research evidence at every boundary: what a parser reads from a file, what
the memory stores and returns, and what the check of an answer's quotes reports (events,
`ask --json`, the report). Parsers live in design_agent/evidence/, storage in memory/."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["participant", "moderator"]
SessionKind = Literal["interview", "survey", "reviews"]
QuoteStatus = Literal["verified", "check", "misattributed", "unsupported", "not_evidence"]
QuestionKind = Literal["nps", "sus", "likert", "rating", "choice", "multi", "text", "meta"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ParsedSegment(Frozen):
    """One speaker turn as read from a file: who, when (seconds from the start, if the file
    says), what."""

    speaker: str
    start: float | None = None
    text: str
    line: int | None = None  # where it starts in the file (for messages)


class SurveyQuestion(Frozen):
    """One question of a survey export: its column(s) and what kind of answers it takes."""

    key: str  # the column id (Qualtrics' Q3_1), else the question text
    text: str
    kind: QuestionKind
    options: list[str] = Field(default_factory=list)  # a checkbox question's columns / a scale
    columns: list[int] = Field(default_factory=list)


class Parsed(Frozen):
    """What one file holds: a transcript's turns, or a survey's questions and rows (a
    survey's open answers and a reviews file's texts are turns too: quotable evidence)."""

    source: str  # the file name
    format: str  # zoom_vtt, teams_vtt, teams_docx, meet_docx, srt, otter_txt, markdown, ...
    kind: SessionKind
    title: str
    segments: list[ParsedSegment] = Field(default_factory=list)
    moderators: list[str] = Field(default_factory=list)
    questions: list[SurveyQuestion] = Field(default_factory=list)
    rows: list[dict[str, Any]] = Field(default_factory=list)
    language: str = ""


class EvidenceSession(Frozen):
    """A stored session: an interview, a survey or a reviews file."""

    id: int
    project_id: str
    code: str  # S03
    title: str
    source: str
    format: str
    kind: SessionKind
    language: str
    added_at: str
    segments: int = 0
    participants: list[str] = Field(default_factory=list)
    responses: int = 0
    sha256: str = ""


class EvidenceSpeaker(Frozen):
    id: int
    session_id: int
    name: str
    role: Role
    participant: str  # P3 (moderators: M1)


class EvidenceSegment(Frozen):
    """One stored speaker turn: `code` is its stable id (S03.T047)."""

    id: int
    session_id: int
    session: str  # S03
    code: str
    seq: int
    speaker: str  # the name as the file gave it
    participant: str  # P3, or M1 for a moderator
    role: Role
    start: float | None
    text: str
    language: str = ""


class SegmentHit(Frozen):
    """A segment found by search, with a snippet around the words."""

    segment: EvidenceSegment
    score: float
    snippet: str


class AddedEvidence(Frozen):
    """What `evidence add` stored (or found already there)."""

    session: EvidenceSession
    duplicate: bool = False


class QuoteCheck(Frozen):
    """One quote of an answer, checked against the stored segments."""

    quote: str  # as the answer wrote it
    text: str  # as found in the source ("" when not found)
    segment: str | None  # the segment it comes from (re-pointed when misattributed)
    cited: str | None  # the segment the answer cited
    participant: str | None
    when: str | None  # "12:04"
    session: str | None
    status: QuoteStatus
    score: float
    theme: str = ""
    reason: str = ""


class ThemeCount(Frozen):
    """A theme of the answer: how many distinct participants its verified quotes come from."""

    theme: str
    participants: list[str]
    count: int
    total: int
    quotes: int
    interpretation: bool  # no verified quote: the model's interpretation


class Coverage(Frozen):
    """Which sessions a synthesis cited, and which it did not."""

    cited: list[str]
    not_cited: list[str]
    line: str


class EvidenceReport(Frozen):
    """The check of one answer's evidence: every quote, the counts, the coverage."""

    quotes: list[QuoteCheck]
    themes: list[ThemeCount] = Field(default_factory=list)
    coverage: Coverage | None = None
    participants_total: int = 0
    removed: int = 0

    def counts(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for quote in self.quotes:
            found[quote.status] = found.get(quote.status, 0) + 1
        return found


class EvidenceAnswers(Frozen):
    """What the person said about the files of one `evidence add` so far (asked in
    conversation): kept for the rest of the folder, so a name said once is not asked again."""

    # file -> the speaker said to moderate it; the name moderates the folder's other files
    # it speaks in, unless they were answered themselves
    moderator_of: dict[str, str] = Field(default_factory=dict)
    no_moderator: list[str] = Field(default_factory=list, max_length=500)  # files with none
    mappings: dict[str, dict[str, str]] = Field(default_factory=dict)  # header key -> columns
    notes: list[str] = Field(default_factory=list, max_length=500)  # unlabelled: one person's
    skipped: list[str] = Field(default_factory=list, max_length=500)  # files left out
