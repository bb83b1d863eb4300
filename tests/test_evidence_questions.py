"""A question about what was said ("what did participants say about booking?", "¿qué
dijeron los participantes sobre las citas?") is answered from the project's evidence: read
from the question's shape (evidence/question.py) and taken as one only where the project
has evidence, it goes ahead at HIGH to the research synthesis, whose quotes are verified.

Measured on tests/data/evidence_questions.yaml (written before the reading, English and
Spanish, questions that are and are not about the evidence): 30 of 30 evidence questions
read as such, 0 of 30 other messages (among them affinity maps and personas "of what
participants said", plans of what to ask, questions about the conversation). The list was
then used to tune the reading, so it is a dev set; the routing and follow-up sets (5,133
messages, none an evidence question) are the check of false alarms: none reads as one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from fixtures.fakes import invoke

from design_agent.evidence.question import asks_evidence

DATA = Path(__file__).parent / "data"
TRANSCRIPTS = DATA / "evidence" / "transcripts"


def cases(name: str = "evidence_questions.yaml") -> list[dict[str, Any]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return list(yaml.safe_load(text)["cases"])


def other_messages() -> list[str]:
    """Every message of the routing and follow-up sets: requests for a method, follow-ups
    and messages that ask for none; not one asks what the evidence says."""
    found = []
    for path in sorted(DATA.glob("routing_*.yaml")) + sorted(DATA.glob("followups_*.yaml")):
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        items = loaded["cases"] if isinstance(loaded, dict) else loaded
        found += [c.get("text") or c.get("message") or "" for c in items]
    return [t for t in found if t]


def test_the_list_is_bilingual_and_has_both_kinds():
    found = cases()
    assert {c["lang"] for c in found} == {"en", "es"}
    assert sum(c["evidence"] for c in found) >= 30 and sum(not c["evidence"] for c in found) >= 30


def test_evidence_questions_are_read_as_such_and_other_requests_are_not():
    found = cases()
    hits = [c["text"] for c in found if c["evidence"] and asks_evidence(c["text"])]
    missed = [c["text"] for c in found if c["evidence"] and not asks_evidence(c["text"])]
    alarms = [c["text"] for c in found if not c["evidence"] and asks_evidence(c["text"])]
    assert len(hits) / (len(hits) + len(missed)) >= 0.95, missed
    assert not alarms


def test_on_a_list_it_never_saw_it_reads_most_and_never_takes_another_request_for_one():
    """tests/data/evidence_questions_heldout.yaml, written by another hand from the issue's
    words only and evaluated once: 32 of 40 read (English 14 of 20: "bring up", a lead-in,
    typos), 0 of 40 false alarms. Its misses were then read for their classes (a lead-in
    before the question, a verb of saying in two words, "the customers we interviewed", a
    hyphenated feature name, the imperfect tense, hurried openers): 39 of 40, 0 of 40; a
    dev list since."""
    found = cases("evidence_questions_heldout.yaml")
    hits = [c["text"] for c in found if c["evidence"] and asks_evidence(c["text"])]
    alarms = [c["text"] for c in found if not c["evidence"] and asks_evidence(c["text"])]
    assert len(hits) >= 38
    assert not alarms


def test_no_request_of_the_routing_sets_reads_as_an_evidence_question():
    messages = other_messages()
    assert len(messages) > 5000
    assert [m for m in messages if asks_evidence(m)] == []


def ask(home: Path, message: str) -> dict[str, Any]:
    done = invoke(home, "ask", "--json", message)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


@pytest.mark.parametrize(
    "message",
    [
        "what did participants say about booking?",
        "what came up about pricing in the interviews?",
        "¿qué dijeron los participantes sobre las citas?",
        "qué comentaron los usuarios de las citas",
    ],
)
def test_a_question_about_the_evidence_is_answered_from_it(home, monkeypatch, message):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Notes only")
    before = ask(home, message)  # a project with no evidence: the matcher's reading
    assert before["task"] != "research_synthesis" or before["band"] != "HIGH"
    invoke(home, "projects", "create", "Booking")
    added = invoke(home, "evidence", "add", str(TRANSCRIPTS / "01_zoom_en.vtt"))
    assert added.returncode == 0, added.stderr
    answer = ask(home, message)
    assert (answer["task"], answer["band"]) == ("research_synthesis", "HIGH")
    assert "Draft groups (offline)" in answer["text"] or "Grupos" in answer["text"]


def test_a_named_method_of_what_participants_said_keeps_its_method(home, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Booking")
    invoke(home, "evidence", "add", str(TRANSCRIPTS / "01_zoom_en.vtt"))
    for message, task in [
        ("make an affinity map of what participants said about booking", "affinity_diagramming"),
        ("haz un mapa de afinidad de lo que dijeron los participantes sobre reservar",
         "affinity_diagramming"),
        ("build personas from what participants said", "personas"),
    ]:  # fmt: skip
        answer = ask(home, message)
        assert (answer["task"], answer["band"]) == (task, "HIGH"), message
