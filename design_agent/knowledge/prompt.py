"""Steps 5-6: assemble one prompt within the provider's context budget, by priority.

The prompt contract (docs/prompt-contract.md): the system prompt is the
persona's short role and stance. The user prompt puts the reference material
first, each part in its own tag (`<guide>`, `<example>` marked illustrative,
`<material>`, `<project>`, `<decisions>`, the conversation), then the
instructions (one deliverable outline, the format, a length from the task and
the verbosity, what to do about missing facts), and the request last. Every
word of the frame is in the user's language (prompt_frame.py).

Priority within the budget (highest first): the request; the persona and the
instructions; the project; the method's guide sections; recent turns; older
turns found by search. Each lower part gets what is left after those above.

Everything quoted from the user (the message, the project's metadata, briefs
and decisions, past turns) goes through `tags.inert`: only the frame may spell
a tag, and only the model's answer is scanned for one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from design_agent.core.models import Agent, Task
from design_agent.core.text import estimate_tokens
from design_agent.knowledge.guides import Knowledge, Section
from design_agent.knowledge.prompt_frame import KEY_INPUTS, frame, length_words
from design_agent.knowledge.tags import inert

ANSWER_RESERVE = 0.25  # share of the context window left for the answer
# The prompt's blocks, in the order they are sent (system prompt first).
BLOCKS = (
    "persona",
    "guide",
    "examples",
    "materials",
    "project",
    "decisions",
    "recent",
    "recalled",
    "instructions",
    "request",
)


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
        """The `<project>` block: name, metadata and briefs, as quoted text."""
        lines = [f"- {key}: {value}" for key, value in self.metadata.items()]
        lines += [f"Brief {name}:\n{content.strip()}" for name, content in self.briefs]
        body = _clip(inert("\n".join(lines)), max(0, max_tokens - 10))
        return _tag("project", body or "-", name=self.name)

    def render_decisions(self, max_tokens: int, language: str) -> str:
        """The `<decisions>` block: the project's decisions on this path, with their reasons."""
        if not self.decisions:
            return ""
        lines = [f"- {d} (because {r})" if r else f"- {d}" for d, r in self.decisions]
        return _tag("decisions", _clip(inert("\n".join(lines)), max(0, max_tokens - 5)))

    def missing_inputs(self) -> list[str]:
        """The key facts (users, problem, constraints) the project does not state."""
        known = {key for key, value in self.metadata.items() if str(value).strip()}
        return [key for key in KEY_INPUTS if key not in known]


