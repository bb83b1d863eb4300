"""What the review catches in an answer, one check kind at a time, in English and Spanish:
each failed item says what is wrong in one line, in the answer's language; a sound answer
passes without repeating the project's name."""

from __future__ import annotations

import pytest

from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.validation import RecordedDecision, validate_answer


@pytest.fixture(scope="module")
def knowledge(bundled_catalogue):
    return Knowledge(bundled_catalogue)


def review(catalogue, knowledge, task_id, text, language="en", decisions=()):
    task = catalogue.task(task_id)
    sent = knowledge.known_citations(task)
    found = validate_answer(text, task, language, sent, knowledge.headings_of, decisions)
    return {item.id: item for item in found.items}, found


ENDING = """
## Limitations
Estimates come from one quarter of analytics.

Confidence: medium, because reach is estimated.
[prioritization.md > Procedure]
"""

RICE = (
    """## Scoring
| Initiative | Reach | Impact | Confidence | Effort | RICE score |
|---|---|---|---|---|---|
| Search filters | 2000 | 2 | 80% | 4 | 800 |
| Waitlist | 500 | 2 | 50% | 1 | {waitlist} |
| Dark mode | 300 | 1 | 100% | 2 | 150 |
"""
    + ENDING
)


def test_a_rice_score_that_does_not_recompute_is_named_with_the_ranking(
    bundled_catalogue, knowledge
):
    items, _ = review(bundled_catalogue, knowledge, "prioritization", RICE.format(waitlist=5000))
    assert not items["table_rice"].passed
    assert items["table_rice"].detail == (
        "RICE score of Waitlist is 500, not 5000; the ranking changes"
    )
    items, _ = review(bundled_catalogue, knowledge, "prioritization", RICE.format(waitlist=500))
    assert items["table_rice"].passed and items["table_rice"].assessed


def test_a_spanish_rice_table_is_read_with_spanish_numbers(bundled_catalogue, knowledge):
    text = """## Puntuación
| Iniciativa | Alcance | Impacto | Confianza | Esfuerzo | Puntuación RICE |
|---|---|---|---|---|---|
| Filtros | 2.000 | 2 | 0,8 | 4 | 800 |
| Lista de espera | 500 | 2 | 0,5 | 1 | 50 |

## Limitaciones
Datos de un solo trimestre.

Confianza: media, porque el alcance es estimado.
"""
    items, _ = review(bundled_catalogue, knowledge, "prioritization", text, "es")
    assert items["table_rice"].detail.startswith(
        "la puntuación RICE de Lista de espera es 500, no 50"
    )


def test_a_percentage_of_a_whole_over_100_is_named_but_growth_is_not(bundled_catalogue, knowledge):
    text = "## Success metrics\nWe expect 130 % task completion.\n" + ENDING
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", text)
    assert not items["percentages"].passed and "130 %" in items["percentages"].detail
    growth = "## Success metrics\nA 150 % increase in repeat orders.\n" + ENDING
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", growth)
    assert items["percentages"].passed
    rice = "| Item | Reach | Impact | Confidence | Effort |\n|---|---|---|---|---|\n"
    rice += "| SSO | 800 | 2 | 120% | 4 |\n" + ENDING
    items, _ = review(bundled_catalogue, knowledge, "prioritization", rice)
    assert not items["percentages"].passed and "120%" in items["percentages"].detail
    tree = "| Tarea | Éxito | Acierto directo |\n|---|---|---|\n| 4. Manguera | 92 % | 108 % |\n"
    items, _ = review(bundled_catalogue, knowledge, "tree_testing", tree, "es")
    assert not items["percentages"].passed and "108 %" in items["percentages"].detail


@pytest.mark.parametrize(
    ("language", "said", "passes"),
    [
        ("en", "Two participants per segment, office colleagues.", False),
        ("en", "Five participants per segment across two segments.", True),
        ("es", "Dos participantes por segmento, compañeros de la oficina.", False),
        ("es", "Cinco participantes por segmento, en dos segmentos.", True),
    ],
)
def test_the_sample_size_is_held_to_the_guides_range(
    bundled_catalogue, knowledge, language, said, passes
):
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", said, language)
    assert items["sample_size"].passed is passes
    if not passes:
        assert said.split()[0].lower() in items["sample_size"].detail.lower()


