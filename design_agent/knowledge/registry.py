"""The catalogue: agents, tasks, guides, materials and adapter files.

Bundled data loads first, then the user's overlay in the home, through the
same code path: an overlay entry with an existing id replaces the bundled one,
a new id adds one. Loading never stops at the first problem; every problem is
collected with its file and line so `design-agent check` can report them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from design_agent.core.errors import ConfigError, NotFoundError
from design_agent.core.models import Agent, Task
from design_agent.core.paths import DataLayout, HomeLayout, bundled_root
from design_agent.core.yamlfile import LocatedYaml, Problem, YamlFileError, load_located

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class Origin:
    """Where an entry was defined, for error messages."""

    path: Path
    line: int | None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)


@dataclass
class Catalogue:
    """Everything the bundled data and the overlay define, plus the problems found."""

    agents: dict[str, Agent] = field(default_factory=dict)
    tasks: dict[str, Task] = field(default_factory=dict)
    guides: dict[str, Path] = field(default_factory=dict)
    materials: dict[str, Path] = field(default_factory=dict)
    adapter_files: dict[str, Path] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    signature: str = ""

    def agent(self, agent_id: str) -> Agent:
        try:
            return self.agents[agent_id]
        except KeyError:
            raise NotFoundError(
                f"no agent '{agent_id}'; run 'design-agent agents list' to see them"
            ) from None

    def task(self, task_id: str) -> Task:
        try:
            return self.tasks[task_id]
        except KeyError:
            raise NotFoundError(
                f"no task '{task_id}'; run 'design-agent tasks list' to see them"
            ) from None

    def guide_text(self, name: str) -> str:
        """The markdown of guide `name`, or "" when it is unknown or unreadable.

        Used when indexes are built (matching reads the guides' "When to use"
        sections once, never while matching a message)."""
        path = self.guides.get(name)
        if path is None:
            return ""
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    def companion_text(self, name: str, language: str) -> str:
        """The markdown of guide `name`'s companion in `language` (`es/<name>`), or ""."""
        path = self.guides.get(name)
        if path is None:
            return ""
        try:
            return (path.parent / language / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    def tasks_of(self, agent_id: str) -> list[Task]:
        return [task for task in self.tasks.values() if task.agent == agent_id]

    def require_valid(self) -> Catalogue:
        """Raise ConfigError listing every problem, or return self."""
        if self.problems:
            raise ConfigError.listing([str(p) for p in self.problems])
        return self


def data_layers(home: HomeLayout) -> list[DataLayout]:
    """The bundled layer first, then the user's overlay."""
    return [DataLayout(bundled_root()), home]


def load_catalogue(home: HomeLayout) -> Catalogue:
    """Load and cross-check every layer; problems are collected, never raised."""
    catalogue = Catalogue()
    for layer in data_layers(home):
        _load_entries(catalogue, layer.agents_file, "agents", Agent, catalogue.agents)
        _load_entries(catalogue, layer.tasks_file, "tasks", Task, catalogue.tasks)
        catalogue.guides.update(_files_in(layer.guides_dir, {".md"}))
        catalogue.materials.update(_files_in(layer.materials_dir, {".md", ".csv", ".txt"}))
        catalogue.adapter_files.update(
            {p.stem: p for p in _files_in(layer.adapters_dir, {".yaml", ".yml"}).values()}
        )
    _cross_check(catalogue)
    return catalogue


def catalogue_sources(home: HomeLayout) -> list[Path]:
    """Every file the catalogue is built from (for the cache signature)."""
    paths: list[Path] = []
    for layer in data_layers(home):
        paths += [layer.agents_file, layer.tasks_file]
        for folder in (layer.guides_dir, layer.materials_dir, layer.adapters_dir):
            if folder.is_dir():
                paths += [folder, *folder.iterdir()]
        for companions in (layer.guides_dir / "es",):  # a guide's Spanish companions
            if companions.is_dir():
                paths += list(companions.iterdir())
    return paths


def load_catalogue_cached(home: HomeLayout) -> Catalogue:
    """`load_catalogue`, from the home's cache when no source file changed.

    Where a process opens a home's catalogue it reads that home's words too: the lexicon
    in use becomes the home's (bundled words and its own lexicon/ files; core/lexicon.py)."""
    from design_agent.core.cache import cached, signature
    from design_agent.core.lexicon import use_home

    use_home(home)
    sources = catalogue_sources(home)
    for path in sources:  # an overlay adapter names a program to run, a task a guide to send
        if path.is_relative_to(home.root):
            home.trusted(path)
    key = signature(sources)
    catalogue = cached(home, "catalogue", key, lambda: load_catalogue(home))
    catalogue.signature = key
    return catalogue


def _files_in(folder: Path, suffixes: set[str]) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if p.is_file() and p.suffix in suffixes}


