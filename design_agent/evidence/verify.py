"""Every quote of an answer checked against the stored segments (issue 29's rules):

1. under six words, or a moderator's words: not evidence;
2. the cited segment holds it (exact, elided pieces in order, or fuzzy >= 92): verified;
3. else the whole project is searched: found elsewhere (>= 92) = misattributed, re-pointed
   to the segment that holds it;
4. else a fuzzy 85-92 in the cited segment: "check"; below: unsupported, removed from the
   answer's evidence.

Counts are computed from the verified citations (distinct participants per theme,
moderators excluded), never taken from the model, and a coverage line says which sessions
were cited and which were not."""

from __future__ import annotations

from collections.abc import Sequence

from design_agent.core.evidence import (
    Coverage,
    EvidenceReport,
    EvidenceSegment,
    EvidenceSession,
    QuoteCheck,
    ThemeCount,
)
from design_agent.core.messages import say
from design_agent.evidence.matching import Match, match, span, words
from design_agent.evidence.quotes import Quote, quotes_in, when
from design_agent.memory.evidence_store import EvidenceStore

VERIFIED = 92.0
CHECK = 85.0
MIN_WORDS = 6
CANDIDATES = 50
COUNTED = ("verified", "misattributed")


def check_answer(store: EvidenceStore, project_id: str, answer: str) -> EvidenceReport | None:
    """The evidence report of `answer` (None when it quotes nothing and the project has no
    evidence to cover)."""
    found = quotes_in(answer)
    sessions = store.sessions(project_id)
    if not found and not sessions:
        return None
    cited = store.by_code(project_id, [q.cited for q in found if q.cited])
    checks = [check_quote(store, project_id, q, cited.get(q.cited or "")) for q in found]
    # A quote that cites no segment and is found nowhere claims to be no one's words (a
    # guide's example label, a term): only quotes that cite a segment can be "removed".
    checks = [c for c in checks if c.cited or c.status != "unsupported"]
    total = store.participants(project_id)
    return EvidenceReport(
        quotes=checks,
        themes=theme_counts(checks, total),
        coverage=coverage(sessions, checks),
        participants_total=len(total),
        removed=sum(c.status == "unsupported" for c in checks),
    )


def check_quote(
    store: EvidenceStore, project_id: str, quote: Quote, cited: EvidenceSegment | None
) -> QuoteCheck:
    """One quote against the segment it cites, then against the whole project."""
    if words(quote.text) < MIN_WORDS:
        return _result(quote, cited, None, "not_evidence", 0.0, "under six words")
    here = match(quote.text, cited.text) if cited else Match(0.0, "none")
    if cited is not None and here.score >= VERIFIED:
        return _found(quote, cited, cited, "verified", here.score)
    elsewhere, there = _search(store, project_id, quote, cited)
    if elsewhere is not None and there.score >= VERIFIED:
        status = "misattributed" if cited is None or elsewhere.code != cited.code else "verified"
        return _found(quote, elsewhere, cited, status if quote.cited else "verified", there.score)
    if cited is not None and here.score >= CHECK:
        return _found(quote, cited, cited, "check", here.score)
    reason = "not found in any session" if quote.cited is None or cited else "no such segment"
    return _result(quote, cited, None, "unsupported", max(here.score, there.score), reason)


def _search(
    store: EvidenceStore, project_id: str, quote: Quote, cited: EvidenceSegment | None
) -> tuple[EvidenceSegment | None, Match]:
    best: tuple[EvidenceSegment | None, Match] = (None, Match(0.0, "none"))
    for hit in store.search(project_id, quote.text, CANDIDATES):
        if cited is not None and hit.segment.code == cited.code:
            continue
        found = match(quote.text, hit.segment.text)
        if found.score > best[1].score:
            best = (hit.segment, found)
            if found.score >= 100.0:
                break
    return best


def _found(
    quote: Quote,
    source: EvidenceSegment,
    cited: EvidenceSegment | None,
    status: str,
    score: float,
) -> QuoteCheck:
    if source.role == "moderator":
        return _result(quote, cited, source, "not_evidence", score, "the moderator's words")
    reason = f"cited {quote.cited}, said in {source.code}" if status == "misattributed" else ""
    return _result(quote, cited, source, status, score, reason)


def _result(
    quote: Quote,
    cited: EvidenceSegment | None,
    source: EvidenceSegment | None,
    status: str,
    score: float,
    reason: str = "",
) -> QuoteCheck:
    return QuoteCheck(
        quote=quote.text,
        text=span(quote.text, source.text) if source else "",
        segment=source.code if source else None,
        cited=quote.cited,
        participant=source.participant if source else None,
        when=when(source.start) if source and source.start is not None else None,
        session=source.session if source else None,
        status=status,  # type: ignore[arg-type]
        score=round(score, 1),
        theme=quote.theme,
        reason=reason,
    )


def theme_counts(checks: Sequence[QuoteCheck], total: Sequence[str]) -> list[ThemeCount]:
    """Per theme (in the answer's order): the distinct participants of its verified quotes,
    out of the project's interview participants; a theme with none is interpretation."""
    people = set(total)
    themes = list(dict.fromkeys(c.theme for c in checks if c.theme))
    out = []
    for theme in themes:
        mine = [c for c in checks if c.theme == theme and c.status != "not_evidence"]
        said = sorted(
            {c.participant for c in mine if c.status in COUNTED and c.participant in people},
            key=lambda p: int(p[1:]),
        )
        verified = sum(c.status in COUNTED for c in mine)
        out.append(
            ThemeCount(
                theme=theme,
                participants=said,
                count=len(said),
                total=len(people),
                quotes=verified,
                interpretation=verified == 0,
            )
        )
    return out


def coverage(sessions: Sequence[EvidenceSession], checks: Sequence[QuoteCheck]) -> Coverage:
    """Which sessions the verified quotes come from, and which were not cited."""
    cited = {c.session for c in checks if c.status in COUNTED and c.session}
    codes = [s.code for s in sessions]
    used = [c for c in codes if c in cited]
    left = [c for c in codes if c not in cited]
    line = f"Coverage: {len(used)} of {len(codes)} sessions cited"
    line += f" ({', '.join(used)})" if used else ""
    line += f"; not cited: {', '.join(left)}" if left else ""
    return Coverage(cited=used, not_cited=left, line=line)


def coverage_line(report: EvidenceReport, language: str) -> str:
    """Which sessions were cited and which were not, in `language`."""
    found = report.coverage
    if found is None:
        return ""
    total = len(found.cited) + len(found.not_cited)
    cited = f" ({', '.join(found.cited)})" if found.cited else ""
    left = say("evidence_not_cited", language, codes=", ".join(found.not_cited))
    return say(
        "evidence_coverage",
        language,
        used=len(found.cited),
        total=total,
        cited=cited,
        left=left if found.not_cited else "",
    )
