"""Users manage projects, providers, files and memory by saying so, in English or Spanish."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from design_agent.actions import ActionEnvelope
from design_agent.intents import detect_action

PROVIDERS = ["claude", "gemini", "codex", "offline", "llm", "ollama"]

CASES = [
    (
        "I'm starting a new project for a mobile checkout redesign",
        "projects.create",
        {"name": "Mobile checkout redesign"},
    ),
    (
        "empiezo un proyecto nuevo para el rediseño del checkout móvil",
        "projects.create",
        {"name": "Rediseño del checkout móvil"},
    ),
    (
        "Create a project called Enterprise Dashboard",
        "projects.create",
        {"name": "Enterprise Dashboard"},
    ),
    ("let's start a new project", "projects.create", {"name": None}),
    ("switch to Enterprise Dashboard", "projects.switch", {"name": "Enterprise Dashboard"}),
    (
        "cambia al proyecto Enterprise Dashboard",
        "projects.switch",
        {"name": "Enterprise Dashboard"},
    ),
    ("go back to Mobile Checkout", "projects.switch", {"name": "Mobile Checkout"}),
    ("what projects do I have?", "projects.list", {}),
    ("¿qué proyectos tengo?", "projects.list", {}),
    ("delete the Marketing Website project", "projects.delete", {"name": "Marketing Website"}),
    ("borra el proyecto Marketing Website", "projects.delete", {"name": "Marketing Website"}),
    (
        "rename this project to Checkout 2.0",
        "projects.rename",
        {"old": None, "new": "Checkout 2.0"},
    ),
    ("use Gemini from now on", "providers.use", {"name": "gemini"}),
    ("cambia a Claude", "providers.use", {"name": "claude"}),
    ("switch to codex", "providers.use", {"name": "codex"}),
    ("why did we go with moderated testing?", "memory.recall", {}),
    ("¿por qué decidimos hacer pruebas moderadas?", "memory.recall", {}),
    ("what did we decide about the navigation?", "memory.recall", {}),
    ("did I solve something similar in another project?", "memory.search", {"all_projects": True}),
    ("¿resolví algo parecido en otro proyecto?", "memory.search", {"all_projects": True}),
    ("search for card sorting", "memory.search", {"all_projects": False}),
    ("here is the brief: ./brief.pdf", "files.add", {"path": "./brief.pdf", "file_type": "brief"}),
    ("aquí está el brief: docs/brief.md", "files.add", {"path": "docs/brief.md"}),
]


@pytest.mark.parametrize(("text", "action", "fields"), CASES)
def test_meta_requests_become_actions(text, action, fields):
    envelope = detect_action(text, PROVIDERS)
    assert envelope is not None and envelope.name == action
    for key, value in fields.items():
        assert envelope.input.get(key) == value


@pytest.mark.parametrize(
    "text",
    [
        "I need a journey map for our onboarding",
        "help me plan a usability test for the new checkout",
        "remove the empty state from the dashboard",
        "necesito un mapa de viaje del cliente",
        "¿cómo priorizo el backlog?",
        "write user stories for the project settings page",
    ],
)
def test_design_requests_are_not_meta_requests(text):
    assert detect_action(text, PROVIDERS) is None


def test_unknown_provider_name_is_not_a_provider_switch():
    assert detect_action("use chatgpt-web from now on", PROVIDERS) is None


def test_envelopes_are_strict():
    with pytest.raises(ValidationError):
        ActionEnvelope(module="projects", method="drop_database", input={})
    with pytest.raises(ValidationError):
        ActionEnvelope(module="projects", method="switch", input={"name": "x", "sql": "DROP"})
    with pytest.raises(ValidationError):
        ActionEnvelope(module="shell", method="run", input={"cmd": "rm -rf /"})
    with pytest.raises(ValidationError):
        ActionEnvelope(module="projects", method="list", input={}, extra="x")


def test_a_pasted_multi_line_message_is_read_as_one_line():
    envelope = detect_action("create a project called\nPaste Test", PROVIDERS)
    assert envelope is not None and envelope.input["name"] == "Paste Test"
