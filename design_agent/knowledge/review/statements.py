"""Two lines every answer owes its reader: its limitations (real ones: "Limitations: none"
fails) and its stated confidence ("Confidence: medium, because ...")."""

from __future__ import annotations

import re

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import LanguageWords, phrase_pattern, review_words

_LEAD = r"^\W*(?:{words})\b\W*"


def limitations_item(doc: Document) -> CheckItem:
    """Passed when a limitations part (a heading, or a line led by the word) says something
    other than "none"."""
    vocabulary = review_words().of(doc.language)
    label = vocabulary.labels.limitations
    said = _limitations_text(doc, vocabulary)
    if said is None:
        detail = say("review_limitations_missing", doc.language)
        return CheckItem(id="limitations", label=label, passed=False, detail=detail)
    heading, text = said
    first = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]  # its first paragraph or list
    if _says_nothing(first):
        shown = first.strip(" .*_-:") or "-"
        detail = say("review_limitations_none", doc.language, said=shown[:60])
        return CheckItem(id="limitations", label=label, passed=False, detail=detail)
    detail = say("review_limitations_ok", doc.language, heading=heading)
    return CheckItem(id="limitations", label=label, passed=True, detail=detail)


def confidence_item(doc: Document) -> CheckItem:
    """Passed when a line (or a heading's first line) states a confidence level."""
    vocabulary = review_words().of(doc.language)
    label = vocabulary.labels.confidence
    said = _confidence_line(doc)
    if said is None:
        detail = say("review_confidence_missing", doc.language)
        return CheckItem(id="confidence", label=label, passed=False, detail=detail)
    detail = say("review_confidence_ok", doc.language, said=said[:80])
    return CheckItem(id="confidence", label=label, passed=True, detail=detail)


def _limitations_text(doc: Document, vocabulary: LanguageWords) -> tuple[str, str] | None:
    names = _any_language("limitations")
    for part in doc.parts:
        if names.search(fold(part.heading)):
            return part.heading, part.body
    lead = re.compile(_LEAD.format(words=names.pattern), re.MULTILINE)
    for number, line in enumerate(doc.lines):
        match = lead.match(fold(line))
        if match:
            rest = fold(line)[match.end() :]
            if not rest.strip():  # "Limitations:" and a list below it
                following = "\n".join(doc.lines[number + 1 : number + 6])
                rest = re.split(r"\n\s*\n", following.strip(), maxsplit=1)[0]
            return line.strip()[: match.end()].strip(" *_:"), rest
    for sentence in doc.sentences:  # mid-line: "... Limitations: no interviews yet."
        match = re.search(r"(?:^|\W)(?:" + names.pattern + r")\W*:\s*", fold(sentence))
        if match:
            return sentence[: match.end()].strip(" *_:"), fold(sentence)[match.end() :]
    return None


def _says_nothing(text: str) -> bool:
    """Empty, or led by "none" / "ninguna" / "no aplica" ("None that affect the
    conclusions", "Limitaciones: ninguna relevante")."""
    folded = re.sub(r"[\s*_.\-:;,!()]+", " ", fold(text)).strip()
    folded = _any_language("limitations").sub("", folded, count=1).strip() if folded else ""
    if not folded:
        return True
    nothing = {fold(w).strip(" .-") for lang in review_words().languages for w in lang.nothing}
    lead = next((n for n in sorted(nothing, key=len, reverse=True) if n and (
        folded == n or folded.startswith(n + " "))), None)  # fmt: skip
    return lead is not None and not folded[len(lead) :].startswith((" of ", " de "))


def _confidence_line(doc: Document) -> str | None:
    names = _any_language("confidence")
    levels = _any_language("confidence_levels")
    for part in doc.parts:
        if names.search(fold(part.heading)) and levels.search(fold(part.body[:200])):
            return f"{part.heading}: {part.body.splitlines()[0] if part.body else ''}".strip()
    lead = re.compile(_LEAD.format(words=names.pattern), re.MULTILINE)
    for line in doc.lines:
        folded = fold(line)
        match = lead.match(folded)
        if match and levels.search(folded[match.end() :]):
            return re.sub(r"[*_]+", "", line).strip()
    for sentence in doc.sentences:  # mid-line: "... Confidence: medium."
        found = re.search(r"(?:" + names.pattern + r")\W*:\W*", fold(sentence))
        if found and levels.match(fold(sentence)[found.end() :]):
            return re.sub(r"[*_]+", "", sentence).strip()
    return None


def _any_language(name: str) -> re.Pattern[str]:
    found: list[str] = []
    for language in review_words().languages:
        found += getattr(language, name)
    return phrase_pattern(found)
