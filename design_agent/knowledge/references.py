"""What catalogue entries name: agents, guides, materials, tasks, checked across files.

Run once all layers are read. A task of the home's own whose agent, guide or material
does not exist is left out (with "did you mean" when a valid name is close), and so is
anything that depended on what was left out, until nothing else breaks; a bundled one is
a fatal problem. Entries that already failed their schema are checked too, from their raw
fields, so an agent typo is reported in the same run as a missing field.

`warn` adds what `check` says without failing: a team's guide with none of the standard
sections, a persona of the team's that answers no method, a method with no Spanish name.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from design_agent.core.yamlfile import Problem
from design_agent.knowledge.plain import unknown_hint
from design_agent.knowledge.sections import STANDARD, has_standard_sections

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout
    from design_agent.core.yamlfile import LocatedYaml
    from design_agent.knowledge.registry import Catalogue, Key, Origin

# (the entry's field the problem is in, what is wrong; what to write instead)
Found = tuple[str, str]
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_FILE = re.compile(r"^[A-Za-z0-9_.-]+\.(md|csv|txt)$")


def cross_check(catalogue: Catalogue, home: HomeLayout) -> None:
    """Check every reference; leave out the home's entries that break (and what breaks
    with them), report the bundled ones' problems as fatal."""
    for key, (raw, origin) in list(catalogue.broken.items()):
        for found_in in _raw_problems(catalogue, key, raw, home):
            _report(catalogue, key, origin, found_in, home)
    while True:
        found = _reference_problems(catalogue, home)
        mine = [key for key in found if key in catalogue.overlay]
        for key in mine:
            origin = catalogue.origins[key]
            for found_in in found[key]:
                _report(catalogue, key, origin, found_in, home)
            catalogue.drop(key)
        if not mine:
            break
    for key, messages in found.items():
        for found_in in messages:
            _report(catalogue, key, catalogue.origins[key], found_in, home)


def _report(catalogue: Catalogue, key: Key, origin: Origin, found: Found, home: HomeLayout) -> None:
    """A problem of the home's own entry leaves it out; of a bundled one, it is fatal."""
    field_name, message = found
    problem = Problem(origin.path, origin.line_of(field_name), message)
    if key in catalogue.overlay or origin.path.is_relative_to(home.root):
        catalogue.leave_out(key[0][:-1], key[1], problem)
    else:
        catalogue.problems.append(problem)
        catalogue.fatal.append(problem)


def _reference_problems(catalogue: Catalogue, home: HomeLayout) -> dict[Key, list[Found]]:
    found: dict[Key, list[Found]] = {}
    for task in catalogue.tasks.values():
        label = f"task '{task.id}'"
        refs = [*task.guides], [*task.materials]
        messages = _task_problems(catalogue, label, task.agent, refs, home)
        messages += _input_problems(catalogue, label, task.inputs)
        if messages:
            found[("tasks", task.id)] = messages
    for agent in catalogue.agents.values():
        messages = _agent_problems(catalogue, agent.id, agent.handoffs.to, agent.handoffs.from_)
        messages += _example_problems(catalogue, agent.id, agent.example_tasks)
        if not catalogue.tasks_of(agent.id) and ("agents", agent.id) not in catalogue.overlay:
            said = f"agent '{agent.id}' answers no method; name it as a task's agent"
            messages.append(("id", said))
        if messages:
            found[("agents", agent.id)] = messages
    return found


def _task_problems(
    catalogue: Catalogue,
    label: str,
    agent: str | None,
    files: tuple[list[str], list[str]],
    home: HomeLayout,
) -> list[Found]:
    messages: list[Found] = []
    if agent is not None and agent not in catalogue.agents:
        messages.append(("agent", _unknown_agent(catalogue, label, agent)))
    guides, materials = files
    for guide in guides:
        if guide not in catalogue.guides:
            said = _missing_file(label, "guide", guide, catalogue.guides, home.guides_dir)
            messages.append(("guides", said))
    for material in materials:
        if material not in catalogue.materials:
            folder = home.materials_dir
            said = _missing_file(label, "material", material, catalogue.materials, folder)
            messages.append(("materials", said))
    return messages


def _unknown_agent(catalogue: Catalogue, label: str, agent: str) -> str:
    broken = catalogue.broken.get(("agents", agent))
    if broken is not None:
        return (
            f"{label}: its agent '{agent}' is left out because of its own problem "
            f"({broken[1]}); fix that one first"
        )
    hint = unknown_hint(agent, catalogue.agents, "agents", "design-agent agents list")
    return f"{label}: agent '{agent}' does not exist; {hint}"


def _missing_file(label: str, what: str, name: str, known: dict[str, Path], folder: Path) -> str:
    from design_agent.knowledge.plain import did_you_mean

    close = did_you_mean(name, known)
    if close is not None:
        return f"{label}: {what} '{name}' does not exist; did you mean {close}?"
    maker = " (design-agent methods new writes one with the standard sections)"
    return (
        f"{label}: {what} '{name}' does not exist; write it as {folder / name}"
        f"{maker if what == 'guide' else ''}"
    )


