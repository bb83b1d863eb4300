"""The prompt fits the request (issue 26, section 2).

A designer asks for the same deliverable briefly and in detail and gets two different
prompts: the brief one asks for fewer, merged parts from the guide's summary, procedure
and pitfalls, the detailed one for every part with the worked example. A method's
inputs that neither the request nor the project give are named, so the model asks once
or assumes in one line; the team's decisions win over the guide's alternatives; a data
file goes trimmed to the rows near the request, with a note on how to use it; and a
Spanish request reads Spanish reference material.
"""

from __future__ import annotations

import re

import pytest
from fixtures.scenarios import (
    assemble_scenario,
    english_share,
    every_method_empty,
    load_pairs,
    load_scenarios,
    ratios,
)

from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.prompt import Facts, ProjectContext, assemble
from design_agent.knowledge.prompt_frame import frame

PROJECTS, SCENARIOS = load_scenarios()
LIMIT = 200_000
EMPTY = ProjectContext(name="New app")


@pytest.fixture(scope="module")
def catalogue(bundled_catalogue):
    return bundled_catalogue


@pytest.fixture(scope="module")
def knowledge(catalogue):
    return Knowledge(catalogue)


@pytest.fixture(scope="module")
def prompts(catalogue, knowledge):
    return {s["id"]: assemble_scenario(catalogue, knowledge, PROJECTS, s, LIMIT) for s in SCENARIOS}


def ask(
    catalogue, knowledge, task_id, message, *, language="en", verbosity="normal", project=EMPTY
):
    task = catalogue.task(task_id)
    return assemble(
        message=message,
        task=task,
        agent=catalogue.agent(task.agent),
        knowledge=knowledge,
        language=language,
        verbosity=verbosity,
        context_limit=LIMIT,
        project=project,
    )


def sections_of(prompt: str) -> list[str]:
    guide = "".join(re.findall(r"<guide .*?</guide>", prompt, re.S))
    return re.findall(r'<section title="([^"]+)">', guide)


def instructions_of(prompt: str) -> str:
    return prompt.split("<instructions>")[1].split("</instructions>")[0]


# -- verbosity shapes the deliverable --------------------------------------------------------


def test_every_brief_prompt_is_at_most_70_percent_of_the_detailed_one(prompts):
    pairs = load_pairs()
    assert len(pairs) >= 15 and len({p["task"] for p in pairs}) >= 15
    over = {pair: f"{r:.0%}" for pair, r in ratios(prompts, pairs).items() if r > 0.70}
    assert not over, f"brief prompts over 70 % of the detailed one: {over}"


def test_a_brief_plan_has_merged_parts_from_the_summary_procedure_and_pitfalls(
    catalogue, knowledge
):
    message = "Plan a usability test for the new booking flow"
    brief = ask(catalogue, knowledge, "usability_test_plan", message, verbosity="brief")
    assert set(sections_of(brief.prompt)) == {"Summary", "Procedure", "Pitfalls"}
    assert "<example " not in brief.prompt
    outline = instructions_of(brief.prompt).split(":\n")[1].split("\n- ")[0]
    assert outline.splitlines() == [
        "1. Research goals and questions / Participant criteria and recruiting plan",
        "2. Tasks and scenarios / Success metrics",
        "3. Session format, roles and script outline / Schedule and logistics",
    ]
    template = re.search(r'<material source="test_plan_template.md" note="([^"]+)">', brief.prompt)
    assert template and "not sent in a brief answer" in template.group(1)


def test_normal_sends_every_section_but_the_worked_example_and_detailed_adds_it(
    catalogue, knowledge
):
    message = "Do a heuristic evaluation of the signup flow"
    normal = ask(catalogue, knowledge, "heuristic_evaluation", message)
    detailed = ask(catalogue, knowledge, "heuristic_evaluation", message, verbosity="detailed")
    assert "Severity ratings" in sections_of(normal.prompt)
    assert "<example " not in normal.prompt
    assert '<example source="heuristic_evaluation.md" section="Worked example"' in detailed.prompt
    assert "Length: about 800-1,300 words." in normal.prompt
    assert "Length: about 1,500-2,500 words." in detailed.prompt


