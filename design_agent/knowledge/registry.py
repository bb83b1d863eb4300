"""The catalogue: agents, tasks, guides, materials and adapter files.

Bundled data loads first, then the user's overlay in the home, through the
same code path: an overlay entry with an existing id replaces the bundled one,
a new id adds one. Loading never stops at the first problem; every problem is
collected with its file and line, in plain words (plain.py), so `design-agent
check` can report them all in one run.

A mistake in the home's own files never stops the product: the broken entry
(or the whole file, when it cannot be read) is left out, a bundled entry it
would have replaced stays, and `left_out` says what was left out and why, for
one warning line each (the shell's banner, `ask` on stderr, the page). Only a
problem in the bundled files, which no user wrote, makes the catalogue unusable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from design_agent.core.errors import ConfigError, NotFoundError
from design_agent.core.models import Agent, InputNeed, Task
from design_agent.core.paths import DataLayout, HomeLayout, bundled_root
from design_agent.core.yamlfile import LocatedYaml, Problem, YamlFileError, load_located
from design_agent.knowledge import references
from design_agent.knowledge.plain import did_you_mean, plain_error, plain_yaml

ModelT = TypeVar("ModelT", bound=BaseModel)
Key = tuple[str, str]  # ("tasks" | "agents", id)
# The cache entry's name: a new layout of Catalogue is a new name (an old pickle lacks fields).
CACHE_KIND = "catalogue-2"
# Left-out lines shown before "and N more" (each names its file and line).
LEFT_OUT_SHOWN = 3


@dataclass(frozen=True)
class Origin:
    """Where an entry was defined, for error messages."""

    path: Path
    line: int | None
    # The line of each top-level field, so a problem with one points at it.
    fields: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)

    def line_of(self, field_name: str) -> int | None:
        """The line of the entry's `field_name`, else of the entry."""
        return dict(self.fields).get(field_name, self.line)


@dataclass(frozen=True)
class LeftOut:
    """A part of the home's own files left out of the catalogue, and the first reason.

    `kind` is "task", "agent", "file" (it could not be read at all) or "key" (a top-level
    key that is not the file's list); `name` the entry's id, the file or the key."""

    kind: str
    name: str
    path: Path
    line: int | None
    reason: str
    problems: int = 1

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)


@dataclass
class Catalogue:
    """Everything the bundled data and the overlay define, plus the problems found."""

    agents: dict[str, Agent] = field(default_factory=dict)
    tasks: dict[str, Task] = field(default_factory=dict)
    inputs: dict[str, InputNeed] = field(default_factory=dict)
    guides: dict[str, Path] = field(default_factory=dict)
    materials: dict[str, Path] = field(default_factory=dict)
    adapter_files: dict[str, Path] = field(default_factory=dict)
    origins: dict[Key, Origin] = field(default_factory=dict)
    # Every problem, bundled and the home's, in plain words (what `check` prints).
    problems: list[Problem] = field(default_factory=list)
    # Problems in the bundled files: those make the catalogue unusable.
    fatal: list[Problem] = field(default_factory=list)
    # What `check` warns about without failing (a Spanish name missing, ...).
    warnings: list[Problem] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    # Entries the home defines (a team's own, or its version of a bundled one).
    overlay: set[Key] = field(default_factory=set)
    # The bundled entries an overlay entry replaces, with where they were defined.
    shadowed: dict[Key, tuple[Any, Origin]] = field(default_factory=dict)
    # Entries that failed their schema: their raw mapping, still checked for references.
    broken: dict[Key, tuple[dict[str, Any], Origin]] = field(default_factory=dict)
    # Warnings about one of the home's methods, kept only if the method is not left out.
    task_notes: dict[str, list[Problem]] = field(default_factory=dict)
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
            close = did_you_mean(task_id, self.tasks)
            hint = f"did you mean {close}? " if close else ""
            raise NotFoundError(
                f"no method '{task_id}'; {hint}'design-agent methods list' shows them"
            ) from None

    def is_team(self, task_id: str) -> bool:
        """Whether the method is the team's own (defined in the home), not bundled."""
        return ("tasks", task_id) in self.overlay

    def replaces_bundled(self, task_id: str) -> bool:
        """Whether the team's method of this id takes the place of a bundled one."""
        return ("tasks", task_id) in self.shadowed

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
        """Raise ConfigError when a bundled file has a problem, or return self. A problem in
        the home's own files does not raise: its entry was left out (`left_out`)."""
        if self.fatal:
            raise ConfigError.listing([str(p) for p in self.fatal])
        return self

    def left_out_lines(self, language: str = "en") -> list[str]:
        """One warning line per part left out (at most LEFT_OUT_SHOWN, then how many more)."""
        from design_agent.core.messages import say

        lines = [_left_out_line(item, language) for item in self.left_out[:LEFT_OUT_SHOWN]]
        more = len(self.left_out) - LEFT_OUT_SHOWN
        if more > 0:
            lines.append(say("left_out_more", language, count=more))
        return lines

    def leave_out(self, kind: str, name: str, problem: Problem) -> None:
        """Count `problem` against the home's `kind` entry `name`, left out."""
        self.problems.append(problem)
        for label in (f"{kind} '{name}': ", f"{kind} {name}: "):
            if problem.message.startswith(label):
                problem = Problem(problem.path, problem.line, problem.message[len(label) :])
        for i, item in enumerate(self.left_out):
            if (item.kind, item.name) == (kind, name):
                self.left_out[i] = LeftOut(
                    item.kind, item.name, item.path, item.line, item.reason, item.problems + 1
                )
                return
        self.left_out.append(LeftOut(kind, name, problem.path, problem.line, problem.message))

    def drop(self, key: Key) -> None:
        """Take the home's entry `key` out; the bundled one it replaced comes back."""
        section, entry_id = key
        target: dict[str, Any] = self.tasks if section == "tasks" else self.agents
        target.pop(entry_id, None)
        self.overlay.discard(key)
        self.origins.pop(key, None)
        if key in self.shadowed:
            entry, origin = self.shadowed.pop(key)
            target[entry_id], self.origins[key] = entry, origin


