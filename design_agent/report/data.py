"""What goes into a stakeholder report, read from memory through the Memory API.

The answers chosen by default are the latest complete answer of each method on
the conversation's current path (never a sibling branch's); `--turns` names
them by the turn numbers `history --tree` shows, where a user's turn stands for
the answer to it. Everything is validated into pydantic models here, so the
renderers only format.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.core.evidence import EvidenceReport
from design_agent.core.messages import say
from design_agent.core.numbers import turn_number
from design_agent.knowledge.registry import Catalogue
from design_agent.memory import Memory
from design_agent.memory.models import Decision, ListedDecision, Project, Turn
from design_agent.report.sources import Source, Sources
from design_agent.understanding.conversation import load_state
from design_agent.understanding.language import detect_language

CONTEXT_KEYS = ("description", "users", "problem", "constraints")
EXCERPT_CHARS = 280
MAX_TURNS = 200
# The project's latest turns whose requests tell the language it is worked in.
RECENT = 6

CheckStatus = Literal["passed", "failed", "not_assessed"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ContextItem(_Frozen):
    """One fact of the project's interview or metadata (`key` is users, problem...)."""

    key: str
    value: str


class ReportBrief(_Frozen):
    """A file added to the project: its name, type and the start of its text."""

    filename: str
    file_type: str
    excerpt: str


class ReportDecision(_Frozen):
    """A current decision; `branch` says where in the tree it was made (when the
    conversation has branches), `replaces` the version it replaced and when."""

    decision: str
    rationale: str
    timestamp: datetime
    branch: str = ""
    replaces: str = ""
    author: str = ""  # who recorded it (a team's database)


class CheckItem(_Frozen):
    """One item of an answer's stored review."""

    id: str = ""
    label: str
    status: CheckStatus


class ReportAnswer(_Frozen):
    """One chosen answer: its turn number, method, persona, request, text and checks."""

    number: int
    task_id: str | None
    method: str
    # The method is the team's own (the home's catalogue), not one bundled with design-agent.
    team_method: bool = False
    persona: str
    request: str
    text: str
    timestamp: datetime
    citations: list[str]
    checklist: list[CheckItem]
    # The citations as a reader says them ("Usability test plan guide, section Procedure").
    references: list[str] = []
    # A research answer's checked quotes, counts and coverage (evidence/verify.py).
    evidence: EvidenceReport | None = None


class ReportData(_Frozen):
    """Everything a report shows, in one language."""

    project: Project
    language: Literal["en", "es"]
    generated_at: datetime
    context: list[ContextItem]
    briefs: list[ReportBrief]
    decisions: list[ReportDecision]
    answers: list[ReportAnswer]
    # The cited guides' own bibliographies, listed at the end.
    sources: list[Source] = []


def parse_turns(text: str | None, language: str = "en") -> list[int] | None:
    """ "2,6, 10" -> [2, 6, 10]; None for no selection; UsageError for anything else."""
    if text is None or not text.strip():
        return None
    numbers: list[int] = []
    for part in [p for p in text.replace(" ", "").split(",") if p][: MAX_TURNS + 1]:
        number = turn_number(part)  # UsageError when it is far too large to be a turn
        if number is None:
            raise UsageError(say("report_bad_turns", language, turns=text))
        numbers.append(number)
    if not numbers or len(numbers) > MAX_TURNS or min(numbers) < 1:
        raise UsageError(say("report_bad_turns", language, turns=text))
    return numbers


def report_language(
    memory: Memory, project: Project, setting: str, flag: str | None = None
) -> Literal["en", "es"]:
    """`flag`, else the language setting, else the language of the project's latest
    requests, else of its conversation, else the last one spoken, else English."""
    requests = [t.message for t in memory.recent_turns(project.id, RECENT) if t.role == "user"]
    spoken = detect_language(" ".join(requests)) if requests else None
    state = load_state(memory, project.id)
    said = [flag, setting if setting != "auto" else None, spoken, state.language]
    said.append(str(memory.get_state("last_language") or ""))
    return "es" if next((s for s in said if s in ("en", "es")), "en") == "es" else "en"


def saved_node(memory: Memory, project: Project) -> int | None:
    """The turn the project's conversation continues from (/goto, /fork), if one is set."""
    return load_state(memory, project.id).node


def gather(
    memory: Memory,
    catalogue: Catalogue,
    project: Project,
    language: Literal["en", "es"],
    node: int | None = None,
    turns: list[int] | None = None,
) -> ReportData:
    """The report of `project` from turn `node`'s path (None: the latest turn's)."""
    node = _live(memory, project, node)
    chosen = _numbered(memory, project, turns, language) if turns else _latest(memory, node)
    sources = Sources(catalogue, language)
    answers = [_answer(memory, catalogue, turn, language, sources) for turn in chosen]
    return ReportData(
        project=project,
        language=language,
        generated_at=datetime.now(UTC),
        context=_context(memory.metadata(project.id)),
        briefs=_briefs(memory, project),
        decisions=_report_decisions(memory, project, node, language),
        answers=answers,
        sources=sources.bibliography([c for a in answers for c in a.citations]),
    )


def _live(memory: Memory, project: Project, node: int | None) -> int | None:
    """`node` while it is a turn of this project; else the project's latest turn (or None)."""
    if node is not None:
        try:
            if memory.get_turn(node).project_id == project.id:
                return node
        except NotFoundError:
            pass  # deleted since: follow the latest turn, as the conversation does
    latest = memory.recent_turns(project.id, 1)
    return latest[-1].id if latest else None


