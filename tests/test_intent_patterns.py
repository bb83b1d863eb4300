"""intents.py's patterns are compiled only for messages they could match, and that never
changes what they match.

A `LazyPattern` skips a text that does not start with one of its `starts` (or holds none
of its `needles`). The starts are computed from each pattern's syntax tree
(design_agent/understanding/pattern_starts.py), never kept by hand; here each condition
is proved from the tree (`unproved`), and checked against texts drawn from the pattern
itself, so the analyser is not only trusted to agree with itself. tests/test_intents.py
then checks the rules' results themselves.
"""

from __future__ import annotations

import re
from re import _parser  # type: ignore[attr-defined]

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from design_agent.understanding import intents
from design_agent.understanding.lazy_regex import LazyPattern
from design_agent.understanding.pattern_starts import holds, starts_of, unproved

# Filled with adapters' names when read ({p}, {q}): never gated, never compiled ahead.
PROVIDER_TEMPLATES = ("retry", "compare")


def lazy_patterns() -> list[tuple[str, LazyPattern]]:
    """Every LazyPattern intents.py reads messages with, named."""
    found = [
        (name, value) for name, value in vars(intents).items() if isinstance(value, LazyPattern)
    ]
    for key, group in intents.phrase_book().groups().items():
        if key not in PROVIDER_TEMPLATES:
            found += [(f"{key}[{index}]", pattern) for index, pattern in enumerate(group)]
    adapters = ("claude", "gemini", "codex", "offline", "llm")
    made = intents.provider_pattern(adapters)
    assert made is not None
    return [*found, ("provider_pattern", made)]


PATTERNS = lazy_patterns()
# Drawn from: the template of provider_pattern (its names come later) is drawn as made.
GATED = [(n, p) for n, p in PATTERNS if p.starts and intents.NAMES not in p.source]


def test_the_patterns_are_found_and_most_have_a_condition():
    assert len(PATTERNS) > 150
    gated = [name for name, pattern in PATTERNS if pattern.starts or pattern.needles]
    assert len(gated) > 130


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=[name for name, _ in PATTERNS])
def test_a_pattern_skips_only_texts_it_cannot_match(name: str, pattern: LazyPattern):
    assert unproved(pattern) == []


@pytest.mark.parametrize(("name", "pattern"), GATED, ids=[name for name, _ in GATED])
def test_what_a_pattern_matches_starts_with_one_of_its_starts(name: str, pattern: LazyPattern):
    # A match that ends where a word must follow ("we decided to") is drawn without that.
    compiled = re.compile(pattern.source.replace(r"(?=\S)", ""), pattern.flags)

    @settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(
        st.from_regex(
            compiled,
            fullmatch=True,
            alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789 '?"),
        )
    )
    def drawn(text: str) -> None:
        assert text.startswith(pattern.starts)

    drawn()


def test_the_proof_rejects_a_condition_a_match_breaks():
    assert unproved(LazyPattern(r"(?:go|stop) home", starts=("go ",))) != []
    assert unproved(LazyPattern(r"(?:a |the )?report", starts=("a ", "the "))) != []
    assert unproved(LazyPattern(r"make (?:a|the)? report", needles=("the",))) != []
    assert unproved(LazyPattern(r"(?:go|stop) home", starts=("go ", "stop "))) == []
    assert unproved(LazyPattern(r"tl ?dr|in short", starts=("tl", "in "))) == []


def test_the_starts_are_read_from_the_pattern():
    assert starts_of(r"(?:go|stop) home") == ("go ", "stop ")
    assert starts_of(r"tl ?dr|in short") == ("in ", "tl ", "tldr")
    assert starts_of(r"(?:a |the )?report") == ("a ", "report", "the ")
    assert starts_of(r"summari[sz]e|summary") == ("summarise", "summarize", "summary")
    assert starts_of(r"abc|ab+") == ("ab",)  # the shortest that covers both
    assert starts_of(r".+ project") == ()  # may start with anything: no condition
    assert starts_of(r"go home", re.IGNORECASE) == ()  # starts are compared case by case


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


@pytest.mark.parametrize(
    "template",
    [p.source for key in PROVIDER_TEMPLATES for p in intents.phrase_book()[key]],
)
def test_every_retry_and_compare_pattern_needs_a_providers_name(template: str):
    # So `names_a_provider` may skip them for a request that names none.
    source = template.format(p="(?P<p>zzname)", q="(?P<q>zzname)")
    assert holds(_parser.parse(source), ("zzname",))
