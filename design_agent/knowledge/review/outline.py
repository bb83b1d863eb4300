"""The outline's parts, found by heading in the answer's language.

A part is found when a heading of the answer (any level, or a line in bold) shares one
of the part's distinctive words with it: a word no other part of the outline has, read
through a light stem and the synonyms of words.yaml ("Participants and recruiting" is
answered by "Who we will recruit"). The Spanish outline is used for a Spanish answer."""

from __future__ import annotations

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold, words
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import LanguageWords, review_words, stem


def outline_items(doc: Document, outline: list[str]) -> list[CheckItem]:
    """One item per part of `outline`: found under which heading, or missing."""
    vocabulary = review_words().of(doc.language)
    wanted = [_terms(part, vocabulary) for part in outline]
    # A title (a level-1 heading above the parts) names the deliverable, not a part.
    parts = [p for p in doc.parts if p.level > 1] or doc.parts
    headings = [(part.heading, _terms(part.heading, vocabulary)) for part in parts]
    found = _assign(wanted, headings)
    items = []
    for index, part in enumerate(outline):
        heading = found.get(index)
        label = vocabulary.labels.outline.format(part=part)
        detail = (
            say("review_part_found", doc.language, heading=heading)
            if heading is not None
            else say("review_missing_part", doc.language, part=part)
        )
        items.append(
            CheckItem(
                id=f"outline_{index + 1}", label=label, passed=heading is not None, detail=detail
            )
        )
    return items


def _assign(wanted: list[set[str]], headings: list[tuple[str, set[str]]]) -> dict[int, str]:
    """Part index -> the heading that answers it. First by a part's distinctive words (a
    heading may answer several parts so); then each heading no part claimed that way
    answers, by the words the parts share, the one part it covers best ("Key results"
    answers "Key results with baselines", not also "Initiatives linked to key results")."""
    distinctive = [_distinctive(index, wanted) for index in range(len(wanted))]
    found: dict[int, str] = {}
    claimed: set[int] = set()
    for index in range(len(wanted)):
        for number, (heading, terms) in enumerate(headings):
            if terms & distinctive[index]:
                found[index] = heading
                claimed.add(number)
                break
    for number, (heading, terms) in enumerate(headings):
        open_parts = [i for i in range(len(wanted)) if i not in found and terms & wanted[i]]
        if number in claimed or not open_parts:
            continue
        best = max(open_parts, key=lambda i: len(terms & wanted[i]) / len(wanted[i]))
        found[best] = heading
    for index, want in enumerate(wanted):  # a heading that names the part in full answers it,
        if index not in found and want:  # even one claimed by another ("Ideas / Idea list",
            named = next((h for h, terms in headings if want <= terms), None)  # a brief
            if named is not None:  # answer's merged parts)
                found[index] = named
    return found


def _distinctive(index: int, wanted: list[set[str]]) -> set[str]:
    """A part's words that no other part of the outline has (maybe none)."""
    others = set().union(*(t for i, t in enumerate(wanted) if i != index))
    return wanted[index] - others


def _terms(text: str, vocabulary: LanguageWords) -> set[str]:
    """The stems a text's content words stand for, each synonym group as its first word."""
    text = fold(text).replace("por que", "porque")  # "Por qué esta métrica": a reason
    stops = {stem(w) for w in vocabulary.stop_words}
    synonyms = _synonyms(vocabulary)
    stems = {stem(w) for w in words(text) if len(w) > 1 and not w.isdigit()}
    return {synonyms.get(s, s) for s in stems - stops}


_SYNONYMS: dict[int, dict[str, str]] = {}


def _synonyms(vocabulary: LanguageWords) -> dict[str, str]:
    key = id(vocabulary)
    if key not in _SYNONYMS:
        _SYNONYMS[key] = vocabulary.synonym_of()
    return _SYNONYMS[key]
