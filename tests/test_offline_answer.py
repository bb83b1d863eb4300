"""A designer with no AI CLI still gets a useful answer: a filled skeleton of the deliverable.

Built from the bundled catalogue and a real project context, the offline
answer follows the task's outline, places the project's facts, marks what is
missing, honours verbosity, is Spanish in Spanish, and its checklist does not
count the method's own words as the method applied.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.validation import validate_answer
from design_agent.memory.models import Decision, Project, ProjectContext
from design_agent.providers.offline_answer import compose_answer
from design_agent.providers.request import ProviderRequest
from design_agent.turn.grounding import grounding

NOW = datetime.now(UTC)
ENGLISH_ONLY = {"the", "and", "with", "of", "to", "for", "your", "is", "what", "when", "each"}
SPANISH_ONLY = {"el", "la", "los", "las", "y", "con", "de", "para", "tu", "que", "cada", "del"}


@pytest.fixture(scope="module")
def catalogue(bundled_catalogue):
    return bundled_catalogue


def clinic(metadata: dict[str, str] | None = None) -> ProjectContext:
    project = Project(id="clinic", name="Clinic booking", created_at=NOW, last_accessed=NOW)
    decisions = [
        Decision(
            id=1,
            project_id="clinic",
            decision="Test with patients over 65 first",
            rationale="half of all bookings",
            timestamp=NOW,
        )
    ]
    return ProjectContext(
        project=project, metadata=metadata or {}, briefs=[], decisions=decisions, recent_turns=[]
    )


def answer(catalogue, task_id: str, language: str, verbosity: str, context=None) -> str:
    task = catalogue.task(task_id)
    sections = Knowledge(catalogue).task_sections(task, language)
    ground = grounding(
        "plan it", task, catalogue.agent(task.agent), sections, context or clinic(), language
    )
    request = ProviderRequest(
        prompt="plan it", language=language, verbosity=verbosity, grounding=ground
    )
    return "".join(compose_answer(request))


def test_the_answer_follows_the_tasks_outline_with_the_project_in_place(catalogue):
    context = clinic({"users": "patients over 65 and receptionists"})
    text = answer(catalogue, "usability_test_plan", "en", "normal", context)
    task = catalogue.task("usability_test_plan")
    headings = re.findall(r"^## \d+\. (.+)$", text, re.MULTILINE)
    assert headings == task.outline("en")
    participants = text.split("## 2. ")[1].split("## 3. ")[0]
    assert "**Users:** patients over 65 and receptionists" in participants
    assert "**Decided:** Test with patients over 65 first" in text.split("## 2. ")[0]
    assert "**To confirm:** the problem to solve" in text
    assert "How to do it:" in text and "Fill in:" in text and "## Pitfalls" in text
    assert "[test_plan.md > Procedure]" in text


def test_verbosity_gives_clearly_different_lengths(catalogue):
    for task_id in catalogue.tasks:
        words = {
            v: len(answer(catalogue, task_id, "en", v).split())
            for v in ("brief", "normal", "detailed")
        }
        assert words["brief"] < 0.75 * words["normal"] < 0.75 * words["detailed"], (
            task_id,
            words,
        )


def test_a_spanish_answer_is_spanish_for_every_method(catalogue):
    for task_id in catalogue.tasks:
        text = answer(catalogue, task_id, "es", "detailed")
        prose = re.sub(r"\[[^\]]*\]", " ", text.split("## Fuentes")[0])  # citations: titles
        words = re.findall(r"[a-záéíóúñü]+", prose.lower())
        english = sum(w in ENGLISH_ONLY for w in words)
        spanish = sum(w in SPANISH_ONLY for w in words)
        assert english <= 0.03 * spanish, f"{english} English function words in {task_id}"
        assert "Respuesta offline" in text and "## Errores frecuentes" in text, task_id


def test_the_review_does_not_count_the_outline_the_offline_answer_quotes(catalogue):
    task = catalogue.task("usability_test_plan")
    text = answer(catalogue, "usability_test_plan", "en", "normal")
    knowledge = Knowledge(catalogue)
    loaded = knowledge.known_citations(task)
    judged = validate_answer(text, task, "en", loaded, knowledge.headings_of, offline=True)
    by_id = {item.id: item for item in judged.items}
    assert not any(i.assessed for i in judged.items if i.id.startswith("outline_"))
    assert (
        not by_id["rubric_1"].assessed and "needs a model or a person" in by_id["rubric_1"].detail
    )
    assert by_id["citations"].assessed and by_id["citations"].passed
    assert "not assessed" in judged.summary()
    assert judged.score == f"{judged.passed}/{judged.assessed}" and judged.assessed < len(
        judged.items
    )


def test_no_guide_trips_the_review(catalogue):
    """The offline answer carries each guide's own senior-grade text (its worked example,
    its numbers, its alternatives): for every method in both languages the review finds
    nothing wrong in it, so its checks do not fire on sound practice."""
    knowledge = Knowledge(catalogue)
    failed = []
    for task_id, task in catalogue.tasks.items():
        for language in ("en", "es"):
            text = answer(catalogue, task_id, language, "detailed")
            sent = knowledge.known_citations(task)
            judged = validate_answer(
                text, task, language, sent, knowledge.headings_of, offline=True
            )
            failed += [f"{task_id}/{language}: {item.detail}" for item in judged.failed]
    assert failed == []


# -- each fact where it belongs (issue 26, section 3) ------------------------------------------

CLINIC_FACTS = {
    "users": "receptionists and patients of Clinica Norte, many over 65",
    "problem": "patients abandon online booking at the insurance step",
    "constraints": "launch before March; two developers",
}
BRIEF = (
    "Clinica Norte runs 14 clinics. Online booking starts 3,100 times a week and 41% of "
    "starts end at the insurance step. The cafeteria menu changes on Mondays."
)


def part_of(text: str, number: int) -> str:
    return text.split(f"## {number}. ")[1].split("\n## ")[0]


def with_brief(metadata: dict[str, str]) -> ProjectContext:
    from design_agent.memory.models import ProjectFile

    brief = ProjectFile(
        id=1,
        project_id="clinic",
        filename="brief.md",
        content=BRIEF,
        file_type="brief",
        sha256="0",
        chars=len(BRIEF),
        uploaded_at=NOW,
    )
    return clinic(metadata).model_copy(update={"briefs": [brief]})


def test_each_project_fact_goes_once_to_the_part_it_answers(catalogue):
    text = answer(catalogue, "usability_test_plan", "en", "normal", clinic(CLINIC_FACTS))
    for value in CLINIC_FACTS.values():
        assert text.count(value) == 1, value
    assert CLINIC_FACTS["problem"] in part_of(text, 1), "the problem answers the goals"
    assert CLINIC_FACTS["users"] in part_of(text, 2), "the users are the participants"
    assert CLINIC_FACTS["constraints"] in part_of(text, 6), "constraints are logistics"


def test_the_briefs_relevant_lines_are_quoted_where_they_answer(catalogue):
    task = catalogue.task("usability_test_plan")
    context = with_brief(CLINIC_FACTS)
    ground = grounding(
        "Plan a usability test of the insurance step of online booking",
        task,
        catalogue.agent(task.agent),
        Knowledge(catalogue).task_sections(task, "en"),
        context,
        "en",
    )
    request = ProviderRequest(prompt="x", language="en", verbosity="normal", grounding=ground)
    text = "".join(compose_answer(request))
    quoted = (
        '"Online booking starts 3,100 times a week and 41% of starts end at the insurance step."'
    )
    assert f"From brief.md: {quoted}" in text
    assert text.count("41% of starts") == 1
    assert "cafeteria" not in text, "a line that answers nothing is left out"


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_guides_practical_material_is_in_the_answer(catalogue, language):
    pricing = answer(catalogue, "pricing_research", language, "normal")
    questions = ("too cheap", "bargain", "getting expensive", "too expensive")
    if language == "es":
        questions = ("demasiado barato", "ganga", "empieza a ser caro", "demasiado caro")
    assert all(q in pricing for q in questions), "the four Van Westendorp questions"
    audit = answer(catalogue, "accessibility_audit", language, "normal")
    assert "| wcag_criterion | level | check | how_to_test |" in audit
    assert "| 1.1.1 " in audit
    plan = answer(catalogue, "usability_test_plan", language, "normal")
    tasks = "Tasks and scenarios" if language == "en" else "Tareas y escenarios"
    assert f"({tasks}):" in part_of(plan, 3), "the guide's task advice under the task part"


def test_detailed_adds_depth_not_a_second_copy_of_the_procedure(catalogue):
    for task_id in ("usability_test_plan", "survey_design", "prioritization"):
        text = answer(catalogue, task_id, "en", "detailed")
        steps = re.findall(r"^  - (.+)$", text, re.MULTILINE)
        assert len(steps) == len(set(steps)), f"a step twice in {task_id}"
        assert "## The whole procedure" not in text
        assert "## What to prepare" in text
        assert text.count("What it holds (the guide's deliverable):") == len(
            catalogue.task(task_id).outline("en")
        )


def test_no_method_leaves_a_part_to_fill_in_either_language(catalogue):
    for task_id in catalogue.tasks:
        for language in ("en", "es"):
            for verbosity in ("brief", "normal", "detailed"):
                text = answer(catalogue, task_id, language, verbosity)
                assert "[to fill]" not in text and "[por completar]" not in text, (
                    task_id,
                    language,
                    verbosity,
                )


def test_the_survey_plan_has_steps_for_sampling_and_for_analysis(catalogue):
    for language in ("en", "es"):
        text = answer(catalogue, "survey_design", language, "normal")
        steps = "How to do it:" if language == "en" else "Cómo hacerlo:"
        assert steps in part_of(text, 3) and steps in part_of(text, 5), language
