"""A research method's evidence in one turn: the block its prompt carries (two stages
through the same provider when the sessions do not fit), the draft groups an offline
answer shows, and, after the answer, every quote checked, counts and coverage computed.

The check reports into the answer's validation (`Validation.evidence`) and its own event
(`EvidenceChecked`), beside the review of turn/review.py, not inside it."""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from design_agent.core.checklist import CheckItem, Validation
from design_agent.core.events import EvidenceChecked, WorkDone, Working
from design_agent.core.evidence import EvidenceReport, QuoteCheck
from design_agent.core.messages import say
from design_agent.knowledge.prompt import ANSWER_RESERVE
from design_agent.knowledge.prompt_frame import frame
from design_agent.providers.request import ProviderRequest
from design_agent.providers.side_call import side_call
from design_agent.providers.text_call import run_text

if TYPE_CHECKING:
    from design_agent.core.models import Task
    from design_agent.evidence.block import EvidencePlan
    from design_agent.memory.facade import Memory
    from design_agent.providers.spec import AdapterSpec
    from design_agent.turn.types import Preferences

EVIDENCE_SHARE = 0.6  # of the prompt's budget, at most, for the evidence block
STAGE_TIMEOUT = 300.0  # seconds for one session's highlights


@dataclass(frozen=True)
class TurnEvidence:
    """What a turn's request carries of the evidence."""

    block: str = ""  # the prompt's <evidence> body
    draft: list[str] = field(default_factory=list)  # offline: the draft groups
    mode: str = ""


def evidence_for(
    memory: Memory,
    project_id: str,
    task: Task,
    message: str,
    spec: AdapterSpec,
    prefs: Preferences,
    environ: Mapping[str, str] | None = None,
    retrieve: bool = False,
) -> Generator[Working | WorkDone, None, TurnEvidence]:
    """The evidence a research method's request carries (nothing for other methods);
    `retrieve`: never two stages (no provider call), the best segments for the request."""
    if task.evidence is None:
        return TurnEvidence()
    if spec.is_offline:
        from design_agent.evidence.draft import draft_blocks

        return TurnEvidence(
            draft=draft_blocks(memory.evidence, project_id, message, prefs.language), mode="draft"
        )
    from design_agent.evidence.block import plan

    budget = int(spec.context_limit * (1 - ANSWER_RESERVE) * EVIDENCE_SHARE)
    anonymous = prefs.settings.evidence.anonymise
    found = plan(memory.evidence, project_id, message, budget, anonymous, retrieve)
    if found is None:
        return TurnEvidence()
    if found.mode != "two_stage":
        return TurnEvidence(block=found.render(), mode=found.mode)
    highlights = yield from side_call(
        "reading_evidence",
        prefs.language,
        lambda: _highlights(found, message, spec, prefs, environ),
        spec.display_name,
        STAGE_TIMEOUT * len(found.sessions),
    )
    return TurnEvidence(block=found.render(highlights), mode="two_stage")


def evidence_now(
    memory: Memory,
    project_id: str,
    task: Task,
    message: str,
    spec: AdapterSpec,
    prefs: Preferences,
) -> TurnEvidence:
    """The evidence without any provider call (a prompt preview, a comparison): when the
    sessions do not fit, the segments retrieved for the request instead of two stages."""
    events = evidence_for(memory, project_id, task, message, spec, prefs, retrieve=True)
    while True:
        try:
            next(events)
        except StopIteration as done:
            found: TurnEvidence = done.value
            return found


def _highlights(
    found: EvidencePlan,
    message: str,
    spec: AdapterSpec,
    prefs: Preferences,
    environ: Mapping[str, str] | None,
) -> dict[str, str]:
    """Stage one: each session's passages that matter for the request, by the provider."""
    from design_agent.evidence.block import session_text

    out: dict[str, str] = {}
    rule = frame(prefs.language)["highlights"]
    for session in found.sessions:
        prompt = (
            f"{session_text(found, session.code)}\n\n{rule}\n\n<request>\n{message}\n</request>"
        )
        request = ProviderRequest(
            prompt=prompt, tier="fast", tier_reason="evidence highlights", language=prefs.language
        )
        text = run_text(spec, request, prefs.settings, environ, STAGE_TIMEOUT)
        if text:
            out[session.code] = text.strip()
    return out


def check_evidence(
    memory: Memory, project_id: str, task: Task, answer: str, validation: Validation
) -> tuple[Validation, EvidenceReport | None]:
    """The answer's evidence checked (research methods, or any answer citing segment ids),
    added to its validation with one checklist item."""
    import re

    from design_agent.evidence.quotes import SEGMENT_ID
    from design_agent.evidence.verify import check_answer

    if task.evidence is None and not re.search(SEGMENT_ID, answer):
        return validation, None
    report = check_answer(memory.evidence, project_id, answer)
    if report is None or not report.quotes:
        return validation.model_copy(update={"evidence": report}), report
    counts = report.counts()
    item = CheckItem(
        id="evidence",
        label="quotes verified against the sources",
        passed=counts.get("verified", 0) > 0 and not report.removed,
        detail=f"{counts.get('verified', 0)}/{len(report.quotes)} verified, "
        f"{report.removed} removed",
    )
    items = [*validation.items, item]
    return validation.model_copy(update={"evidence": report, "items": items}), report


def evidence_event(report: EvidenceReport, language: str, ms: float) -> EvidenceChecked:
    return EvidenceChecked(step=7, ms=ms, report=report, lines=report_lines(report, language))


def report_lines(report: EvidenceReport, language: str) -> list[str]:
    """The check in words: each quote as the source's own words with who and when, what
    was re-pointed or removed, the counts per theme, the coverage line."""
    counts = report.counts()
    lines = [
        say("evidence_heading", language),
        say(
            "evidence_summary",
            language,
            quotes=len(report.quotes),
            verified=counts.get("verified", 0),
            check=counts.get("check", 0),
            moved=counts.get("misattributed", 0),
            removed=report.removed,
        ),
    ]
    lines += [line for q in report.quotes if (line := quote_line(q, language))]
    if report.themes:
        lines.append(say("evidence_counts", language))
    for theme in report.themes:
        if theme.interpretation:
            lines.append(say("evidence_interpretation", language, theme=theme.theme))
        else:
            lines.append(
                say(
                    "evidence_theme",
                    language,
                    theme=theme.theme,
                    count=theme.count,
                    total=theme.total,
                    people=", ".join(theme.participants) or "-",
                )
            )
    if report.coverage is not None:
        from design_agent.evidence.verify import coverage_line

        lines.append(coverage_line(report, language))
    return lines


def quote_line(q: QuoteCheck, language: str) -> str:
    who = ", ".join(p for p in (q.participant, q.when) if p)
    if q.status == "verified":
        return say("evidence_quote", language, text=q.text, who=who, segment=q.segment)
    if q.status == "check":
        return say("evidence_check_quote", language, text=q.text, who=who, segment=q.segment)
    if q.status == "misattributed":
        return say(
            "evidence_moved", language, text=q.text, cited=q.cited, who=who, segment=q.segment
        )
    if q.status == "unsupported":
        return say("evidence_removed", language, quote=q.quote, cited=q.cited or "-")
    return say("evidence_excluded", language, quote=q.quote, reason=q.reason)
