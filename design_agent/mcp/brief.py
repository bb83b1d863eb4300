"""A method's brief: what design-agent would put before a model for it, built by the same
prompt builder as a turn (knowledge/prompt.py) from the project's context on the branch
its conversation is on.

The agent that asks is the one writing, with its own conversation, so the brief carries
no past turns of design-agent's, and no request when none is given (an MCP prompt gives
one). The budget is a host agent's window, so nothing of the guide is cut for room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from design_agent.knowledge.prompt import BLOCKS, assemble
from design_agent.turn.grounding import prompt_context
from design_agent.turn.review import checks_of
from design_agent.understanding.conversation import conversation_node

if TYPE_CHECKING:
    from design_agent.core.models import Agent, Task
    from design_agent.knowledge.prompt import AssembledPrompt
    from design_agent.memory import Memory
    from design_agent.memory.models import Project, ProjectContext
    from design_agent.turn.session import Services

# The windows of the agents that call (Claude Code, Codex: 200k tokens; Gemini CLI more).
HOST_CONTEXT_TOKENS = 200_000


@dataclass(frozen=True)
class Brief:
    """The assembled prompt for one method in one project, with what it was built from."""

    task: Task
    agent: Agent
    language: str
    verbosity: str
    context: ProjectContext
    assembled: AssembledPrompt

    def text(self, request: bool = False) -> str:
        """The persona, then every block as the prompt orders them (the request last, only
        when `request`)."""
        blocks = self.assembled.blocks
        names = [n for n in BLOCKS[1:] if n in blocks and (request or n != "request")]
        persona = f"<persona>\n{blocks['persona']}\n</persona>"
        return "\n\n".join([persona, *(blocks[n] for n in names)])

    def needs(self) -> list[str]:
        """What the project and the request do not give yet: the key facts (users, problem,
        constraints), then the inputs the method works from (config/inputs.yaml)."""
        return list(self.assembled.missing)

    def checks(self) -> list[str]:
        """What review_answer checks a draft of this method for."""
        return checks_of(self.task, self.language, self.context)


def branch_context(memory: Memory, project: Project) -> ProjectContext:
    """The project's facts, briefs and decisions on the branch its conversation is on, as
    a turn reads them (without past turns: the calling agent has its own conversation)."""
    node = conversation_node(memory, project.id)
    return memory.project_context(project.id, turns=0, node_id=node)


def build_brief(
    services: Services,
    task: Task,
    project: Project,
    language: str,
    verbosity: str,
    request: str | None = None,
) -> Brief:
    """The brief of `task` for `project`, in `language`, for a deliverable of `verbosity`."""
    context = branch_context(services.memory, project)
    agent = services.catalogue.agent(task.agent)
    assembled = assemble(
        message=request or task.name.get(language),
        task=task,
        agent=agent,
        knowledge=services.knowledge,
        language=language,
        verbosity=verbosity,
        context_limit=HOST_CONTEXT_TOKENS,
        project=prompt_context(context),
    )
    return Brief(task, agent, language, verbosity, context, assembled)
