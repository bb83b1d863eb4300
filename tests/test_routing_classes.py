"""The routing classes the probes found, each fixed as a mechanism and checked both ways.

- A statement (the users, the problem, a result) asks for nothing: a method it names is
  context, never HIGH. A message that asks in any way (a question, "I need", an imperative
  opening a clause, "rediséñalo") is still a request.
- A method described by what it does, without its name, is found by its shape (a task's
  `shapes` in tasks.yaml, written with the lexicon's word groups): watching people try
  something is a usability test, half the traffic against the rest an A/B test. The words
  the method is applied to ("pay", "onboarding") no longer win.
- A team's own method gets a shape from its YAML entry alone; `check` names a misspelt group.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from design_agent.understanding.matching import Matcher
from design_agent.understanding.statement import is_statement


@pytest.mark.parametrize(
    "message",
    [
        "the diary study wrapped up yesterday, 14 people kept it going",
        "our head of sales thinks personas are a waste of time",
        "we did a journey map last year and nobody looked at it",
        "no, we don't have a design system",
        "la encuesta de satisfacción cerró el lunes con 500 respuestas",
        "nuestro PM cree que el onboarding está perfecto",
        "ya tenemos un mapa de empatía de los repartidores",
        "el card sorting lo hicimos en marzo con 30 personas",
    ],
)
def test_a_statement_that_names_a_method_is_never_high(bundled_matcher: Matcher, message):
    assert is_statement(message)
    assert bundled_matcher.match(message).band != "HIGH"


@pytest.mark.parametrize(
    "message",
    [
        "our onboarding is confusing, redesign it",
        "the survey closed yesterday, can you analyse the results?",
        "we did 12 interviews and I need a synthesis",
        "users are nurses on night shifts. Personas, please",
        "el formulario tiene 20 campos y la gente se pierde, rediséñalo",
        "tenemos 8 entrevistas, sintetízalas",
        "ya acabamos el trabajo de campo, ¿cómo saco conclusiones?",
        "journey map for people who are renewing their car insurance",
        "personas for the pharmacy app",
    ],
)
def test_a_message_that_asks_is_not_a_statement(message):
    assert not is_statement(message)


@pytest.mark.parametrize(
    "message, method",
    [
        ("watch a few shoppers try to return an item with the new flow", "usability_test_plan"),
        ("I'd like to see some drivers use the new route screen", "usability_test_plan"),
        ("how should we test the new onboarding screens?", "usability_test_plan"),
        ("quiero ver a unos cuantos pacientes intentando pedir cita", "usability_test_plan"),
        ("¿cómo probamos el flujo nuevo de devoluciones?", "usability_test_plan"),
        ("half the visitors get the new pricing page, the rest the old one", "ab_testing"),
        ("show the annual plan first to a random 20% and see which sells more", "ab_testing"),
        ("a la mitad de las visitas le enseñamos el botón nuevo y medimos las altas", "ab_testing"),
        (
            "200 users try the checkout tasks on their own, without a moderator",
            "unmoderated_testing",
        ),
        (
            "can customers find 'refunds' in the new menu? just the labels, no visuals",
            "tree_testing",
        ),
    ],
)
def test_a_method_described_by_its_shape_is_found(bundled_matcher: Matcher, message, method):
    assert bundled_matcher.match(message, limit=3).candidates[0].task_id == method


@pytest.mark.parametrize(
    "message, not_method",
    [
        ("watch how warehouse staff use their scanners during a shift", "usability_test_plan"),
        ("queremos ver cómo usan la app los pacientes durante tres semanas", "usability_test_plan"),
        ("group the 200 quotes from the workshop into themes with the team", "card_sorting"),
        (
            "some users find the checkout confusing, let's see if support tickets agree",
            "ab_testing",
        ),
    ],
)
def test_a_shape_needs_all_of_its_parts(bundled_matcher: Matcher, message, not_method):
    assert not_method not in [c.task_id for c in bundled_matcher.match(message, limit=1).candidates]


TEAM_METHOD = """\
tasks:
  - id: bug_bash
    name: {en: Bug bash, es: Caza de errores}
    description: A timed session where the whole team hunts defects in a release.
    expected_output: [Scope and rules, Roles, Defect log, Triage]
    keywords:
      en: [bug bash]
      es: [caza de errores]
    guides: [bug_bash.md]
    agent: research_analyst
    shapes: [[whole_team, hunting]]
