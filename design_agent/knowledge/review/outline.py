"""The outline's parts, found by heading in the answer's language.

A part is found when a heading of the answer (any level, or a line in bold) shares one
of the part's distinctive words with it: a word no other part of the outline has, read
through a light stem and the synonyms of words.yaml ("Participants and recruiting" is
answered by "Who we will recruit"). The Spanish outline is used for a Spanish answer."""

from __future__ import annotations

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import words
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import LanguageWords, review_words, stem


def outline_items(doc: Document, outline: list[str]) -> list[CheckItem]:
    """One item per part of `outline`: found under which heading, or missing."""
    vocabulary = review_words().of(doc.language)
    wanted = [_terms(part, vocabulary) for part in outline]
    # A title (a level-1 heading above the parts) names the deliverable, not a part.
    parts = [p for p in doc.parts if p.level > 1] or doc.parts
    headings = [(part.heading, _terms(part.heading, vocabulary)) for part in parts]
    items = []
    for index, (part, terms) in enumerate(zip(outline, wanted, strict=True)):
        others = set().union(*(t for i, t in enumerate(wanted) if i != index))
        distinctive = (terms - others) or terms
        found = next((h for h, t in headings if t & distinctive), None)
        label = vocabulary.labels.outline.format(part=part)
        detail = (
            say("review_part_found", doc.language, heading=found)
            if found is not None
            else say("review_missing_part", doc.language, part=part)
        )
        items.append(
            CheckItem(
                id=f"outline_{index + 1}", label=label, passed=found is not None, detail=detail
            )
        )
    return items


def _terms(text: str, vocabulary: LanguageWords) -> set[str]:
    """The stems a text's content words stand for, each synonym group as its first word."""
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
