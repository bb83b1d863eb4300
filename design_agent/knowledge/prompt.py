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
from functools import cached_property

from design_agent.core.models import Agent, InputNeed, Task
from design_agent.core.text import estimate_tokens, reading_of
from design_agent.knowledge.guides import Knowledge, Section
from design_agent.knowledge.inputs import missing_needs
from design_agent.knowledge.materials import material_block
from design_agent.knowledge.prompt_frame import KEY_INPUTS, count, frame, length_words
from design_agent.knowledge.shape import outline, sent_sections
from design_agent.knowledge.tags import frame_tag, inert

ANSWER_RESERVE = 0.25  # share of the context window left for the answer
# The prompt's blocks, in the order they are sent (system prompt first).
BLOCKS = (
    "persona",
    "guide",
    "examples",
    "materials",
    "project",
    "decisions",
    "evidence",
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

    def render(self, max_tokens: int, language: str = "en") -> str:
        """The `<project>` block: name, metadata and briefs, as quoted text ("no project
        facts yet" when it has none)."""
        lines = [f"- {key}: {value}" for key, value in self.metadata.items()]
        lines += [f"Brief {name}:\n{content.strip()}" for name, content in self.briefs]
        body = _clip(inert("\n".join(lines)), max(0, max_tokens - 10))
        return _tag("project", body or frame(language)["no_facts"], name=self.name)

    @property
    def is_empty(self) -> bool:
        """Whether the project states no facts and has no briefs."""
        has_facts = any(str(v).strip() for v in self.metadata.values())
        return not has_facts and not self.briefs

    def texts(self) -> list[str]:
        """Everything the project says: its facts, briefs and decisions."""
        return [
            *map(str, self.metadata.values()),
            *(content for _name, content in self.briefs),
            *(f"{d} {r}" for d, r in self.decisions),
        ]

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
    # What the prompt names as not given yet (key facts, then the method's inputs).
    missing: list[str] = field(default_factory=list)

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
    evidence: str = "",
) -> AssembledPrompt:
    """Build the system prompt and the user prompt within `context_limit` tokens;
    `evidence` is a research method's evidence block body (evidence/block.py), already
    fitted to its share of the budget."""
    budget = int(context_limit * (1 - ANSWER_RESERVE))
    blocks: dict[str, str] = {
        "request": _tag("request", _clip(inert(message), budget // 2)),
        "persona": persona_block(agent, language),
    }
    example = citation_example(knowledge, task.guides[0], language)
    heard = [message, *(t.text for t in recent if t.role == "user")]
    facts = Facts(project, knowledge.inputs_of(task), heard)
    blocks["instructions"] = instructions_block(
        task, language, verbosity, facts, assumptions, instruction, example, bool(evidence)
    )
    if evidence:
        blocks["evidence"] = _tag("evidence", evidence)
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    if project is not None:
        blocks["project"] = project.render(max(0, left // 3), language)
        blocks["decisions"] = project.render_decisions(max(0, left // 6), language)
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    sections = knowledge.select(task, message, max(0, left) * 3 // 4, language, verbosity)
    blocks.update(reference_blocks(task, sections, language, message, verbosity))
    left = budget - sum(estimate_tokens(b) for b in blocks.values())
    blocks["recent"], recent_dropped = _turns("conversation", recent, left)
    left -= estimate_tokens(blocks["recent"])
    blocks["recalled"], recalled_dropped = _turns("earlier", recalled, left)
    offered = [
        s
        for s in sent_sections(knowledge.task_sections(task, language), verbosity)
        if not s.is_deliverable
    ]
    dropped = [s.citation for s in offered if s not in sections]
    dropped += [f"{n} recent turn(s)" for n in [recent_dropped] if n]
    dropped += [f"{n} older turn(s)" for n in [recalled_dropped] if n]
    user = [blocks[name] for name in BLOCKS[1:] if blocks.get(name)]
    tokens = {name: estimate_tokens(blocks[name]) if blocks.get(name) else 0 for name in BLOCKS}
    kept = {name: blocks[name] for name in BLOCKS if blocks.get(name)}
    missing = facts.missing(language)
    return AssembledPrompt(
        blocks["persona"], "\n\n".join(user), sections, tokens, dropped, kept, missing
    )


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


@dataclass(frozen=True)
class Facts:
    """What the answer stands on: the project, the inputs the method works from, and what
    the user has said (the request and their recent turns), to tell which are given."""

    project: ProjectContext | None
    needs: Sequence[InputNeed] = ()
    heard: Sequence[str] = ()

    def missing_keys(self) -> list[str]:
        """The key facts (users, problem, constraints) the project does not state."""
        return self.project.missing_inputs() if self.project is not None else list(KEY_INPUTS)

    @cached_property
    def missing_needs(self) -> list[InputNeed]:
        """The method's inputs nothing given states; one whose metadata key is a missing key
        fact is left to that fact (never asked twice). Kept: the instructions and the
        prompt's list of what is missing both ask."""
        metadata = self.project.metadata if self.project is not None else {}
        heard = [reading_of(said) for said in self.heard]  # a message is read on a bounded part
        texts = [*heard, *(self.project.texts() if self.project is not None else [])]
        keys = set(self.missing_keys())
        found = missing_needs(self.needs, texts, metadata)
        return [n for n in found if not keys & set(n.metadata)]

    def missing(self, language: str) -> list[str]:
        """Everything missing, in `language`: the key facts first, then the inputs."""
        words = frame(language)
        keys = [words[m] for m in self.missing_keys()]
        return keys + [n.name.get(language) for n in self.missing_needs]


def instructions_block(
    task: Task,
    language: str,
    verbosity: str,
    facts: Facts,
    assumptions: str,
    instruction: str,
    example: str,
    evidence: bool = False,
) -> str:
    """The `<instructions>` block: the one outline, format, length and rules; `example` is
    a citation of the method's main guide (citation_example); `evidence`: the prompt
    carries an evidence block, whose quoting rule comes with it."""
    words = frame(language)
    parts = outline(task, language, verbosity, words["merged"])
    listed = "\n".join(f"{i}. {part}" for i, part in enumerate(parts, 1))
    low, high = length_words(task.length, verbosity)
    lines = [
        words["method"].format(
            name=task.name.get(language), description=task.description_in(language)
        ),
        f"{words['outline']}\n{listed}",
        words["outline_fit"],
        words["format"],
        words["length"].format(low=count(low, language), high=count(high, language)),
        *facts_rules(words, facts, language, assumptions),
        words["cite"].format(example=example),
        *([words["evidence"]] if evidence else []),
        words["decision"],
        words["tags"],
        words["language"],
    ]
    if instruction:
        lines.append(words["extra"].format(instruction=instruction))
    return _tag(
        "instructions", "\n".join(f"- {line}" if i > 1 else line for i, line in enumerate(lines))
    )


def facts_rules(words: dict[str, str], facts: Facts, language: str, assumptions: str) -> list[str]:
    """The rules about the project's facts: use them (or there are none yet), what the
    method works from, what is missing and what to do about it, the decisions winning."""
    project = facts.project
    rules = [words["empty"] if project is None or project.is_empty else words["facts"]]
    if facts.needs:
        names = "; ".join(n.name.get(language) for n in facts.needs)
        rules.append(words["needs"].format(inputs=names))
    missing = facts.missing(language)
    if missing:
        rules.append(words["missing"].format(missing=_listed(missing, words)))
    if project is not None and project.decisions:
        rules.append(words["decisions_win"])
    if assumptions:
        rules.append(words["assumed"].format(assumptions=inert(assumptions)))
    return rules


def _listed(items: list[str], words: dict[str, str]) -> str:
    """'a', 'a and b', 'a; b and c' in the frame's language (items may hold commas)."""
    return items[0] if len(items) == 1 else "; ".join(items[:-1]) + words["and"] + items[-1]


def citation_example(knowledge: Knowledge, guide: str, language: str) -> str:
    """`[guide > Procedure]`, or a section the guide has when it has no procedure (a team's
    guide written its own way): the example never names a section that is not there."""
    procedure = "Procedimiento" if language == "es" else "Procedure"
    headings = [s.heading for s in knowledge.sections(guide, language)]
    if procedure in headings or not headings:
        return f"[{guide} > {procedure}]"
    return f"[{guide} > {headings[1] if len(headings) > 1 else headings[0]}]"


def reference_blocks(
    task: Task,
    sections: Sequence[Section],
    language: str,
    message: str = "",
    verbosity: str = "detailed",
) -> dict[str, str]:
    """The `<guide>`, `<example>` and `<material>` blocks for the chosen sections; a data
    file trimmed to the rows nearest `message` that `verbosity` allows."""
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
    names = list(dict.fromkeys(s.source for s in sections if s.kind == "material"))
    materials = [
        material_block(
            name,
            [s for s in sections if s.source == name and not s.is_example],
            message,
            verbosity,
            language,
        )
        for name in names
    ]
    return {
        "guide": "\n\n".join(guides),
        "examples": "\n\n".join(examples),
        "materials": "\n\n".join(m for m in materials if m),
    }


_tag = frame_tag


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
