"""A designer goes back to an earlier turn, forks, and sees the tree, in both languages.

The shell is run scripted (one message per line on stdin), offline, on a real
SQLite home; the tree is then read with `history --tree --json`. The first story
pipes its script into a real `design-agent` process; the others run the same
commands in-process (click's CliRunner), which is what they are about.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fixtures.fakes import install_fake, invoke, recording

from design_agent.memory import Memory

AGENT = [sys.executable, "-m", "design_agent"]


def atlas(home: Path) -> None:
    """A new project made by command: no interview, so the conversation's first turn is the
    first request (said in words, creating it and answering its questions are turns too)."""
    created = run(home, "projects", "create", "Atlas")
    assert created.returncode == 0, created.stderr


def run(
    home: Path, *args: str, script: str | None = None, extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return invoke(
        home, *args, input=script, env={"DESIGN_AGENT_PROVIDER": "offline", **(extra or {})}
    )


def spawn(home: Path, *args: str, script: str) -> subprocess.CompletedProcess[str]:
    """`design-agent ARGS` as a real process, `script` piped into its standard input."""
    env = {**os.environ, "DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline"}
    return subprocess.run(
        [*AGENT, *args], input=script, capture_output=True, text=True, env=env, timeout=60
    )


def shell(home: Path, *lines: str, extra: dict[str, str] | None = None, real: bool = False) -> str:
    script = "\n".join([*lines, "exit"]) + "\n"
    result = spawn(home, script=script) if real else run(home, script=script, extra=extra)
    assert result.returncode == 0, result.stderr
    return result.stdout


def tree(home: Path) -> dict:
    result = run(home, "history", "--tree", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_going_back_and_forking_keeps_each_branch_its_own_decisions(home, cli_store):
    atlas(home)
    said = shell(
        home,
        "plan a usability test for the checkout",
        "we decided to use moderated testing because we need to probe hesitation",
        "write personas for our shoppers",
        "/goto 2",
        "/fork unmoderated",
        "what have we decided?",
        "plan an unmoderated remote test instead",
        "/tree",
        "/rename-branch unmoderated remote",
        "/branches",
        "why did we choose moderated testing?",
        "/search unmoderated",
        real=True,
    )
    assert "Now at turn 2 of 'Atlas'" in said
    assert "Started a branch (unmoderated) at turn 2" in said
    assert "use moderated testing" in said.split("Started a branch")[1], "made at turn 2"
    assert "Renamed unmoderated to 'remote'" in said
    assert "- remote: at turn 10" in said  # "what have we decided?" is turns 7-8
    assert "(turn 2, an unnamed branch): use moderated testing" in said
    assert "(turn 9, branch 'remote')" in said.split("Found in")[1], "search names the branch"
    assert "(unmoderated)  ◀ you are here" in said
    found = tree(home)
    line = found["tree"]["nodes"]
    assert [n["number"] for n in line] == [1, 2, 3, 4, 5, 6], "the first line goes on"
    fork = line[1]["forks"][0]["nodes"]
    assert [(n["number"], n["task_id"]) for n in fork if n["task_id"]] == [
        (9, "unmoderated_testing"),
        (10, "unmoderated_testing"),
    ]
    assert found["current"] == fork[-1]["id"]


def test_a_decision_made_later_is_not_so_far_before_it(home):
    said = shell(
        home,
        "crea un proyecto llamado Citas",
        "saltar",
        "saltar",
        "saltar",
        "planifica un test de usabilidad de la reserva",
        "decidimos hacer pruebas moderadas porque queremos ver dudas",
        "/goto 8",  # before the request: creating Citas and its questions are turns 1-8
        "/fork",
        "¿qué hemos decidido?",
        "/goto 10",
        "¿qué hemos decidido?",
    )
    before, after = said.split("Ahora estás en el turno 10")
    # The decision is on the branch that went on: this one says so, never "none yet".
    assert (
        "No hay decisiones en esta rama de 'Citas'; hay 1 en otras ramas"
        in before.split("He abierto una rama")[1]
    )
    assert "hacer pruebas moderadas" in after


def test_goto_an_unknown_turn_or_branch_says_so(home):
    atlas(home)
    said = shell(home, "/goto 9")
    assert "9" in said and "Now at turn" not in said
    said = shell(home, "/goto nowhere")
    assert "nowhere" in said and "Now at turn" not in said


def test_each_answer_stores_the_project_state_on_its_own_path(home, cli_store):
    atlas(home)
    run(home, "config", "set", "keyframe_every", "2")
    shell(
        home,
        "plan a usability test for the checkout",
        "write personas for our shoppers",
        "we decided to use moderated testing because we need to probe hesitation",
        "now plan a diary study",
        "/goto 2",
        "plan an unmoderated remote test instead",
    )
    with Memory.open(cli_store) as memory:  # the home's file, or a team's PostgreSQL
        project = memory.find_project("Atlas")
        ends = {t.task_id: t.id for t in memory.recent_turns(project.id, 10) if t.role == "agent"}
        diary = memory.state_at(ends["diary_study"])
        remote = memory.state_at(ends["unmoderated_testing"])
    assert [d.decision for d in diary.decisions] == ["use moderated testing"]
    assert diary.task_id == "diary_study"
    assert remote.decisions == [], "the decision came after turn 4, on the other branch"
    assert remote.task_id == "unmoderated_testing"


def test_ask_from_a_turn_answers_on_a_branch_and_the_prompt_sees_only_that_path(home):
    atlas(home)
    shell(
        home,
        "plan a usability test for the checkout",
        "write personas for our shoppers",
    )
    preview = ("ask", "--show-prompt", "--provider", "claude", "--from", "2")
    shown = run(home, *preview, "plan a diary study instead")
    assert shown.returncode == 0, shown.stderr
    conversation = shown.stdout.split("<conversation>")[1].split("</conversation>")[0]
    assert "plan a usability test" in conversation
    assert "write personas" not in conversation, "a sibling branch's turn"
    answered = run(home, "ask", "--from", "2", "plan a diary study instead")
    assert answered.returncode == 0, answered.stderr
    line = tree(home)["tree"]["nodes"]
    assert [n["number"] for n in line] == [1, 2, 3, 4]
    assert [n["task_id"] for n in line[1]["forks"][0]["nodes"]] == ["diary_study"] * 2
    missing = run(home, "ask", "--branch", "nowhere", "plan it")
    assert missing.returncode == 6 and "nowhere" in missing.stderr


def test_going_back_by_talking_is_confirmed_first_in_both_languages(home):
    atlas(home)
    said = shell(
        home,
        "plan a usability test for the checkout",
        "write personas for our shoppers",
        "we decided to use moderated testing because we need to probe hesitation",
        "go back to before we chose moderated testing",
        "no",
        "what have we decided?",
        "go back to before we chose moderated testing",
        "yes",
        "what have we decided?",
        "vuelve al turno 4",
        "sí",
        "¿qué hemos decidido?",
        "go back to before we chose a purple logo",
    )
    asked = "Go back to turn 2 of 'Atlas' (before 'use moderated testing')? "
    assert said.count(asked) == 2
    first, second = said.split(asked)[1:]
    assert "Staying where you are in 'Atlas'" in first and "use moderated testing" in first
    before_it = second.split("¿Vuelvo")[0]
    assert "Now at turn 2" in second
    assert "No decisions on this branch of 'Atlas'; 1 on other branches" in before_it
    assert "Ahora estás en el turno 4" in second
    assert "use moderated testing" in second.split("Ahora estás en el turno 4")[1]
    assert "No decision in 'Atlas' matches 'a purple logo'" in said


def _without_ids(line: dict) -> list:
    return [
        (*(n[k] for k in ("number", "role", "task_id", "text")), n["branches"], *forks)
        for n in line["nodes"]
        for forks in [[_without_ids(f) for f in n["forks"]]]
    ]


def test_the_tree_round_trips_through_export_and_import(home, tmp_path):
    atlas(home)
    shell(
        home,
        "plan a usability test for the checkout",
        "write personas for our shoppers",
        "/fork 2 remote",
        "plan an unmoderated remote test instead",
    )
    before = tree(home)
    backup = tmp_path / "atlas.json"
    assert run(home, "projects", "export", "Atlas", str(backup)).returncode == 0
    elsewhere = tmp_path / "other-home"
    imported = run(elsewhere, "projects", "import", str(backup))
    assert imported.returncode == 0, imported.stderr
    run(elsewhere, "projects", "switch", "Atlas")
    after = tree(elsewhere)
    assert _without_ids(after["tree"]) == _without_ids(before["tree"])
    assert "remote" in json.dumps(after["tree"])


def fake_gemini(tmp_path: Path) -> dict[str, str]:
    """A fake Gemini CLI (replaying a recorded run) on the PATH; no other AI CLI there."""
    gemini = install_fake(tmp_path / "bin", "gemini")
    return {
        "DESIGN_AGENT_GEMINI_BIN": str(gemini),
        "FAKE_RECORDING": recording("run_gemini_stream"),
        "PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin",
    }


def test_trying_the_same_request_with_another_provider_answers_beside_the_first(home, tmp_path):
    atlas(home)
    extra = fake_gemini(tmp_path)
    said = shell(
        home,
        "plan a usability test for the checkout",
        "try that again with gemini",
        "¿qué diría codex?",
        extra=extra,
    )
    assert "· gemini" in said, "the second answer's footer names its provider"
    assert "Hello from fake server" in said
    assert "Codex is not installed" in said or "Codex no está instalado" in said
    line = tree(home)["tree"]["nodes"]
    assert [n["number"] for n in line] == [1, 2], "the request and its first answer"
    second = line[0]["forks"][0]["nodes"]
    assert [(n["role"], n["task_id"]) for n in second] == [("agent", "usability_test_plan")]
    history = json.loads(run(home, "history", "--json").stdout)
    turns = history["turns"] if isinstance(history, dict) else history
    assert [t["provider"] for t in turns if t["role"] == "agent"] == ["offline", "gemini"]


def test_compare_two_providers_and_keep_one_with_a_reason(home, tmp_path):
    atlas(home)
    extra = fake_gemini(tmp_path)
    said = shell(
        home,
        "plan a usability test for the checkout",
        "/compare offline gemini",
        "2 because it is shorter",
        "what have we decided?",
        extra=extra,
    )
    assert "## 1. offline" in said and "## 2. gemini" in said
    assert "Hello from fake server" in said.split("## 2. gemini")[1], "gemini's own answer"
    assert "Which answer do you keep, 1 or 2?" in said
    assert "Kept gemini's answer" in said
    assert "Keep gemini's answer for Usability test plan. Why: it is shorter" in said
    line = tree(home)["tree"]["nodes"]
    answers = [line[1], *(f["nodes"][0] for f in line[0]["forks"])]
    assert [n["role"] for n in answers] == ["agent"] * 3, "three answers to one request"
    history = json.loads(run(home, "history", "--json").stdout)
    turns = history["turns"] if isinstance(history, dict) else history
    assert sorted(t["provider"] for t in turns if t["role"] == "agent" and t["task_id"]) == [
        "gemini",
        "offline",
        "offline",
    ]
    spanish = shell(home, "compara con codex", extra=extra)
    assert "Codex" in spanish and "instal" in spanish


def test_continue_says_where_the_conversation_goes_on(home):
    atlas(home)
    shell(home, "plan a usability test for the checkout", "/fork 1 again")
    asked = run(home, "ask", "--continue", "plan a diary study")
    assert asked.returncode == 0, asked.stderr
    assert "Continuing 'Atlas' from turn 1 (again)." in asked.stderr
    opened = run(home, "--continue", script="exit\n")
    assert "Continuing 'Atlas' from turn 4 (again)." in opened.stdout
    both = run(home, "ask", "--continue", "--from", "1", "x")
    assert both.returncode == 2 and "one of --from" in both.stderr
