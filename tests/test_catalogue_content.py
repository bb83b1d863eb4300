"""The bundled catalogue keeps its promised size and substance.

A user relies on a broad set of methods, each with a guide worth reading and
keywords in both languages; these tests fail when an edit shrinks any of it. A
Spanish speaker gets the same substance: every task's description and deliverable,
every persona's goal and every guide also exist in Spanish.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from design_agent.core.text import word_list
from design_agent.knowledge.registry import Catalogue

MINIMUM_COUNTS = {"agents": 15, "tasks": 96, "guides": 96, "materials": 11}
MINIMUM_GUIDE_WORDS = 500
# One persona owning too many methods blurs its voice; split the work before this grows.
MAXIMUM_TASKS_PER_AGENT = 12
# A guide cites its sources: a couple at least, never a reading list.
REFERENCE_BULLETS = (2, 4)
# The sections every Spanish companion guide (knowledge/guides/es/<name>.md) carries.
SPANISH_GUIDE_HEADINGS = (
    "## Cuándo usarlo",
    "## Entradas",
    "## Procedimiento",
    "## Entregable",
    "## Errores frecuentes",
    "## Referencias",
)
# Single words so common in requests that, as a keyword, they would pull unrelated
# messages to one task ("form" in "the form's error messages", "menu" in a tree test).
GENERIC_KEYWORDS = word_list(
    """form forms price prices pricing menu menus search navigation design designs research
    test tests testing review audit plan data user users product app website ux ui screen
    screens flow flows feature features page pages
    formulario formularios precio precios menú búsqueda busqueda buscador navegación
    navegacion diseño diseno investigación investigacion prueba pruebas revisión revision
    auditoría auditoria datos usuario usuarios producto web pantalla pantallas flujo flujos
    funcionalidad funcionalidades página pagina"""
)


@pytest.fixture
def bundled(bundled_catalogue: Catalogue) -> Catalogue:
    """The bundled catalogue alone (an empty home adds nothing)."""
    return bundled_catalogue


def test_design_agent_check_passes(run_cli):
    result = run_cli("check")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("kind", "minimum"), sorted(MINIMUM_COUNTS.items()))
def test_catalogue_counts_never_drop_below_the_promise(bundled, kind, minimum):
    count = len(getattr(bundled, kind))
    assert count >= minimum, f"only {count} {kind}; the catalogue promises at least {minimum}"


def test_every_guide_is_substantial(bundled):
    short = {
        name: words
        for name, path in bundled.guides.items()
        if (words := len(Path(path).read_text(encoding="utf-8").split())) < MINIMUM_GUIDE_WORDS
    }
    assert not short, f"guides under {MINIMUM_GUIDE_WORDS} words: {short}"


def test_every_task_has_spanish_keywords(bundled):
    missing = [
        task.id
        for task in bundled.tasks.values()
        if not [keyword for keyword in task.keywords.es if keyword.strip()]
    ]
    assert not missing, f"tasks without Spanish keywords: {missing}"


def _section(text: str, heading: str) -> list[str] | None:
    """The lines under `heading` up to the next second-level heading, or None if absent."""
    lines = text.splitlines()
    if heading not in lines:
        return None
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return lines[start:end]


def _task_guides(bundled: Catalogue) -> dict[str, Path]:
    """Every guide a task names, with its bundled path (missing ones are `check`'s job)."""
    names = {name for task in bundled.tasks.values() for name in task.guides}
    return {name: Path(bundled.guides[name]) for name in sorted(names) if name in bundled.guides}


def test_every_task_has_a_spanish_description_and_outline_of_the_same_shape(bundled):
    missing = sorted(task.id for task in bundled.tasks.values() if task.es is None)
    assert not missing, f"tasks without an `es:` block (description, expected_output): {missing}"
    uneven = {
        task.id: (len(task.expected_output), len(task.es.expected_output))
        for task in bundled.tasks.values()
        if task.es is not None and len(task.es.expected_output) != len(task.expected_output)
    }
    assert not uneven, f"Spanish outlines need one part per English part (en, es): {uneven}"


def test_every_task_states_how_long_its_deliverable_is(bundled):
    unstated = sorted(
        task.id for task in bundled.tasks.values() if "length" not in task.model_fields_set
    )
    assert not unstated, f"tasks without `length:` (short, medium or long): {unstated}"


def test_every_agent_has_a_spanish_goal(bundled):
    missing = sorted(
        agent.id for agent in bundled.agents.values() if agent.es is None or not agent.es.goal
    )
    assert not missing, f"agents without `es: {{goal: ...}}`: {missing}"


def test_every_agent_has_a_stance_in_both_languages(bundled):
    """The system prompt is the persona's role, goal and stance: no procedure of its own."""
    missing = sorted(agent.id for agent in bundled.agents.values() if agent.stance is None)
    assert not missing, f"agents without `stance: {{en: ..., es: ...}}`: {missing}"


def test_no_persona_owns_more_tasks_than_it_can_voice(bundled):
    owned = Counter(task.agent for task in bundled.tasks.values())
    crowded = {agent: count for agent, count in owned.items() if count > MAXIMUM_TASKS_PER_AGENT}
    assert not crowded, (
        f"personas owning more than {MAXIMUM_TASKS_PER_AGENT} tasks (move some to another "
        f"persona): {crowded}"
    )


def test_every_task_guide_cites_a_few_references(bundled):
    low, high = REFERENCE_BULLETS
    problems = {}
    for name, path in _task_guides(bundled).items():
        section = _section(path.read_text(encoding="utf-8"), "## References")
        if section is None:
            problems[name] = "no '## References' section"
            continue
        bullets = [line for line in section if re.match(r"\s*[-*] \S", line)]
        if not low <= len(bullets) <= high:
            problems[name] = f"{len(bullets)} reference bullets, expected {low}-{high}"
    assert not problems, f"guides with unusable references: {problems}"


def test_every_task_guide_has_a_spanish_companion_with_the_spanish_sections(bundled):
    problems = {}
    for name, path in _task_guides(bundled).items():
        companion = path.parent / "es" / name
        if not companion.is_file():
            problems[name] = f"no Spanish companion at {companion.relative_to(path.parent.parent)}"
            continue
        lines = companion.read_text(encoding="utf-8").splitlines()
        absent = [heading for heading in SPANISH_GUIDE_HEADINGS if heading not in lines]
        if absent:
            problems[name] = f"es/{name} lacks {absent}"
    assert not problems, f"Spanish guides missing or incomplete: {problems}"


def test_no_keyword_is_a_lone_generic_word(bundled):
    generic = [
        f"{task.id} ({language}): {keyword!r}"
        for task in bundled.tasks.values()
        for language, keywords in (("en", task.keywords.en), ("es", task.keywords.es))
        for keyword in keywords
        if keyword.strip().lower() in GENERIC_KEYWORDS
    ]
    assert not generic, (
        f"keywords that are one generic word and would steal unrelated requests: {generic}"
    )
