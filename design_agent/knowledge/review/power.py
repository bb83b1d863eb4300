"""An A/B test's sample per arm against the guide's approximation for 5 % significance
and 80 % power: n per arm ~ 16 x p x (1 - p) / d^2, with p the baseline rate and d the
smallest change to detect ("from 10 % to 11 %", or p = 0.10 and d = 0.01)."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import shown
from design_agent.knowledge.review.document import Document, parse_number
from design_agent.knowledge.review.words import review_words

_NUM = r"\d[\d.,]*"
_CHANGE = re.compile(rf"(?:from|del|de)\s+({_NUM})\s?%\s+(?:to|al|a)\s+({_NUM})\s?%")
_BASE = re.compile(rf"\bp\s*=\s*({_NUM})")
_DELTA = re.compile(rf"(?:δ|delta|mde)\s*=\s*({_NUM})\s?(%?)")
_ARM = re.compile(
    rf"(?<![\w.,])({_NUM})\s+(?:[a-z]+\s+){{0,2}}?(?:per arm|per variant|por brazo|por variante"
    rf"|in each arm|en cada brazo|each arm)"
)
# The stated sample may fall short of the approximation by this share before it is flagged.
SLACK = 0.8


def ab_sample_item(doc: Document) -> CheckItem:
    """Failed when a stated sample per arm is well under what the answer's own baseline
    and detectable change need; not assessed when either is missing."""
    label = review_words().of(doc.language).labels.sample_size
    folded = fold(doc.text)
    rates = _rates(folded, doc.language)
    arms = [(m.group(1), parse_number(m.group(1), doc.language)) for m in _ARM.finditer(folded)]
    arms = [(text, n) for text, n in arms if n]
    if rates is None or not arms:
        return CheckItem(id="ab_sample", label=label, passed=True, assessed=False)
    p, delta = rates
    needed = 16 * p * (1 - p) / delta**2
    text, stated = min(arms, key=lambda a: a[1] or 0)
    if stated is not None and stated < SLACK * needed:
        detail = say(
            "review_ab_sample", doc.language, stated=text, needed=shown(needed, doc.language),
            p=shown(p, doc.language), delta=shown(delta, doc.language),
        )  # fmt: skip
        return CheckItem(id="ab_sample", label=label, passed=False, detail=detail)
    return CheckItem(id="ab_sample", label=label, passed=True, detail=f"{text} / {needed:.0f}")


def _rates(folded: str, language: str) -> tuple[float, float] | None:
    """The baseline rate and the change to detect, as shares of 1."""
    change = _CHANGE.search(folded)
    if change:
        before = parse_number(change.group(1), language)
        after = parse_number(change.group(2), language)
        if before and after and before != after:
            return before / 100, abs(after - before) / 100
    base, delta = _BASE.search(folded), _DELTA.search(folded)
    if base and delta:
        p = parse_number(base.group(1), language)
        d = parse_number(delta.group(1), language)
        if p and d:
            p = p / 100 if p > 1 else p
            d = d / 100 if delta.group(2) or d >= 1 else d
            return (p, d) if 0 < p < 1 and 0 < d < 1 else None
    return None