def test_an_invented_guide_section_is_named(bundled_catalogue, knowledge):
    text = "Plan. [test_plan.md > The magic number of users] [test_plan.md > Procedure]"
    items, found = review(bundled_catalogue, knowledge, "usability_test_plan", text)
    assert "The magic number of users" in items["citations"].detail
    assert found.invalid_citations == ["[test_plan.md > The magic number of users]"]
    spanish = "[test_plan.md > Procedimiento]"  # the heading as the Spanish guide writes it
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", spanish, "es")
    assert items["citations"].passed


@pytest.mark.parametrize(
    ("language", "text", "hint"),
    [
        ("en", "## Limitations\nNone.\n\nConfidence: high.", "limitation"),
        ("en", "## Plan\nAll good.\n\nConfidence: high.", "limitation"),
        ("es", "**Limitaciones:** ninguna.\n\nConfianza: alta.", "limitación"),
        ("en", "## Limitations\nSmall sample.", "confidence"),
        ("es", "## Limitaciones\nMuestra pequeña.", "confianza"),
    ],
)
def test_limitations_and_confidence_must_be_real(
    bundled_catalogue, knowledge, language, text, hint
):
    _, found = review(bundled_catalogue, knowledge, "usability_test_plan", text, language)
    assert any(hint in item.detail.lower() for item in found.failed)


def test_the_spanish_outline_is_found_by_heading_in_spanish(bundled_catalogue, knowledge):
    text = """## Objetivos de la investigación
## Participantes y reclutamiento
## Tareas
## Formato de las sesiones
## Calendario y logística
"""
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", text, "es")
    outline = {i: item for i, item in items.items() if i.startswith("outline_")}
    missing = [item.detail for item in outline.values() if not item.passed]
    assert missing == ["falta la parte «Métricas de éxito» (ningún encabezado la trata)"]


@pytest.mark.parametrize(
    ("decision", "plan", "flagged"),
    [
        ("Moderated remote sessions only", "Run unmoderated sessions on Maze.", True),
        ("Moderated remote sessions only", "Moderated remote sessions over Zoom.", False),
        ("Moderated remote sessions only", "We will not run unmoderated sessions.", False),
        ("Moderated remote sessions only", "Sessions in our office usability lab.", True),
        ("Solo sesiones remotas moderadas", "Sesiones no moderadas en Maze.", True),
        ("Solo sesiones remotas moderadas", "Sesiones remotas moderadas por videollamada.", False),
        ("No incentives", "Each participant gets a 50 USD incentive.", True),
        ("No incentives", "No incentives: we offer a summary of the findings.", False),
        (  # an activity ruled out on an object, in an answer about that activity
            "No experiments on the annual plan checkout",
            "This experiment tests trial length. The variant shows the annual plan checkout.",
            True,
        ),
        (
            "No experiments on the annual plan checkout",
            "This experiment tests trial length on the monthly plan only.",
            False,
        ),
        (  # a forbidding verb inside the decision
            "Los OKR de producto no incluyen métricas de ingresos",
            "RC2: los ingresos por suscripción crecen un 10 %. Sesiones de seguimiento.",
            True,
        ),
        (
            "Los OKR de producto no incluyen métricas de ingresos",
            "RC2: la activación semanal crece un 10 %. Sesiones de seguimiento.",
            False,
        ),
    ],
)
def test_a_plan_against_a_recorded_decision_is_flagged_naming_it(
    bundled_catalogue, knowledge, decision, plan, flagged
):
    language = "es" if "sesiones" in plan.lower() or "esiones de" in plan else "en"
    recorded = [RecordedDecision(7, decision, "2026-11-01")]
    items, _ = review(bundled_catalogue, knowledge, "usability_test_plan", plan, language, recorded)
    if flagged:
        assert decision in items["decision_7"].detail and items["decision_7"].decision_id == 7
    else:
        assert "decision_7" not in items and items["decisions"].passed


