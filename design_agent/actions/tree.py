"""The conversation tree by command: /tree, /goto, /fork and /branches.

A project's turns form a tree (memory/tree.py). The conversation continues from
one node, kept in the project's conversation state: /goto moves it to a turn or
a branch's tip, /fork starts a branch there (named or not), and the next
message is saved as that node's child, so the prompt's history is the path to
it, never a sibling branch.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.core.errors import NotFoundError
from design_agent.core.numbers import turn_number
from design_agent.memory import Memory
from design_agent.memory.models import Branch, Decision, Project, TreeLine, TreeNode
from design_agent.understanding.conversation import ConfirmGoto
from design_agent.understanding.inputs import TreeBack, TreeFork, TreeRename, TreeTarget
from design_agent.understanding.replies import Reply

TEXT_CHARS = 60
INDENT = "    "


def current_node(ctx: ActionContext) -> int | None:
    """The turn the conversation continues from: the state's node, or the latest turn."""
    project = ctx.require_project()
    if ctx.state.node is not None:
        return ctx.state.node
    latest = ctx.services.memory.recent_turns(project.id, 1)
    return latest[-1].id if latest else None


@action("tree", "show")
def show(data: object, ctx: ActionContext) -> ActionResult:
    """The project's conversation as an indented tree, the current turn marked."""
    project = ctx.require_project()
    line = ctx.services.memory.tree(project.id)
    if not line.nodes:
        return ActionResult(ctx.done("tree.show", "history_empty", name=project.name))
    here = current_node(ctx)
    text = "\n".join(render(line, here, ctx))
    data_out = {"tree": line.model_dump(mode="json"), "current": here, "here": ctx.say("tree_here")}
    return ActionResult(ctx.done("tree.show", "tree", data_out, name=project.name, lines=text))


def render(line: TreeLine, here: int | None, ctx: ActionContext, depth: int = 0) -> list[str]:
    """One line per turn; a fork's turns indented under the turn it starts from."""
    lines: list[str] = []
    for node in line.nodes:
        lines.append(INDENT * depth + _node_line(node, here, ctx))
        for fork in node.forks:
            lines += render(fork, here, ctx, depth + 1)
    return lines


def _node_line(node: TreeNode, here: int | None, ctx: ActionContext) -> str:
    role = ctx.say(f"role_{node.role}")
    task = f" [{node.task_id}]" if node.task_id else ""
    text = " ".join(node.text.split())[:TEXT_CHARS]
    names = f"  ({', '.join(node.branches)})" if node.branches else ""
    mark = f"  ◀ {ctx.say('tree_here')}" if node.id == here else ""
    return f"{node.number:>3} {role}{task}: {text}{names}{mark}"


def resolve_target(memory: Memory, project: Project, target: str) -> tuple[int, int]:
    """The turn (id, number) a target names: a turn number ("12", "#12") or a branch name
    (its latest turn); NotFoundError naming what exists."""
    number = turn_number(target)  # UsageError for one far too large to be a turn
    if number is not None:
        return memory.turn_at(project.id, number).id, number
    branch = memory.find_branch(project.id, target.strip().lstrip("#"))
    return branch.tip_id, branch.tip_number


@action("tree", "goto", TreeTarget)
def goto(data: TreeTarget, ctx: ActionContext) -> ActionResult:
    """Continue from a turn (by its number) or from a branch's latest turn (by name)."""
    project = ctx.require_project()
    node, number = resolve_target(ctx.services.memory, project, data.target)
    return moved(ctx, project, node, number)


def moved(ctx: ActionContext, project: Project, node: int, number: int) -> ActionResult:
    """The conversation now continues from `node` (turn `number`)."""
    out = {"node": node, "number": number}
    done = ctx.done("tree.goto", "tree_goto", out, number=number, name=project.name)
    return ActionResult(done, node=node)


