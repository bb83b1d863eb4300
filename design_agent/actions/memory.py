"""What the project remembers, by asking: "why did we ...?", "search for ...", "show history".

`memory.recall` finds recorded decisions with their rationale; `memory.search`
looks through turns, files and decisions of this project or of every project
(the current one included); `history.show` lists the latest turns.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, action
from design_agent.actions.decisions import by_label
from design_agent.actions.tree import current_node
from design_agent.core.text import word_list
from design_agent.memory.models import Decision, Project, ProjectHits, Turn
from design_agent.memory.text import words
from design_agent.understanding.inputs import HistoryCount, Recall, Search
from design_agent.understanding.language import QUESTION_STOP_WORDS

RECALL_LIMIT = 5
SEARCH_LIMIT = 10
HITS_PER_PROJECT = 3
FIRST_LINE_CHARS = 100
# Words that say where or how to look, not what for: "did I solve something similar in
# another project?" would otherwise find every answer that mentions "your project".
SCOPE_WORDS = word_list(
    """search find look across another other others any all every previous past earlier
    different elsewhere project projects similar something anything solve solved ever before
    done busca buscar encuentra otro otra otros otras cualquier todos anterior anteriores
    distinto distintos proyecto proyectos parecido parecida algo resolvi resolvimos resuelto
    hecho hice hicimos antes"""
)


@action("memory", "recall", Recall)
def recall(data: Recall, ctx: ActionContext) -> ActionResult:
    """The project's decisions that match the question, with why and when; a decision
    replaced since is answered by its current version, which says what it replaced."""
    project = ctx.require_project()
    memory = ctx.services.memory
    found = memory.search_decisions(project.id, data.query, limit=RECALL_LIMIT)
    if not found:
        return ActionResult(ctx.done("memory.recall", "recall_none", name=project.name))
    path = _path(ctx)
    shown = _as_now([hit.item for hit in found], path, ctx)
    forked = len(memory.branches(project.id)) > 1
    lines = "\n".join(_recalled(d, project, forked, path, ctx) for d in shown)
    data_out = {"decisions": [d.model_dump(mode="json") for d in shown]}
    return ActionResult(
        ctx.done("memory.recall", "recall", data_out, name=project.name, lines=lines)
    )


def _path(ctx: ActionContext) -> set[int] | None:
    """The turns of the path the conversation is on (None: no turn yet)."""
    node = current_node(ctx)
    return None if node is None else set(ctx.services.memory.path_ids(node))


def _changed_here(decision: Decision, path: set[int] | None) -> bool:
    """Whether the decision was replaced or retired on this path (or on every path)."""
    if decision.status == "current":
        return False
    return path is None or decision.changed_node_id is None or decision.changed_node_id in path


def _as_now(found: list[Decision], path: set[int] | None, ctx: ActionContext) -> list[Decision]:
    """Each decision as it stands on this path: a replaced one's newest version, once."""
    memory = ctx.services.memory
    shown: dict[int, Decision] = {}
    for decision in found:
        while decision.status == "superseded" and _changed_here(decision, path):
            newer = memory.decision_replacement(decision.id)
            if newer is None:
                break
            decision = newer
        shown.setdefault(decision.id, decision)
    return list(shown.values())


def _recalled(
    d: Decision, project: Project, forked: bool, path: set[int] | None, ctx: ActionContext
) -> str:
    """A decision with why and when, what it replaced, or that it was retired."""
    line = ctx.say(
        "recall_line",
        date=d.timestamp.date().isoformat(),
        by=by_label(d.author, ctx),
        turn=_branch_label(project, d.node_id, ctx)
        if forked
        else _turn_label(d.conversation_id, ctx),
        decision=d.decision,
        rationale=d.rationale or "-",
    )
    lines = [line]
    earlier = ctx.services.memory.earlier_decision_versions(d.id) if d.replaces_id else []
    if earlier:
        old = earlier[0]
        changed = (old.changed_at or d.timestamp).date().isoformat()
        old_date = old.timestamp.date().isoformat()
        lines.append(ctx.say("recall_replaced", old=old.decision, old_date=old_date, date=changed))
    if len(earlier) > 1:
        lines.append(ctx.say("recall_earlier", count=len(earlier) - 1))
    if d.status == "retired" and _changed_here(d, path):
        when = (d.changed_at or d.timestamp).date().isoformat()
        lines.append(ctx.say("recall_retired", date=when, why=d.change_reason or "-"))
    return "\n".join(lines)


