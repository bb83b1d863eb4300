"""A team's own method, written into the home: its entry, its guide, its Spanish companion.

    draft = MethodDraft(name="Pricing page review", description=..., agent=..., outputs=...)
    written = add_method(home, catalogue, draft)    # the files, the entry's line
    removed = remove_method(home, catalogue, "pricing_page_review")

The entry is appended to `<home>/config/tasks.yaml` as text, so what the file holds
(other entries, comments, their layout) stays as it was; the result is read back and
must hold the new entry, or nothing is written. The guide is the team's own file or a
skeleton with the standard sections (sections.py), the deliverable's parts already in
its Procedure and Deliverable. Removing takes out the entry's lines and the guides no
other method uses; a bundled method is never touched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from design_agent.core.errors import ConfigError, UsageError
from design_agent.core.fsutil import ensure_private_dir
from design_agent.core.models import Task
from design_agent.core.user_files import write_file
from design_agent.core.yamlfile import YamlFileError, load_located, parse_located
from design_agent.knowledge.plain import identifier, plain_error, unknown_hint

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout
    from design_agent.knowledge.registry import Catalogue

LENGTHS = ("short", "medium", "long")
FIX_FIRST = "fix it first ('design-agent check' says how), then add the method again"


@dataclass(frozen=True)
class MethodDraft:
    """What a team says about its new method; `method_id` defaults to the name's id."""

    name: str
    description: str
    agent: str
    outputs: tuple[str, ...]
    length: str = "medium"
    name_es: str | None = None
    description_es: str | None = None
    outputs_es: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    keywords_es: tuple[str, ...] = ()
    spanish_guide: bool = False
    guide_text: str | None = None  # the team's own guide; None: a skeleton
    guide_source: Path | None = None  # where guide_text was read from
    method_id: str = ""

    @property
    def id(self) -> str:
        return self.method_id or identifier(self.name)

    def entry(self, guide: str) -> dict[str, Any]:
        """The catalogue entry, as it is written to tasks.yaml."""
        name = {"en": self.name, **({"es": self.name_es} if self.name_es else {})}
        keywords: dict[str, list[str]] = {"en": _unique([self.name.lower(), *self.keywords])}
        spanish = [self.name_es.lower()] if self.name_es else []
        if spanish or self.keywords_es:
            keywords["es"] = _unique([*spanish, *self.keywords_es])
        entry: dict[str, Any] = {
            "id": self.id,
            "name": name,
            "description": self.description,
            "expected_output": list(self.outputs),
            "keywords": keywords,
            "guides": [guide],
            "agent": self.agent,
            "length": self.length,
        }
        if self.description_es and self.outputs_es:
            spanish_outline = [*self.outputs_es]
            entry["es"] = {"description": self.description_es, "expected_output": spanish_outline}
        return entry


@dataclass(frozen=True)
class Written:
    """What `add_method` wrote: the overlay file, the entry's line, the guide files."""

    task: Task
    tasks_file: Path
    line: int | None
    guides: list[Path] = field(default_factory=list)
    replaces_bundled: bool = False


@dataclass(frozen=True)
class Removed:
    """What `remove_method` took out, and whether a bundled method of that id is back."""

    task_id: str
    tasks_file: Path
    guides: list[Path]
    bundled_back: bool