# -- inputs, assumptions and decisions --------------------------------------------------------


def test_rice_without_reach_or_effort_names_both_and_lets_the_model_ask_once(catalogue, knowledge):
    asked = ask(catalogue, knowledge, "prioritization", "Rank these five ideas for the roadmap")
    rules = instructions_of(asked.prompt)
    missing = next(line for line in rules.splitlines() if line.startswith("- Not given yet:"))
    assert "reach: how many people each item affects per period" in missing
    assert "effort: person-weeks for each item" in missing
    assert "<ask_user>question</ask_user>" in missing and "Assumptions line" in missing
    assert "the items to rank" not in missing, "the request names its ideas"


def test_reach_and_effort_in_the_request_are_not_asked_for(catalogue, knowledge):
    message = "Rank 5 features: reach about 2,000 users per month each, effort 1-3 sprints"
    asked = ask(catalogue, knowledge, "prioritization", message)
    rules = instructions_of(asked.prompt)
    assert "reach: how many" not in rules.split("This method works from:")[1].split("\n")[1:][0]
    facts = Facts(EMPTY, knowledge.inputs_of(catalogue.task("prioritization")), [message])
    assert [n.id for n in facts.missing_needs] == []


def test_a_heuristic_evaluation_without_a_screen_asks_which_one(catalogue, knowledge):
    vague = ask(catalogue, knowledge, "heuristic_evaluation", "Do a heuristic evaluation for us")
    assert (
        "the screen or flow under review"
        in instructions_of(vague.prompt).split("Not given yet:")[1]
    )
    named = ask(catalogue, knowledge, "heuristic_evaluation", "Evaluate the checkout flow")
    assert "Not given yet:" in instructions_of(named.prompt)  # the users, the problem...
    assert (
        "screen or flow under review"
        not in instructions_of(named.prompt).split("Not given yet:")[1]
    )


def test_a_fact_the_project_lacks_is_asked_once_not_as_a_fact_and_an_input(catalogue, knowledge):
    asked = ask(catalogue, knowledge, "usability_test_plan", "Plan a usability test")
    missing = instructions_of(asked.prompt).split("Not given yet:")[1].split("\n")[0]
    assert "who the users are" in missing
    assert "who takes part" not in missing, "participants are the users: asked once"


def test_recorded_decisions_win_over_the_guides_alternatives(catalogue, knowledge):
    rich = PROJECTS["rich"]
    decided = ask(catalogue, knowledge, "usability_test_plan", "Plan a test", project=rich)
    rules = instructions_of(decided.prompt)
    assert frame("en")["decisions_win"] in rules
    assert "never plan against one" in rules
    spanish = ask(
        catalogue, knowledge, "usability_test_plan", "Planifica", language="es", project=rich
    )
    assert frame("es")["decisions_win"] in instructions_of(spanish.prompt)


def test_one_format_rule_set_and_an_empty_project_says_so(catalogue, knowledge):
    asked = ask(catalogue, knowledge, "journey_mapping", "Map the journey of a new patient")
    rules = instructions_of(asked.prompt)
    order = [
        rules.find(w)
        for w in ('"Assumptions: ..."', "the parts above", '"Confidence:', '"Sources:"')
    ]
    assert -1 not in order and order == sorted(order)
    assert "confidence (high" not in rules, "no second confidence rule"
    assert '<project name="New app">\nno project facts yet\n</project>' in asked.prompt
    assert frame("en")["empty"] in rules and frame("en")["facts"] not in rules


# -- materials ---------------------------------------------------------------------------------


def test_a_long_checklist_goes_as_the_rows_near_the_request_with_a_note(catalogue, knowledge):
    message = "Audit the checkout for keyboard focus and colour contrast"
    audit = ask(catalogue, knowledge, "accessibility_audit", message)
    block = re.search(
        r'<material source="accessibility_checklist.csv" note="([^"]+)">\n(.*?)\n</material>',
        audit.prompt,
        re.S,
    )
    assert block, "the checklist goes to the audit"
    note, rows = block.group(1), block.group(2).splitlines()
    assert note.startswith("WCAG 2.2 criteria, one per row") and "12 of its 55 rows" in note
    assert rows[0] == "wcag_criterion,level,check,how_to_test"
    body = block.group(2)
    assert "Contrast" in body and "Focus" in body
    brief = ask(catalogue, knowledge, "accessibility_audit", message, verbosity="brief")
    assert "1.1.1 Non-text Content" not in brief.prompt and "55 rows" in brief.prompt


