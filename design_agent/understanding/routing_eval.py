"""Routing measured on labelled messages: top-1, top-3, HIGH precision, no-method at HIGH.

A labelled set is YAML: `cases:` with `text`, `expect` (a task id, or null for
a message that asks for no method), `lang` and `names_method`. The tests
assert floors on these figures and benchmarks/matching.py prints them, from
this one definition.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from design_agent.understanding.matching import Matcher


class RoutingFigures(BaseModel):
    """How a matcher did on one labelled set."""

    model_config = ConfigDict(frozen=True)

    cases: int
    with_task: int
    top1: float
    top3: float
    high: int
    high_precision: float
    no_method: int
    no_method_high: int
    no_method_not_low: int

    def summary(self, no_method: bool = True) -> str:
        """One line of figures, as the benchmark prints them."""
        line = (
            f"top-1 {self.top1:6.1%}  top-3 {self.top3:6.1%}"
            f"  HIGH precision {self.high_precision:6.1%} ({self.high} HIGH)"
        )
        if no_method:
            line += (
                f"  no-match: {self.no_method_high} HIGH, {self.no_method_not_low} not LOW"
                f" of {self.no_method}"
            )
        return f"{line}  ({self.cases} cases)"


def load_cases(path: Path) -> list[dict[str, Any]]:
    """The labelled cases of one set file."""
    # libyaml's parser where PyYAML has it: a set of ~500 messages parses ~10x faster.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(path, encoding="utf-8") as handle:
        return list(yaml.load(handle, Loader=loader)["cases"])


# Whether a message is a meta-request (small talk, help, a project or provider action): the
# pipeline answers those before any method is matched.
MetaCheck = Callable[[str], bool]


def evaluate(
    matcher: Matcher, cases: list[dict[str, Any]], is_meta: MetaCheck | None = None
) -> RoutingFigures:
    """Top-1/top-3 over the cases with a task; HIGH precision; no-method cases at HIGH.

    With `is_meta`, the figures are those of the whole route a turn takes: a message taken
    as a meta-request gets no method (a miss when one was expected, never HIGH)."""
    top1 = top3 = high = high_right = no_high = no_not_low = 0
    for case in cases:
        ids, band = _route(matcher, case["text"], is_meta)
        if case["expect"] is None:
            no_high += band == "HIGH"
            no_not_low += band != "LOW"
            continue
        right = ids[:1] == [case["expect"]]
        top1 += right
        top3 += case["expect"] in ids
        high += band == "HIGH"
        high_right += band == "HIGH" and right
    with_task = sum(1 for c in cases if c["expect"])
    return RoutingFigures(
        cases=len(cases),
        with_task=with_task,
        top1=top1 / max(with_task, 1),
        top3=top3 / max(with_task, 1),
        high=high,
        high_precision=high_right / high if high else 1.0,
        no_method=len(cases) - with_task,
        no_method_high=no_high,
        no_method_not_low=no_not_low,
    )


def _route(matcher: Matcher, text: str, is_meta: MetaCheck | None) -> tuple[list[str], str]:
    """The candidate task ids and the band, as the turn would route `text`."""
    if is_meta is not None and is_meta(text):
        return [], "LOW"
    result = matcher.match(text, limit=3)
    return [c.task_id for c in result.candidates], result.band


def meta_check(providers: tuple[str, ...] = ("claude", "gemini", "codex", "offline")) -> MetaCheck:
    """The pipeline's meta-request detection, for a user with these providers and no
    projects yet (so no project name can turn a design request into an action)."""
    action_of = meta_action(providers)
    return lambda text: action_of(text) is not None


def meta_action(
    providers: tuple[str, ...] = ("claude", "gemini", "codex", "offline"),
) -> Callable[[str], str | None]:
    """The name of the meta-request a message is ("conversation.rerender"), or None: the
    same detection as meta_check."""
    from design_agent.understanding.intents import detect_action

    def action_of(text: str) -> str | None:
        found = detect_action(text, providers, ())
        return found.name if found is not None else None

    return action_of
