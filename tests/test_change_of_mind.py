"""People change their mind mid-message: what they take back is evidence against it."""

from __future__ import annotations

import pytest

from design_agent.understanding.language import read_request
from design_agent.understanding.matching import Matcher


@pytest.fixture
def matcher(bundled_matcher: Matcher) -> Matcher:
    return bundled_matcher


def negated(text: str, language: str = "en") -> list[str]:
    return [w.text for w in read_request(text, language) if w.negated]


@pytest.mark.parametrize(
    "text, language, taken_back, kept",
    [
        ("a survey for drivers... actually no, a journey map", "en", "survey", "journey"),
        ("personas, hmm actually a persona is too much: an empathy map", "en", "personas", "map"),
        ("on second thought, skip the survey", "en", "", "survey"),
        ("un card sorting... bueno no, un tree test", "es", "card", "tree"),
        ("pensé en una encuesta, pero mejor entrevistas", "es", "encuesta", "entrevistas"),
        ("I was going to run a survey but we need interviews", "en", "survey", "interviews"),
        ("iba a hacer una encuesta pero necesito entrevistas", "es", "encuesta", "entrevistas"),
    ],
)
def test_what_is_taken_back_is_negated_and_what_follows_is_not(text, language, taken_back, kept):
    found = negated(text, language)
    assert kept not in found
    if taken_back:
        assert taken_back in found


def test_a_message_without_a_change_of_mind_keeps_its_words():
    assert negated("actually we need a survey for the drivers") == []
    assert negated("we were going to launch in May, so plan a usability test") == []


@pytest.mark.parametrize(
    "text, expected, abandoned",
    [
        (
            "survey for our couriers... actually no, I would rather interview 8 of them one by one",
            "user_interviews",
            "survey_design",
        ),
        (
            "quería una encuesta, bueno no, mejor hablar cara a cara con diez clientes",
            "user_interviews",
            "survey_design",
        ),
    ],
)
def test_the_method_taken_back_does_not_win(matcher, text, expected, abandoned):
    ids = [c.task_id for c in matcher.match(text, limit=3).candidates]
    assert expected in ids
    assert abandoned != ids[0]
