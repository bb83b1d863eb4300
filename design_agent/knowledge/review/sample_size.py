"""The sample size against the method's guide: "2 participants per segment" is below the
5 a usability test needs per user group; a survey of 12 respondents is below its floor.
The range is declared per method (`review.sample_size` in tasks.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from design_agent.core.checklist import CheckItem
from design_agent.core.lexicon import lexicon
from design_agent.core.messages import say
from design_agent.core.models import SampleSize
from design_agent.core.text import fold
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import phrase_pattern, review_words

# Counts in words that are not a number of people ("a few", "a couple").
VAGUE = frozenset(
    {
        "few",
        "a few",
        "couple",
        "a couple",
        "a couple of",
        "unos pocos",
        "varios",
        "un",
        "una",
        "uno",
    }
)
# After the people: a rate, not a sample ("4 participants a day").
_RATE = re.compile(
    r"^\s*(?:a|per|each|por|al|cada)\s+(?:day|week|session|hour|dia|semana|sesion|hora)"
)


@dataclass(frozen=True)
class Mention:
    count: int
    said: str
    per_segment: bool


def sample_size_item(doc: Document, wanted: SampleSize) -> CheckItem:
    """Failed when the answer's sample is outside `wanted`; passed when within it, or when
    it states no number the check can read (said in the detail)."""
    label = review_words().of(doc.language).labels.sample_size
    mentions = _mentions(doc, tuple(wanted.who))
    segment = [m for m in mentions if m.per_segment]
    chosen = segment if wanted.per == "segment" and segment else mentions
    if not chosen:
        detail = say("review_sample_none", doc.language)
        return CheckItem(id="sample_size", label=label, passed=True, detail=detail)
    per_segment = wanted.per == "segment" and bool(segment)
    low, high = min(chosen, key=lambda m: m.count), max(chosen, key=lambda m: m.count)
    unit = say(f"review_sample_unit_{wanted.per}", doc.language)
    span = f"{wanted.min}-{wanted.max}" if wanted.max else f">= {wanted.min}"
    span += f" {unit}"
    if (low if per_segment else high).count < wanted.min:
        said = (low if per_segment else high).said
        detail = say(
            "review_sample_low", doc.language, said=said, low=wanted.min, unit=unit, range=span
        )
        return CheckItem(id="sample_size", label=label, passed=False, detail=detail)
    if wanted.max and (per_segment or wanted.per == "study") and high.count > wanted.max:
        detail = say(
            "review_sample_high", doc.language, said=high.said, high=wanted.max, unit=unit,
            range=span,
        )  # fmt: skip
        return CheckItem(id="sample_size", label=label, passed=False, detail=detail)
    detail = say("review_sample_ok", doc.language, said=high.said)
    return CheckItem(id="sample_size", label=label, passed=True, detail=detail)


def _mentions(doc: Document, who: tuple[str, ...] = ()) -> list[Mention]:
    pattern, per_segment, numbers = _patterns(who)
    words = review_words()
    excluded = phrase_pattern([w for lang in words.languages for w in lang.not_sample])
    found: list[Mention] = []
    for sentence in doc.sentences:
        folded = fold(sentence)
        for match in pattern.finditer(folded):
            raw = match.group("n")
            count = int(raw) if raw.isdigit() else numbers.get(raw)
            after = folded[match.end() : match.end() + 40]
            if count is None or count == 0 or _RATE.match(after) or excluded.search(folded):
                continue
            near = folded[match.start() : match.end() + 40]
            found.append(Mention(count, match.group(0), bool(per_segment.search(near))))
    return found


@cache
def _patterns(who: tuple[str, ...] = ()) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    words = review_words()
    plural = list(who) or [w for lang in words.languages for w in lang.participants]
    people = phrase_pattern([*plural, *(w[:-1] for w in plural if w.endswith("s"))])
    segment = phrase_pattern([w for lang in words.languages for w in lang.per_segment])
    table = lexicon().merged_table("number_words")
    numbers = {fold(k): int(v) for k, v in table.items() if fold(k) not in VAGUE}
    numbers.update({fold(k): v for k, v in words.counts.items()})
    spelled = "|".join(re.escape(k) for k in sorted(numbers, key=len, reverse=True))
    count = rf"(?P<n>\d{{1,4}}|{spelled})" if spelled else r"(?P<n>\d{1,4})"
    # Words between a count and its people: adjectives, never function words ("one row
    # per participant", "1 a la respuesta").
    function = {fold(w) for lang in words.languages for w in lang.stop_words}
    function |= {"a", "per", "por", "la", "el", "al", "of", "de", "del", "the", "row", "fila"}
    barred = "|".join(sorted(map(re.escape, function), key=len, reverse=True))
    adjectives = rf"(?:(?!(?:{barred})\b)[a-z][a-z-]*\s+){{0,3}}?"
    pattern = re.compile(
        rf"(?<![\w.,])(?<!of )(?<!de ){count}\s+(?:{adjectives}{people.pattern}|{segment.pattern})"
    )
    return pattern, segment, numbers