@action("tree", "back", TreeBack)
def back(data: TreeBack, ctx: ActionContext) -> ActionResult:
    """ "go back to before we chose X" / "vuelve al turno 3": found, then confirmed."""
    project = ctx.require_project()
    memory = ctx.services.memory
    before = ""
    if data.target is not None:
        node, number = resolve_target(memory, project, data.target)
    else:
        decision = _decision(project, data.decision or "", ctx)
        node = _answer_before(memory, decision.node_id or decision.conversation_id or 0)
        number = memory.turn_number(node)
        before = ctx.say("tree_back_before", decision=decision.decision)
    question = ctx.say("tree_back_confirm", number=number, name=project.name, before=before)
    out = {"node": node, "number": number}
    done = ctx.done(
        "tree.back", "tree_back_confirm", out, number=number, name=project.name, before=before
    )
    done = done.model_copy(update={"needs_confirmation": True, "asks": question})
    pending = ConfirmGoto(language=ctx.pending_language, node=node, number=number)
    return ActionResult(done, pending)


def _decision(project: Project, asked: str, ctx: ActionContext) -> Decision:
    found = ctx.services.memory.search_decisions(project.id, asked, 1)
    linked = [hit.item for hit in found if hit.item.node_id or hit.item.conversation_id]
    if not linked:
        raise NotFoundError(ctx.say("tree_no_decision", name=project.name, asked=asked))
    return linked[0]


def _answer_before(memory: Memory, node: int) -> int:
    """The last answer before `node` on its path (its first turn when there is none), so
    the decision made at `node` is not yet taken there."""
    earlier = memory.path_to(node)[:-1]
    answers_before = [t for t in earlier if t.role == "agent"]
    if answers_before:
        return answers_before[-1].id
    return earlier[0].id if earlier else node


@answers("confirm_goto")
def answer_goto(
    message: str, reply: Reply | None, pending: ConfirmGoto, ctx: ActionContext
) -> ActionResult | None:
    """ "yes" moves there; "no" stays; anything else is not an answer."""
    project = ctx.require_project()
    kind = reply.kind if reply is not None else None
    if kind == "yes":
        return moved(ctx, project, pending.node, pending.number)
    if kind in ("no", "cancel", "none"):
        return ActionResult(ctx.done("tree.back", "tree_back_no", name=project.name))
    return None


@action("tree", "fork", TreeFork)
def fork(data: TreeFork, ctx: ActionContext) -> ActionResult:
    """A new branch from a turn (the current one by default); the next message goes on it."""
    project = ctx.require_project()
    memory = ctx.services.memory
    node = memory.turn_at(project.id, data.turn).id if data.turn else current_node(ctx)
    if node is None:
        return ActionResult(ctx.done("tree.fork", "history_empty", name=project.name))
    branch = memory.fork(node, data.name)
    label = branch.name or ctx.say("tree_unnamed")
    out = {"branch": branch.model_dump(mode="json")}
    done = ctx.done("tree.fork", "tree_forked", out, name=label, number=branch.tip_number)
    return ActionResult(done, node=node)


@action("tree", "rename", TreeRename)
def rename(data: TreeRename, ctx: ActionContext) -> ActionResult:
    """Name a branch, or rename it: found by its name or by a turn number on it."""
    project = ctx.require_project()
    memory = ctx.services.memory
    found = memory.find_branch(project.id, data.target.strip())  # a name, or "12" / "#12"
    renamed = memory.rename_branch(found.id, data.name.strip())
    out = {"branch": renamed.model_dump(mode="json")}
    old = found.name or ctx.say("tree_unnamed")
    return ActionResult(ctx.done("tree.rename", "tree_renamed", out, old=old, name=renamed.name))


@action("tree", "branches")
def branches(data: object, ctx: ActionContext) -> ActionResult:
    """The project's branches, oldest first, with the turn each has reached."""
    project = ctx.require_project()
    found = ctx.services.memory.branches(project.id)
    lines = "\n".join(_branch_line(b, ctx) for b in found)
    out = {"branches": [b.model_dump(mode="json") for b in found]}
    return ActionResult(ctx.done("tree.branches", "tree_branches", out, lines=lines))


def _branch_line(branch: Branch, ctx: ActionContext) -> str:
    name = branch.name or ctx.say("tree_unnamed")
    return f"- {name}: {ctx.say('tree_at_turn', number=branch.tip_number)}"
