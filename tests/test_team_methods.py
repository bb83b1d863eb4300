"""A team adds its own design method, and design-agent treats it as one of its own.

A newcomer runs `design-agent methods new` in a real terminal and answers its questions
(the name in English and Spanish, what it is for, the specialist from a numbered list,
the deliverable's parts and length, the Spanish guide); a Spanish-speaking colleague
does the same by talking to the shell. The entry lands at the end of the home's
`config/tasks.yaml`, the guide (and its Spanish companion) beside it, `check` runs and
three sample requests are routed. Then the method is first-class: listed as the team's,
answered offline from its guide, marked in `match --explain`, in reports, in exports.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import pexpect
import pytest

from design_agent.understanding.intents import detect_action

BIN = Path(sys.executable).parent / "design-agent"
TIMEOUT = 20
DESCRIPTION = "Review a pricing page for clarity, anchoring and plan comparison."
OUTPUTS = "Findings by severity, Plan comparison issues, Recommendations"
FLAGS = (
    "methods", "new", "--name", "Pricing page review", "--description", DESCRIPTION,
    "--agent", "content_specialist", "--outputs", OUTPUTS,
)  # fmt: skip


@pytest.fixture
def env(home: Path) -> dict[str, str]:
    """A terminal on the test's home, answering offline (no AI CLI needed)."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.yaml").write_text("provider: offline\n", encoding="utf-8")
    return {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "TERM": "xterm-256color",
        "PROMPT_TOOLKIT_NO_CPR": "1",  # else every prompt waits a second for the cursor
        "COLUMNS": "120",
        "LINES": "40",
    }


def spawn(env: dict[str, str], *args: str) -> pexpect.spawn:
    command = str(BIN) if BIN.exists() else shutil.which("design-agent")
    assert command, "design-agent is not installed in this environment"
    child = pexpect.spawn(
        command, list(args), env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 120)
    )
    child.delaybeforesend = None
    return child


def answer(child: pexpect.spawn, question: str, reply: str) -> str:
    """Wait for `question` and answer it; what was shown up to the question."""
    child.expect(question)
    shown = child.before + child.after
    child.sendline(reply)
    return shown


