"""The review of an answer, as a designer meets it: a plan that breaks a recorded decision
is flagged naming it, the question "has that decision changed?" follows, and a yes
supersedes it; a plan that respects it is not flagged. With a real CLI (a fake Claude
here), its fast model grades the points only a reader can judge, quoting the answer."""

from __future__ import annotations

import json
import os
from pathlib import Path

from fixtures.fakes import claude_run, install_fake, invoke

DECISION = "Moderated remote sessions only"

PLAN = """## Research goals and questions
Can families pay for a weekly cart without help?

## Participants and recruiting
Five participants per segment, two segments: weekly shoppers and first-time buyers.

## Tasks and scenarios
"Your fridge is empty before the weekend: get Saturday's groceries delivered."

## Success metrics
At least 4 of 5 participants pay without help; SEQ after each task.

## Session format and roles
{format}

## Schedule and logistics
Two days next week, four sessions a day.

## Limitations
Five people per segment show the worst problems, not how often they occur.

Confidence: medium, because the prototype lacks real payment errors.
[test_plan.md > Procedure]
"""
BREAKS = PLAN.format(format="Unmoderated sessions on Maze, 20 minutes each, no researcher.")
KEEPS = PLAN.format(format="Moderated remote sessions over video, 45 minutes, one observer.")


def fake_claude(tmp_path: Path, *runs: Path, review: str = "off") -> dict[str, str]:
    binary = install_fake(tmp_path / "bin", "claude")
    return {
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(binary),
        "DESIGN_AGENT_MODEL_REVIEW": review,
        "FAKE_SEQUENCE": os.pathsep.join(str(run) for run in runs),
    }


def ask_json(home: Path, message: str, env: dict[str, str]) -> dict:
    result = invoke(home, "ask", "--json", message, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def ask_events(home: Path, message: str, env: dict[str, str]) -> list[dict]:
    result = invoke(home, "ask", "--events", message, env=env)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def question_of(events: list[dict]) -> str:
    asked = [e for e in events if e["kind"] == "action" and e.get("asks")]
    return asked[-1]["asks"] if asked else ""


def a_project_with_a_decision(home: Path) -> None:
    assert invoke(home, "projects", "create", "Cestalia").returncode == 0
    assert invoke(home, "decisions", "add", DECISION).returncode == 0


def current_decisions(home: Path) -> list[str]:
    listed = invoke(home, "decisions", "list", "--json")
    data = json.loads(listed.stdout)
    rows = data["decisions"] if isinstance(data, dict) else data
    return [d["decision"] for d in rows if d.get("status", "current") == "current"]


def test_a_plan_against_a_decision_is_flagged_and_a_yes_supersedes_the_decision(home, tmp_path):
    a_project_with_a_decision(home)
    env = fake_claude(tmp_path, claude_run(tmp_path / "plan.json", BREAKS))
    events = ask_events(home, "plan a usability test of the new checkout", env)
    answer = events[-1]
    failed = [i for i in answer["validation"]["items"] if i["assessed"] and not i["passed"]]
    assert [i["id"] for i in failed] == [f"decision_{failed[0]['decision_id']}"]
    assert DECISION in failed[0]["detail"] and "Unmoderated" in failed[0]["detail"]
    assert "Has that decision changed?" in question_of(events)
    assert DECISION in question_of(events)
    shown = invoke(home, "history", "-n", "2").stdout
    assert '✗ plans "Unmoderated" against the decision' in shown
    said = ask_json(home, "yes", env)
    assert said["action"] == "decisions.supersede"
    assert current_decisions(home) == [
        "Unmoderated sessions on Maze, 20 minutes each, no researcher."
    ]


def test_a_no_keeps_the_decision(home, tmp_path):
    a_project_with_a_decision(home)
    env = fake_claude(tmp_path, claude_run(tmp_path / "plan.json", BREAKS))
    shown = invoke(home, "ask", "plan a usability test of the new checkout", env=env).stdout
    under_the_answer = shown.split("no researcher.")[1]
    assert '✗ plans "Unmoderated" against the decision' in under_the_answer
    assert "Has that decision changed? (yes / no)" in under_the_answer
    ask_json(home, "no", env)
    assert current_decisions(home) == [DECISION]


def test_a_plan_that_keeps_the_decision_is_not_flagged_and_nothing_is_asked(home, tmp_path):
    a_project_with_a_decision(home)
    env = fake_claude(tmp_path, claude_run(tmp_path / "plan.json", KEEPS))
    events = ask_events(home, "plan a usability test of the new checkout", env)
    answer = events[-1]
    failed = [i for i in answer["validation"]["items"] if i["assessed"] and not i["passed"]]
    assert failed == []
    decisions = [i for i in answer["validation"]["items"] if i["id"] == "decisions"]
    assert decisions and decisions[0]["passed"]
    assert question_of(events) == ""


def verdict(passed: bool, evidence: str) -> str:
    items = [
        {"id": f"rubric_{n}", "passed": passed, "evidence": evidence, "detail": "" if passed
         else "the tasks tell people which button to press"}
        for n in range(1, 5)
    ]  # fmt: skip
    return json.dumps({"items": items})


def test_the_fast_model_grades_what_a_reader_judges_quoting_the_answer(home, tmp_path):
    quote = "get Saturday's groceries delivered"
    runs = [
        claude_run(tmp_path / "plan.json", KEEPS),
        claude_run(tmp_path / "v.json", verdict(False, quote)),
    ]
    env = fake_claude(tmp_path, *runs, review="on")
    answer = ask_json(home, "plan a usability test of the new checkout", env)
    graded = [i for i in answer["validation"]["items"] if i["by"] == "model"]
    assert graded and all(i["assessed"] and not i["passed"] for i in graded)
    assert graded[0]["evidence"] == quote and "button" in graded[0]["detail"]
    assert answer["validation"]["model_review"] == "graded"


def test_a_quote_the_answer_does_not_hold_is_not_taken(home, tmp_path):
    runs = [
        claude_run(tmp_path / "plan.json", KEEPS),
        claude_run(tmp_path / "v.json", verdict(True, "words nobody wrote")),
    ]
    env = fake_claude(tmp_path, *runs, review="on")
    answer = ask_json(home, "plan a usability test of the new checkout", env)
    graded = [i for i in answer["validation"]["items"] if i["by"] == "model"]
    assert graded and not any(i["assessed"] for i in graded)
    assert "quote is not in the answer" in graded[0]["detail"]


def test_when_the_grading_fails_the_deterministic_checks_stand_and_the_footer_says_so(
    home, tmp_path
):
    runs = [
        claude_run(tmp_path / "plan.json", KEEPS),
        claude_run(tmp_path / "v.json", "I think it is fine."),
    ]
    env = fake_claude(tmp_path, *runs, review="on")
    answer = ask_json(home, "plan a usability test of the new checkout", env)
    assert answer["validation"]["model_review"] == "unavailable"
    assert not any(i["assessed"] for i in answer["validation"]["items"] if i["by"] == "model")
    again = [claude_run(tmp_path / "again.json", KEEPS), claude_run(tmp_path / "w.json", "Fine.")]
    env = fake_claude(tmp_path, *again, review="on")
    shown = invoke(home, "ask", "plan a usability test of the new checkout", env=env)
    assert "model review unavailable: deterministic checks only" in shown.stdout


def test_the_offline_provider_never_grades(home):
    answer = ask_json(home, "plan a usability test of the new checkout", {
        "DESIGN_AGENT_PROVIDER": "offline", "DESIGN_AGENT_MODEL_REVIEW": "on"})  # fmt: skip
    assert answer["validation"]["model_review"] is None


def test_a_grading_that_hangs_is_cut_at_its_timeout_and_the_fast_tier_was_asked(
    home, tmp_path, monkeypatch, bundled_catalogue
):
    """The grading call itself (turn/model_review.py): Claude's fast model is asked with the
    answer and the points; a model that does not answer in time leaves the checks alone."""
    import time

    from fixtures.fakes import bundled_adapters

    from design_agent.core.settings import Settings
    from design_agent.knowledge.guides import Knowledge
    from design_agent.knowledge.validation import validate_answer
    from design_agent.turn.model_review import grade

    task = bundled_catalogue.task("usability_test_plan")
    knowledge = Knowledge(bundled_catalogue)
    checked = validate_answer(KEEPS, task, "en", set(), knowledge.headings_of)
    binary = install_fake(tmp_path / "bin", "claude")
    settings = Settings(bins={"claude": str(binary)})
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "sent.json"))
    slow = claude_run(tmp_path / "slow.json", verdict(True, "Five participants"), sleep=5)
    monkeypatch.setenv("FAKE_RECORDING", str(slow))
    started = time.monotonic()
    cut = grade(KEEPS, checked, bundled_adapters()["claude"], settings, None, "en", timeout=0.5)
    assert time.monotonic() - started < 4 and cut.model_review == "unavailable"
    assert [i for i in cut.items if i.assessed] == [i for i in checked.items if i.assessed]
    sent = json.loads((tmp_path / "sent.json").read_text(encoding="utf-8"))
    assert "sonnet" in sent["argv"] and "rubric_3" in sent["stdin"]
    assert "Each task gives a goal" in sent["stdin"] and '"evidence"' in sent["system_prompt"]


