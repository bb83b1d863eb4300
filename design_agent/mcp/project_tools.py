"""The project tools: project_context, record_decision, retire_decision, search_memory,
list_projects, switch_project.

They read and write the home's memory through the same code as the shell and the
commands: a decision is recorded as "we decided X because Y" records it (on the branch
the conversation is on, with its process-memory entry), retired as "forget the X
decision" retires it, a project found by name as `projects switch` finds it.
"""

from __future__ import annotations

from pydantic import Field

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.core.numbers import MAX_NUMBER
from design_agent.mcp.brief import branch_context
from design_agent.mcp.call import Call, Strict, ToolResult, clip
from design_agent.mcp.tools import tool
from design_agent.memory.models import Decision, ListedDecision, Project
from design_agent.understanding.conversation import conversation_node

ProjectName = Field(default=None, description="Project name (default: the active one).")
EXCERPT = 280  # characters of a brief, a turn or a search hit shown


class ProjectInput(Strict):
    project: str | None = ProjectName


class Brief(ToolResult):
    filename: str
    chars: int
    excerpt: str


class DecisionRow(ToolResult):
    id: int
    decision: str
    rationale: str
    date: str
    branch: str | None = Field(default=None, description="branch and turn it was made on")
    author: str | None = Field(default=None, description="who recorded it, where known")


class TurnRow(ToolResult):
    role: str
    date: str
    text: str


class ProjectContextResult(ToolResult):
    project: str
    facts: dict[str, str]
    briefs: list[Brief]
    decisions: list[DecisionRow]
    recent_turns: list[TurnRow]


@tool(
    "project_context",
    ProjectInput,
    ProjectContextResult,
    "read",
    "Read the project's facts, briefs, current decisions (with why) and latest turns.",
)
def project_context(args: ProjectInput, call: Call) -> ProjectContextResult:
    memory = call.services.memory
    project = call.project(args.project, "read")
    context = branch_context(memory, project)
    node = conversation_node(memory, project.id)
    turns = memory.path_to(node, 6) if node is not None else []
    return ProjectContextResult(
        project=project.name,
        facts={k: clip(str(v), EXCERPT) for k, v in context.metadata.items() if k != "preferences"},
        briefs=[
            Brief(filename=f.filename, chars=f.chars, excerpt=clip(f.content, EXCERPT))
            for f in context.briefs
        ],
        decisions=[decision_row(d) for d in memory.place_decisions(context.decisions)],
        recent_turns=[
            TurnRow(role=t.role, date=t.timestamp.date().isoformat(), text=clip(t.message, EXCERPT))
            for t in turns
        ],
    )


def decision_row(d: ListedDecision) -> DecisionRow:
    """A decision as the tools show it, with the branch and turn it was made on."""
    where = None
    if d.turn is not None and d.branch is not None:
        where = f"{d.branch.name or 'unnamed'} (turn {d.turn})"
    return DecisionRow(
        id=d.id,
        decision=d.decision,
        rationale=d.rationale,
        date=d.timestamp.date().isoformat(),
        branch=where,
    )


class RecordDecision(Strict):
    decision: str = Field(min_length=1, max_length=5000, description="What was decided.")
    rationale: str = Field(max_length=20_000, description="Why it was decided.")
    project: str | None = ProjectName


class DecisionResult(ToolResult):
    project: str
    decision: DecisionRow
    status: str

    def as_text(self) -> str:
        d = self.decision
        why = f" (why: {d.rationale})" if d.rationale else ""
        return f"Decision {d.id} in '{self.project}' is {self.status}: {d.decision}{why}"


@tool(
    "record_decision",
    RecordDecision,
    DecisionResult,
    "write",
    "Record a decision the person made, with why, in the project's memory.",
)
def record_decision(args: RecordDecision, call: Call) -> DecisionResult:
    from design_agent.actions.decisions import record_decision as record

    memory = call.services.memory
    project = call.project(args.project, "write")
    node = conversation_node(memory, project.id)
    stored = record(memory, project, args.decision, args.rationale, node)
    return _decision(memory.place_decisions([stored])[0], project)