"""
SHAPE_WORDS = """\
whole_team: [the whole team, everyone in the team, all of us]
hunting: [hunt for bugs, look for bugs, find bugs, hunting bugs]
"""


def _team_method(home: Path, groups: str) -> None:
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "knowledge" / "guides").mkdir(parents=True, exist_ok=True)
    (home / "config" / "tasks.yaml").write_text(TEAM_METHOD, encoding="utf-8")
    (home / "knowledge" / "guides" / "bug_bash.md").write_text(
        "# Bug bash\n\n## When to use\nBefore a release.\n", encoding="utf-8"
    )
    (home / "lexicon" / "en").mkdir(parents=True, exist_ok=True)
    (home / "lexicon" / "en" / "shapes.yaml").write_text(groups, encoding="utf-8")


def test_a_teams_method_is_found_by_the_shape_its_entry_declares(run_cli, home):
    _team_method(home, SHAPE_WORDS)
    checked = run_cli("check")
    assert checked.exit_code == 0, checked.output
    found = run_cli(
        "match", "--json", "-n", "1", "friday afternoon: the whole team will hunt for bugs in 2.3"
    )
    assert json.loads(found.output)["candidates"][0]["task_id"] == "bug_bash"


def test_check_names_a_shape_group_the_lexicon_lacks(run_cli, home):
    _team_method(home, SHAPE_WORDS.replace("hunting:", "hunting_words:"))
    checked = run_cli("check")
    assert checked.exit_code == 3
    line = next(x for x in checked.output.splitlines() if "shapes" in x)
    assert "tasks.yaml:" in line and "task 'bug_bash': shapes: 'hunting'" in line
    assert "did you mean hunting_words?" in line


def test_every_bundled_shape_is_written_with_groups_each_language_gives(bundled_catalogue):
    from design_agent.core.lexicon import lexicon

    words = lexicon()
    for task in bundled_catalogue.tasks.values():
        for group in {g for shape in task.shapes for g in shape}:
            for language in ("en", "es"):
                assert words.words(group, language), textwrap.shorten(
                    f"{task.id}: {group} has no {language} words", 80
                )


@pytest.mark.parametrize(
    ("message", "not_high"),
    [
        # What a deliverable is made "of" is its object, not the method asked for.
        (
            "a one-page brief of the heuristic evaluation for the exec team, lead with the fixes",
            "heuristic_evaluation",
        ),
        # What is turned into something else is material the person has, not the request.
        ("turn our empathy map into something the board can read", "empathy_map"),
        ("convert the service blueprint into a list of tickets for the devs", "service_blueprint"),
        ("convierte el mapa de empatía en algo que la dirección pueda leer", "empathy_map"),
    ],
)
def test_a_method_named_as_the_object_of_another_is_never_high(
    bundled_matcher: Matcher, message: str, not_high: str
) -> None:
    best = bundled_matcher.match(message).best
    assert best is not None
    assert not (best.task_id == not_high and best.band == "HIGH"), best


@pytest.mark.parametrize(
    "message",
    [
        "what's the minimum detectable effect if we run the new pricing copy against the current"
        " one with 5k visitors a week",
        "¿cuál es el efecto mínimo detectable si probamos el texto nuevo contra el actual con"
        " 8.000 visitas a la semana?",
    ],
)
def test_an_experiment_told_by_its_statistics_is_an_ab_test(
    bundled_matcher: Matcher, message: str
) -> None:
    best = bundled_matcher.match(message).best
    assert best is not None and best.task_id == "ab_testing"


@pytest.mark.parametrize(
    ("message", "method"),
    [
        # Beside people while they work, asking as it happens: a contextual inquiry.
        (
            "I'd like to sit with a few warehouse pickers during their shift and ask why they"
            " skip steps",
            "contextual_inquiry",
        ),
        (
            "quiero acompañar a las enfermeras una noche y preguntarles por qué anotan a mano",
            "contextual_inquiry",
        ),
        # People asked to do something with a design while someone watches: a usability test.
        (
            "sentaremos a cinco clientes con el prototipo del quiosco y les pediremos que saquen"
            " una entrada mientras los observamos",
            "usability_test_plan",
        ),
        # Going somewhere as customers: a field visit (mystery shopping).
        (
            "we want to visit five of our gyms undercover and sign up as customers, noting"
            " every step",
            "field_visit",
        ),
        # A page shown for a moment, and what people recall: a five-second test.
        ("enseñar la home por cinco segundos y preguntar qué recuerdan", "five_second_test"),
        # Live before it is built, counting who clicks: a fake door test.
        (
            "add a 'rent a bike' button to the app before we build anything and count who clicks",
            "fake_door_test",
        ),
    ],
)
def test_a_method_told_by_what_it_does_is_found_sure_enough_to_answer(
    bundled_matcher: Matcher, message: str, method: str
) -> None:
    best = bundled_matcher.match(message).best
    assert best is not None and (best.task_id, best.band) == (method, "HIGH"), best


@pytest.mark.parametrize(
    ("message", "method"),
    [
        # What the team already did ("we've finished the journey map") is material.
        (
            "we've finished the journey map of first-time buyers; now show the back-stage teams"
            " and systems under each step",
            "service_blueprint",
        ),
        # What a deliverable shows ("the dashboard where ...") is its object.
        (
            "Design the dashboard where support leads follow the churn interviews' themes week"
            " by week",
            "data_visualization",
        ),
    ],
)
def test_work_already_done_and_what_a_deliverable_shows_are_not_the_request(
    bundled_matcher: Matcher, message: str, method: str
) -> None:
    best = bundled_matcher.match(message).best
    assert best is not None and best.task_id == method, best