PLAN_ES = """## Objetivos y preguntas de investigación
¿Pueden las familias pagar la compra semanal sin ayuda?

## Perfil de participantes y plan de reclutamiento
Cinco participantes por segmento: compradores semanales y primeros compradores.

## Tareas y escenarios
«Tienes la nevera vacía antes del fin de semana: pide la compra del sábado».

## Métricas de éxito
Al menos 4 de 5 participantes pagan sin ayuda.

## Formato de la sesión, roles y esquema del guion
Sesiones no moderadas en Maze, de 20 minutos.

## Calendario y logística
Dos días la semana que viene.

## Limitaciones
Cinco personas por segmento muestran los problemas graves, no su frecuencia.

Confianza: media, porque el prototipo no simula errores de pago.
[test_plan.md > Procedimiento]
"""


def test_in_spanish_the_flag_and_the_question_are_spanish_and_si_supersedes(home, tmp_path):
    assert invoke(home, "projects", "create", "Cestalia").returncode == 0
    assert invoke(home, "decisions", "add", "Solo sesiones remotas moderadas").returncode == 0
    env = fake_claude(tmp_path, claude_run(tmp_path / "plan.json", PLAN_ES))
    events = ask_events(home, "planifica una prueba de usabilidad del nuevo pago", env)
    failed = [i for i in events[-1]["validation"]["items"] if i["assessed"] and not i["passed"]]
    assert [i["detail"][:40] for i in failed] == ["plantea «no moderadas» en contra de la d"]
    assert "¿Ha cambiado esa decisión? (sí / no)" in question_of(events)
    said = ask_json(home, "sí", env)
    assert said["action"] == "decisions.supersede"
    assert current_decisions(home) == ["Sesiones no moderadas en Maze, de 20 minutos."]
