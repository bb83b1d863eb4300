"""Model tier routing: fast by default, deep for long, structured or reasoning requests."""

from __future__ import annotations

import pytest

from design_agent.providers.routing import choose_tier


@pytest.mark.parametrize(
    "message",
    [
        "Write a persona for a commuter app",
        "Escribe un persona para una app de transporte",
        "Give me three survey questions",
        "Who are our users?",
    ],
)
def test_short_direct_requests_are_fast(message):
    assert choose_tier(message) == ("fast", "short, direct request")


@pytest.mark.parametrize(
    ("message", "word"),
    [
        ("Compare card sorting and tree testing", "compare"),
        ("What are the trade-offs of a bottom nav?", "trade-offs"),
        ("Why do users drop off at checkout", "why"),
        ("Draft a research strategy for Q3", "strategy"),
        ("Make a test plan for the onboarding", "plan"),
        ("¿Por qué abandonan el registro?", "por que"),
        ("Compara entrevistas y encuestas", "compara"),
        ("Necesito una estrategia de contenidos", "estrategia"),
        ("Ventajas y desventajas de un menú hamburguesa", "ventajas y desventajas"),
        ("Planifica el sprint de diseño", "planifica"),
    ],
)
def test_reasoning_words_in_english_and_spanish_choose_deep(message, word):
    tier, reason = choose_tier(message)
    assert tier == "deep" and reason == f"asks for reasoning ('{word}')"


def test_long_requests_are_deep():
    tier, reason = choose_tier("word " * 150)
    assert tier == "deep" and reason == "long request (150 words)"


def test_several_questions_are_deep():
    assert choose_tier("Who are the users? What do they need?") == (
        "deep",
        "structured request (2 questions)",
    )


def test_a_list_is_deep():
    message = "Review these screens:\n- login\n- signup\n- settings"
    assert choose_tier(message) == ("deep", "structured request (a list of 3 items)")


def test_words_inside_other_words_do_not_count():
    assert choose_tier("Explain the airplane boarding flow")[0] == "fast"  # 'plan' in 'airplane'
    assert choose_tier("Fix the whyte space")[0] == "fast"


def test_the_setting_overrides_routing():
    assert choose_tier("Compare A and B", "fast") == ("fast", "tier set to fast in settings")
    assert choose_tier("hi", "deep") == ("deep", "tier set to deep in settings")