@dataclass(frozen=True)
class AssembledPrompt:
    system: str
    prompt: str
    sections: list[Section]
    tokens: dict[str, int]
    dropped: list[str]
    # Each block's text by name (BLOCKS; empty ones left out): the MCP brief of a method is
    # the prompt without its `request` block.
    blocks: dict[str, str] = field(default_factory=dict)

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
    instruction: str = "",
) -> AssembledPrompt:
    """Build the system prompt and the user prompt within `context_limit` tokens."""
    budget = int(context_limit * (1 - ANSWER_RESERVE))
    blocks: dict[str, str] = {
        "request": _tag("request", _clip(inert(message), budget // 2)),
        "persona": persona_block(agent, language),
    }
    example = citation_example(knowledge, task.guides[0], language)
    blocks["instructions"] = instructions_block(
        task, language, verbosity, project, assumptions, instruction, example
    )
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    if project is not None:
        blocks["project"] = project.render(max(0, left // 3))
        blocks["decisions"] = project.render_decisions(max(0, left // 6), language)
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    sections = knowledge.select(task, message, max(0, left) * 3 // 4, language)
    blocks.update(reference_blocks(task, sections, language))
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    blocks["recent"], recent_dropped = _turns("conversation", recent, left)
    left -= estimate_tokens(blocks["recent"])
    blocks["recalled"], recalled_dropped = _turns("earlier", recalled, left)
    offered = [s for s in knowledge.task_sections(task, language) if not s.is_deliverable]
    dropped = [s.citation for s in offered if s not in sections]
    dropped += [f"{n} recent turn(s)" for n in [recent_dropped] if n]
    dropped += [f"{n} older turn(s)" for n in [recalled_dropped] if n]
    user = [blocks[name] for name in BLOCKS[1:] if blocks.get(name)]
    tokens = {name: estimate_tokens(blocks[name]) if blocks.get(name) else 0 for name in BLOCKS}
    kept = {name: blocks[name] for name in BLOCKS if blocks.get(name)}
    return AssembledPrompt(blocks["persona"], "\n\n".join(user), sections, tokens, dropped, kept)


def persona_block(agent: Agent, language: str) -> str:
    """The system prompt: the persona's role, goal and stance; no procedure of its own
    (the method's guide is the procedure)."""
    words = frame(language)
    lines = [
        words["role"].format(role=agent.role.get(language)),
        words["goal"].format(goal=agent.goal_in(language)),
    ]
    if agent.stance is not None:
        lines.append(words["stance"].format(stance=agent.stance.get(language)))
    lines.append(words["follow"])
    return "\n".join(lines)


def instructions_block(
    task: Task,
    language: str,
    verbosity: str,
    project: ProjectContext | None,
    assumptions: str,
    instruction: str,
    example: str,
) -> str:
    """The `<instructions>` block: the one outline, format, length and rules; `example` is
    a citation of the method's main guide (citation_example)."""
    words = frame(language)
    outline = "\n".join(f"{i}. {part}" for i, part in enumerate(task.outline(language), 1))
    low, high = length_words(task.length, verbosity)
    lines = [
        words["method"].format(
            name=task.name.get(language), description=task.description_in(language)
        ),
        f"{words['outline']}\n{outline}",
        words["format"],
        words["length"].format(low=f"{low:,}", high=f"{high:,}"),
        *_facts_rules(words, project, assumptions),
        words["cite"].format(example=example),
        words["confidence"],
        words["decision"],
        words["tags"],
        words["language"],
    ]
    if instruction:
        lines.append(words["extra"].format(instruction=instruction))
    return _tag(
        "instructions", "\n".join(f"- {line}" if i > 1 else line for i, line in enumerate(lines))
    )


def _facts_rules(
    words: dict[str, str], project: ProjectContext | None, assumptions: str
) -> list[str]:
    missing = project.missing_inputs() if project is not None else list(KEY_INPUTS)
    rules = [words["facts"]] if project is not None and len(missing) < len(KEY_INPUTS) else []
    if missing:
        rules.append(words["missing"].format(missing=_listed([words[m] for m in missing], words)))
    if assumptions:
        rules.append(words["assumed"].format(assumptions=inert(assumptions)))
    return rules


def _listed(items: list[str], words: dict[str, str]) -> str:
    """'a', 'a and b', 'a, b and c' in the frame's language."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + words["and"] + items[-1]


def citation_example(knowledge: Knowledge, guide: str, language: str) -> str:
    """`[guide > Procedure]`, or a section the guide has when it has no procedure (a team's
    guide written its own way): the example never names a section that is not there."""
    procedure = "Procedimiento" if language == "es" else "Procedure"
    headings = [s.heading for s in knowledge.sections(guide, language)]
    if procedure in headings or not headings:
        return f"[{guide} > {procedure}]"
    return f"[{guide} > {headings[1] if len(headings) > 1 else headings[0]}]"


def reference_blocks(task: Task, sections: Sequence[Section], language: str) -> dict[str, str]:
    """The `<guide>`, `<example>` and `<material>` blocks for the chosen sections."""
    words = frame(language)
    guides: list[str] = []
    for name in task.guides:
        parts = [s for s in sections if s.source == name and not s.is_example]
        if parts:
            body = "\n".join(_tag("section", s.text, title=s.heading) for s in parts)
            guides.append(_tag("guide", body, source=name, method=task.id, lang=parts[0].language))
    examples = [
        _tag("example", s.text, source=s.source, section=s.heading, note=words["example_note"])
        for s in sections
        if s.is_example
    ]
    materials = [
        _material(name, [s for s in sections if s.source == name and not s.is_example], words)
        for name in task.materials
    ]
    return {
        "guide": "\n\n".join(guides),
        "examples": "\n\n".join(examples),
        "materials": "\n\n".join(m for m in materials if m),
    }


def _material(name: str, parts: Sequence[Section], words: dict[str, str]) -> str:
    """One `<material>` block: a data file as it is, a markdown file by its sections."""
    if not parts:
        return ""
    if len(parts) == 1 and parts[0].heading in {"Data", "Summary"}:
        body = parts[0].text
    else:
        body = "\n".join(_tag("section", s.text, title=s.heading) for s in parts)
    if parts[0].is_template:
        return _tag("material", body, source=name, note=words["template_note"])
    return _tag("material", body, source=name)


def _attribute(value: str) -> str:
    """An attribute value that cannot end the attribute or the tag."""
    return escape(value, quote=True)


def _tag(tag: str, body: str, /, **attributes: str) -> str:
    attrs = "".join(f' {key}="{_attribute(value)}"' for key, value in attributes.items())
    return f"<{tag}{attrs}>\n{body.strip()}\n</{tag}>"


def _turns(tag: str, turns: Sequence[PastTurn], max_tokens: int) -> tuple[str, int]:
    """The newest turns that fit, in chronological order, and how many were left out."""
    kept: list[str] = []
    used = 2 * estimate_tokens(tag) + 4
    for turn in reversed(turns):
        line = f"{turn.role}{f' ({turn.when})' if turn.when else ''}: {inert(turn.text)}"
        if used + estimate_tokens(line) > max_tokens:
            break
        kept.append(line)
        used += estimate_tokens(line)
    if not kept:
        return "", len(turns)
    return _tag(tag, "\n".join(reversed(kept))), len(turns) - len(kept)


def _clip(text: str, max_tokens: int) -> str:
    if estimate_tokens(text) <= max_tokens:
        return text
    keep = max(0, max_tokens * 4 - 20)
    return text[:keep].rstrip() + " [...truncated]"
