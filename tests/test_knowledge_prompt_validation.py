"""A turn's grounding: guide sections, the budgeted prompt and the checklist on the answer."""

from __future__ import annotations

import pytest

from design_agent.core.text import estimate_tokens
from design_agent.knowledge.guides import Knowledge, split_sections
from design_agent.knowledge.prompt import PastTurn, ProjectContext, assemble
from design_agent.knowledge.validation import citations_in, validate_answer


@pytest.fixture
def catalogue(bundled_catalogue):
    return bundled_catalogue


def test_guides_split_into_citable_sections(catalogue):
    sections = Knowledge(catalogue).sections("test_plan.md")
    citations = [s.citation for s in sections]
    assert "[test_plan.md > Recruiting]" in citations
    assert "[test_plan.md > Procedure]" in citations
    assert citations[0] == "[test_plan.md > Summary]"


def test_split_sections_keeps_text_before_first_heading():
    sections = split_sections("x.md", "# T\n\nIntro.\n\n## A\nalpha\n## B\nbeta\n")
    assert [(s.heading, s.text) for s in sections] == [
        ("Summary", "# T\n\nIntro."),
        ("A", "alpha"),
        ("B", "beta"),
    ]


def test_a_tight_budget_keeps_the_sections_the_message_is_about(catalogue):
    knowledge = Knowledge(catalogue)
    task = catalogue.task("usability_test_plan")
    everything = knowledge.task_sections(task)
    chosen = knowledge.select(task, "how do we recruit participants and pay incentives?", 900)
    assert sum(s.tokens for s in chosen) <= 900 < sum(s.tokens for s in everything)
    headings = {s.heading for s in chosen}
    assert "Recruiting" in headings or "Incentives" in headings
    assert [s for s in everything if s in chosen] == chosen  # document order kept


def build(catalogue, context_limit, recent=()):
    task = catalogue.task("journey_mapping")
    return assemble(
        message="Map the journey of first-time buyers in our checkout",
        task=task,
        agent=catalogue.agent(task.agent),
        knowledge=Knowledge(catalogue),
        language="en",
        verbosity="normal",
        context_limit=context_limit,
        project=ProjectContext("Mobile Checkout", {"users": "first-time buyers"}),
        recent=recent,
    )


def test_prompt_stays_within_the_provider_budget(catalogue):
    turns = [PastTurn("user" if i % 2 else "agent", "word " * 200) for i in range(40)]
    big = build(catalogue, 200_000, turns)
    small = build(catalogue, 4_000, turns)
    assert small.total_tokens <= 3_000 < big.total_tokens
    assert small.prompt.endswith(
        "<request>\nMap the journey of first-time buyers in our checkout\n</request>"
    )
    assert '<project name="Mobile Checkout">' in small.prompt
    assert small.dropped and not big.dropped


def test_prompt_instructs_citations_and_tags(catalogue):
    assembled = build(catalogue, 100_000)
    instructions = assembled.prompt.split("<instructions>")[1]
    assert "[journey_mapping.md > Procedure]" in instructions
    assert '<decision rationale="why">' in instructions
    assert "<ask_user>" in instructions
    assert estimate_tokens(assembled.system + assembled.prompt) == pytest.approx(
        assembled.total_tokens, rel=0.05
    )


GOOD = """For Mobile Checkout and its first-time buyers, here is the journey map.
Stages and touchpoints, emotions and pain points, opportunities follow
[journey_mapping.md > Procedure] [journey_mapping.md > Stages and lanes].
Confidence: medium. Limitations: no interviews yet; assumptions are marked.
The journey map covers discovery to delivery. [journey_mapping.md > Secret tips]"""


def test_the_review_names_an_invented_citation_and_not_the_missing_project_name(catalogue):
    task = catalogue.task("journey_mapping")
    knowledge = Knowledge(catalogue)
    sent = knowledge.known_citations(task)
    result = validate_answer(GOOD, task, "en", sent, knowledge.headings_of)
    by_id = {item.id: item for item in result.items}
    assert by_id["confidence"].passed and by_id["limitations"].passed
    assert not by_id["citations"].passed
    assert "[journey_mapping.md > Secret tips]" in by_id["citations"].detail
    assert result.invalid_citations == ["[journey_mapping.md > Secret tips]"]
    # Repeating the project's name, the method's name or its keywords is nobody's measure.
    assert not {"context", "method", "terminology"} & set(by_id)
    plain = GOOD.replace("For Mobile Checkout and its first-time buyers, here", "Here")
    again = validate_answer(plain, task, "en", sent, knowledge.headings_of)
    assert {i.id for i in again.failed} == {i.id for i in result.failed}
    bare = validate_answer("Sure.", task, "en", sent, knowledge.headings_of)
    assert bare.passed <= 2 and "no confidence stated" in bare.summary()


def test_citations_are_parsed_and_deduplicated():
    text = "[a.md > One] and [a.md >One ] and [b.csv > Data] but not [c.md]"
    assert citations_in(text) == [("a.md", "One"), ("b.csv", "Data")]