def _left_out_line(item: LeftOut, language: str) -> str:
    from design_agent.core.messages import say

    more = say("left_out_also", language, count=item.problems - 1) if item.problems > 1 else ""
    return say(
        f"left_out_{item.kind}",
        language,
        name=item.name,
        where=item.where,
        reason=item.reason,
        more=more,
    )


def data_layers(home: HomeLayout) -> list[DataLayout]:
    """The bundled layer first, then the user's overlay."""
    return [DataLayout(bundled_root()), home]


def load_catalogue(home: HomeLayout) -> Catalogue:
    """Load and cross-check every layer; problems are collected, never raised."""
    catalogue = Catalogue()
    for index, layer in enumerate(data_layers(home)):
        reader = _Reader(catalogue, overlay=index > 0)
        reader.entries(layer.agents_file, "agents", Agent, catalogue.agents)
        reader.entries(layer.tasks_file, "tasks", Task, catalogue.tasks)
        reader.entries(layer.inputs_file, "inputs", InputNeed, catalogue.inputs)
        catalogue.guides.update(_files_in(layer.guides_dir, {".md"}))
        catalogue.materials.update(_files_in(layer.materials_dir, {".md", ".csv", ".txt"}))
        catalogue.adapter_files.update(
            {p.stem: p for p in _files_in(layer.adapters_dir, {".yaml", ".yml"}).values()}
        )
    references.cross_check(catalogue, home)
    references.warn(catalogue, home)
    return catalogue


def catalogue_sources(home: HomeLayout) -> list[Path]:
    """Every file the catalogue is built from (for the cache signature)."""
    paths: list[Path] = []
    for layer in data_layers(home):
        paths += [layer.agents_file, layer.tasks_file, layer.inputs_file]
        for folder in (layer.guides_dir, layer.materials_dir, layer.adapters_dir):
            if folder.is_dir():
                paths += [folder, *folder.iterdir()]
        for companions in (layer.guides_dir / "es",):  # a guide's Spanish companions
            if companions.is_dir():
                paths += list(companions.iterdir())
    return paths


def catalogue_signature(home: HomeLayout) -> str:
    """The signature the catalogue read now would have (a stat of each source file)."""
    from design_agent.core.cache import signature

    return signature(catalogue_sources(home))


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
    catalogue = cached(home, CACHE_KIND, key, lambda: load_catalogue(home))
    catalogue.signature = key
    return catalogue


def _files_in(folder: Path, suffixes: set[str]) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if p.is_file() and p.suffix in suffixes}


