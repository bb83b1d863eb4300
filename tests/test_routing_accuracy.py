"""Routing measured on messages in users' own voices, with calibrated bands.

Eleven sets, each about half Spanish, each with messages that ask for no method:

- tests/data/routing_heldout_7.yaml (522 messages) is the newest, written from the method
  descriptions by a hand that never saw the router, committed before the third round of
  issue 24's changes and evaluated once after it: 91.6% / 97.1% / 100% (210 HIGH). Never
  tune on it.
- tests/data/routing_heldout_6.yaml (568 messages), written the same way after
  routing_heldout_5 had been read for failure classes, was evaluated once: 85.4% /
  95.6% / 97.4% (196 HIGH); the third round tuned on two thirds of it (88.0% / 96.6% /
  100% after; the third it never looked at: 86.4% / 95.5% -> 86.9% / 96.0%).
- tests/data/routing_heldout_5.yaml (508 messages) was written for issue 24's routing
  classes (the object noun beating the intent, an experiment described without its
  name, a named method) from the method descriptions only, before the changes for them,
  and evaluated once at the issue's close: 87.9% / 96.1% / 97.0% (202 HIGH), under the
  93 / 99 / 99 targets; its floors are what it read. Never tune on it.
- tests/data/routing_dev_3.yaml is the dev set the issue 24 classes were fixed on.
- tests/data/routing_heldout_4.yaml (483 messages, 70% never naming the method) is
  the sixth set written by someone else from the task descriptions only (a hand that
  read no code and no other set), committed before its single evaluation: its floors
  are what the matcher reached on phrasings it had never seen. Never tune on it.
- tests/data/routing_heldout_3.yaml (493, 71%) was the fifth such set; at its single
  evaluation it read 93.5% / 97.7% / 99.6% (225 HIGH), no no-method message at HIGH.
  Its misses named one failure class, people changing their mind mid-message ("a
  survey... actually no, 1:1 conversations"), fixed as a mechanism (RETRACTIONS and
  ABANDONED_PLANS in language.py); it is a dev set since.
- tests/data/routing_heldout_2.yaml (646), routing_dev.yaml (595),
  routing_dev_2.yaml (589) and routing_heldout.yaml (560) were the first four
  held-out sets, written the same way and each evaluated once as such (84.7/95.3/96.6,
  87.0/94.2/99.2, 90.9/98.2/98.4 and 96.0/99.7/99.6); their misses were then read for
  failure classes, fixed with general mechanisms (never by copying phrasings).
- tests/data/routing_tuning.yaml holds the messages the routing mechanisms were
  first tuned on (false friends, negation, a head request with details, needs
  without the method's name, everyday words, no method at all).

For each set: top-1 and top-3 accuracy over the messages that ask for a task,
HIGH precision (the share of HIGH answers that are right: HIGH proceeds
without asking, so it must almost never be wrong) and the share of messages
asking for no method that came out HIGH (must be none).

Targets, measured on the newest held-out set (routing_heldout_4, its one evaluation):
- top-1 >= 92%: met (94.1%).
- top-3 >= 99%: met (99.3%).
- HIGH precision >= 98%: met (99.5%, 222 HIGH).
- no message that asks for no method at HIGH: met (0 of 62; 2 MEDIUM). Routed as a
  turn is (meta-requests first, tests/test_routing_routed.py) the figures are the same.
- match p95 < 2 ms at 1,000 tasks (benchmarks/matching.py): met (1.74 ms cold, 1.75 ms
  warm, on an otherwise idle 2-core machine).
The one no-method message the matcher alone still puts at HIGH in an older set ("eres
un bot o una persona?", routing_heldout_2) never reaches it in a turn: it is small
talk, answered before any method is matched (NO_METHOD_HIGH_ALLOWED).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fixtures.labelled import labelled

from design_agent.understanding.matching import Matcher
from design_agent.understanding.routing_eval import evaluate


@dataclass(frozen=True)
class Floor:
    top1: float
    top3: float
    high_precision: float


# What the matcher reaches, rounded down by at most a point; never lower these without
# measuring, and raise them when the matcher gets better.
FLOORS = {
    # Held out (522), written from the method descriptions by a hand that never saw the
    # router, committed before the third round of issue 24's changes and evaluated once
    # after it: 91.6% / 97.1% / 100% (210 HIGH), no no-method message at HIGH; by class
    # top-1: named methods 66 of 66, object nouns 72 of 80, experiments without their
    # name 43 of 52, ordinary 231 of 252. Calibration: HIGH 100%, MEDIUM 87%, LOW 1 of 9.
    # Targets (93 / 99 / 99) met for HIGH precision only. A dev set since (fourth round):
    # 93.6% / 98.7% / 100% (219 HIGH; MEDIUM 201 of 226, LOW 1 of 5) once a list of
    # competitors with what they do, whom to keep close or only inform, and which methods
    # with whom or in what order were read; ordinary 238 of 252, object nouns 74 of 80. On a
    # third left unread while tuning (md5 of the text mod 3 == 0): 92.9% / 97.4% / 100%
    # (74 HIGH) -> 93.5% / 98.1% / 100% (75 HIGH).
    "routing_heldout_7.yaml": Floor(top1=0.93, top3=0.98, high_precision=0.99),
    # Held out (568), written from the method descriptions after the first held-out round
    # of issue 24, evaluated once: 85.4% / 95.6% / 97.4% (196 HIGH), no no-method message
    # at HIGH; unnamed experiments 51 of 70, object nouns 70 of 91 top-1. Targets not met.
    # A dev set since: 88.0% / 96.6% / 100% (202 HIGH) once a method named as another's
    # object ("a brief of the heuristic evaluation", "turn our empathy map into ..."), an
    # experiment told by its statistics, people asked to do something while watched and
    # people sat beside at work, posing as customers, a page shown for a moment and a fake
    # door were read; on a third left unread while tuning, 86.4% /
    # 95.5% / 100% (67 HIGH) -> 86.9% / 96.0% / 100% (68 HIGH). 88.4% / 97.0% / 100% (203
    # HIGH) after the list shape of issue 24's fourth round.
    "routing_heldout_6.yaml": Floor(top1=0.875, top3=0.965, high_precision=0.99),
    # Held out, written before the issue 24 changes for its classes (object noun, experiment
    # without its name, named method), evaluated once at the close: 87.9% / 96.1% /
    # 97.0% (202 HIGH), below the targets; unnamed experiments 20 of 38 top-1. One case
    # labelled concept_testing is a fake-door test, a method added after it was written.
    # A dev set since: 92.0% / 98.6% / 98.1% after the A/B and watching shapes grew.
    # 92.7% / 98.9% / 98.6% after the object, experiment-statistics and at-work readings;
    # 92.9% / 98.9% / 99.1% (216 HIGH) once "where" opens a deliverable's object and work
    # already done ("we mapped ...") is material.
    "routing_heldout_5.yaml": Floor(top1=0.92, top3=0.985, high_precision=0.985),
    # Dev set for the classes issue 24 named (object noun, experiment without its name,
    # statements, named methods): 79.4% / 87.6% / 97.9% (5 statements HIGH) before the
    # statement reading and method shapes; 94.0% / 97.8% / 100% (170 HIGH) after.
    "routing_dev_3.yaml": Floor(top1=0.935, top3=0.975, high_precision=0.99),
    # Held out, evaluated once: 94.1% / 99.3% / 99.5% (222 HIGH); 94.5% / 99.3% / 100%.
    "routing_heldout_4.yaml": Floor(top1=0.94, top3=0.99, high_precision=0.99),
    # Fifth set, once held out (93.5% / 97.7% / 99.6%): 94.2% / 97.9% / 100% (224 HIGH).
    "routing_heldout_3.yaml": Floor(top1=0.935, top3=0.975, high_precision=0.99),
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
    {
        "routing_heldout_7.yaml",
        "routing_heldout_6.yaml",
        "routing_heldout_5.yaml",
        "routing_heldout_4.yaml",
        "routing_heldout_3.yaml",
        "routing_heldout_2.yaml",
        "routing_heldout.yaml",
        "routing_dev.yaml",
        "routing_dev_2.yaml",
    }
)
# No-method messages known to come out HIGH, per set: a measured miss, not a licence. The
# held-out one was seen at its single evaluation and is left unfixed there on purpose.
NO_METHOD_HIGH_ALLOWED = {
    "routing_heldout_2.yaml": {"eres un bot o una persona?"},
    # A report of a result read as a request for its method, seen at the set's single
    # evaluation (the statement reading misses a past-tense report without a subject).
    "routing_heldout_5.yaml": {"La encuesta tuvo 1.240 respuestas"},
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