def _agent_problems(
    catalogue: Catalogue, agent_id: str, to: list[str], from_: list[str]
) -> list[Found]:
    messages: list[Found] = []
    for other in [*to, *from_]:
        if other not in catalogue.agents:
            hint = unknown_hint(other, catalogue.agents, "agents", "design-agent agents list")
            said = f"agent '{agent_id}': handoff to '{other}', which is no agent; {hint}"
            messages.append(("handoffs", said))
    return messages


def _example_problems(catalogue: Catalogue, agent_id: str, examples: list[str]) -> list[Found]:
    return _unknown(
        examples, catalogue.tasks, "example_tasks", ("methods", "design-agent methods list"),
        f"agent '{agent_id}': example task '{{name}}' does not exist",
    )  # fmt: skip


def _raw_problems(
    catalogue: Catalogue, key: Key, raw: dict[str, Any], home: HomeLayout
) -> list[Found]:
    """The references of an entry that failed its schema, from the fields that can be read."""
    section, name = key
    label = f"{section[:-1]} '{name}'" if not name.startswith("#") else f"{section[:-1]} {name}"
    if section == "agents":
        handoffs = raw.get("handoffs")
        handoffs = handoffs if isinstance(handoffs, dict) else {}
        to = _names(handoffs.get("to"), _ID)
        messages = _agent_problems(catalogue, name, to, _names(handoffs.get("from"), _ID))
        return messages + _example_problems(catalogue, name, _names(raw.get("example_tasks"), _ID))
    agent = raw.get("agent")
    agent = agent if isinstance(agent, str) and _ID.match(agent) else None
    files = _names(raw.get("guides"), _FILE), _names(raw.get("materials"), _FILE)
    messages = _task_problems(catalogue, label, agent, files, home)
    return messages + _input_problems(catalogue, label, _names(raw.get("inputs"), _ID))


def _input_problems(catalogue: Catalogue, label: str, inputs: list[str]) -> list[Found]:
    """Each input a task names that config/inputs.yaml does not define, in one line."""
    return _unknown(
        inputs, catalogue.inputs, "inputs", ("inputs", "config/inputs.yaml"),
        f"{label}: input '{{name}}' is not defined in config/inputs.yaml",
    )  # fmt: skip


def _unknown(
    names: list[str], known: Collection[str], field: str, listing: tuple[str, str], said: str
) -> list[Found]:
    """One line per name that is not among `known`: `said` (with the name) and the hint of
    the closest one or where the valid names are listed."""
    kind, where = listing
    return [
        (field, f"{said.format(name=name)}; {unknown_hint(name, known, kind, where)}")
        for name in names
        if name not in known
    ]


def _names(value: Any, pattern: re.Pattern[str]) -> list[str]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str) and pattern.match(item)]


# -- warnings --------------------------------------------------------------------------------


def warn(catalogue: Catalogue, home: HomeLayout) -> None:
    """What `check` warns about in the home's own files (never what is bundled)."""
    sections = ", ".join(f"## {s}" for s in STANDARD[1:])
    for name, path in sorted(catalogue.guides.items()):
        text = _reads(path) if path.is_relative_to(home.root) else ""
        if text.strip() and not has_standard_sections(text):
            message = (
                f"guide '{name}' has none of the standard sections ({sections}); it is still "
                "used, split at its own headings, but answers follow a Procedure and a "
                "Deliverable better: add those headings"
            )
            catalogue.warnings.append(Problem(path, None, message))
    for task_id, notes in catalogue.task_notes.items():
        if ("tasks", task_id) in catalogue.overlay:  # not left out
            catalogue.warnings += notes
    for key in sorted(catalogue.overlay):
        if key[0] == "agents" and not catalogue.tasks_of(key[1]):
            origin = catalogue.origins[key]
            message = f"agent '{key[1]}' answers no method yet; name it as a method's agent"
            catalogue.warnings.append(Problem(origin.path, origin.line, message))


def _reads(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def note_spanish_name(
    catalogue: Catalogue,
    task_id: str,
    raw: dict[str, Any],
    located: LocatedYaml,
    loc: tuple[str | int, ...],
) -> None:
    """Note a team's method with no Spanish name, or no Spanish keywords (warned about
    unless the method is left out)."""
    notes = catalogue.task_notes.setdefault(task_id, [])
    name = raw.get("name")
    if isinstance(name, dict) and not name.get("es"):
        notes.append(
            located.problem(
                (*loc, "name"),
                f"task '{task_id}' has no Spanish name, so Spanish answers show the English "
                f"one; write name: {{en: {name.get('en')}, es: ...}}",
            )
        )
    keywords = raw.get("keywords")
    if isinstance(keywords, dict) and not keywords.get("es"):
        notes.append(
            located.problem(
                (*loc, "keywords"),
                f"task '{task_id}' has no Spanish keywords, so Spanish requests find it only "
                "by its name and description; add es: [...] under keywords",
            )
        )
