"""NPS recomputed: the % of promoters minus the % of detractors, against the NPS the
answer states ("Promoters 45 %, detractors 25 %: NPS 20")."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.columns import close, nothing_to_recompute, shown, table_item
from design_agent.knowledge.review.document import Document, parse_number
from design_agent.knowledge.review.words import phrase_pattern, review_words

_PERCENT = re.compile(r"(-?\d+(?:[.,]\d+)?)\s?%")
_NPS_SAID = re.compile(
    r"\bnps\b[^0-9\n=]{0,40}?(?:=\s*)?([-−+]?\d+(?:[.,]\d+)?)(?!\s?%|\s*-\s*\d|\d)"
)


def nps_item(doc: Document) -> CheckItem:
    """% promoters - % detractors against the NPS the answer states."""
    columns = review_words().columns
    promoters = phrase_pattern(columns["promoters"])
    detractors = phrase_pattern(columns["detractors"])
    found: dict[str, tuple[float, str]] = {}
    for line in doc.lines:
        folded = fold(line)
        for role, pattern in (("promoters", promoters), ("detractors", detractors)):
            hit = pattern.search(folded)
            if hit and role not in found:
                percent = _nearest_percent(folded, hit.start())
                if percent is not None:
                    found[role] = (percent, line)
        if "nps" not in found and not (promoters.search(folded) or detractors.search(folded)):
            tail = folded.rsplit("=", 1)[-1] if "=" in folded and "nps" in folded else folded
            said = _NPS_SAID.search(folded if tail is folded else "nps " + tail)
            if said:
                value = parse_number(said.group(1), doc.language)
                if value is not None and -100 <= value <= 100:
                    found["nps"] = (value, said.group(1))
    if not {"promoters", "detractors", "nps"} <= set(found):
        return nothing_to_recompute("nps", doc.language)
    right = found["promoters"][0] - found["detractors"][0]
    stated, text = found["nps"]
    if close(stated, right, 0.0, 1.01):
        return table_item("nps", doc.language, True, say("review_tables_ok", doc.language, count=1))
    detail = say(
        "review_nps",
        doc.language,
        right=shown(right, doc.language),
        promoters=shown(found["promoters"][0], doc.language),
        detractors=shown(found["detractors"][0], doc.language),
        stated=text,
    )
    return table_item("nps", doc.language, False, detail)


def _nearest_percent(folded: str, at: int) -> float | None:
    """The percentage just after the word ("promoters: 45 %"), else the nearest before it
    ("45 % promoters")."""
    after = _PERCENT.search(folded[at : at + 40])
    hits = [after] if after else list(_PERCENT.finditer(folded[max(0, at - 30) : at]))[-1:]
    if not hits:
        return None
    raw = hits[0].group(1)
    return parse_number(raw, "en" if "." in raw else "es")
