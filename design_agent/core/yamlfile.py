"""Read YAML files while remembering the line of every value.

Errors in user-edited files must say `path:line: message`. PyYAML's composed
node tree carries marks, so we build plain Python values from it and keep a
map from each value's location (a tuple of keys and list indexes, the same
shape as a pydantic error `loc`) to its 1-based line.

Aliases (`*name`) are refused in every file: nine lines of nested aliases
(the "billion laughs") expand to a billion values and would hang whatever
reads them, and no design-agent file needs one.

PyYAML is imported on the first read: a command whose catalogue comes from the cache
and whose home has no settings file reads no YAML (the import is ~13 ms of its start).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

Loc = tuple[str | int, ...]
ALIAS_MESSAGE = "aliases are not allowed: write the value out in full"


@dataclass
class Problem:
    """One thing wrong with a file, reported as `path:line: message`."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


@dataclass
class LocatedYaml:
    """A parsed YAML document and the line of each value in it."""

    path: Path
    data: Any
    lines: dict[Loc, int] = field(default_factory=dict)

    def line_of(self, loc: Loc) -> int | None:
        """The line of `loc`, or of its nearest enclosing value that has one."""
        for end in range(len(loc), -1, -1):
            line = self.lines.get(tuple(loc[:end]))
            if line is not None:
                return line
        return None

    def problem(self, loc: Loc, message: str) -> Problem:
        return Problem(self.path, self.line_of(loc), message)


class YamlFileError(Exception):
    """A YAML file could not be read or parsed; carries its Problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def load_located(path: Path) -> LocatedYaml:
    """Parse `path` into values plus line numbers; raise YamlFileError with path:line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise YamlFileError(Problem(path, None, f"cannot read file: {e}")) from e
    return parse_located(text, path)


def parse_located(text: str, path: Path) -> LocatedYaml:
    """`text` (as read from `path`) parsed into values plus line numbers; raise
    YamlFileError with path:line."""
    import yaml

    try:
        node = yaml.compose(text, Loader=_composer())
    except yaml.MarkedYAMLError as e:
        line = e.problem_mark.line + 1 if e.problem_mark else None
        raise YamlFileError(Problem(path, line, f"invalid YAML: {e.problem}")) from e
    except yaml.YAMLError as e:
        raise YamlFileError(Problem(path, None, f"invalid YAML: {e}")) from e
    located = LocatedYaml(path=path, data=None)
    if node is not None:
        _refuse_aliases(node, text, path)
        located.data = _build(node, (), located.lines, path)
    return located


def _refuse_aliases(root: yaml.Node, text: str, path: Path) -> None:
    """Raise YamlFileError when a node is reached twice: that is what an alias composes to.

    The walk stops at the first repeat, so it is linear even for an alias bomb.
    """
    import yaml

    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise YamlFileError(Problem(path, _alias_line(text), ALIAS_MESSAGE))
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _alias_line(text: str) -> int | None:
    """The line of the first alias in `text` (parse events: nothing is expanded)."""
    import yaml

    for event in yaml.parse(text, Loader=_composer()):
        if isinstance(event, yaml.AliasEvent) and event.start_mark is not None:
            return int(event.start_mark.line) + 1
    return None


def _build(node: yaml.Node, loc: Loc, lines: dict[Loc, int], path: Path) -> Any:
    import yaml

    lines[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node, path)
            if key in result:
                raise YamlFileError(
                    Problem(path, key_node.start_mark.line + 1, f"duplicate key '{key}'")
                )
            result[key] = _build(value_node, (*loc, key), lines, path)
            lines[(*loc, key)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*loc, i), lines, path) for i, item in enumerate(node.value)]
    return _scalar(node, path)


def _scalar(node: yaml.Node, path: Path) -> Any:
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        raise YamlFileError(
            Problem(path, node.start_mark.line + 1, "a mapping key must be a plain value")
        )
    constructor = _constructor()
    value = constructor.construct_object(node, deep=True)
    constructor.constructed_objects.clear()
    return value


@cache
def _constructor() -> yaml.SafeLoader:
    """One constructor resolves every scalar's tag (int, bool, null...) as safe_load would."""
    import yaml

    return yaml.SafeLoader("")


@cache
def _composer() -> type[yaml.SafeLoader]:
    """libyaml's parser: about 15 times faster, and it keeps the marks line numbers need."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)
