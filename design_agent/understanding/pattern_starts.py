"""What every text a regular expression matches starts with, and holds, read from its
syntax tree.

intents.py's patterns are tried only on messages that start with one of their possible
first words (`LazyPattern.starts`): a design request then compiles none of them. Those
first words are computed here from the pattern itself, never kept by hand beside it, so a
new phrase in the lexicon is a new start at once. A start is a first word with its space
("switch "), or the start of a word when the pattern can go on inside it ("summar").

`holds` proves the other condition, a pattern's `needles` (words every match contains),
and `unproved` checks both for a LazyPattern (tests/test_intent_patterns.py runs it on
every pattern). Both read the parser's tree (`re._parser`): a Python whose parser differs
makes every pattern ungated (`starts_of` returns no condition), never wrong.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

try:
    from re import _constants as sre  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]
except ImportError:  # another Python: no pattern is gated
    sre = _parser = None

if TYPE_CHECKING:
    from design_agent.understanding.lazy_regex import LazyPattern

Items = Any  # a parsed (sub)pattern: a sequence of (opcode, argument)
Prefix = tuple[str, bool]  # a start every match has, and whether it can grow further


def starts_of(source: str, flags: int = 0) -> tuple[str, ...]:
    """The starts of every text `source` matches from where it is tried, shortest covering
    set, sorted; empty when a match may start with anything (no condition)."""
    if flags & re.IGNORECASE or _parser is None:
        return ()  # starts are compared case by case; or no parser to read
    try:
        found = {text for text, _ in _starts(_parser.parse(source, flags))}
    except Exception:  # a parser that differs: no condition, the pattern decides alone
        return ()
    if "" in found:
        return ()
    ordered = sorted(found)
    kept = [s for i, s in enumerate(ordered) if not any(s.startswith(t) for t in ordered[:i])]
    return tuple(kept)


def _first_word(prefix: str) -> Prefix:
    """Starts are compared up to the first space (kept): what `starts` entries are."""
    space = prefix.find(" ")
    return (prefix, True) if space < 0 else (prefix[: space + 1], False)


def _inner_starts(op: Any, arg: Any) -> set[Prefix] | None:
    """The starts of one element of a sequence; None when it can start with anything."""
    if op is sre.SUBPATTERN:
        return _starts(arg[3])
    if op is sre.BRANCH:
        return set().union(*(_starts(branch) for branch in arg[1]))
    if op is sre.IN and all(kind is sre.LITERAL for kind, _ in arg):
        return {(chr(code), True) for _, code in arg}
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, body = arg
        inner = _starts(body)
        if low == high == 1:
            return inner
        stopped = inner if high == 1 else {(text, False) for text, _ in inner}
        return stopped | {("", True)} if low == 0 else stopped
    return None


def _starts(items: Items) -> set[Prefix]:
    """What every string `items` matches starts with (up to its first space)."""
    found: set[Prefix] = {("", True)}
    for op, arg in items:
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue  # zero width
        inner = {(chr(arg), True)} if op is sre.LITERAL else _inner_starts(op, arg)
        if inner is None:
            return {(text, False) for text, _ in found}
        grown: set[Prefix] = set()
        for text, open_ in found:
            if not open_:
                grown.add((text, False))
                continue
            for more, more_open in inner:
                word, word_open = _first_word(text + more)
                grown.add((word, word_open and more_open))
        found = grown
        if not any(open_ for _, open_ in found):
            break
    return found


def holds(items: Items, needles: tuple[str, ...]) -> bool:
    """Whether every string `items` matches holds one of `needles` (a proof, not a test:
    False when it cannot be shown this way)."""
    run = ""
    for op, arg in [*items, (None, None)]:
        if op is sre.LITERAL:
            run += chr(arg)
            continue
        if any(needle in run for needle in needles):
            return True
        # The parser moves a common start out of the branches ("pro(?:ject|yecto)").
        before = [(sre.LITERAL, ord(char)) for char in run]
        run = ""
        if op is sre.SUBPATTERN and holds(arg[3], needles):
            return True
        if op is sre.BRANCH and all(holds([*before, *branch], needles) for branch in arg[1]):
            return True
        repeated = op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and arg[0] >= 1
        if repeated and holds(arg[2], needles):
            return True
        single = op is sre.IN and all(kind is sre.LITERAL for kind, _ in arg)
        if single and all(chr(code) in needles for _, code in arg):
            return True
    return False


def unproved(pattern: LazyPattern) -> list[str]:
    """The ways `pattern`'s conditions could skip a text it matches (empty: none)."""
    parsed = _parser.parse(pattern.source, pattern.flags)
    problems = []
    if pattern.starts and pattern.flags & re.IGNORECASE:
        problems.append("starts are compared case by case")
    for start, _ in sorted(_starts(parsed)) if pattern.starts else []:
        if not start.startswith(pattern.starts):
            problems.append(f"a match may start with {start!r}")
    if pattern.needles and not holds(parsed, pattern.needles):
        problems.append(f"a match may hold none of {pattern.needles}")
    return problems
