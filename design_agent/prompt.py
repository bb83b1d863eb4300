"""Steps 5-6: assemble one prompt within the provider's context budget, by priority.

Priority (highest first): the current message; persona and project context;
the method (task and guide sections); recent turns; older turns found by
search. Each lower part gets what is left after the ones above it.

Everything quoted in the user prompt (the message, the project's metadata,
briefs and decisions, past turns) goes through `tags.inert`: only the system
prompt may spell a tag, and only the model's answer is scanned for one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from design_agent.knowledge import Knowledge, Section
from design_agent.models import Agent, Task
from design_agent.tags import inert
from design_agent.textutil import estimate_tokens

ANSWER_RESERVE = 0.25  # share of the context window left for the answer
LANGUAGE_NAMES = {"en": "English", "es": "Spanish (español)"}
VERBOSITY = {
    "brief": "Be brief: the essentials in under 250 words.",
    "normal": "Be complete but focused: usually 400-800 words.",
    "detailed": "Be thorough: cover every part of the deliverable in detail.",
}


@dataclass(frozen=True)
class PastTurn:
    role: str
    text: str
    when: str = ""


@dataclass(frozen=True)
class ProjectContext:
    name: str
    metadata: dict[str, str] = field(default_factory=dict)
    briefs: Sequence[tuple[str, str]] = ()
    decisions: Sequence[tuple[str, str]] = ()

    def render(self, max_tokens: int) -> str:
        lines = [f"Project: {self.name}"]
        lines += [f"- {key}: {value}" for key, value in self.metadata.items()]
        if self.decisions:
            lines.append("Decisions so far:")
            lines += [f"- {d} (because {r})" if r else f"- {d}" for d, r in self.decisions]
        for filename, content in self.briefs:
            lines.append(f"Brief {filename}:\n{content.strip()}")
        return _clip(inert("\n".join(lines)), max_tokens)


@dataclass(frozen=True)
class AssembledPrompt:
    system: str
    prompt: str
    sections: list[Section]
    tokens: dict[str, int]
    dropped: list[str]

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens.values())


def assemble(
    *,
    message: str,
    task: Task,
    agent: Agent,
    knowledge: Knowledge,
    language: str,
    verbosity: str,
    context_limit: int,
    project: ProjectContext | None,
    recent: Sequence[PastTurn] = (),
    recalled: Sequence[PastTurn] = (),
    assumptions: str = "",
) -> AssembledPrompt:
    """Build the system prompt and the user prompt within `context_limit` tokens."""
    budget = int(context_limit * (1 - ANSWER_RESERVE))
    current = _clip(inert(message), budget // 2)
    persona = persona_block(agent, task, language, verbosity, assumptions)
    used = estimate_tokens(current) + estimate_tokens(persona)
    context = project.render(max(0, (budget - used) // 3)) if project else ""
    used += estimate_tokens(context)
    sections = knowledge.select(task, message, max(0, budget - used) * 3 // 4)
    method = method_block(task, sections, language)
    used += estimate_tokens(method)
    recent_text, recent_dropped = _turns("Recent conversation", recent, budget - used)
    used += estimate_tokens(recent_text)
    recalled_text, recalled_dropped = _turns("Earlier, related", recalled, budget - used)
    all_sections = knowledge.task_sections(task)
    dropped = [s.citation for s in all_sections if s not in sections]
    dropped += [f"{n} recent turn(s)" for n in [recent_dropped] if n]
    dropped += [f"{n} older turn(s)" for n in [recalled_dropped] if n]
    prompt = "\n\n".join(
        p for p in (context, recalled_text, recent_text, f"Request:\n{current}") if p
    )
    tokens = {
        "message": estimate_tokens(current),
        "persona": estimate_tokens(persona),
        "context": estimate_tokens(context) if context else 0,
        "method": estimate_tokens(method),
        "recent": estimate_tokens(recent_text) if recent_text else 0,
        "recalled": estimate_tokens(recalled_text) if recalled_text else 0,
    }
    return AssembledPrompt(f"{persona}\n\n{method}", prompt, sections, tokens, dropped)


def persona_block(agent: Agent, task: Task, language: str, verbosity: str, assumptions: str) -> str:
    steps = "\n".join(agent.operating_procedures)
    lines = [
        f"You are the {agent.role.get(language)} of a product design team.",
        f"Goal: {agent.goal}",
        f"Background: {agent.backstory}",
        f"How you work:\n{steps}",
        "",
        "Rules for your answer:",
        f"- Answer in {LANGUAGE_NAMES.get(language, 'English')}. {VERBOSITY[verbosity]}",
        f"- Apply the method '{task.name.get(language)}' and deliver its parts in order.",
        "- Use the project context below; name the project's users, goals and constraints.",
        "- Cite the guide sections you rely on exactly as [guide.md > Section].",
        "- State your confidence (high, medium or low) and why, and note limitations and "
        "assumptions.",
        '- Record each decision the user should keep as <decision rationale="why">what</decision>.',
        "- If you need one answer from the user to continue, ask it as "
        "<ask_user>question</ask_user>.",
        "- Use no other tags and do not run tools.",
    ]
    if assumptions:
        lines.append(
            f"- The user has not clarified; proceed and state these assumptions: {assumptions}"
        )
    return "\n".join(lines)


def method_block(task: Task, sections: Sequence[Section], language: str) -> str:
    parts = "\n".join(f"{i}. {part}" for i, part in enumerate(task.expected_output, 1))
    lines = [
        f"Method: {task.name.get(language)} ({task.id})",
        task.description,
        f"The deliverable has these parts:\n{parts}",
        "Method guide sections you may cite:",
    ]
    for section in sections:
        lines.append(f"--- {section.citation}\n{section.text}")
    return "\n".join(lines)


def _turns(title: str, turns: Sequence[PastTurn], max_tokens: int) -> tuple[str, int]:
    """The newest turns that fit, in chronological order, and how many were left out."""
    kept: list[str] = []
    used = estimate_tokens(title) + 1
    for turn in reversed(turns):
        line = f"{turn.role}{f' ({turn.when})' if turn.when else ''}: {inert(turn.text)}"
        if used + estimate_tokens(line) > max_tokens:
            break
        kept.append(line)
        used += estimate_tokens(line)
    if not kept:
        return "", len(turns)
    return f"{title}:\n" + "\n".join(reversed(kept)), len(turns) - len(kept)


def _clip(text: str, max_tokens: int) -> str:
    if estimate_tokens(text) <= max_tokens:
        return text
    keep = max(0, max_tokens * 4 - 20)
    return text[:keep].rstrip() + " [...truncated]"
