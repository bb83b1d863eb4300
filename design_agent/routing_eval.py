"""Routing measured on labelled messages: top-1, top-3, HIGH precision, no-method at HIGH.

A labelled set is YAML: `cases:` with `text`, `expect` (a task id, or null for
a message that asks for no method), `lang` and `names_method`. The tests
assert floors on these figures and benchmarks/matching.py prints them, from
this one definition.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from design_agent.matching import Matcher


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
    with open(path, encoding="utf-8") as handle:
        return list(yaml.safe_load(handle)["cases"])


def evaluate(matcher: Matcher, cases: list[dict[str, Any]]) -> RoutingFigures:
    """Top-1/top-3 over the cases with a task; HIGH precision; no-method cases at HIGH."""
    top1 = top3 = high = high_right = no_high = no_not_low = 0
    for case in cases:
        result = matcher.match(case["text"], limit=3)
        ids = [c.task_id for c in result.candidates]
        if case["expect"] is None:
            no_high += result.band == "HIGH"
            no_not_low += result.band != "LOW"
            continue
        right = ids[:1] == [case["expect"]]
        top1 += right
        top3 += case["expect"] in ids
        high += result.band == "HIGH"
        high_right += result.band == "HIGH" and right
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