def _load_entries(
    catalogue: Catalogue,
    path: Path,
    section: str,
    model: type[ModelT],
    target: dict[str, ModelT],
) -> None:
    if not path.exists():
        return
    try:
        located = load_located(path)
    except YamlFileError as e:
        catalogue.problems.append(e.problem)
        return
    entries = _section_list(located, section, catalogue.problems)
    seen: set[str] = set()
    for index, raw in enumerate(entries):
        entry = _validate(located, (section, index), raw, model, catalogue.problems)
        if entry is None:
            continue
        entry_id = str(getattr(entry, "id"))  # noqa: B009 - every catalogue model has an id
        if entry_id in seen:
            catalogue.problems.append(
                located.problem((section, index, "id"), f"duplicate {section[:-1]} id '{entry_id}'")
            )
            continue
        seen.add(entry_id)
        target[entry_id] = entry
        catalogue.origins[(section, entry_id)] = Origin(path, located.line_of((section, index)))


def _section_list(located: LocatedYaml, section: str, problems: list[Problem]) -> list[Any]:
    data = located.data
    if not isinstance(data, dict) or not isinstance(data.get(section), list):
        problems.append(located.problem((), f"expected a top-level '{section}:' list"))
        return []
    extra = sorted(str(k) for k in data if k != section)
    if extra:
        problems.append(located.problem((extra[0],), f"unexpected top-level key '{extra[0]}'"))
    return list(data[section])


def _validate(
    located: LocatedYaml,
    loc: tuple[str | int, ...],
    raw: Any,
    model: type[ModelT],
    problems: list[Problem],
) -> ModelT | None:
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        label = raw.get("id", f"#{loc[-1]}") if isinstance(raw, dict) else f"#{loc[-1]}"
        for err in e.errors():
            field_loc = tuple(err["loc"])
            where = ".".join(str(p) for p in field_loc)
            message = err["msg"]
            if err["type"] == "extra_forbidden":
                message = "unknown field (check its spelling)"
            problems.append(located.problem((*loc, *field_loc), f"{label}: {where}: {message}"))
        return None


def _cross_check(catalogue: Catalogue) -> None:
    def add(kind: str, entry_id: str, message: str) -> None:
        origin = catalogue.origins.get((kind, entry_id))
        path = origin.path if origin else Path(kind)
        catalogue.problems.append(Problem(path, origin.line if origin else None, message))

    for task in catalogue.tasks.values():
        if task.agent not in catalogue.agents:
            add("tasks", task.id, f"task '{task.id}': unknown agent '{task.agent}'")
        for guide in task.guides:
            if guide not in catalogue.guides:
                add("tasks", task.id, f"task '{task.id}': guide file '{guide}' not found")
        for material in task.materials:
            if material not in catalogue.materials:
                add("tasks", task.id, f"task '{task.id}': material file '{material}' not found")
    for agent in catalogue.agents.values():
        if not catalogue.tasks_of(agent.id):
            add("agents", agent.id, f"agent '{agent.id}' has no task assigned to it")
        for other in [*agent.handoffs.to, *agent.handoffs.from_]:
            if other not in catalogue.agents:
                add("agents", agent.id, f"agent '{agent.id}': handoff to unknown agent '{other}'")
        for task_id in agent.example_tasks:
            if task_id not in catalogue.tasks:
                add("agents", agent.id, f"agent '{agent.id}': unknown example task '{task_id}'")
