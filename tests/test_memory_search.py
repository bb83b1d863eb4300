"""Searching memory: questions in plain language, both languages, any characters at all."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_fixtures import BACKENDS, store

from design_agent.memory import Memory
from design_agent.memory.text import match_expression, query_terms


@pytest.fixture(scope="module", params=BACKENDS)
def memory(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    with (
        store(request, request.param, tmp_path_factory.mktemp("search")) as target,
        Memory.open(target) as opened,
    ):
        checkout = opened.create_project("Mobile Checkout").id
        research = opened.create_project("Investigación de usuarios").id
        asked = opened.add_turn(checkout, "user", "Which test method fits the payment step?")
        opened.add_turn(checkout, "agent", "A moderated usability test lets us ask why.")
        opened.add_decision(
            checkout,
            "Moderated usability testing",
            "we need to hear why people abandon the payment step",
            asked.id,
        )
        opened.add_decision(checkout, "Guest checkout first", "sign-up wall loses 40%")
        opened.add_turn(research, "user", "Necesitamos entrevistas con usuarios en México")
        opened.add_decision(
            research, "Entrevistas semiestructuradas", "la investigación es exploratoria"
        )
        opened.add_turn(research, "agent", "A moderated interview guide, en español.")
        yield opened


def ids(memory: Memory) -> dict[str, str]:
    return {p.name: p.id for p in memory.list_projects()}


def test_why_did_we_choose_finds_the_decision(memory):
    checkout = ids(memory)["Mobile Checkout"]
    found = memory.search_decisions(checkout, "why did we choose moderated testing")
    assert found[0].item.decision == "Moderated usability testing"
    assert query_terms("why did we choose moderated testing") == ["moderated", "testing"]
    hits = memory.search("why did we choose moderated testing", checkout)
    assert hits.groups[0].hits[0].title == "Moderated usability testing"


def test_prefixes_and_spanish_questions_match(memory):
    checkout, research = ids(memory)["Mobile Checkout"], ids(memory)["Investigación de usuarios"]
    assert memory.search_decisions(checkout, "moderat usab")[0].item.decision.startswith(
        "Moderated"
    )
    found = memory.search_decisions(research, "¿por qué decidimos hacer entrevistas?")
    assert found[0].item.decision == "Entrevistas semiestructuradas"
    assert memory.search("mexico", research).total == 1
    assert memory.search("investigacion", research).total == 1


def test_cross_project_search_groups_results_by_project(memory):
    everything = memory.search("moderated", all_projects=True)
    assert everything.all_projects
    names = [group.project.name for group in everything.groups]
    assert sorted(names) == ["Investigación de usuarios", "Mobile Checkout"]
    for group in everything.groups:
        assert {hit.project_id for hit in group.hits} == {group.project.id}
        scores = [hit.score for hit in group.hits]
        assert scores == sorted(scores, reverse=True)
    assert memory.search("moderated", all_projects=True, limit=1).total == 1


def test_nothing_to_search_for_returns_nothing(memory):
    checkout = ids(memory)["Mobile Checkout"]
    for query in ("", "   ", "***", '"', "()", "-"):
        assert memory.search(query, checkout).groups == []
        assert memory.search_decisions(checkout, query) == []
    assert match_expression([]) is None


HOSTILE = st.sampled_from(
    [
        '"',
        "'",
        "*",
        "-",
        "^",
        ":",
        "(",
        ")",
        "{",
        "}",
        "AND",
        "OR",
        "NOT",
        "NEAR",
        "NEAR(",
        "+",
        "\\",
        "\x00",
        "é",
        "ñ",
        "ß",
        "İ",
        "ﬁ",
        "👩‍💻",
        "_",
        "a*b",
        "col:val",
        "message:",
        "scope:",
        '""',
        "moderated",
        "test",
        "á́",
        "\u200b",
        "\u0301",
        "٣",
        "²",
        "Ⅻ",
        "ǅ",
    ]
)
QUERIES = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(HOSTILE, st.text(max_size=5)), max_size=12).map(" ".join),
    st.lists(HOSTILE, max_size=12).map("".join),
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=QUERIES)
def test_no_user_text_ever_raises(memory, query):
    checkout = ids(memory)["Mobile Checkout"]
    scoped = memory.search(query, checkout)
    assert all(g.project.id == checkout for g in scoped.groups)
    memory.search(query, all_projects=True)
    memory.search_decisions(checkout, query)
    memory.search_process_memory(query)
