"""The words design-agent reads people with, per language, as data: `lexicon/<language>/*.yaml`.

Each file of a language's folder is a mapping of names to word lists (`yes: [yes, yep,
sure]`) or to tables (`ordinals: {first: 1, second: 2}`); a language is the union of its
files, and every language has the same kinds of names. A home may add words or a whole
language in `<home>/lexicon/<language>/*.yaml` (the same files, read after the bundled
ones: lists are extended, tables updated). Entries are folded (case and accents) when
loaded, so code compares them with `fold`ed text.

    words = lexicon()
    if fold(reply) in words.words("yes", "es"): ...
    words.union("yes")              # every language's
    words.table("ordinals", "en")   # {"first": 1, ...}

A lexicon is built once per set of source files and kept in the home's catalogue cache
(core/cache.py); the process uses the lexicon of the home it opened (`use_home`), the
bundled one until then. `check` validates every file (`problems`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from design_agent.core.text import fold
from design_agent.core.yamlfile import Problem

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
LANGUAGE = re.compile(r"^[a-z]{2,3}$")
FOLDER = "lexicon"
QUOTE_BOOLEANS = 'write yes, no, on, off, y and n in quotes ("no"): YAML reads them as true/false'
Table = dict[str, Any]


@dataclass(eq=False)  # hashed by identity: what is derived from a lexicon is cached on it
class Lexicon:
    """Every language's word lists and tables, folded."""

    lists: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    tables: dict[str, dict[str, Table]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    signature: str = ""

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages it knows, English and Spanish first."""
        known = set(self.lists) | set(self.tables)
        return tuple(sorted(known, key=lambda code: (code not in ("en", "es"), code)))

    def words(self, name: str, language: str) -> frozenset[str]:
        """`name`'s words in `language` (empty when that language has none)."""
        return self.lists.get(language, {}).get(name, frozenset())

    def union(self, name: str) -> frozenset[str]:
        """`name`'s words in every language."""
        return self._unions.get(name, frozenset())

    def table(self, name: str, language: str) -> Table:
        return self.tables.get(language, {}).get(name, {})

    def merged_table(self, name: str) -> Table:
        """`name`'s table of every language in one (English and Spanish first)."""
        merged: Table = {}
        for language in reversed(self.languages):
            merged.update(self.table(name, language))
        return merged

    @cached_property
    def _unions(self) -> dict[str, frozenset[str]]:
        names = {name for lists in self.lists.values() for name in lists}
        return {n: frozenset().union(*(self.words(n, code) for code in self.lists)) for n in names}

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_unions"}


def bundled_folder() -> Path:
    return Path(__file__).resolve().parent.parent / FOLDER


def sources(home: HomeLayout | None) -> list[Path]:
    """Every lexicon file: the bundled ones, then the home's, each language's in name order."""
    folders = [bundled_folder()] + ([home.root / FOLDER] if home is not None else [])
    found: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            for language in sorted(p for p in folder.iterdir() if p.is_dir()):
                found += sorted(language.glob("*.yaml"))
    return found


def build(paths: list[Path]) -> Lexicon:
    """The lexicon of these files; what is wrong is collected in `problems`, never raised."""
    from design_agent.core.yamlfile import YamlFileError, load_located

    built = Lexicon()
    for path in paths:
        language = path.parent.name
        if not LANGUAGE.match(language):
            built.problems.append(
                Problem(path, None, f"'{language}' is not a language code (en, es, pt...)")
            )
            continue
        try:
            located = load_located(path)
        except YamlFileError as e:
            built.problems.append(Problem(path, e.problem.line, e.problem.message))
            continue
        _add_file(built, language, located)
    return built


def _add_file(built: Lexicon, language: str, located: Any) -> None:
    data = located.data or {}
    if not isinstance(data, dict):
        built.problems.append(Problem(located.path, 1, "a lexicon file is a mapping of names"))
        return
    for name, value in data.items():
        line = located.line_of((name,))
        problem = _problem_of(name, value)
        if problem:
            built.problems.append(Problem(located.path, line, problem))
        elif isinstance(value, list):
            lists = built.lists.setdefault(language, {})
            lists[name] = lists.get(name, frozenset()) | {fold(str(v)).strip() for v in value}
        else:
            tables = built.tables.setdefault(language, {})
            tables.setdefault(name, {}).update({fold(str(k)).strip(): v for k, v in value.items()})


def _problem_of(name: object, value: object) -> str | None:
    if not isinstance(name, str) or not NAME.match(name):
        return f"'{name}' is not a lexicon name: lowercase letters, digits and _ (e.g. yes_words)"
    if isinstance(value, list):
        if any(isinstance(v, bool) for v in value):
            return f"{name}: {QUOTE_BOOLEANS}"
        bad = [v for v in value if not isinstance(v, str | int) or not str(v).strip()]
        return f"{name}: every entry is a word or phrase; {bad[0]!r} is not" if bad else None
    if isinstance(value, dict):
        scalar = (str, int, float, bool)
        bad_value = [
            k for k, v in value.items() if not isinstance(v, scalar) and not _string_list(v)
        ]
        if bad_value:
            return f"{name}: {bad_value[0]!r} maps to something that is not a word, number or list"
        return None
    return f"{name}: give a list of words ([a, b]) or a table (a: 1)"


def _string_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


# -- the process's lexicon -----------------------------------------------------------------

_lock = threading.Lock()
_current: Lexicon | None = None
_home: HomeLayout | None = None


def lexicon() -> Lexicon:
    """The lexicon of the home this process opened (the bundled one until then)."""
    global _current
    current = _current
    if current is not None:
        return current
    with _lock:
        if _current is None:
            _current = load(_home)
        return _current


def use_home(home: HomeLayout) -> None:
    """Read the lexicon of `home` (its own words added to the bundled ones) from now on."""
    global _current, _home
    with _lock:
        if _home is not None and _home.root == home.root and _current is not None:
            return
        _home, _current = home, None


def load(home: HomeLayout | None) -> Lexicon:
    """The lexicon of `home` (bundled only when None), from the cache when no file changed."""
    from design_agent.core.cache import cached, signature

    paths = sources(home)
    if home is not None:
        for path in paths:
            if path.is_relative_to(home.root):
                home.trusted(path)  # words another user wrote are never read
    key = signature(paths)
    if home is None:
        return _stamped(build(paths), key)
    return _stamped(cached(home, "lexicon", key, lambda: build(paths)), key)


def _stamped(built: Lexicon, key: str) -> Lexicon:
    built.signature = key
    return built
