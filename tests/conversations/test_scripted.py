"""Conversations written before the dialogue was fixed, in people's words, half in Spanish
(tests/data/dialogue/conversations.yaml): replies in any natural form, follow-ups, the
reply's language, the interview and the project's name, decisions that change, routing.

Each conversation runs on a fresh home through the real pipeline (talk.py), answered
offline, or by a fake Claude CLI when it needs a model (one that proposes decisions). Its
expectations are the user's, not the tool's wording: which method answered, which question
is left open, the language, the projects and decisions after each turn, and the names or
facts the reply must (or must not) mention.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conversations.talk import Conversation, Said
from design_agent.core.text import fold

DATA = Path(__file__).resolve().parent.parent / "data" / "dialogue" / "conversations.yaml"
CONVERSATIONS: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))[
    "conversations"
]
# The questions as the script names them -> the kind of question left open.
ASKS = {
    "none": None,
    "method_choice": "choice",
    "decision_keep": "decision_proposal",
    "project_name": "project_name",
    "interview": "interview",
    "delete_confirm": "confirm_delete",
    "project_choice": "project_choice",
    "decision_change_confirm": "decision_change",
}


@pytest.mark.parametrize("script", CONVERSATIONS, ids=[c["id"] for c in CONVERSATIONS])
def test_a_scripted_conversation(talk: Conversation, script: dict[str, Any]) -> None:
    setup = script.get("setup") or {}
    _set_up(talk, setup)
    for number, step in enumerate(script["turns"], 1):
        if setup.get("model"):
            _model_answers(talk, step.get("model_proposes") or [], number)
        said = talk.say(step["say"])  # a refusal (an error) is a reply too: its line is shown
        where = f"turn {number} {step['say']!r} of {script['id']}: reply was {said.reply!r}"
        _check(talk, said, step["expect"], where)


def _set_up(talk: Conversation, setup: dict[str, Any]) -> None:
    memory = talk.memory
    for name in reversed(setup.get("projects") or []):  # the first one ends up active
        memory.switch_project(memory.create_project(name).id)
    active = memory.active_project()
    for decision in setup.get("decisions") or []:
        assert active is not None, "decisions need a project"
        memory.add_decision(active.id, decision, "")


def _model_answers(talk: Conversation, proposes: list[str], number: int) -> None:
    """The fake models' answer for this turn (Claude answers; Gemini and Codex are installed
    for "use gemini from now on"): a short plan, with these decisions proposed."""
    tags = " ".join(f"<decision>{d}</decision>" for d in proposes)
    answer = talk.recording(f"Here is the plan. {tags} Done.", name=f"turn-{number}")
    if number == 1:
        talk.use("claude", answer)
        talk.install("gemini")
        talk.install("codex")
    else:
        talk.monkeypatch.setenv("FAKE_RECORDING", str(answer))


def _check(talk: Conversation, said: Said, expect: dict[str, Any], where: str) -> None:
    state = talk.state()
    left_open = state.pending.kind if state.pending is not None else None
    assert left_open == ASKS[expect["asks"]], f"question left open: {left_open!r} at {where}"
    finished = said.finished
    answered = finished.task if finished is not None else None
    if "method" in expect:
        assert answered == expect["method"], f"answered with {answered!r} at {where}"
    if "not_method" in expect:
        assert answered != expect["not_method"], f"answered with {answered!r} at {where}"
    if "kind" in expect:
        kinds = _kinds(said, left_open)
        assert expect["kind"] in kinds, f"kind {'/'.join(kinds)} at {where}"
    if "language" in expect:
        spoken = finished.language if finished is not None else state.language
        assert spoken == expect["language"], f"language {spoken!r} at {where}"
    _check_memory(talk, expect, where)
    heard = fold(said.reply)
    for wanted in expect.get("reply_has") or []:
        assert fold(str(wanted)) in heard, f"{wanted!r} not in the reply at {where}"
    for unwanted in expect.get("reply_lacks") or []:
        assert fold(str(unwanted)) not in heard, f"{unwanted!r} in the reply at {where}"


def _check_memory(talk: Conversation, expect: dict[str, Any], where: str) -> None:
    if "project" in expect:
        active = talk.memory.active_project()
        name = active.name if active else None
        assert name == expect["project"], f"active project {name!r} at {where}"
    if "projects" in expect:
        assert talk.project_names() == sorted(expect["projects"]), f"projects at {where}"
    if "decisions" in expect:
        stored = [fold(d) for d in talk.decisions()]
        wanted = [fold(str(d)) for d in expect["decisions"]]
        assert len(stored) == len(wanted), f"decisions {talk.decisions()} at {where}"
        for text, part in zip(stored, wanted, strict=True):
            assert part in text, f"decisions {talk.decisions()} at {where}"


def _kinds(said: Said, left_open: str | None) -> tuple[str, ...]:
    """What the turn was: a design answer; or an action (something done or shown), which is
    also a question when it left one open ("new project": "what will it be called?")."""
    finished = said.finished
    if finished is not None and finished.task:
        return ("answer",)
    return ("action", "question") if left_open is not None else ("action",)