def _latest(memory: Memory, node: int | None) -> list[Turn]:
    """The latest complete answer of each method on the path to `node`, in path order."""
    if node is None:
        return []
    latest: dict[str, Turn] = {}
    for turn in memory.path_to(node):
        if _is_answer(turn) and turn.status == "complete" and turn.task_id:
            latest.pop(turn.task_id, None)  # re-inserted: ordered by its latest answer
            latest[turn.task_id] = turn
    return list(latest.values())


def _numbered(
    memory: Memory, project: Project, numbers: Iterable[int], language: str
) -> list[Turn]:
    """The answers at these turn numbers; a user's turn stands for the answer to it."""
    chosen: dict[int, Turn] = {}
    for number in sorted(set(numbers)):
        try:
            turn = memory.turn_at(project.id, number)
        except NotFoundError as e:
            raise NotFoundError(say("report_no_turn", language, number=number)) from e
        if turn.role == "user":
            answers = [t for t in memory.children(turn.id) if t.role == "agent"]
            turn = answers[-1] if answers else turn
        if not _is_answer(turn):  # a question, or the reply to a meta-request
            raise UsageError(say("report_no_answer", language, number=number))
        chosen[turn.id] = turn
    return list(chosen.values())


def _is_answer(turn: Turn) -> bool:
    """A design answer: an agent's turn with a method, not an exchange's reply."""
    exchange = (turn.validation or {}).get("exchange")
    return turn.role == "agent" and bool(turn.task_id) and not exchange


def _decisions(memory: Memory, project: Project, node: int | None) -> list[Decision]:
    """The decisions on the current path (every decision when nothing was said yet),
    oldest first."""
    found = memory.decisions_on_path(node) if node else memory.list_decisions(project.id)
    return sorted(found, key=lambda d: (d.timestamp, d.id))


def _report_decisions(
    memory: Memory, project: Project, node: int | None, language: str
) -> list[ReportDecision]:
    """The current decisions on the path, each with its branch when there are several."""
    forked = len(memory.branches(project.id)) > 1
    placed = memory.place_decisions(_decisions(memory, project, node))
    return [
        ReportDecision(
            decision=d.decision,
            rationale=d.rationale,
            timestamp=d.timestamp,
            branch=_branch(d, language) if forked else "",
            replaces=_replaces(memory, d, language),
            author=d.author or "",
        )
        for d in placed
    ]


def _branch(decision: ListedDecision, language: str) -> str:
    if decision.turn is None or decision.branch is None:
        return say("report_every_branch", language)
    if decision.branch.name is None:
        return say("report_branch_unnamed", language, number=decision.turn)
    return say("report_branch", language, name=decision.branch.name, number=decision.turn)


def _replaces(memory: Memory, decision: Decision, language: str) -> str:
    """ "Madrid goes first (2025-05-02)": the version it replaced, and when it was decided."""
    if decision.replaces_id is None:
        return ""
    old = memory.earlier_decision_versions(decision.id)[0]
    return f"{old.decision} ({old.timestamp.date().isoformat()})"


def _context(metadata: dict[str, Any]) -> list[ContextItem]:
    """The interview's answers (and the description), in a fixed order."""
    items = []
    for key in CONTEXT_KEYS:
        value = metadata.get(key)
        if value not in (None, "", [], {}):
            items.append(ContextItem(key=key, value=_plain(value)))
    return items


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _briefs(memory: Memory, project: Project) -> list[ReportBrief]:
    briefs = []
    for info in memory.list_files(project.id):
        text = " ".join(memory.get_file(info.id).content.split())
        excerpt = text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS].rstrip() + "…"
        briefs.append(
            ReportBrief(filename=info.filename, file_type=info.file_type, excerpt=excerpt)
        )
    return briefs


def _answer(
    memory: Memory, catalogue: Catalogue, turn: Turn, language: str, sources: Sources
) -> ReportAnswer:
    """An answer turn with its method's and persona's names, its stored checklist and its
    citations as a reader says them."""
    task = catalogue.tasks.get(turn.task_id or "")
    agent = catalogue.agents.get(turn.agent_id or (task.agent if task else ""))
    validation = turn.validation or {}
    citations = [str(c) for c in validation.get("citations") or []]
    return ReportAnswer(
        number=memory.turn_number(turn.id),
        task_id=turn.task_id,
        method=task.name.get(language) if task else (turn.task_id or "-"),
        team_method=task is not None and catalogue.is_team(task.id),
        persona=agent.role.get(language) if agent else (turn.agent_id or "-"),
        request=_request(memory, turn),
        text=turn.message,
        timestamp=turn.timestamp,
        citations=citations,
        checklist=[_check(item) for item in validation.get("items") or []],
        references=[sources.readable(c) for c in citations],
        evidence=EvidenceReport.model_validate(validation["evidence"])
        if validation.get("evidence")
        else None,
    )


def _request(memory: Memory, turn: Turn) -> str:
    """The design request this turn answers: as saved with the answer when the message
    before it said something else ("2" picking a method, "make it shorter"), else that
    message ("" when it answers none)."""
    asked = (turn.validation or {}).get("request")
    if asked:
        return str(asked)
    if turn.parent_id is None:
        return ""
    parent = memory.get_turn(turn.parent_id)
    return parent.message if parent.role == "user" else ""


def _check(item: dict[str, Any]) -> CheckItem:
    label = str(item.get("label") or item.get("id") or "?")
    key = str(item.get("id") or "")
    if item.get("assessed") is False:
        return CheckItem(id=key, label=label, status="not_assessed")
    return CheckItem(id=key, label=label, status="passed" if item.get("passed") else "failed")
