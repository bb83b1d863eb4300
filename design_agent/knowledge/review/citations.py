"""Citations `[guide.md > Heading]`: each must name a section a guide really has (in any
language it is written in); one that does not is named as invented. A real section the
prompt did not send is said, not failed."""

from __future__ import annotations

import re
from collections.abc import Collection

from design_agent.core.checklist import CheckItem
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.words import review_words

CITATION = re.compile(r"\[([A-Za-z0-9_.-]+\.(?:md|csv|txt))\s*>\s*([^\]\n]+?)\s*\]")


def citations_in(text: str) -> list[tuple[str, str]]:
    """(source, heading) of every `[file.md > Heading]` citation, in order, de-duplicated."""
    seen: dict[tuple[str, str], None] = {}
    for match in CITATION.finditer(text):
        seen[(match.group(1), match.group(2).strip())] = None
    return list(seen)


def heading_key(heading: str) -> str:
    """A heading as citations are compared: folded, emphasis and punctuation taken off."""
    return " ".join(re.findall(r"[a-z0-9]+", fold(heading)))


def citation_items(
    doc: Document,
    sent: Collection[tuple[str, str]],
    known: Collection[tuple[str, str]],
    sources: Collection[str],
) -> tuple[CheckItem, list[str]]:
    """The citations item and the invalid citations as written. `sent`: (source, heading)
    pairs the prompt carried; `known`: those the catalogue's guides have; `sources`: the
    file names of its guides and materials."""
    label = review_words().of(doc.language).labels.citations
    cited = citations_in(doc.text)
    if not cited:
        detail = say("review_no_citation", doc.language)
        return CheckItem(id="citations", label=label, passed=False, detail=detail), []
    sent_keys = {(s, heading_key(h)) for s, h in sent}
    known_keys = sent_keys | {(s, heading_key(h)) for s, h in known}
    invalid: list[str] = []
    problems: list[str] = []
    unsent: list[str] = []
    for source, heading in cited:
        key = (source, heading_key(heading))
        if key in known_keys:
            if key not in sent_keys and sent_keys:
                unsent.append(f"[{source} > {heading}]")
            continue
        invalid.append(f"[{source} > {heading}]")
        message = "review_invented_citation" if source in sources else "review_unknown_source"
        problems.append(say(message, doc.language, source=source, heading=heading))
    if problems:
        detail = "; ".join(problems)
        return CheckItem(id="citations", label=label, passed=False, detail=detail), invalid
    detail = say("review_citations_ok", doc.language, count=len(cited))
    if unsent:
        detail += say("review_not_sent", doc.language, names=", ".join(unsent))
    return CheckItem(id="citations", label=label, passed=True, detail=detail), invalid