def test_no_normal_request_in_an_empty_project_is_over_6000_tokens(catalogue, knowledge):
    sizes = every_method_empty(catalogue, knowledge, LIMIT)
    assert len(sizes) == 2 * len(catalogue.tasks)
    over = {name: size for name, size in sizes.items() if size > 6000}
    assert not over, over


# -- Spanish ------------------------------------------------------------------------------------


def test_spanish_prompts_are_at_most_a_quarter_english(prompts):
    shares = {
        s["id"]: english_share(prompts[s["id"]].prompt) for s in SCENARIOS if s["language"] == "es"
    }
    assert len(shares) >= 20
    over = {k: f"{v:.0%}" for k, v in shares.items() if v > 0.25}
    assert not over, over


def test_a_spanish_prompt_carries_the_spanish_guide_examples_and_materials(catalogue, knowledge):
    message = "Planifica un test de usabilidad del flujo de reserva"
    asked = ask(
        catalogue, knowledge, "usability_test_plan", message, language="es", verbosity="detailed"
    )
    titles = sections_of(asked.prompt)
    assert "Métricas" in titles and "Metrics" not in titles
    assert 'section="Ejemplo práctico"' in asked.prompt and "Worked example" not in asked.prompt
    assert '<material source="test_plan_template_es.md"' in asked.prompt
    assert "test_plan_template.md" not in asked.prompt
    assert english_share(asked.prompt) < 0.10


def test_the_share_of_english_is_measured_by_sentence():
    assert english_share("Planifica un test de usabilidad. Plan the test with five users.") > 0.4
    assert english_share("Planifica un test de usabilidad con cinco usuarios.") == 0.0


def test_every_language_of_the_frame_has_the_same_words():
    from design_agent.core.lexicon import lexicon

    english, spanish = (lexicon().table("prompt_frame", lang) for lang in ("en", "es"))
    assert english.keys() == spanish.keys() and len(english) > 30
    notes = [lexicon().table("material_notes", lang) for lang in ("en", "es")]
    assert notes[0].keys() == notes[1].keys()


# -- a request the method's deliverable fits -----------------------------------------------------

FITTING = [
    ("design critique of this screen", "design_critique"),
    ("crítica de diseño de la pantalla de pago", "design_critique"),
    ("review the checkout screen against usability heuristics", "heuristic_evaluation"),
    ("write the error message for a declined card", "error_messages"),
    ("revisa la accesibilidad de la pantalla de registro", "accessibility_audit"),
]


@pytest.mark.parametrize(("message", "task_id"), FITTING)
def test_a_request_about_one_screen_goes_to_the_method_whose_deliverable_fits(
    bundled_matcher, message, task_id
):
    found = bundled_matcher.match(message)
    assert found.best is not None and found.best.task_id == task_id, found.candidates[:3]


def test_a_critique_of_one_screen_gets_its_outline_written_for_the_screen(catalogue, knowledge):
    asked = ask(catalogue, knowledge, "design_critique", "design critique of this screen")
    rules = instructions_of(asked.prompt)
    assert "1. Critique goal and feedback requested" in rules
    assert frame("en")["outline_fit"] in rules, "the session outline adapts to one screen"
    assert (
        "the screen or flow under review"
        not in rules.split("This method works from:")[1].split("\n- ")[1]
    ), "the screen is named in the request"


def test_a_sample_screener_in_a_guide_goes_as_an_example_and_only_in_detail(catalogue, knowledge):
    message = "Recruit 8 patients for interviews"
    normal = ask(catalogue, knowledge, "participant_recruiting", message)
    detailed = ask(catalogue, knowledge, "participant_recruiting", message, verbosity="detailed")
    assert "Sample screener" not in normal.prompt
    opening = '<example source="recruiting.md" section="Sample screener" note="illustrative'
    assert opening in detailed.prompt
    assert '<section title="Sample screener">' not in detailed.prompt