def _decision(d: ListedDecision, project: Project) -> DecisionResult:
    return DecisionResult(project=project.name, decision=decision_row(d), status=d.status)


class RetireDecision(Strict):
    id: int = Field(ge=1, le=MAX_NUMBER, description="The decision's id (project_context).")
    reason: str = Field(default="", max_length=20_000, description="Why it no longer holds.")
    project: str | None = ProjectName


@tool(
    "retire_decision",
    RetireDecision,
    DecisionResult,
    "write",
    "Retire a decision that no longer holds; it stays in the project's history.",
)
def retire_decision(args: RetireDecision, call: Call) -> DecisionResult:
    memory = call.services.memory
    project = call.project(args.project, "write")
    old: Decision = memory.get_decision(args.id, project.id)
    retired = memory.retire_decision(old.id, args.reason, conversation_node(memory, project.id))
    return _decision(memory.place_decisions([retired])[0], project)


class SearchMemory(Strict):
    query: str = Field(min_length=1, max_length=1000, description="Words to look for.")
    all_projects: bool = Field(default=False, description="Search every project, not one.")


class Hit(ToolResult):
    project: str
    kind: str
    id: int
    date: str
    title: str
    snippet: str


class SearchResult(ToolResult):
    query: str
    hits: list[Hit]


@tool(
    "search_memory",
    SearchMemory,
    SearchResult,
    "read",
    "Search past conversations, briefs and decisions of this project (or all projects).",
)
def search_memory(args: SearchMemory, call: Call) -> SearchResult:
    memory = call.services.memory
    if args.all_projects:
        call.check("read", None)
        found = memory.search(args.query, all_projects=True, limit=8)
    else:
        found = memory.search(args.query, call.project(None, "read").id, limit=8)
    hits = [
        Hit(
            project=group.project.name,
            kind=h.kind,
            id=h.id,
            date=h.timestamp.date().isoformat(),
            title=clip(h.title, 120),
            snippet=clip(h.snippet, EXCERPT),
        )
        for group in found.groups
        for h in group.hits
    ]
    return SearchResult(query=args.query, hits=hits)


class NoInput(Strict):
    pass


class ProjectRow(ToolResult):
    name: str
    active: bool
    turns: int
    files: int
    decisions: int


class Projects(ToolResult):
    projects: list[ProjectRow]


@tool("list_projects", NoInput, Projects, "read", "List the projects, marking the active one.")
def list_projects(args: NoInput, call: Call) -> Projects:
    call.check("read", None)
    rows = [
        ProjectRow(
            name=p.name, active=p.active, turns=p.turns, files=p.files, decisions=p.decisions
        )
        for p in call.services.memory.list_projects()
    ]
    return Projects(projects=rows)


class SwitchProject(Strict):
    name: str = Field(min_length=1, max_length=200, description="The project's name.")


class Switched(ToolResult):
    project: str

    def as_text(self) -> str:
        return f"Active project: {self.project}"


@tool(
    "switch_project",
    SwitchProject,
    Switched,
    "write",
    "Make another project the active one (for these tools and design-agent's shell).",
)
def switch_project(args: SwitchProject, call: Call) -> Switched:
    memory = call.services.memory
    found = memory.lookup_project(args.name)
    if found.exact is None:
        raise _not_found(found.asked, found.suggestion, found.candidates, found.names)
    call.check("write", found.exact.id)
    return Switched(project=memory.switch_project(found.exact.id).name)


def _not_found(
    asked: str, guess: Project | None, candidates: list[Project], names: list[str]
) -> Exception:
    """What a name that is no project's says: the projects it fits, or the closest one."""
    if candidates:
        fits = ", ".join(p.name for p in candidates)
        return UsageError(f"'{asked}' fits more than one project ({fits}); give its whole name")
    hint = f" Did you mean: {guess.name}?" if guess else ""
    known = f" Projects: {', '.join(names)}." if names and not guess else ""
    return NotFoundError(f"no project named '{asked}'.{hint}{known}")
