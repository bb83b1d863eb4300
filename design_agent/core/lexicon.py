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
(core/cache.py); the process uses the lexicon of the home it opened (`use_home`, called where
the home's catalogue is loaded), the bundled one until then. `check` validates every file
(`problems`): its shape, and in a home's files, that each name is one design-agent reads.

What code derives from the words (sets, regular expressions, indexes) is made once per
lexicon and kept on it (`derived`); what is too slow even for once per process is kept in
the home's cache beside it (`persisted`). Modules that only test membership hold a live view
(`LexiconWords`), which follows the lexicon in use.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from design_agent.core.text import fold
from design_agent.core.yamlfile import Problem

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout

NAME = re.compile(r"^[a-z][a-z0-9_]*$")
LANGUAGE = re.compile(r"^[a-z]{2,3}$")
FOLDER = "lexicon"
# Tables whose values name a list of the lexicon.
REFERENCE_TABLES = frozenset({"false_friends", "nearby_support"})
# Files whose names a home may coin: the word groups its own methods' shapes are written
# with (config/tasks.yaml `shapes`, checked against the lexicon by `check`).
OPEN_FILES = frozenset({"shapes.yaml"})
QUOTE_BOOLEANS = 'write yes, no, on, off, y and n in quotes ("no"): YAML reads them as true/false'
Table = dict[str, Any]
# A language is a folder of the lexicon: "en", "es", "pt"...
Language = str
T = TypeVar("T")
# Attributes made after loading, never pickled with the lexicon.
_UNPICKLED = ("_unions", "_derived", "home")
_derive_lock = threading.RLock()


@dataclass(eq=False)  # hashed by identity: what is derived from a lexicon is cached on it
class Lexicon:
    """Every language's word lists and tables, folded."""

    lists: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    tables: dict[str, dict[str, Table]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    signature: str = ""
    # The home it was loaded for (None: the bundled files only), for `persisted`.
    home: HomeLayout | None = field(default=None, repr=False, compare=False)
    _derived: dict[Callable[..., Any], Any] = field(default_factory=dict, repr=False, compare=False)
    # name -> every language's words, filled as names are asked for
    _unions: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

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
        found = self._unions.get(name)
        if found is None:
            found = frozenset().union(*(self.words(name, code) for code in self.lists))
            self._unions[name] = found
        return found

    def table(self, name: str, language: str) -> Table:
        return self.tables.get(language, {}).get(name, {})

    def merged_table(self, name: str) -> Table:
        """`name`'s table of every language in one (English and Spanish first)."""
        merged: Table = {}
        for language in reversed(self.languages):
            merged.update(self.table(name, language))
        return merged

    def entries(self, name: str) -> frozenset[str]:
        """`name`'s words in every language, or its keys in every language for a table."""
        return self.union(name) | frozenset(self.merged_table(name))

    def merged_lists(self, name: str) -> Table:
        """A table whose values name lists (`false_friends: {sprint: sprint_support}`), with
        each name replaced by that list in every language: {"sprint": {"google", ...}}."""
        return {key: self.union(str(value)) for key, value in self.merged_table(name).items()}

    def derived(self, build: Callable[[Lexicon], T]) -> T:
        """`build(self)`, made on first use and kept on this lexicon (one per function)."""
        found = self._derived.get(build)
        if found is None:
            with _derive_lock:
                found = self._derived.get(build)
                if found is None:
                    found = self._derived[build] = build(self)
        return found

    def persisted(self, kind: str, key: str, build: Callable[[], T]) -> T:
        """`build()`, kept in the home's cache under `key` (built here without a home): for
        what is derived from the words and too slow to make in every process."""
        if self.home is None:
            return build()
        from design_agent.core.cache import cached

        return cached(self.home, kind, key, build)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in _UNPICKLED}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.home = None
        self._derived, self._unions = {}, {}


class LexiconWords(Set[str]):
    """A live view of a name's words (every language's, or one language's): it reads the
    lexicon in use at each test, so a module may hold it as a constant (`YES`)."""

    def __init__(self, name: str, language: str | None = None) -> None:
        self.name = name
        self.language = language
        self._read: tuple[Lexicon, frozenset[str]] | None = None  # the last lexicon's words

    def now(self) -> frozenset[str]:
        """The words, from the lexicon in use now."""
        words, read = lexicon(), self._read
        if read is None or read[0] is not words:
            read = self._read = (words, self.words_of(words))
        return read[1]

    def words_of(self, words: Lexicon) -> frozenset[str]:
        if self.language is None:
            return words.union(self.name)
        return words.words(self.name, self.language)

    def __contains__(self, word: object) -> bool:
        return word in self.now()

    def __iter__(self) -> Iterator[str]:
        return iter(self.now())

    def __len__(self) -> int:
        return len(self.now())

    def __sub__(self, other: Iterable[Any]) -> Set[str]:
        # Stays a view: a module may define one list as another minus a third.
        return _Difference(self, other)

    @classmethod
    def _from_iterable(cls, iterable: Iterable[str]) -> frozenset[str]:  # type: ignore[override]
        return frozenset(iterable)

    def __repr__(self) -> str:
        return f"LexiconWords({self.name!r}, {self.language!r})"


class _Difference(LexiconWords):
    """One view's words minus another's (or a set's), read at each use."""

    def __init__(self, left: LexiconWords, right: Iterable[Any]) -> None:
        super().__init__(left.name, left.language)
        self.left, self.right = left, right

    def words_of(self, words: Lexicon) -> frozenset[str]:
        right = self.right.words_of(words) if isinstance(self.right, LexiconWords) else self.right
        return self.left.words_of(words) - frozenset(right)


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
    """The lexicon of these files; what is wrong is collected in `problems`, never raised.

    The bundled files come first: a name another file gives must be one of theirs, of the
    same kind (a list or a table), so a misspelt name is reported, never silently unread."""
    from design_agent.core.yamlfile import YamlFileError, load_located

    building = _Building(Lexicon())
    bundled = bundled_folder()
    for path in paths:
        language = path.parent.name
        if not LANGUAGE.match(language):
            building.problem(path, None, f"'{language}' is not a language code (en, es, pt...)")
            continue
        try:
            located = load_located(path)
        except YamlFileError as e:
            building.problem(path, e.problem.line, e.problem.message)
            continue
        building.add_file(language, located, ours=path.is_relative_to(bundled))
    building.check_references()
    return building.built


@dataclass
class _Building:
    """A lexicon being built: the names the bundled files give, the references to check."""

    built: Lexicon
    known: dict[str, type] = field(default_factory=dict)
    # (file, line, table, key, the list it names) of every reference table's entry
    references: list[tuple[Path, int | None, str, str, str]] = field(default_factory=list)

    def problem(self, path: Path, line: int | None, message: str) -> None:
        self.built.problems.append(Problem(path, line, message))

    def add_file(self, language: str, located: Any, ours: bool) -> None:
        """Add one file's names; a bundled file's (`ours`) become the known ones."""
        data = located.data or {}
        if not isinstance(data, dict):
            self.problem(located.path, 1, "a lexicon file is a mapping of names")
            return
        for name, value in data.items():
            line = located.line_of((name,))
            coined = ours or located.path.name in OPEN_FILES
            problem = _problem_of(name, value) or (None if coined else self._unknown(name, value))
            if problem:
                self.problem(located.path, line, problem)
                continue
            if ours:
                self.known[name] = type(value)
            if isinstance(value, list):
                lists = self.built.lists.setdefault(language, {})
                lists[name] = lists.get(name, frozenset()) | {fold(str(v)).strip() for v in value}
                continue
            table = self.built.tables.setdefault(language, {}).setdefault(name, {})
            table.update({fold(str(k)).strip(): v for k, v in value.items()})
            if name in REFERENCE_TABLES:
                self.references += [
                    (located.path, located.line_of((name, k)), name, str(k), str(v))
                    for k, v in value.items()
                ]

    def _unknown(self, name: str, value: object) -> str | None:
        """Whether a home's name is one design-agent reads, of the kind the bundled one is."""
        if not self.known:
            return None  # no bundled files to compare with (a test of one file)
        kind = self.known.get(name)
        if kind is None:
            import difflib  # only to name the likely misspelling

            close = difflib.get_close_matches(name, self.known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            return f"'{name}' is not a name design-agent reads{hint}"
        if kind is not type(value):
            shape = "a list of words ([a, b])" if kind is list else "a table (a: 1)"
            return f"{name}: give {shape}, as the bundled lexicon does"
        return None

    def check_references(self) -> None:
        """A reference table (false_friends: {sprint: sprint_support}) names existing lists."""
        lists = {name for per_language in self.built.lists.values() for name in per_language}
        for path, line, table, key, value in self.references:
            if value not in lists:
                self.problem(path, line, f"{table}: {key} names '{value}', a list no file gives")


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


def use_home(home: HomeLayout | None) -> None:
    """Read the lexicon of `home` (its own words added to the bundled ones) from now on;
    None goes back to the bundled words alone. The words in use stay while their files
    are unchanged (a signature of the files' sizes and times, ~0.3 ms)."""
    from design_agent.core.cache import signature

    global _current, _home
    with _lock:
        same = (home.root if home else None) == (_home.root if _home else None)
        if same and _current is not None and _current.signature == signature(sources(home)):
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
        return _stamped(build(paths), key, None)
    return _stamped(cached(home, "lexicon", key, lambda: build(paths)), key, home)


def _stamped(built: Lexicon, key: str, home: HomeLayout | None) -> Lexicon:
    built.signature = key
    built.home = home
    return built
