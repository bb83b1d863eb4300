"""The new project's interview: who the users are, what problem, which constraints.

Three questions, one at a time, each answer stored as project metadata
(`users`, `problem`, `constraints`). "skip" / "saltar" leaves one out. A
question from the user ("what can you do?") is not an answer: the answerer
returns None and the pipeline treats the message as a request.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, answers
from design_agent.conversation import Interview
from design_agent.events import ActionDone
from design_agent.language import SKIP, reply_of
from design_agent.memory.models import Project
from design_agent.messages import say

QUESTIONS = ("users", "problem", "constraints")


def first_question(project: Project, language: str) -> str:
    """The interview's first question, about `project`'s users."""
    return say("q_users", language, name=project.name)


@answers("interview")
def answer_interview(reply: str, pending: Interview, ctx: ActionContext) -> ActionResult | None:
    """Store the answer to question `pending.index` and ask the next one (or finish)."""
    text = reply.strip()
    if not text or text.endswith("?"):
        return None
    topic = QUESTIONS[pending.index]
    skipped = reply_of(text) in SKIP
    if not skipped:
        ctx.services.memory.set_metadata(pending.project_id, topic, text)
    data = {"project": pending.project_id, "topic": topic, "saved": not skipped}
    index = pending.index + 1
    if index >= len(QUESTIONS):
        return ActionResult(ctx.done("projects.context", "context_saved", data))
    question = ctx.say(f"q_{QUESTIONS[index]}", name="")
    done = ActionDone(action="projects.context", message=question, asks=question, data=data)
    # A fresh question: its own time to be answered, in the language of this reply.
    following = Interview(language=ctx.pending_language, project_id=pending.project_id, index=index)
    return ActionResult(done, following)