def _unique(items: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    for item in items:
        if item.strip():
            seen.setdefault(item.strip().lower(), item.strip())
    return list(seen.values())


# -- checking a draft before anything is written -----------------------------------------------


def checked(draft: MethodDraft, catalogue: Catalogue, replace: bool = False) -> Task:
    """The draft as a valid Task, or UsageError saying what to change, in plain words."""
    try:
        task = Task.model_validate(draft.entry(f"{draft.id}.md"))
    except ValidationError as e:
        fields = list(Task.model_fields)
        said = [plain_error("task", f"method '{draft.id}'", err, fields) for err in e.errors()]
        raise UsageError("; ".join(said)) from e
    if task.agent not in catalogue.agents:
        hint = unknown_hint(task.agent, catalogue.agents, "agents", "design-agent agents list")
        raise UsageError(f"there is no persona '{task.agent}'; {hint}")
    _check_free(task.id, catalogue, replace)
    return task


def _check_free(task_id: str, catalogue: Catalogue, replace: bool) -> None:
    if catalogue.is_team(task_id):
        origin = catalogue.origins[("tasks", task_id)]
        raise UsageError(
            f"you already have a method '{task_id}' ({origin}); 'design-agent methods edit "
            f"{task_id}' changes it, or give the new one another id (--id)"
        )
    if task_id in catalogue.tasks and not replace:
        raise UsageError(
            f"a bundled method is called '{task_id}'; yours would take its place: say so "
            "(--replace), or give yours another id (--id)"
        )


# -- writing -------------------------------------------------------------------------------------


def add_method(
    home: HomeLayout, catalogue: Catalogue, draft: MethodDraft, replace: bool = False
) -> Written:
    """Write the guide (and its Spanish companion when asked), then the entry; nothing is
    written when the draft or the overlay file has a problem."""
    task = checked(draft, catalogue, replace)
    path = home.tasks_file
    guide = _guide_name(draft, catalogue, home)
    entry = draft.entry(guide)
    text = appended(_current_text(path), entry, path)
    line = _read_back(text, path, entry)  # before anything is written
    guides = _write_guides(home, draft, guide)
    ensure_private_dir(path.parent)
    write_file(path, text.encode("utf-8"), replace=path.exists())
    replaced = task.id in catalogue.tasks and not catalogue.is_team(task.id)
    return Written(Task.model_validate(entry), path, line, guides, replaced)


def _current_text(path: Path) -> str:
    """The overlay file as it is ("" when there is none); refused when it cannot be read,
    or holds more than its `tasks:` list (what to add to would be a guess)."""
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    try:
        data = parse_located(text, path).data
    except YamlFileError as e:
        raise UsageError(f"{e.problem}; {FIX_FIRST}") from e
    if data is not None and (not isinstance(data, dict) or set(data) - {"tasks"}):
        raise UsageError(f"{path} holds more than one 'tasks:' list; {FIX_FIRST}")
    if isinstance(data, dict) and not isinstance(data.get("tasks"), list | None):
        raise UsageError(f"{path}: 'tasks:' is not a list; {FIX_FIRST}")
    return text


def _read_back(text: str, path: Path, entry: dict[str, Any]) -> int | None:
    """The line of `entry` in `text`, which must read back as the file plus that entry."""
    located = parse_located(text, path)
    items = located.data.get("tasks") if isinstance(located.data, dict) else None
    if not items or items[-1] != entry:
        raise ConfigError(f"{path}: the method could not be added as text; nothing was written")
    return located.line_of(("tasks", len(items) - 1))


def _guide_name(draft: MethodDraft, catalogue: Catalogue, home: HomeLayout) -> str:
    """`<id>.md`, unless that name is another method's guide (then `<id>_2.md`, ...); the
    team's own guide already in the home keeps its name."""
    source = draft.guide_source
    if source is not None and source.resolve().parent == home.guides_dir.resolve():
        return source.name
    name, n = f"{draft.id}.md", 1
    while name in catalogue.guides or (home.guides_dir / name).exists():
        n += 1
        name = f"{draft.id}_{n}.md"
    return name


def _write_guides(home: HomeLayout, draft: MethodDraft, guide: str) -> list[Path]:
    target = home.guides_dir / guide
    written: list[Path] = []
    if not target.exists():
        ensure_private_dir(target.parent)
        text = draft.guide_text if draft.guide_text is not None else skeleton(draft)
        write_file(target, text.encode("utf-8"))
    written.append(target)
    if draft.spanish_guide:
        companion = home.guides_dir / "es" / guide
        if not companion.exists():
            ensure_private_dir(companion.parent)
            write_file(companion, companion_skeleton(draft).encode("utf-8"))
        written.append(companion)
    return written


def appended(before: str, entry: dict[str, Any], path: Path) -> str:
    """`before` (a tasks file's text) with `entry` added at the end of its `tasks:` list."""
    data = parse_located(before, path).data if before.strip() else None
    items = data.get("tasks") if isinstance(data, dict) else None
    if not items:  # no file, an empty one, `tasks:` or `tasks: []`
        head = _without_empty_list(before)
        head = head if not head or head.endswith("\n") else head + "\n"
        return f"{head}tasks:\n{entry_yaml(entry, '  ')}"
    first = parse_located(before, path).lines.get(("tasks", 0))
    text = before if before.endswith("\n") else before + "\n"
    return text + entry_yaml(entry, _item_indent(before, first))


def _without_empty_list(text: str) -> str:
    """`text` without a `tasks:` line that holds nothing (`tasks:` or `tasks: []`)."""
    lines = text.splitlines(keepends=True)
    kept = [line for line in lines if line.split("#")[0].strip() not in ("tasks:", "tasks: []")]
    return "".join(kept)


def _item_indent(text: str, line: int | None) -> str:
    if line is None:
        return "  "
    row = text.splitlines()[line - 1]
    return row[: len(row) - len(row.lstrip(" "))]


def entry_yaml(entry: dict[str, Any], indent: str) -> str:
    """The entry as a YAML list item: one line per field, names and lists in flow style."""
    lines: list[str] = []
    for key, value in entry.items():
        if key == "keywords" or key == "es":
            lines.append(f"{key}:")
            lines += [f"  {sub}: {_flow(item)}" for sub, item in value.items()]
        else:
            lines.append(f"{key}: {_flow(value)}")
    first, *rest = lines
    return "".join([f"{indent}- {first}\n", *(f"{indent}  {line}\n" for line in rest)])


def _flow(value: Any) -> str:
    import yaml

    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=math.inf)
    return str(text).removesuffix("\n").removesuffix("\n...").strip()


# -- the guide skeletons -------------------------------------------------------------------------


