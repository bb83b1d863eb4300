"""Arithmetic written out in the answer, recomputed: "11/16 = 0.69", "2,000 x 1 x 50% / 2
= 500", "1.000 × 35 % = 350". Only numbers and the operators + - x × * / between them
(a minus with spaces around it); a percentage is its share of 1; "≈" allows 5 %, "="
the rounding of the stated number's decimals."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.knowledge.review.columns import shown
from design_agent.knowledge.review.document import Document, parse_number
from design_agent.knowledge.review.words import review_words

_NUM = r"\d[\d.,]*\d%?|\d%?"
_OP = r"(?:\s*[+×*/÷]\s*|\s+[x−-]\s+)"
_EQUATION = re.compile(
    rf"(?<![\w.,/^²³-])((?:{_NUM}|{_NUM}\s%)(?:{_OP}(?:{_NUM}|\d[\d.,]*\s%)){{1,12}})\s*(=|≈|~)\s*"
    rf"([-−]?\d[\d.,]*\d|[-−]?\d)(\s?%)?(?![\d²³^])"
)
_TOKEN = re.compile(r"(\d[\d.,]*\d|\d)(\s?%)?|([+×*/÷x−-])")


def equations_item(doc: Document) -> CheckItem | None:
    """The first equation that does not hold, as a failed item; None when all hold (or
    the answer writes none)."""
    for sentence in doc.short_sentences:
        for match in _EQUATION.finditer(sentence):
            right = _evaluate(match.group(1), doc.language)
            stated = parse_number(match.group(3), doc.language)
            if right is None or stated is None:
                continue
            if match.group(4):
                stated /= 100
            if not _holds(right, stated, match.group(3), match.group(2) != "="):
                label = review_words().of(doc.language).labels.sums
                detail = say(
                    "review_inline_sum", doc.language, parts=match.group(1).strip(),
                    right=shown(right * (100 if match.group(4) else 1), doc.language),
                    stated=match.group(3) + (match.group(4) or ""),
                )  # fmt: skip
                return CheckItem(id="equations", label=label, passed=False, detail=detail)
    return None


def _evaluate(expression: str, language: str) -> float | None:
    """Left to right with × and / before + and -; None if it is not one."""
    terms: list[float] = []
    sign, value, op = 1.0, None, None
    for number, percent, operator in _TOKEN.findall(expression):
        if operator:
            if operator in "+−-" and value is not None:
                terms.append(sign * value)
                sign, value, op = (1.0 if operator == "+" else -1.0), None, None
            else:
                op = operator
            continue
        x = parse_number(number, language)
        if x is None:
            return None
        x = x / 100 if percent else x
        if value is None:
            value = x
        elif op in ("/", "÷"):
            if x == 0:
                return None
            value /= x
        else:
            value *= x
    if value is None:
        return None
    terms.append(sign * value)
    return sum(terms)


def _holds(right: float, stated: float, written: str, approximate: bool) -> bool:
    if approximate:
        return abs(right - stated) <= 0.05 * abs(right) + 1e-9
    decimals = len(re.split(r"[.,]", written)[-1]) if re.search(r"[.,]\d{1,2}$", written) else 0
    rounding: float = 0.5 * 10.0**-decimals
    return abs(right - stated) <= rounding + 0.005 * abs(right) + 1e-9