def test_sus_kano_nps_and_totals_recompute(bundled_catalogue, knowledge):
    sus = """| Respondent | Q1 | Q2 | Q3 | Q4 | Q5 | Q6 | Q7 | Q8 | Q9 | Q10 | SUS |
|---|---|---|---|---|---|---|---|---|---|---|---|
| P1 | 4 | 2 | 4 | 2 | 4 | 2 | 4 | 2 | 4 | 2 | 85 |
"""
    items, _ = review(bundled_catalogue, knowledge, "usability_metrics", sus)
    assert "SUS score of P1 is 75, not 85" in items["table_sus"].detail
    kano = """| Attribute | A | O | M | I | Category |
|---|---|---|---|---|---|
| Saved carts | 30 | 10 | 5 | 5 | Must-be |
"""
    items, _ = review(bundled_catalogue, knowledge, "kano_analysis", kano)
    assert "Kano category of Saved carts is attractive" in items["table_kano"].detail
    nps = "Promoters: 50 %. Passives: 30 %. Detractors: 20 %.\nNPS: 70.\n"
    items, _ = review(bundled_catalogue, knowledge, "survey_analysis", nps)
    assert items["table_nps"].detail.startswith("NPS is 30")
    totals = """| Item | Hours |
|---|---|
| Research | 10 |
| Design | 20 |
| Total | 40 |
"""
    items, _ = review(bundled_catalogue, knowledge, "design_estimation", totals)
    assert items["totals"].detail == "Hours total is 30, not 40"


def test_a_sound_answer_passes_without_the_projects_name(bundled_catalogue, knowledge):
    text = RICE.format(waitlist=500).replace("## Scoring", "## Scoring and ranking")
    _, found = review(bundled_catalogue, knowledge, "prioritization", text)
    assert all(item.id.startswith("outline_") for item in found.failed)


@pytest.mark.parametrize(
    ("language", "said", "wrong"),
    [
        ("en", "KR1 reached 45% (score 11/16 = 0.69, reported as 0.7).", None),
        ("en", "KR2 reached 7 days (score 4/6 = 0.8).", "4/6 is 0.67, not 0.8"),
        ("es", "El índice a 1.000 MXN es 1.000 × 35 % = 385.", "1.000 × 35 % es 350, no 385"),
        ("en", "n per arm ≈ 16 × 0.06 × 0.94 / 0.01² = 9,024.", None),
    ],
)
def test_arithmetic_written_out_is_recomputed(bundled_catalogue, knowledge, language, said, wrong):
    items, _ = review(bundled_catalogue, knowledge, "okrs", said, language)
    assert items["totals"].passed is (wrong is None)
    if wrong:
        assert items["totals"].detail == wrong


HEADINGS = {
    ("okrs", "en"): [
        "Objective", "Key results", "Initiatives", "Ownership", "Check-ins and scoring",
    ],
    ("north_star_metric", "es"): [
        "Nuestra North Star", "Por qué esta métrica", "Métricas de entrada", "Contramétricas",
        "Cómo la medimos y fuentes", "Frecuencia de revisión",
    ],
    ("accessibility_audit", "en"): [
        "Scope and standard", "How we tested", "Issues by WCAG criterion",
        "Severity and who is affected", "Fixes", "Retest",
    ],
    ("tree_testing", "es"): [
        "El árbol", "Tareas y respuestas correctas", "Participantes y herramienta", "Métricas",
        "Análisis de recorridos", "Cambios recomendados",
    ],
}  # fmt: skip


@pytest.mark.parametrize(("method", "language"), list(HEADINGS))
def test_a_part_is_found_however_a_practitioner_names_it_and_missed_when_absent(
    bundled_catalogue, knowledge, method, language
):
    headings = HEADINGS[(method, language)]
    whole = "\n\n".join(f"## {h}\nText." for h in headings)
    items, _ = review(bundled_catalogue, knowledge, method, whole, language)
    assert all(item.passed for i, item in items.items() if i.startswith("outline_"))
    for left_out in range(len(headings)):
        text = "\n\n".join(f"## {h}\nText." for n, h in enumerate(headings) if n != left_out)
        items, _ = review(bundled_catalogue, knowledge, method, text, language)
        missing = [
            item for i, item in items.items() if i.startswith("outline_") and not item.passed
        ]
        assert len(missing) == 1, f"{headings[left_out]} left out"


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_brief_answer_with_the_merged_parts_it_was_asked_for_lacks_no_part(
    bundled_catalogue, language
):
    """A brief prompt asks for the outline's parts merged two by two ("Ideas generated /
    Idea list"); an answer with exactly those headings has every part, for every method."""
    from design_agent.knowledge import shape
    from design_agent.knowledge.review.document import Document
    from design_agent.knowledge.review.outline import outline_items

    lost = []
    for task in bundled_catalogue.tasks.values():
        merged = shape.outline(task, language, "brief")
        text = "\n\n".join(f"## {part}\n\nWhat this part holds." for part in merged)
        items = outline_items(Document(text, language), task.outline(language))
        lost += [f"{task.id}: {item.detail}" for item in items if not item.passed]
    assert lost == []
