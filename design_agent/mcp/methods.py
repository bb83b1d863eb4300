"""The method tools: find_method, method_brief, review_answer.

They answer from the catalogue, the guides and the checks, with the same matcher, prompt
builder and review as a turn: a host agent finds the method design-agent would pick, reads
what design-agent would send a model for it, and gets its draft reviewed as a turn's answer
is.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from design_agent.core.checklist import CheckItem
from design_agent.core.evidence import EvidenceReport
from design_agent.mcp.brief import branch_context, build_brief
from design_agent.mcp.call import Call, Strict, ToolResult, clip
from design_agent.mcp.tools import tool
from design_agent.turn.review import reviewed
from design_agent.understanding.language import detect_language
from design_agent.understanding.overlap import shared_words

Language = Literal["en", "es"]
Verbosity = Literal["brief", "normal", "detailed"]
SHOWN = 3  # methods find_method returns
MethodId = Field(min_length=1, max_length=120, description="A method id from find_method.")


class FindMethod(Strict):
    request: str = Field(
        min_length=1, max_length=20_000, description="What the person needs, in their words."
    )
    language: Language | None = Field(
        default=None, description="Language of the names returned (default: the request's)."
    )


class FoundMethod(ToolResult):
    method_id: str
    name: str
    score: float
    band: str
    why: list[str] = Field(description="the request's words the method is known by")
    description: str


class FoundMethods(ToolResult):
    language: str
    methods: list[FoundMethod]
    next: str = Field(description="what to do with this result")

    def as_text(self) -> str:
        rows = [
            f"{n}. {m.method_id}: {m.name} ({m.band} {m.score:g}"
            + (f"; matches {', '.join(m.why)}" if m.why else "")
            + f"): {m.description}"
            for n, m in enumerate(self.methods, 1)
        ]
        return "\n".join([*rows, self.next] if rows else [self.next])


@tool(
    "find_method",
    FindMethod,
    FoundMethods,
    "read",
    "Find the design method (of 90+) that fits a request; then call method_brief with its id.",
)
def find_method(args: FindMethod, call: Call) -> FoundMethods:
    catalogue, matcher = call.catalogue, call.matcher
    result = matcher.match(args.request, limit=SHOWN)
    language = args.language or result.language
    found = [
        FoundMethod(
            method_id=c.task_id,
            name=catalogue.tasks[c.task_id].name.get(language),
            score=c.score,
            band=c.band,
            why=shared_words(result.keywords, catalogue.tasks[c.task_id]),
            description=clip(catalogue.tasks[c.task_id].description_in(language), 160),
        )
        for c in result.candidates
    ]
    return FoundMethods(language=language, methods=found, next=_next(found, result.needs_choice))


def _next(found: list[FoundMethod], choose: bool) -> str:
    if not found:
        return "No method fits; ask the person what deliverable they need."
    if choose and len(found) > 1:
        names = " or ".join(f"{m.name} ({m.method_id})" for m in found[:2])
        return f"Not clear-cut: ask the person whether they mean {names}."
    return f"Use {found[0].method_id}: call method_brief with method_id '{found[0].method_id}'."


class MethodBriefInput(Strict):
    method_id: str = MethodId
    language: Language | None = Field(
        default=None, description="Language of the brief (default: the `language` setting)."
    )
    verbosity: Verbosity = Field(
        default="brief", description="Length of the deliverable to write (default: brief)."
    )


class MethodBrief(ToolResult):
    method_id: str
    name: str
    persona: str
    language: str
    verbosity: str
    project: str
    outline: list[str] = Field(description="the deliverable's parts, in order")
    needs: list[str] = Field(description="facts the project lacks: ask once, or assume")
    checks: list[str] = Field(description="what review_answer will check")
    sections: list[str] = Field(description="guide sections included, as citations")
    tokens: int
    brief: str = Field(description="persona, guide, examples, project, instructions")

    def as_text(self) -> str:
        head = [
            f"Method: {self.name} ({self.method_id}), as {self.persona}; project "
            f"'{self.project}'. Write the deliverable by the instructions below, citing "
            "sections as [guide.md > Heading]; then call review_answer with the draft.",
            "Where the instructions mention <decision> or <ask_user> tags, ask the person "
            "instead, and call record_decision with what they decide and why.",
            f"Checks: {'; '.join(self.checks)}.",
        ]
        return "\n".join(head) + "\n\n" + self.brief


@tool(
    "method_brief",
    MethodBriefInput,
    MethodBrief,
    "read",
    "Load a method's brief (guide, examples, outline, project facts, checks) before writing.",
)
def method_brief(args: MethodBriefInput, call: Call) -> MethodBrief:
    services = call.services
    task = call.catalogue.task(args.method_id)
    project = call.project(None, "read")
    language = call.language(args.language)
    brief = build_brief(services, task, project, language, args.verbosity)
    return MethodBrief(
        method_id=task.id,
        name=task.name.get(language),
        persona=brief.agent.role.get(language),
        language=language,
        verbosity=args.verbosity,
        project=project.name,
        outline=task.outline(language),
        needs=brief.needs(),
        checks=brief.checks(),
        sections=[s.citation for s in brief.assembled.sections],
        tokens=brief.assembled.total_tokens - brief.assembled.tokens["request"],
        brief=brief.text(),
    )


class ReviewAnswer(Strict):
    method_id: str = MethodId
    answer: str = Field(
        min_length=1, max_length=2_000_000, description="The draft deliverable, in markdown."
    )
    project: str | None = Field(default=None, description="Project name (default: the active one).")


class Item(ToolResult):
    id: str
    label: str
    detail: str = ""


class Quote(ToolResult):
    text: str = Field(description="as found in the source ('' when not found)")
    quote: str = Field(description="as the draft wrote it")
    segment: str | None = Field(description="the segment it comes from (S03.T047)")
    cited: str | None = Field(description="the segment the draft cited")
    participant: str | None
    when: str | None
    status: str = Field(description="verified, check, misattributed, unsupported, not_evidence")


class EvidenceCheck(ToolResult):
    quotes: list[Quote]
    removed: int = Field(description="quotes found in no source: drop them from the draft")
    lines: list[str] = Field(description="the check in words, as a turn shows it")


class Review(ToolResult):
    method_id: str
    project: str
    language: str
    score: str = Field(description="items passed / items assessed")
    failed: list[Item]
    passed: list[str]
    invalid_citations: list[str]
    summary: str
    evidence: EvidenceCheck | None = Field(
        default=None, description="the draft's quotes checked against the project's evidence"
    )

    def as_text(self) -> str:
        lines = [f"Review of {self.method_id} for '{self.project}': {self.summary}."]
        lines += [f"- fix: {i.label}" + (f" ({i.detail})" if i.detail else "") for i in self.failed]
        lines += [f"- unknown citation: {c}" for c in self.invalid_citations]
        if self.evidence is not None:
            lines += ["", *self.evidence.lines]
        return "\n".join(lines)


@tool(
    "review_answer",
    ReviewAnswer,
    Review,
    "read",
    "Review a draft deliverable as design-agent reviews its own answers; fix what it names.",
)
def review_answer(args: ReviewAnswer, call: Call) -> Review:
    services = call.services
    task = call.catalogue.task(args.method_id)
    project = call.project(args.project, "read")
    language = detect_language(args.answer)
    context = branch_context(services.memory, project)
    # Every section of the method's guides, in both languages: the host could read any of
    # them (method_brief, the guide resources), so only a citation of none is unknown.
    sent = call.knowledge.known_citations(task)
    found, report = reviewed(
        services.memory, project.id, args.answer, task, language, context, sent, False,
        call.knowledge.headings_of,
    )  # fmt: skip
    failed = [i for i in found.items if i.assessed and not i.passed]
    return Review(
        method_id=task.id,
        project=project.name,
        language=language,
        score=found.score,
        failed=[_item(i) for i in failed],
        passed=[i.label for i in found.items if i.assessed and i.passed],
        invalid_citations=found.invalid_citations,
        summary=found.summary(),
        evidence=_evidence(report, language),
    )


def _evidence(report: EvidenceReport | None, language: str) -> EvidenceCheck | None:
    if report is None or not report.quotes:
        return None
    from design_agent.turn.evidence import report_lines

    quotes = [
        Quote(text=q.text, quote=q.quote, segment=q.segment, cited=q.cited,
              participant=q.participant, when=q.when, status=q.status)
        for q in report.quotes
    ]  # fmt: skip
    return EvidenceCheck(
        quotes=quotes, removed=report.removed, lines=report_lines(report, language)
    )


def _item(item: CheckItem) -> Item:
    return Item(id=item.id, label=item.label, detail=item.detail)
