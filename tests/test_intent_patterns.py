"""intents.py's patterns are compiled only for messages they could match, and that never
changes what they match.

A `LazyPattern` skips a text that does not start with one of its `starts` (or holds none
of its `needles`). Here each of those conditions is proved from the pattern's syntax
tree: every string the pattern matches starts with one of the starts and holds one of
the needles. tests/test_intents.py then checks the rules' results themselves.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

import pytest

from design_agent.understanding import intents
from design_agent.understanding.lazy_regex import LazyPattern

Items = Any  # a parsed (sub)pattern: a sequence of (opcode, argument)
Prefix = tuple[str, bool]  # a start every match has, and whether it can grow further


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


def _holds(items: Items, needles: tuple[str, ...]) -> bool:
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
        if op is sre.SUBPATTERN and _holds(arg[3], needles):
            return True
        if op is sre.BRANCH and all(_holds([*before, *branch], needles) for branch in arg[1]):
            return True
        repeated = op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and arg[0] >= 1
        if repeated and _holds(arg[2], needles):
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
    if pattern.needles and not _holds(parsed, pattern.needles):
        problems.append(f"a match may hold none of {pattern.needles}")
    return problems


def lazy_patterns() -> list[tuple[str, LazyPattern]]:
    """Every LazyPattern intents.py reads messages with, named."""
    found: list[tuple[str, LazyPattern]] = []
    for name, value in vars(intents).items():
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            item = item[0] if isinstance(item, tuple) and item else item
            if isinstance(item, LazyPattern):
                found.append((f"{name}[{index}]", item))
    adapters = ("claude", "gemini", "codex", "offline", "llm")
    made = intents.provider_pattern(adapters)
    assert made is not None
    return [*found, ("provider_pattern", made)]


PATTERNS = lazy_patterns()


def test_the_patterns_are_found_and_most_have_a_condition():
    assert len(PATTERNS) > 150
    gated = [name for name, pattern in PATTERNS if pattern.starts or pattern.needles]
    assert len(gated) > 130


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
def test_a_pattern_skips_only_texts_it_cannot_match(name: str, pattern: LazyPattern):
    assert unproved(pattern) == []


def test_the_proof_rejects_a_condition_a_match_breaks():
    assert unproved(LazyPattern(r"(?:go|stop) home", starts=("go ",))) != []
    assert unproved(LazyPattern(r"(?:a |the )?report", starts=("a ", "the "))) != []
    assert unproved(LazyPattern(r"make (?:a|the)? report", needles=("the",))) != []
    assert unproved(LazyPattern(r"(?:go|stop) home", starts=("go ", "stop "))) == []
    assert unproved(LazyPattern(r"tl ?dr|in short", starts=("tl", "in "))) == []


def test_a_design_request_compiles_none_of_the_gated_patterns():
    fresh = [LazyPattern(p.source, starts=p.starts, needles=p.needles) for _, p in PATTERNS]
    message = "plan a usability test for the checkout"
    assert all(p.fullmatch(message) is None for p in fresh if p.starts or p.needles)
    compiled = [p.source for p in fresh if "compiled" in vars(p)]
    assert compiled == []


def test_a_lazy_pattern_matches_as_the_pattern_does():
    pattern = LazyPattern(r"(?:go|switch) to (?P<name>\w+)", starts=("go ", "switch "))
    assert pattern.fullmatch("switch to atlas") is not None
    assert pattern.fullmatch("please switch to atlas") is None
    found = pattern.match("ok go to atlas now", 3)
    assert found is not None and found.group("name") == "atlas"
    quoted = LazyPattern(r"'(?P<q>[^']+)'", needles=("'",))
    assert [m.group("q") for m in quoted.finditer("a 'b' and 'c'")] == ["b", "c"]
    assert list(quoted.finditer("no quotes")) == []
    assert quoted.search("say 'x'", 0, 3) is None and quoted.search("say 'x'") is not None


@pytest.mark.parametrize("template", [*intents._RETRY, *intents._COMPARE])
def test_every_retry_and_compare_pattern_needs_a_providers_name(template: str):
    # So `names_a_provider` may skip them for a request that names none.
    source = template.format(p="(?P<p>zzname)", q="(?P<q>zzname)")
    assert _holds(_parser.parse(source), ("zzname",))