def skeleton(draft: MethodDraft) -> str:
    """A guide with the standard sections: the summary is the paragraph under the title;
    the deliverable's parts are already in its Procedure and Deliverable."""
    steps = "\n".join(
        f"{i}. {part}: [how to work it out, step by step]"
        for i, part in enumerate(draft.outputs, 1)
    )
    parts = "\n".join(f"- {part}" for part in draft.outputs)
    return (
        f"# {draft.name}\n\n{draft.description}\n\n"
        "## When to use\n- [The situation this method is for: what the team has, what it "
        "must decide]\n\n"
        "## When not to use\n- [When another method fits better, and which one]\n\n"
        "## Inputs\n- [What to have before starting: a brief, data, the people to ask]\n\n"
        f"## Procedure\n{steps}\n\n"
        f"## Deliverable\n{parts}\n\n"
        "## Pitfalls\n- [A common mistake, and how to avoid it]\n\n"
        "## References\n- [A book, an article or your team's own page this method follows]\n"
    )


def companion_skeleton(draft: MethodDraft) -> str:
    """The Spanish companion, with the section names the catalogue's companions use."""
    outputs = draft.outputs_es or draft.outputs
    steps = "\n".join(
        f"{i}. {part}: [cómo hacerlo, paso a paso]" for i, part in enumerate(outputs, 1)
    )
    parts = "\n".join(f"- {part}" for part in outputs)
    summary = draft.description_es or "[Qué es el método y qué le da al equipo, en un párrafo]"
    return (
        f"# {draft.name_es or draft.name}\n\n{summary}\n\n"
        "## Cuándo usarlo\n- [La situación para la que sirve: qué tiene el equipo, qué debe "
        "decidir]\n- No lo uses cuando [otro método encaja mejor, y cuál].\n\n"
        "## Entradas\n- [Lo que hace falta antes de empezar: un brief, datos, a quién "
        "preguntar]\n\n"
        f"## Procedimiento\n{steps}\n\n"
        f"## Entregable\n{parts}\n\n"
        "## Errores frecuentes\n- [Un error habitual y cómo evitarlo]\n\n"
        "## Referencias\n- [Un libro, un artículo o una página de tu equipo en la que se "
        "basa]\n"
    )


def guide_title(text: str) -> str | None:
    """The `# Title` of a guide the team wrote, for the method's name."""
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip() or None
    return None


def guide_summary(text: str) -> str | None:
    """The first paragraph of prose in a guide, for the method's description."""
    for block in text.split("\n\n"):
        lines = [line.strip() for line in block.strip().splitlines()]
        prose = " ".join(line for line in lines if line and not line.startswith(("#", "-", "*")))
        if prose and not prose[0].isdigit():
            return prose
    return None


# -- the team's method in its files: edit, remove --------------------------------------------


@dataclass(frozen=True)
class InHome:
    """Where a method of the team's is written: its entry (file, line, raw fields)."""

    task_id: str
    tasks_file: Path
    line: int | None
    index: int
    raw: dict[str, Any]

    def guide_files(self, home: HomeLayout) -> list[Path]:
        """Its guides and their Spanish companions that are in the home."""
        names = [g for g in self.raw.get("guides") or [] if isinstance(g, str)]
        found = [home.guides_dir / name for name in names]
        found += [home.guides_dir / "es" / name for name in names]
        return [path for path in found if path.is_file()]


def in_home(home: HomeLayout, catalogue: Catalogue, task_id: str) -> InHome:
    """The team's entry `task_id` in `<home>/config/tasks.yaml` (also one left out); a
    bundled method is refused, saying what to do instead."""
    path = home.tasks_file
    located = load_located(path) if path.is_file() else None
    items = located.data.get("tasks") if located and isinstance(located.data, dict) else None
    for index, item in enumerate(items or []):
        if isinstance(item, dict) and item.get("id") == task_id and located is not None:
            return InHome(task_id, path, located.line_of(("tasks", index)), index, item)
    if task_id in catalogue.tasks:
        raise UsageError(
            f"'{task_id}' is bundled with design-agent, so its files are not yours to change; "
            f"to have your own version, add one with its id: design-agent methods new --id "
            f"{task_id} --replace (yours then takes its place)"
        )
    catalogue.task(task_id)  # NotFoundError, with "did you mean"
    raise UsageError(f"no method '{task_id}' in {path}")


def remove_method(home: HomeLayout, catalogue: Catalogue, task_id: str) -> Removed:
    """Take the team's method out of the overlay file, with its guides no other method uses."""
    found = in_home(home, catalogue, task_id)
    path = found.tasks_file
    text = path.read_text(encoding="utf-8")
    located = parse_located(text, path)
    lines = text.splitlines(keepends=True)
    start = (found.line or 1) - 1
    following = located.lines.get(("tasks", found.index + 1))
    end = following - 1 if following else _entry_end(lines, start)
    write_file(path, "".join(lines[:start] + lines[end:]).encode("utf-8"), replace=True)
    others = {g for t in catalogue.tasks.values() if t.id != task_id for g in t.guides}
    guides = [p for p in found.guide_files(home) if p.name not in others]
    for guide in guides:
        guide.unlink()
    return Removed(task_id, path, guides, ("tasks", task_id) in catalogue.shadowed)


def _entry_end(lines: list[str], start: int) -> int:
    """Where the last entry of a file ends: before the comments at its foot."""
    end = len(lines)
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
        end -= 1
    return end
