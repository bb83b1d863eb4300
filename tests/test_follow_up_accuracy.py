"""A follow-up is a follow-up only when nothing says otherwise, measured on labelled pairs
written by a hand that never saw the code (tests/data/followups*.yaml): floors on what the
turn reads (understanding/followup_eval.py, the same reading as turn/clarify.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from design_agent.knowledge.registry import Catalogue
from design_agent.understanding.followup_eval import evaluate
from design_agent.understanding.matching import Matcher
from design_agent.understanding.routing_eval import meta_action

DATA = Path(__file__).resolve().parent / "data"
# The floor of each set, a little under what it reads today (so a regression shows).
FLOORS = {
    # The third held-out set (344), written before the third round of issue 24's changes
    # and evaluated once after it: 89.8 %, 5 of 166 strong new requests answered as the
    # previous method (follow-ups kept 83.7 %, new requests apart 95.9 %). Targets (95 %,
    # 0) not met. A dev set since (fourth round): 92.2 % (follow-ups kept 89.0 %, new
    # requests apart 95.3 %, 5 of 166 strong new as previous) once an edit verb with the
    # answer joined to it ("revísala", "redúcelo"), an adding verb with a definite object or
    # one more of the answer ("add the case where ...", "añade una para ...") and a
    # statement of the situation ("es remota y solo dura 40 minutos") were read. On a third
    # left unread while tuning (md5 of the next message mod 3 == 0): 91.7 % -> 91.7 %
    # (follow-ups kept 84.5 % -> 86.2 %, new requests apart 98.4 % -> 96.8 %), 0 of 59 strong
    # new as previous before and after.
    "followups_heldout_3.yaml": (0.915, 5),
    # 90.6 % (2 strong new as previous); 92.9 % (1) once an insertion weighs as an edit;
    # 93.8 % (0) once only what is said of the answer keeps it against a half-named method;
    # 94.6 % (0) after issue 24's fourth round.
    "followups_dev.yaml": (0.94, 0),
    # Held out, evaluated once at issue 24's close: 89.4 % (target 95 %), 2 of 141 new
    # requests whose own method is HIGH or MEDIUM answered as the previous one (target 0);
    # a dev set since: 93.2 % (1 of 141) after the insertion and conversion readings, 94.1 %
    # (0) after the readings of questions, wishes and clause-opening edits; 94.4 % (0) after
    # the fourth round.
    "followups_heldout.yaml": (0.94, 0),
    # The second held-out set (352), evaluated once after those readings: 88.9 %, 5 of 150
    # strong new requests answered as the previous method. Targets (95 %, 0) not met. A dev
    # set since: 94.3 %, 0 of 150 (also once "what have we decided so far about X" asks for
    # the decisions and "¿y el tamaño de la muestra?" reads as a fragment); on a third of it
    # left unread while tuning, 90.4 % -> 91.2 % and 1 -> 0 of 44.
    "followups_heldout_2.yaml": (0.935, 0),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_follow_ups_and_new_requests_are_read_as_meant(
    name: str, bundled_catalogue: Catalogue, bundled_matcher: Matcher
) -> None:
    cases = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))["cases"]
    figures = evaluate(bundled_matcher, bundled_catalogue, cases, meta_action())
    accuracy, strong_allowed = FLOORS[name]
    assert figures.accuracy >= accuracy, figures.summary()
    assert figures.strong_new_as_previous <= strong_allowed, figures.summary()
