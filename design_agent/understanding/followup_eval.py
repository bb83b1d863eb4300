"""Follow-up or new request, measured on labelled pairs: (previous request, next message).

A labelled set is YAML: `cases:` with `previous`, `previous_method`, `next`, `label`
(`follow_up` or `new_request`), `expect` (the method the next message needs; null for a
meta-request) and `lang`. The reading is the turn's: a meta-request is a new request; else
follow_up.goes_on after an answer made with the previous method; a meta-request that answers the
last request again ("hazlo más corto", "in Spanish please": conversation.rerender) goes on
with the previous method, as the turn does. The tests assert floors on
these figures and benchmarks/dialogue.py prints them, from this one definition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from design_agent.understanding.follow_up import goes_on
from design_agent.understanding.language import detect_language

if TYPE_CHECKING:
    from design_agent.knowledge.registry import Catalogue
    from design_agent.understanding.matching import Matcher

# The meta-request a message is (its action's name), or None.
MetaAction = Callable[[str], str | None]
# Meta-requests that answer the last request again, with its method.
ANSWERS_AGAIN = frozenset({"conversation.rerender"})


class FollowUpFigures(BaseModel):
    """How the reading did on one labelled set."""

    model_config = ConfigDict(frozen=True)

    cases: int
    accuracy: float
    follow_ups_kept: float  # follow-ups answered with the previous method
    new_kept_apart: float  # new requests not answered with the previous method
    # New requests whose own method scores HIGH or MEDIUM answered as the previous method.
    strong_new_as_previous: int
    strong_new: int
    # Close calls: neither reading wins clearly, so with a real CLI the fast model decides.
    unsettled: int
    settled_accuracy: float  # accuracy on the others, which the evidence alone decides
    wrong: list[str]

    def summary(self) -> str:
        return (
            f"accuracy {self.accuracy:6.1%}  follow-ups kept {self.follow_ups_kept:6.1%}"
            f"  new requests apart {self.new_kept_apart:6.1%}  strong new as previous"
            f" {self.strong_new_as_previous} of {self.strong_new}  close calls"
            f" {self.unsettled} (settled ones right {self.settled_accuracy:6.1%})"
            f"  ({self.cases} cases)"
        )


def evaluate(
    matcher: Matcher, catalogue: Catalogue, cases: list[dict[str, Any]], action_of: MetaAction
) -> FollowUpFigures:
    right = follow_right = follow_all = new_right = new_all = strong = strong_wrong = 0
    unsettled = settled_right = 0
    wrong: list[str] = []
    for case in cases:
        said_follow, band, settled = _reading(matcher, catalogue, case, action_of)
        is_follow = case["label"] == "follow_up"
        correct = said_follow == is_follow
        right += correct
        unsettled += not settled
        settled_right += settled and correct
        if is_follow:
            follow_all += 1
            follow_right += correct
        else:
            new_all += 1
            new_right += correct
            if band in ("HIGH", "MEDIUM"):
                strong += 1
                strong_wrong += said_follow
        if not correct:
            wrong.append(f"{case['label']}: {case['previous_method']} -> {case['next']}")
    return FollowUpFigures(
        cases=len(cases),
        accuracy=right / max(len(cases), 1),
        follow_ups_kept=follow_right / max(follow_all, 1),
        new_kept_apart=new_right / max(new_all, 1),
        strong_new_as_previous=strong_wrong,
        strong_new=strong,
        unsettled=unsettled,
        settled_accuracy=settled_right / max(len(cases) - unsettled, 1),
        wrong=wrong,
    )


def _reading(
    matcher: Matcher, catalogue: Catalogue, case: dict[str, Any], action_of: MetaAction
) -> tuple[bool, str | None, bool]:
    """Whether the turn reads the case's next message as a follow-up, the band of the
    message's own best method when that is another one, and whether the evidence settles
    it without a model."""
    text = case["next"]
    action = action_of(text)
    if action is not None:
        return action in ANSWERS_AGAIN, None, True
    result = matcher.match(text, recent_task_ids=[case["previous_method"]])
    last = catalogue.task(case["previous_method"])
    best = result.best
    band = best.band if best is not None and best.task_id != last.id else None
    weighed = goes_on(text, last, result, detect_language(text))
    return weighed.reading == "follow_up", band, weighed.settled