def team_methods(run_cli: Any) -> list[dict[str, Any]]:
    result = run_cli("methods", "list", "--team", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- a newcomer, in a terminal ---------------------------------------------------------------


def test_a_newcomer_adds_a_method_in_english_and_spanish(env, home, run_cli):
    child = spawn(env, "methods", "new")
    answer(child, r"What is it called, in English\?.*: ", "Pricing page review")
    answer(child, r"Its name in Spanish \(Enter.*?: ", "Revisión de página de precios")
    answer(child, r"What is it for, in one sentence\?: ", DESCRIPTION)
    shown = answer(child, r"\(a number or an id[^)]*\)[^:]*: ", "content_specialist")
    assert "Which specialist answers it?" in shown and "(content_specialist)" in shown
    assert " 1. " in shown and " 15. " in shown  # every persona, numbered
    answer(child, r"parts of its deliverable.*?: ", OUTPUTS)
    answer(child, r"1\. short  2\. medium  3\. long \[2\]: ", "3")
    answer(child, r"Other words people use.*?: ", "plan comparison, pricing review")
    answer(child, r"Write its Spanish guide too .*es/pricing_page_review\.md\)\? \[Y/n\]: ", "y")
    answer(child, r"What is it for, in Spanish\?.*?: ", "Revisa una página de precios.")
    answer(child, r"parts in Spanish.*?: ", "Hallazgos, Problemas de comparación, Recomendaciones")
    answer(child, r"Write 'pricing_page_review' now\? \[Y/n\]: ", "")
    child.expect(pexpect.EOF)
    shown = child.before
    child.close()
    assert child.exitstatus == 0, shown
    assert f"{home}/config/tasks.yaml:2  its entry" in shown
    assert "check: no problems with it." in shown
    assert shown.count('" -> pricing_page_review (') == 3  # the three sample requests reach it
    assert "necesito ayuda con revisión de página de precios" in shown
    entry = team_methods(run_cli)[0]
    assert entry["id"] == "pricing_page_review" and entry["team"] is True
    assert entry["name"] == {"en": "Pricing page review", "es": "Revisión de página de precios"}
    assert entry["length"] == "long" and entry["agent"] == "content_specialist"
    assert entry["es"]["expected_output"][0] == "Hallazgos"
    guide = (home / "knowledge" / "guides" / "pricing_page_review.md").read_text()
    for heading in ("When to use", "When not to use", "Inputs", "Procedure", "Deliverable"):
        assert f"\n## {heading}\n" in guide
    assert "1. Findings by severity: [" in guide  # one step per part, to fill in
    spanish = (home / "knowledge" / "guides" / "es" / "pricing_page_review.md").read_text()
    for heading in ("Cuándo usarlo", "Entradas", "Procedimiento", "Entregable", "Referencias"):
        assert f"\n## {heading}\n" in spanish


def test_a_newcomer_is_asked_in_spanish_when_that_is_their_language(env, home, run_cli):
    (home / "settings.yaml").write_text("provider: offline\nlanguage: es\n", encoding="utf-8")
    child = spawn(env, "methods", "new")
    answer(child, r"¿Cómo se llama, en inglés\?.*?: ", "Pricing page review")
    answer(child, r"Su nombre en español \(Intro para dejarlo\): ", "Revisión de página de precios")
    answer(child, r"¿Para qué sirve, en una frase\?: ", "Revisar una página de precios.")
    child.expect(r"(\d+)\. Especialista en diseño de contenido \(content_specialist\)")
    number = child.match.group(1)  # the personas by their Spanish role, numbered
    answer(child, r"\(un número o un id[^)]*\)[^:]*: ", number)
    answer(child, r"¿Qué partes tiene su entregable\?.*?: ", "Hallazgos, Recomendaciones")
    answer(child, r"1\. corto  2\. medio  3\. largo \[2\]: ", "corto")
    answer(child, r"Otras palabras con las que lo piden.*?: ", "")
    answer(child, r"¿Escribo también su guía en español .*\? \[S/n\]: ", "sí")
    answer(child, r"¿Para qué sirve, en español\?.*?: ", "")
    answer(child, r"Las partes del entregable en español.*?: ", "")
    answer(child, r"¿Lo escribo ya \('pricing_page_review'\)\? \[S/n\]: ", "s")
    child.expect(pexpect.EOF)
    shown = child.before
    child.close()
    assert child.exitstatus == 0, shown
    assert "He escrito tu método 'pricing_page_review':" in shown
    assert "check: ningún problema con él." in shown
    assert shown.count(" -> pricing_page_review (") == 3
    (entry,) = team_methods(run_cli)
    assert entry["agent"] == "content_specialist" and entry["length"] == "short"
    spanish = home / "knowledge" / "guides" / "es" / "pricing_page_review.md"
    assert spanish.read_text().startswith("# Revisión de página de precios\n")


def test_a_spanish_speaker_adds_one_by_talking_to_the_shell(env, home, run_cli):
    child = spawn(env)
    child.expect("Type your request")
    child.sendline("quiero añadir un método propio para revisar páginas de precios")
    answer(child, r"¿Cómo se llama, en inglés\?.*\)", "Pricing page review")
    answer(child, r"¿Y en español\?.*\)", "Revisión de página de precios")
    answer(child, r"¿Para qué sirve, en una frase\?", "Revisar la página de precios y sus planes.")
    shown = answer(child, r"\(un número o un id[^)]*\)", "content_specialist")
    assert "¿Qué especialista lo responde?" in shown and "(content_specialist)" in shown
    answer(child, r"¿Qué partes tiene su entregable\?.*\)", "Hallazgos, Recomendaciones")
    answer(child, r"1\. corto  2\. medio  3\. largo", "medio")
    answer(child, r"¿Escribo también su guía en español .*\? \(sí/no\)", "sí")
    child.expect(r"Cómo se enrutan tres peticiones de ejemplo:(.*?)Ahora: completa su guía")
    routes = child.match.group(1)
    assert routes.count("-> pricing_page_review (") == 3, routes
    child.sendline("necesito una revisión de la página de precios de la app")
    child.expect(r"── Revisión de página de precios")  # answered offline with the new method
    child.sendline("salir")
    child.expect(pexpect.EOF)
    (entry,) = team_methods(run_cli)
    assert entry["keywords"]["en"] == ["pricing page review", "revisar páginas de precios"]
    assert (home / "knowledge" / "guides" / "es" / "pricing_page_review.md").is_file()


def test_talking_a_method_in_can_be_cancelled_and_survives_an_aside(env, home):
    child = spawn(env)
    child.expect("Type your request")
    child.sendline("I want to add our own method for pricing page reviews")
    answer(child, r"What is it called, in English\?.*\)", "Pricing page review")
    answer(child, r"And in Spanish\?.*\)", "what methods do you know?")
    child.expect(r"Still open: And in Spanish\?")  # the aside answered, the question put again
    child.sendline("skip")
    answer(child, r"What is it for, in one sentence\?", "cancel")
    child.expect("Dropped|dropped|cancel")
    child.sendline("exit")
    child.expect(pexpect.EOF)
    assert not (home / "config" / "tasks.yaml").exists()


def test_what_is_said_to_add_a_method_is_read_as_such():
    for said, about in [
        ("I want to add our own method for pricing page reviews", "pricing page reviews"),
        ("we would like to create a custom method called Pricing review", "Pricing review"),
        ("quiero añadir nuestro propio método para revisar precios", "revisar precios"),
        ("add a new method", None),
        ("queremos crear un método propio", None),
    ]:
        found = detect_action(said)
        assert found is not None and found.name == "catalogue.new_method", said
        assert found.input.get("about") == about
    for request in ("create a method for prioritising features", "plan a usability test"):
        assert detect_action(request) is None, request


# -- for scripts: flags, and what is refused ---------------------------------------------------


def test_a_script_gives_every_answer_as_a_flag_and_the_file_keeps_what_it_had(run_cli, home):
    missing = run_cli("methods", "new", "--name", "Pricing page review")
    assert missing.exit_code == 2
    assert "give --description, --agent, --outputs" in missing.stderr
    assert "standard input is not a terminal" in missing.stderr
    before = write(
        home / "config" / "tasks.yaml",
        """\
        # Our own methods; ask Ana before changing them.
        tasks:
          - id: design_review_ritual   # the Thursday one
            name: {en: Design review ritual, es: Ritual de revisión de diseño}
            description: The team's weekly design review.
            expected_output: [Agenda, Notes]
            keywords: {en: [design review ritual], es: [ritual de revisión]}
            guides: [design_critique.md]
            agent: team_lead
        """,
    ).read_text()
    result = run_cli(*FLAGS, "--name-es", "Revisión de página de precios", "--spanish")
    assert result.exit_code == 0, result.output
    assert "Wrote your method 'pricing_page_review':" in result.stdout
    assert result.stdout.count("  ok  ") == 3, result.stdout
    after = (home / "config" / "tasks.yaml").read_text()
    assert after.startswith(before)  # comments and the other entry as they were
    assert "\n  - id: pricing_page_review\n" in after
    ids = [m["id"] for m in team_methods(run_cli)]
    assert ids == ["design_review_ritual", "pricing_page_review"]
    assert (home / "knowledge" / "guides" / "es" / "pricing_page_review.md").is_file()


def test_what_cannot_be_added_or_removed_is_said(run_cli, home):
    assert run_cli(*FLAGS).exit_code == 0
    again = run_cli(*FLAGS)
    assert again.exit_code == 2
    assert "you already have a method 'pricing_page_review'" in again.stderr
    bundled = run_cli(*FLAGS, "--id", "journey_mapping")
    assert bundled.exit_code == 2
    assert "a bundled method is called 'journey_mapping'" in bundled.stderr
    assert run_cli(*FLAGS, "--id", "journey_mapping", "--replace").exit_code == 0
    shown = json.loads(run_cli("methods", "show", "journey_mapping", "--json").stdout)
    assert shown["team"] is True and shown["replaces_bundled"] is True
    listed = {m["id"]: m for m in team_methods(run_cli)}
    assert listed["journey_mapping"]["replaces_bundled"] is True
    refused = run_cli("methods", "remove", "usability_test_plan", "--yes")
    assert refused.exit_code == 2 and "bundled with design-agent" in refused.stderr
    unasked = run_cli("methods", "remove", "pricing_page_review")
    assert unasked.exit_code == 2 and "pass --yes" in unasked.stderr
    removed = run_cli("methods", "remove", "journey_mapping", "--yes")
    assert removed.exit_code == 0
    assert "The bundled method 'journey_mapping' answers again." in removed.stdout
    shown = json.loads(run_cli("methods", "show", "journey_mapping", "--json").stdout)
    assert shown["team"] is False and shown["name"]["en"] == "Customer journey map"
    assert run_cli("methods", "remove", "pricing_page_review", "--yes").exit_code == 0
    assert not (home / "knowledge" / "guides" / "pricing_page_review.md").exists()
    assert team_methods(run_cli) == []


def test_a_guide_of_the_teams_own_names_the_method(run_cli, home, tmp_path):
    guide = write(
        tmp_path / "our-pricing-review.md",
        """\
        # How we review pricing pages

        We look at the pricing page the way a first-time buyer does.

        First we list every plan and what it includes.

        Then we rate each finding: blocker, major, minor.
        """,
    )
    result = run_cli(
        "methods", "new", "--from-guide", str(guide), "--agent", "content_specialist",
        "--outputs", "Findings, Recommendations",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Wrote your method 'how_we_review_pricing_pages':" in result.stdout
    assert "its guide (yours)" in result.stdout
    assert "has none of the standard sections" in result.stdout  # check's warning, at once
    (entry,) = team_methods(run_cli)
    assert entry["description"] == "We look at the pricing page the way a first-time buyer does."
    copied = home / "knowledge" / "guides" / "how_we_review_pricing_pages.md"
    assert copied.read_text() == guide.read_text()


EDITOR = """\
import sys
from pathlib import Path
Path(sys.argv[1]).write_text("\\n".join(sys.argv[2:]))
entry = Path(sys.argv[2])
entry.write_text(entry.read_text().replace("content_specialist", "content_specialst"))
"""


def test_editing_opens_the_files_and_checks_them_after(run_cli, home, tmp_path, monkeypatch):
    assert run_cli(*FLAGS).exit_code == 0
    opened = tmp_path / "opened.txt"
    editor = write(tmp_path / "editor.py", EDITOR)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor} {opened}")
    result = run_cli("methods", "edit", "pricing_page_review")
    assert opened.read_text().splitlines() == [
        str(home / "config" / "tasks.yaml"),
        str(home / "knowledge" / "guides" / "pricing_page_review.md"),
    ]
    assert result.exit_code == 3
    said = "agent 'content_specialst' does not exist; did you mean content_specialist?"
    assert said in result.stderr
    bundled = run_cli("methods", "edit", "journey_mapping")
    assert bundled.exit_code == 2 and "--id journey_mapping --replace" in bundled.stderr


# -- check, in plain words ---------------------------------------------------------------------

FIVE_MISTAKES = """\
tasks:
  - id: Pricing-Page
    name: Pricing page review
    description: Review a pricing page for clarity and plan comparison.
    expected_output: [Findings by severity, Recommendations]
    keywords:
      en: [pricing page, plan comparison]
    guides: [pricing_page.md]
    agent: content_specialst
    lenght: short
"""


def test_check_prints_five_mistakes_at_once_in_plain_words(run_cli, home):
    path = write(home / "config" / "tasks.yaml", FIVE_MISTAKES)
    result = run_cli("check")
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert lines[-1].startswith("5 problem(s) found")
    guide = home / "knowledge" / "guides" / "pricing_page.md"
    assert lines[:5] == [
        f"{path}:2: task 'Pricing-Page': id 'Pricing-Page' has capitals or a dash; use "
        "lowercase letters, digits and _ (e.g. pricing_page)",
        f"{path}:3: task 'Pricing-Page': name: give the name in each language, e.g. name: "
        "{en: Pricing page review, es: ...}",
        f"{path}:8: task 'Pricing-Page': guide 'pricing_page.md' does not exist; write it as "
        f"{guide} (design-agent methods new writes one with the standard sections)",
        f"{path}:9: task 'Pricing-Page': agent 'content_specialst' does not exist; did you "
        "mean content_specialist?",
        f"{path}:10: task 'Pricing-Page': unknown field 'lenght'; did you mean length?",
    ]
    assert "should" not in result.stderr and "Input" not in result.stderr  # no pydantic


def test_check_lists_the_valid_values_when_nothing_is_close(run_cli, home):
    write(home / "knowledge" / "guides" / "pricing_review.md", "# P\n\n## Procedure\n1. a\n")
    write(
        home / "config" / "tasks.yaml",
        FIVE_MISTAKES.replace("Pricing-Page", "pricing_review")
        .replace("name: Pricing page review", "name: {en: Pricing page review}")
        .replace("pricing_page.md", "pricing_review.md")
        .replace("content_specialst", "nobody")
        .replace("lenght: short", "length: huge"),
    )
    result = run_cli("check")
    assert result.exit_code == 3
    said = "agent 'nobody' does not exist; write one of the agents: accessibility_specialist, "
    assert said in result.stderr
    said = "length 'huge' is not one of short, medium or long; write e.g. length: medium"
    assert said in result.stderr


def test_check_warns_without_failing(run_cli, home):
    write(home / "knowledge" / "guides" / "quick_test.md", "# Quick test\n\nWe test fast.\n")
    write(
        home / "config" / "tasks.yaml",
        """\
        tasks:
          - id: quick_usability_test
            name: {en: Quick usability test}
            description: A usability test in one afternoon.
            expected_output: [Tasks, Findings]
            keywords: {en: [usability test]}
            guides: [quick_test.md]
            agent: research_analyst
        """,
    )
    result = run_cli("check")
    assert result.exit_code == 0, result.output
    warnings = "\n".join(x for x in result.stderr.splitlines() if x.startswith("warning: "))
    assert "guide 'quick_test.md' has none of the standard sections" in warnings
    assert "task 'quick_usability_test' has no Spanish name" in warnings
    assert "its keywords collide with other methods" in warnings
    assert "'usability test' is also a keyword of usability_test_plan" in warnings
    assert "The closest methods: usability_test_plan (" in warnings
    assert result.stdout.startswith("ok: ") and "warning(s)" in result.stdout
