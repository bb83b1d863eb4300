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
from design_agent.understanding.follow_up import weigh
from design_agent.understanding.replies import Reply

QUESTIONS = ("users", "problem", "constraints")
# The evidence of an edit of the last answer (follow_up.py) that makes a reply a request.
EDIT_EVIDENCE = 2.5
# A request names a method at least this well ("users drop off" names none).
REQUEST_MIN_SCORE = 35.0
_LEAD = (
    r"(?:(?:please|por favor|ok|okay|so|now|and|also|then|next|actually|better|instead|first"
    r"|vale|bueno|pues|mejor|primero|ahora|y|tambien|luego|despues|entonces)[,:]? )*"
)
# Said to design-agent: a request whatever it names ("help me with something").
_ADDRESSED = re.compile(
    _LEAD + r"(?:help me|help us|can you|could you|would you|give me|show me|tell me|let's"
    r"|lets|ayudame|ayudanos|puedes|podrias|me ayudas|dame|muestrame|dime|hagamos|vamos a)\b"
)
# How a request or a question starts; an answer ("small-business owners") does not. "we
# need ..." may also state the problem: a request only when it names a method.
_REQUEST_FORM = re.compile(
    _LEAD + r"(?:plan|make|design|create|draft|write|map|run|build"
    r"|sketch|prototype|prioriti[sz]e|analy[sz]e|audit|compare|outline|prepare|define"
    r"|i need|we need|i want|we want|i'd like"
    r"|who|what|how|why|which|where|when|should|haz|hazme|crea"
    r"|creame|disena|planifica|planea|prepara|escribe|redacta|dibuja|mapea|analiza|prioriza"
    r"|compara|organiza|necesito|necesitamos|quiero|queremos|como|cual|quien|por que|donde"
    r"|cuando)\b"
)


def goes_on(text: str, ctx: ActionContext) -> bool:
    """Whether `text` changes the last answer ("make it shorter", "hazlo para móvil")."""
    last = ctx.state.last
    task = ctx.services.catalogue.tasks.get(last.task_id) if last is not None else None
    return task is not None and weigh(text, task, None, ctx.language).follow_up >= EDIT_EVIDENCE


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
    request or a question, and naming a method ("plan a usability test for ..."), or an edit
    of the last answer ("make it cover the mobile app too")."""
    folded = fold(text).strip(" ¿¡")
    if goes_on(text, ctx) or _ADDRESSED.match(folded):
        return True
    if not _REQUEST_FORM.match(folded):
        return False
    best = ctx.services.matcher.match(text).best
    return best is not None and best.score >= REQUEST_MIN_SCORE