def _branch_label(project: Project, node: int | None, ctx: ActionContext) -> str:
    """Where in a forked conversation a decision was made: its turn and branch."""
    if node is None:
        return ""
    memory = ctx.services.memory
    number = memory.turn_number(node)
    branch = memory.find_branch(project.id, number)
    if branch.name is None:
        return ctx.say("branch_label_unnamed", number=number)
    return ctx.say("branch_label", number=number, name=branch.name)


def _turn_label(turn_id: int | None, ctx: ActionContext) -> str:
    return "" if turn_id is None else ctx.say("turn_label", id=turn_id)


@action("memory", "search", Search)
def search(data: Search, ctx: ActionContext) -> ActionResult:
    """Turns, files and decisions about the query, here or in every project."""
    project = None if data.all_projects else ctx.require_project()
    query = _subject(data.query) if data.all_projects else data.query
    groups = _groups(query, project, data.all_projects, ctx)
    if not groups and ctx.project is not None:
        # Nothing by those words ("something similar"): look for what this project is about,
        # elsewhere when searching every project (this one would match itself).
        groups = _groups(_topic_of(ctx.project, ctx), project, data.all_projects, ctx)
        if data.all_projects:
            groups = [g for g in groups if g.project.id != ctx.project.id]
    if not groups:
        return ActionResult(ctx.done("memory.search", "search_none", query=data.query))
    lines = "\n".join(_group_lines(g, ctx) for g in groups)
    where = ctx.say("all_projects") if data.all_projects else groups[0].project.name
    out = {"groups": [g.model_dump(mode="json") for g in groups]}
    return ActionResult(ctx.done("memory.search", "search", out, where=where, lines=lines))


def _subject(query: str) -> str:
    """What to look for, without the words that only say where ("in another project")."""
    return " ".join(w for w in words(query) if w not in SCOPE_WORDS | QUESTION_STOP_WORDS)


def _groups(
    query: str, project: Project | None, everywhere: bool, ctx: ActionContext
) -> list[ProjectHits]:
    if not query.strip():
        return []
    scope = None if everywhere or project is None else project.id
    results = ctx.services.memory.search(query, scope, all_projects=everywhere, limit=SEARCH_LIMIT)
    return list(results.groups)


def _group_lines(group: ProjectHits, ctx: ActionContext) -> str:
    """A project's hits; in a forked conversation a turn says its turn and branch."""
    hits = group.hits[:HITS_PER_PROJECT]
    forked = len(ctx.services.memory.branches(group.project.id)) > 1

    def where(kind: str, hit_id: int) -> str:
        return _branch_label(group.project, hit_id, ctx) if forked and kind == "turn" else ""

    return f"{group.project.name}:\n" + "\n".join(
        f"  - [{h.kind}] {h.title}{where(h.kind, h.id)}: {h.snippet}" for h in hits
    )


def _topic_of(project: Project, ctx: ActionContext) -> str:
    """What the project is about: its recent methods, problem and description."""
    memory, tasks = ctx.services.memory, ctx.services.catalogue.tasks
    meta = memory.metadata(project.id)
    used = [t.task_id for t in memory.recent_turns(project.id, 10) if t.task_id in tasks]
    names = [tasks[t].name.en for t in used if t is not None]
    return " ".join([*names, str(meta.get("problem", "")), str(meta.get("description", ""))])


@action("history", "show", HistoryCount)
def history(data: HistoryCount, ctx: ActionContext) -> ActionResult:
    """The project's latest `data.count` turns, oldest first, one line each."""
    project = ctx.require_project()
    turns = ctx.services.memory.recent_turns(project.id, data.count)
    if not turns:
        return ActionResult(ctx.done("history.show", "history_empty", name=project.name))
    lines = "\n".join(_turn_line(turn, ctx) for turn in turns)
    out = {"turns": [t.model_dump(mode="json") for t in turns]}
    return ActionResult(ctx.done("history.show", "history", out, name=project.name, lines=lines))


def _turn_line(turn: Turn, ctx: ActionContext) -> str:
    text = turn.message.strip()
    first = text.splitlines()[0][:FIRST_LINE_CHARS] if text else ""
    status = "" if turn.status == "complete" else f" [{ctx.say(f'status_{turn.status}')}]"
    role = ctx.say(f"role_{turn.role}")
    return f"{turn.timestamp.astimezone():%Y-%m-%d %H:%M} {role}{status}: {first}"
