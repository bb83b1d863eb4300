"""A user's message finds its design task: language, keywords, scores, bands, ties.

Most tests use the real bundled catalogue; the ambiguity and tie-break tests
build a two-task catalogue so the tie is exact and the story obvious.
"""

from __future__ import annotations

import builtins
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from design_agent.language import detect_language, keywords_of, normalize
from design_agent.matching import RECENT_BONUS, Matcher, MatchResult, band_of
from design_agent.models import Keywords, Localized, Task
from design_agent.paths import HomeLayout
from design_agent.registry import Catalogue, load_catalogue


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    return load_catalogue(HomeLayout(tmp_path_factory.mktemp("empty-home"))).require_valid()


@pytest.fixture(scope="module")
def matcher(catalogue: Catalogue) -> Matcher:
    return Matcher.from_catalogue(catalogue)


def make_task(task_id: str, keywords: list[str], description: str = "A method.") -> Task:
    return Task(
        id=task_id,
        name=Localized(en=task_id.replace("_", " "), es=task_id.replace("_", " ")),
        description=description,
        expected_output=["A deliverable"],
        keywords=Keywords(en=keywords, es=keywords),
        guides=[f"{task_id}.md"],
        agent="facilitator",
    )


@pytest.fixture
def twins() -> Matcher:
    """Two tasks that answer to the same phrase, and one that does not."""
    return Matcher(
        [
            make_task("alignment_workshop", ["stakeholder workshop"]),
            make_task("discovery_workshop", ["stakeholder workshop"]),
            make_task("pricing_review", ["pricing page review"]),
        ]
    )


def test_normalize_lowercases_strips_accents_and_punctuation():
    assert normalize("  Evaluación HEURÍSTICA, ¿sí?  ") == "evaluacion heuristica si"
    assert normalize("Diseño de A/B test!") == "diseno de ab test"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("hola, ¿qué tal?", "es"),
        ("gracias", "es"),
        ("necesito un prd", "es"),
        ("estados vacíos de la app", "es"),
        ("design sprint de google ventures", "es"),
        ("tree test the new navigation before we build it", "en"),
        ("hello, how are you?", "en"),
        ("ok", "en"),
    ],
)
def test_language_is_detected_from_a_few_words(text, language):
    assert detect_language(text) == language


def test_keywords_drop_the_stop_words_of_the_language():
    assert keywords_of("Necesito un plan de prueba de usabilidad", "es") == [
        "plan",
        "prueba",
        "usabilidad",
    ]
    assert keywords_of("I need to plan a usability test for the app", "en") == [
        "plan",
        "usability",
        "test",
        "app",
    ]


def test_a_clear_request_is_high_and_proceeds(matcher):
    result = matcher.match("plan a usability test for the new checkout")
    assert result.best is not None and result.best.task_id == "usability_test_plan"
    assert result.band == "HIGH" and not result.needs_choice
    assert result.language == "en" and "usability" in result.keywords


def test_spanish_with_or_without_accents_scores_the_same(matcher):
    accented = matcher.match("evaluación heurística de la app de reservas")
    plain = matcher.match("evaluacion heuristica de la app de reservas")
    assert accented.best == plain.best
    assert accented.best is not None and accented.best.task_id == "heuristic_evaluation"


@pytest.mark.parametrize(
    ("typed", "task_id"),
    [
        ("usabilty tset plan for the banking app", "usability_test_plan"),
        ("competitve analisys of budgeting apps", "competitive_analysis"),
        ("mood board for a calm brand", "moodboard"),
        ("priorizamos las funcionalidades del backlog", "prioritization"),
    ],
)
def test_typos_split_words_and_verb_forms_still_match(matcher, typed, task_id):
    result = matcher.match(typed, limit=3)
    assert result.best is not None and result.best.task_id == task_id, result.candidates


@pytest.mark.parametrize(
    "message",
    ["help me with my project", "hola, ¿qué tal?", "I need to do some design work", "gracias"],
)
def test_vague_messages_score_low_and_ask_the_user(matcher, message):
    result = matcher.match(message)
    assert result.band == "LOW" and result.needs_choice


