"""The evidence block of a research method's prompt.

- whole sessions, when every interview fits the provider's context (about 6-8 one-hour
  interviews in a 200k-token window);
- the top retrieved segments, when the request asks about something ("what did
  participants say about booking?") and the sessions do not fit;
- otherwise two stages through the same provider: highlights per session first
  (`highlight_prompt`), then the synthesis across those highlights.

Survey statistics go in as computed facts. Each segment is one line, `S03.T047 P3 12:04:
text`, so the model can cite and quote it; names become participant ids when
`evidence.anonymise` is on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from design_agent.core.evidence import EvidenceSegment, EvidenceSession
from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import estimate_tokens, words
from design_agent.evidence.anonymise import anonymise
from design_agent.evidence.facts import survey_lines
from design_agent.evidence.quotes import when
from design_agent.evidence.stats import survey_stats
from design_agent.memory.evidence_store import EvidenceStore

Mode = Literal["whole", "retrieved", "two_stage", "survey"]
QUESTION_WORDS = LexiconWords("evidence_question_words")
RETRIEVED = 50


@dataclass(frozen=True)
class EvidencePlan:
    """What the evidence block holds, before any provider call."""

    mode: Mode
    sessions: list[EvidenceSession]
    segments: dict[str, list[EvidenceSegment]] = field(default_factory=dict)
    facts: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)

    def render(self, highlights: dict[str, str] | None = None) -> str:
        """The block's body: the facts, then each session's lines (or its highlights)."""
        parts = [line for line in self.facts]
        for session in self.sessions:
            if session.kind == "survey" and not self.segments.get(session.code):
                continue
            head = (
                f'<session id="{session.code}" source="{session.source}" '
                f'participants="{" ".join(session.participants[:40])}">'
            )
            if highlights is not None:
                body = highlights.get(session.code, "")
            else:
                body = "\n".join(line(s) for s in self.segments.get(session.code, []))
            if body:
                parts.append(f"{head}\n{body}\n</session>")
        text = "\n".join(parts)
        return anonymise(text, self.names) if self.names else text


def line(segment: EvidenceSegment) -> str:
    """`S03.T047 P3 12:04: text` (moderators: M1)."""
    at = f" {when(segment.start)}" if segment.start is not None else ""
    text = segment.text.replace("<", "&lt;")  # quoted words never open a tag
    return f"{segment.code} {segment.participant}{at}: {text}"


def plan(
    store: EvidenceStore,
    project_id: str,
    message: str,
    budget: int,
    anonymous: bool = False,
    retrieve: bool = False,
) -> EvidencePlan | None:
    """How the project's evidence goes into a prompt of at most `budget` tokens for it
    (None: the project has none); `retrieve`: never two stages."""
    sessions = store.sessions(project_id)
    if not sessions:
        return None
    facts = survey_facts(store, sessions)
    names = store.names(project_id) if anonymous else {}
    talk = [s for s in sessions if s.segments]
    segments = {s.code: store.segments(s.id) for s in talk}
    size = sum(estimate_tokens(line(g)) for found in segments.values() for g in found)
    if not talk:
        return EvidencePlan("survey", sessions, {}, facts, names)
    if size + sum(map(estimate_tokens, facts)) <= budget:
        return EvidencePlan("whole", talk, segments, facts, names)
    if retrieve or _asks_about(message):
        kept = _retrieved(store, project_id, message, budget)
        return EvidencePlan("retrieved", [s for s in talk if s.code in kept], kept, facts, names)
    return EvidencePlan("two_stage", talk, segments, facts, names)


def _asks_about(message: str) -> bool:
    from design_agent.evidence.question import asks_evidence

    return asks_evidence(message) or bool(set(words(message)) & QUESTION_WORDS)


def _retrieved(
    store: EvidenceStore, project_id: str, message: str, budget: int
) -> dict[str, list[EvidenceSegment]]:
    kept: dict[str, list[EvidenceSegment]] = {}
    used = 0
    for hit in store.search(project_id, message, RETRIEVED):
        cost = estimate_tokens(line(hit.segment))
        if used + cost > budget:
            break
        used += cost
        kept.setdefault(hit.segment.session, []).append(hit.segment)
    return {code: sorted(found, key=lambda s: s.seq) for code, found in kept.items()}


def survey_facts(store: EvidenceStore, sessions: Sequence[EvidenceSession]) -> list[str]:
    """Each survey's statistics, computed here, as a `<facts>` block."""
    out = []
    for session in sessions:
        if session.kind != "survey":
            continue
        stats = survey_stats(*store.survey(session.id))
        body = "\n".join(survey_lines(stats))
        out.append(f'<facts session="{session.code}" source="{session.source}">\n{body}\n</facts>')
    return out


def session_text(evidence: EvidencePlan, code: str) -> str:
    """One session's lines, for its stage-one highlights."""
    session = next(s for s in evidence.sessions if s.code == code)
    body = "\n".join(line(s) for s in evidence.segments.get(code, []))
    text = f'<session id="{code}" source="{session.source}">\n{body}\n</session>'
    return anonymise(text, evidence.names) if evidence.names else text
