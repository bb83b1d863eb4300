"""A close call between "goes on from the last answer" and "asks for something new" goes to
the fast model when a real AI CLI is active (understanding/model_follow_up.py): one strict
JSON reply, a short timeout, and on anything else the weighed reading stands.

After an interview guide, "adaptada a cooperativas de Perú" is such a close call: nothing
names another method, but nothing says plainly that the guide is what is adapted
("adáptala", with the pronoun joined, says it: understanding/enclitics.py). The fake
`claude` (a real executable replaying recorded stream-json runs in turn) is the model.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from conversations.talk import Conversation
from fixtures.fakes import alive, bundled_adapters, claude_run, install_fake, pids_in

from design_agent.core.events import TaskMatched, WorkDone, Working
from design_agent.core.settings import Settings
from design_agent.knowledge.registry import Catalogue
from design_agent.understanding.model_follow_up import (
    FollowUpVerdict,
    parse_verdict,
    read_with_model,
)

PLAN = "guía de entrevistas para productores de café en Colombia"
CLOSE_CALL = "adaptada a cooperativas de Perú"
CLEARLY_NEW = "ahora necesito un plan de test de usabilidad para la app de citas"
GOES_ON = '{"reading": "follow_up", "reason": "the guide adapted"}'
IS_NEW = '{"reading": "new_request", "reason": "something else"}'


@pytest.fixture
def talk(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled_catalogue):  # type: ignore[no-untyped-def]
    conversation = Conversation(home, tmp_path, monkeypatch, bundled_catalogue)
    yield conversation
    conversation.close()


def claude_answers(talk: Conversation, tmp_path: Path, *replies: str) -> Path:
    """Claude active, answering `replies` in turn (the last repeats); returns the counter."""
    runs = [claude_run(tmp_path / f"run-{i}.json", reply) for i, reply in enumerate(replies)]
    talk.use("claude", runs[0], sequence=os.pathsep.join(str(r) for r in runs))
    return Path(str(runs[0]) + ".count")


def matched(said) -> TaskMatched:  # type: ignore[no-untyped-def]
    return next(e for e in said.events if isinstance(e, TaskMatched))


def test_a_close_call_is_read_by_the_model_as_going_on(talk: Conversation, tmp_path: Path):
    talk("crea el proyecto Citas", reply="Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    runs = claude_answers(talk, tmp_path, "# Guía de entrevistas", GOES_ON, "# Guía para Perú")
    talk(PLAN, reply="Guía de entrevistas", pending=None, task="user_interviews")
    said = talk(CLOSE_CALL, reply="Guía para Perú", pending=None, task="user_interviews")
    assert [e.work for e in said.events if isinstance(e, Working)] == ["weighing_follow_up"]
    assert [e.status for e in said.events if isinstance(e, WorkDone)] == ["done"]
    assert "continuación" in matched(said).reason
    assert runs.read_text() == "3"  # the answer, the one side call, the second answer


def test_the_model_may_read_it_as_something_new(talk: Conversation, tmp_path: Path):
    talk("crea el proyecto Citas", reply="Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    claude_answers(talk, tmp_path, "# Guía de entrevistas", IS_NEW, "# Encuesta")
    talk(PLAN, reply="Guía de entrevistas", pending=None, task="user_interviews")
    said = talk(CLOSE_CALL, reply="Responde con un número", pending="choice")
    assert "Revisión de localización" in said.reply  # asked anew, not answered as the guide


def test_a_reply_that_is_not_the_object_leaves_the_weighed_reading(
    talk: Conversation, tmp_path: Path
):
    talk("crea el proyecto Citas", reply="Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    claude_answers(talk, tmp_path, "# Guía de entrevistas", "Sure! It is a follow-up.", "# Otra")
    talk(PLAN, reply="Guía de entrevistas", pending=None, task="user_interviews")
    said = talk(CLOSE_CALL, reply="Responde con un número", pending="choice")
    assert [e.work for e in said.events if isinstance(e, Working)][:1] == ["weighing_follow_up"]
    assert not [e for e in said.events if isinstance(e, TaskMatched)]  # the weighed reading


def test_a_clear_reading_asks_no_model(talk: Conversation, tmp_path: Path):
    talk("crea el proyecto Citas", reply="Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    runs = claude_answers(talk, tmp_path, "# Guía de entrevistas", "# Plan de test")
    talk(PLAN, reply="Guía de entrevistas", pending=None, task="user_interviews")
    said = talk(CLEARLY_NEW, reply="Plan de test", pending=None, task="usability_test_plan")
    assert not [e for e in said.events if isinstance(e, Working)]
    assert runs.read_text() == "2"


def test_offline_the_weighed_reading_decides_without_a_wait(talk: Conversation):
    talk("crea el proyecto Citas", reply="Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    talk(PLAN, reply="", pending=None, task="user_interviews")
    said = talk(CLOSE_CALL, reply="Responde con un número", pending="choice")
    assert not [e for e in said.events if isinstance(e, Working)]


# -- the call itself -------------------------------------------------------------------------


@pytest.fixture
def claude_replying(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def make(text: str, mode: str = "replay") -> Settings:
        path = install_fake(tmp_path / "bin", "claude")
        monkeypatch.setenv("FAKE_RECORDING", str(claude_run(tmp_path / "reply.json", text)))
        monkeypatch.setenv("FAKE_MODE", mode)
        monkeypatch.setenv("FAKE_LOG", str(tmp_path / "fake-log.json"))
        monkeypatch.setenv("FAKE_PIDS", str(tmp_path / "pids"))
        return Settings(bins={"claude": str(path)})

    return make


def read(catalogue: Catalogue, settings: Settings, timeout: float = 10.0):  # type: ignore[no-untyped-def]
    task = catalogue.task("user_interviews")
    spec = bundled_adapters()["claude"]
    return read_with_model(CLOSE_CALL, task, PLAN, spec, settings, None, "es", timeout)


def test_the_model_is_asked_on_the_fast_tier_with_both_messages(
    bundled_catalogue: Catalogue, claude_replying, tmp_path: Path
):
    verdict = read(bundled_catalogue, claude_replying(GOES_ON))
    assert verdict == FollowUpVerdict(reading="follow_up", reason="the guide adapted")
    sent = json.loads((tmp_path / "fake-log.json").read_text())
    asked = sent["stdin"] or " ".join(sent["argv"])
    assert PLAN in asked and CLOSE_CALL in asked and "user_interviews" in asked
    fast = bundled_adapters()["claude"].models.fast
    assert f"--model {fast}" in " ".join(sent["argv"])  # the fast tier's model


def test_a_hanging_model_is_stopped_at_the_timeout(
    bundled_catalogue: Catalogue, claude_replying, tmp_path: Path
):
    settings = claude_replying(GOES_ON, mode="hang_before")
    started = time.monotonic()
    assert read(bundled_catalogue, settings, timeout=1.0) is None
    assert time.monotonic() - started < 5
    deadline = time.monotonic() + 3
    while any(alive(p) for p in pids_in(tmp_path / "pids")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in pids_in(tmp_path / "pids") if alive(p)]


@pytest.mark.parametrize(
    ("text", "reading"),
    [
        (GOES_ON, "follow_up"),
        ("```json\n" + IS_NEW + "\n```", "new_request"),
        ('{"reading": "maybe"}', None),
        ('{"reading": null}', None),
        ("[1, 2]", None),
        ("it goes on", None),
        ('{"reading": "follow_up"', None),
    ],
)
def test_only_one_known_reading_in_one_object_counts(text: str, reading: str | None):
    verdict = parse_verdict(text)
    assert (verdict.reading if verdict else None) == reading