@dataclass
class _Reader:
    """Reads one layer's entries into the catalogue; `overlay`: the home's own files, whose
    broken parts are left out rather than fatal."""

    catalogue: Catalogue
    overlay: bool

    def report(self, kind: str, name: str, problem: Problem) -> None:
        if self.overlay:
            self.catalogue.leave_out(kind, name, problem)
        else:
            self.catalogue.problems.append(problem)
            self.catalogue.fatal.append(problem)

    def entries(
        self, path: Path, section: str, model: type[ModelT], target: dict[str, ModelT]
    ) -> None:
        if not path.exists():
            return
        try:
            located = load_located(path)
        except YamlFileError as e:
            problem = e.problem
            message = problem.message
            if message.startswith("invalid YAML: "):
                message = plain_yaml(message.removeprefix("invalid YAML: "))
            self.report("file", str(path), Problem(path, problem.line, message))
            return
        seen: dict[str, int | None] = {}
        for index, raw in enumerate(self._section_list(located, section)):
            self._entry(located, (section, index), raw, model, target, seen)

    def _section_list(self, located: LocatedYaml, section: str) -> list[Any]:
        data = located.data
        path = located.path
        if data is None or (isinstance(data, dict) and data.get(section, []) is None):
            return []  # an empty file, or `tasks:` with nothing under it yet
        extra = sorted(str(k) for k in data) if isinstance(data, dict) else []
        extra = [k for k in extra if k != section]
        if not isinstance(data, dict) or not isinstance(data.get(section), list):
            self.report("file", str(path), located.problem((), _no_list(section, extra)))
            return []
        for key in extra:
            message = f"unknown top-level key '{key}'; this file holds one list, '{section}:'"
            self.report("key", key, located.problem((key,), message))
        return list(data[section])

    def _entry(
        self,
        located: LocatedYaml,
        loc: tuple[str, int],
        raw: Any,
        model: type[ModelT],
        target: dict[str, ModelT],
        seen: dict[str, int | None],
    ) -> None:
        section, index = loc
        kind = section[:-1]
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        name = raw_id if isinstance(raw_id, str) and raw_id else f"#{index + 1}"
        origin = _origin(located, loc, raw)
        entry = self._validate(located, loc, raw, model, kind, name)
        if entry is None:
            mapping = raw if isinstance(raw, dict) else {}
            self.catalogue.broken[(section, name)] = (mapping, origin)
            return
        entry_id = str(getattr(entry, "id"))  # noqa: B009 - every catalogue model has an id
        if entry_id in seen:
            message = (
                f"{kind} id '{entry_id}' is used twice in this file (first at line "
                f"{seen[entry_id]}); give this one another id, or remove it"
            )
            self.report(kind, entry_id, Problem(*_at(origin), message))
            return
        seen[entry_id] = origin.line
        self._add(section, entry_id, entry, target, origin)
        if self.overlay and kind == "task":
            references.note_spanish_name(self.catalogue, entry_id, raw, located, loc)

    def _add(
        self, section: str, entry_id: str, entry: ModelT, target: dict[str, ModelT], origin: Origin
    ) -> None:
        key = (section, entry_id)
        if self.overlay:
            if entry_id in target and key not in self.catalogue.overlay:
                self.catalogue.shadowed[key] = (target[entry_id], self.catalogue.origins[key])
            self.catalogue.overlay.add(key)
        target[entry_id] = entry
        self.catalogue.origins[key] = origin

    def _validate(
        self,
        located: LocatedYaml,
        loc: tuple[str | int, ...],
        raw: Any,
        model: type[ModelT],
        kind: str,
        name: str,
    ) -> ModelT | None:
        label = f"{kind} '{name}'" if not name.startswith("#") else f"{kind} {name}"
        if not isinstance(raw, dict):
            message = f"{label}: each entry is a mapping of fields, starting '- id: ...'"
            self.report(kind, name, located.problem(loc, message))
            return None
        try:
            return model.model_validate(raw)
        except ValidationError as e:
            fields = _field_names(model)
            for err in e.errors():
                message = plain_error(kind, label, err, fields)
                self.report(kind, name, located.problem((*loc, *err["loc"]), message))
            return None


def _origin(located: LocatedYaml, loc: tuple[str, int], raw: Any) -> Origin:
    keys = [key for key in raw if isinstance(key, str)] if isinstance(raw, dict) else []
    lines = ((key, located.lines.get((*loc, key))) for key in keys)
    fields = tuple((key, line) for key, line in lines if line is not None)
    return Origin(located.path, located.line_of(loc), fields)


def _at(origin: Origin) -> tuple[Path, int | None]:
    return origin.path, origin.line


def _no_list(section: str, extra: list[str]) -> str:
    close = next((k for k in extra if did_you_mean(k, [section])), None)
    if close is not None:
        return f"the top-level key '{close}' should be '{section}:' (a list of entries)"
    return f"this file needs a top-level list '{section}:', e.g. '{section}:' then '  - id: ...'"


def _field_names(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]
