"""The new project's interview: who the users are, what problem, which constraints.

Three questions, one at a time, each answer stored as project metadata
(`users`, `problem`, `constraints`). "skip" / "saltar" leaves one out. A
question from the user ("what can you do?") or a design request ("plan a
usability test for the new checkout", even a session later) is not an answer:
the answerer returns None and the pipeline treats the message as a request.
"""

from __future__ import annotations

import re

from design_agent.actions.base import ActionContext, ActionResult, answers
from design_agent.core.events import ActionDone
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.memory.models import Project
from design_agent.understanding.conversation import Interview
from design_agent.understanding.replies import Reply

QUESTIONS = ("users", "problem", "constraints")
# A request names a method at least this well ("users drop off" names none).
REQUEST_MIN_SCORE = 35.0
# How a request or a question starts; an answer ("small-business owners") does not.
_REQUEST_FORM = re.compile(
    r"(?:(?:please|por favor|ok|okay|so|now|and|also|then|next|actually|vale|bueno|pues"
    r"|ahora|y|tambien|luego|despues|entonces)[,:]? )*"
    r"(?:plan|make|design|create|draft|write|map|run|build"
    r"|sketch|prototype|prioriti[sz]e|analy[sz]e|audit|compare|outline|prepare|define"
    r"|help me|help us|can you|could you|would you|i need|we need|i want|we want|i'd like"
    r"|let's|lets|give me|show me|who|what|how|why|which|where|when|should|haz|hazme|crea"
    r"|creame|disena|planifica|planea|prepara|escribe|redacta|dibuja|mapea|analiza|prioriza"
    r"|compara|organiza|ayudame|ayudanos|necesito|necesitamos|quiero|queremos|puedes"
    r"|podrias|me ayudas|dame|muestrame|vamos a|hagamos|como|cual|quien|por que|donde"
    r"|cuando)\b"
)


def first_question(project: Project, language: str) -> str:
    """The interview's first question, about `project`'s users."""
    return say("q_users", language, name=project.name)


@answers("interview")
def answer_interview(
    message: str, reply: Reply | None, pending: Interview, ctx: ActionContext
) -> ActionResult | None:
    """Store the answer to question `pending.index` and ask the next one (or finish)."""
    text = message.strip()
    if not text or text.endswith("?") or text.startswith("¿") or is_request(text, ctx):
        return None
    if reply is not None and reply.kind == "cancel":
        return ActionResult(ctx.done("projects.context", "interview_dropped"))
    topic = QUESTIONS[pending.index]
    skipped = reply is not None and reply.kind in ("skip", "no", "none")
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


def is_request(text: str, ctx: ActionContext) -> bool:
    """Whether `text` asks for design work rather than answering a question: said as a
    request or a question, and naming a method ("plan a usability test for ...")."""
    if not _REQUEST_FORM.match(fold(text).strip(" ¿¡")):
        return False
    best = ctx.services.matcher.match(text).best
    return best is not None and best.score >= REQUEST_MIN_SCORE