def test_candidates_are_ranked_best_first_and_limited(matcher):
    result = matcher.match("user stories and acceptance criteria for login", limit=3)
    scores = [c.score for c in result.candidates]
    assert len(scores) == 3 and scores == sorted(scores, reverse=True)
    assert result.best == result.candidates[0]
    assert {"user_stories", "acceptance_criteria"} <= {c.task_id for c in result.candidates}


def test_two_tasks_with_the_same_phrase_are_ambiguous(twins):
    result = twins.match("let's plan a stakeholder workshop")
    assert result.ambiguous and result.needs_choice
    assert result.best is not None
    assert {result.best.task_id, *(a.task_id for a in result.alternates)} >= {
        "alignment_workshop",
        "discovery_workshop",
    }
    # Ambiguity does not depend on how many candidates the caller asked for.
    assert twins.match("let's plan a stakeholder workshop", limit=1).ambiguous


def test_a_recent_task_breaks_the_tie_by_a_small_bounded_amount(twins):
    plain = twins.match("stakeholder workshop")
    nudged = twins.match("stakeholder workshop", recent_task_ids=["discovery_workshop"])
    assert plain.best is not None and nudged.best is not None
    assert nudged.best.task_id == "discovery_workshop"
    assert 0 < nudged.best.score - plain.best.score <= RECENT_BONUS


def test_a_recent_task_is_never_lifted_from_nothing(twins):
    result = twins.match("stakeholder workshop", recent_task_ids=["pricing_review", "unknown"])
    assert "pricing_review" not in [c.task_id for c in result.candidates]


def test_the_matcher_is_built_once_per_catalogue(catalogue, tmp_path):
    assert Matcher.from_catalogue(catalogue) is Matcher.from_catalogue(catalogue)
    other = load_catalogue(HomeLayout(tmp_path / "other-home"))
    assert Matcher.from_catalogue(other) is not Matcher.from_catalogue(catalogue)


def test_matching_a_message_reads_no_file(matcher, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("match() must not touch files")

    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(io, "open", refuse)
    monkeypatch.setattr(Path, "open", refuse)
    monkeypatch.setattr(Path, "read_text", refuse)
    result = matcher.match("journey map for insurance renewals")
    assert result.best is not None and result.best.task_id == "journey_mapping"


def test_bands_follow_the_thresholds():
    assert [band_of(s) for s in (100, 80, 79.9, 50, 49.9, 0)] == [
        "HIGH",
        "HIGH",
        "MEDIUM",
        "MEDIUM",
        "LOW",
        "LOW",
    ]


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_well_formed_result(matcher, text):
    result = matcher.match(text, limit=4)
    scores = [c.score for c in result.candidates]
    assert scores == sorted(scores, reverse=True) and len(scores) <= 4
    assert all(0 <= c.score <= 100 and c.band == band_of(c.score) for c in result.candidates)
    assert result.band == (result.best.band if result.best else "LOW")
    assert set(result.alternates) <= set(result.candidates[1:])
    assert result.language in ("en", "es")


def test_match_command_prints_json_for_other_tools(run_cli):
    result = run_cli("match", "--json", "-n", "3", "necesito planear una prueba de usabilidad")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    parsed = MatchResult.model_validate({k: v for k, v in data.items() if k != "needs_choice"})
    assert parsed.language == "es" and len(parsed.candidates) == 3
    assert data["best"]["task_id"] == "usability_test_plan" and data["needs_choice"] is False


def test_match_command_explains_itself_in_text(run_cli):
    result = run_cli("match", "write", "OKRs", "for", "the", "design", "team")
    assert result.exit_code == 0, result.output
    assert "language: en" in result.output
    assert "okrs" in result.output and "HIGH" in result.output


def test_match_command_reads_standard_input(run_cli):
    result = run_cli("match", "--json", "-", input="mapa de empatía del cliente\n")
    assert json.loads(result.output)["best"]["task_id"] == "empathy_map"


def test_match_command_refuses_an_empty_message(run_cli):
    result = run_cli("match", "   ")
    assert result.exit_code == 2 and "empty" in result.stderr
