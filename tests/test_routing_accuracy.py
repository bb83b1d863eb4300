"""Routing measured on messages in users' own voices, with calibrated bands.

Five sets, each about half Spanish, each with messages that ask for no method:

- tests/data/routing_heldout_2.yaml (646 messages, 75% never naming the method) is
  the fourth set written by someone else from the task descriptions only, committed
  before the routing changes it measures and evaluated once, after them: its floors
  are what the matcher reached on phrasings it had never seen, so a change that
  makes routing worse on unseen messages fails here. Never tune on it.
- tests/data/routing_dev.yaml (595), routing_dev_2.yaml (589) and
  routing_heldout.yaml (560) were the first three held-out sets, written the same
  way and each evaluated once as such (84.7/95.3/96.6, 87.0/94.2/99.2 and
  90.9/98.2/98.4); their misses were then read for failure classes, fixed with
  general mechanisms (never by copying phrasings).
- tests/data/routing_tuning.yaml holds the messages the routing mechanisms were
  first tuned on (false friends, negation, a head request with details, needs
  without the method's name, everyday words, no method at all).

For each set: top-1 and top-3 accuracy over the messages that ask for a task,
HIGH precision (the share of HIGH answers that are right: HIGH proceeds
without asking, so it must almost never be wrong) and the share of messages
asking for no method that came out HIGH (must be none).

Targets, measured on the held-out set (its one evaluation), and where they stand:
- top-1 >= 92%: met (96.0%; 99.3% on messages that name the method, 94.9% on
  those that only describe the need; English 98.8%, Spanish 93.9%).
- top-3 >= 99%: met (99.7%).
- HIGH precision >= 98%: met (99.6%, 247 HIGH; MEDIUM answers are right 93.6% of
  the time, LOW 66.7%).
  After that evaluation the conversation suite caught a regression ("ahora crea
  personas de usuario" no longer HIGH): the phrase weight went back to 0.5 and the
  Spanish prose lost its false friends. The set now reads 96.2% / 99.7% / 99.6%
  (260 HIGH); it was not looked at to make that change.
- no message that asks for no method at HIGH: NOT met (1 of 70: "eres un bot o una
  persona?" -> conversational design; see NO_METHOD_HIGH_ALLOWED).
- match p95 < 2 ms at 1,000 tasks (benchmarks/matching.py): met.
The fourth set came out easier than the third did at its single evaluation
(90.9%); the earlier sets, now dev sets, reach 88.7-93.2% top-1, so expect
unseen phrasings to land between the two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fixtures.labelled import labelled

from design_agent.matching import Matcher
from design_agent.routing_eval import evaluate


@dataclass(frozen=True)
class Floor:
    top1: float
    top3: float
    high_precision: float


# What the matcher reaches, rounded down by at most a point; never lower these without
# measuring, and raise them when the matcher gets better.
FLOORS = {
    # Held out, evaluated once after the routing changes: 96.0% / 99.7% / 99.6% (247 HIGH);
    # 96.2% / 99.7% / 99.6% (260 HIGH) after the fix the conversation suite asked for.
    "routing_heldout_2.yaml": Floor(top1=0.955, top3=0.99, high_precision=0.99),
    # Third dev set, once held out (90.9% / 98.2% / 98.4%): 91.9% / 98.0% / 99.2% (242 HIGH).
    "routing_heldout.yaml": Floor(top1=0.915, top3=0.975, high_precision=0.99),
    # Second dev set, once held out: 88.7% / 94.8% / 100% (240 HIGH).
    "routing_dev_2.yaml": Floor(top1=0.88, top3=0.945, high_precision=0.99),
    # Development set: 92.8% / 97.4% / 99.6% (284 HIGH); 84.7% / 95.3% / 96.6% at first.
    "routing_dev.yaml": Floor(top1=0.925, top3=0.97, high_precision=0.99),
    # Tuning set: 94.3% / 99.1% / 99.5% (198 HIGH); 96.4% before Spanish prose became
    # evidence, which the independent sets gained from (see the commit of that change).
    "routing_tuning.yaml": Floor(top1=0.935, top3=0.985, high_precision=0.99),
}
# Sets written by an independent hand are large; the tuning set is smaller.
LARGE_SETS = frozenset(
    {"routing_heldout_2.yaml", "routing_heldout.yaml", "routing_dev.yaml", "routing_dev_2.yaml"}
)
# No-method messages known to come out HIGH, per set: a measured miss, not a licence. The
# held-out one was seen at its single evaluation and is left unfixed there on purpose.
NO_METHOD_HIGH_ALLOWED = {
    "routing_heldout_2.yaml": {"eres un bot o una persona?"},
}


def load_cases(name: str) -> list[dict[str, Any]]:
    return labelled(name)  # parsed once per worker, shared with the other routing modules


@pytest.fixture(scope="module")
def matcher(bundled_matcher: Matcher) -> Matcher:
    return bundled_matcher


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_the_sets_are_big_bilingual_labelled_and_name_real_tasks(matcher, name):
    cases = load_cases(name)
    assert len(cases) >= (480 if name in LARGE_SETS else 150)
    assert sum(c["lang"] == "es" for c in cases) >= 0.45 * len(cases)
    assert all({"text", "expect", "lang", "names_method"} <= c.keys() for c in cases)
    assert any(c["expect"] is None for c in cases)
    unknown = {c["expect"] for c in cases if c["expect"]} - set(matcher.task_ids)
    assert not unknown, f"cases expect tasks the catalogue lacks: {unknown}"


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_routing_ranks_the_right_method_and_high_is_rarely_wrong(matcher, name):
    found = evaluate(matcher, load_cases(name))
    floor = FLOORS[name]
    summary = f"{name}: {found.summary()}"
    assert found.top1 >= floor.top1, summary
    assert found.top3 >= floor.top3, summary
    assert found.high_precision >= floor.high_precision, summary


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_a_message_that_asks_for_no_method_is_never_high(matcher, name):
    high = [
        (c["text"], result.best)
        for c in load_cases(name)
        if c["expect"] is None and (result := matcher.match(c["text"])).band == "HIGH"
    ]
    unexpected = [
        (text, best) for text, best in high if text not in NO_METHOD_HIGH_ALLOWED.get(name, set())
    ]
    assert not unexpected, f"asked for no method, matched HIGH: {unexpected}"
