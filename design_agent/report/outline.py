"""The report's own headings, and the anchors its table of contents links to.

Both renderers take the outline from here, so the Markdown's links and the
HTML's ids agree: an anchor is the heading's text made into a GitHub-style
slug (lower case, punctuation dropped, spaces as hyphens).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from design_agent.core.messages import say
from design_agent.report.data import ReportAnswer, ReportData

SECTIONS = ("report_context", "report_decisions", "report_answers", "report_sources")
_NOT_SLUG = re.compile(r"[^\w\- ]", re.UNICODE)


class Heading(BaseModel):
    """One of the report's own headings: level 1-3, its plain text and its anchor."""

    model_config = ConfigDict(frozen=True)

    level: int
    text: str
    slug: str


def slug(text: str) -> str:
    """ "1. Usability test plan (turn 2)" -> "1-usability-test-plan-turn-2"."""
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def heading(level: int, text: str) -> Heading:
    return Heading(level=level, text=text, slug=slug(text))


def title(data: ReportData) -> Heading:
    return heading(1, say("report_title", data.language, name=data.project.name))


def contents(data: ReportData) -> Heading:
    return heading(2, say("report_contents", data.language))


def section(key: str, data: ReportData) -> Heading:
    return heading(2, say(key, data.language))


def answer_heading(answer: ReportAnswer, index: int, data: ReportData) -> Heading:
    text = say(
        "report_answer_heading",
        data.language,
        index=index,
        method=answer.method,
        turn=answer.number,
    )
    return heading(3, text)


def outline(data: ReportData) -> list[Heading]:
    """Every heading the report itself writes, in order (the answers' own come below these)."""
    found = [title(data), contents(data)]
    for key in SECTIONS:
        found.append(section(key, data))
        if key == "report_answers":
            found += [answer_heading(a, i, data) for i, a in enumerate(data.answers, 1)]
    return found
