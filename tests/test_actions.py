"""People manage their projects, decisions and provider by talking: the action handlers.

Each story runs the handlers in-process, as the pipeline does, on a real temp
home with a real SQLite file: an ActionEnvelope in, an ActionResult (or a
DesignAgentError with its exit code) out, and the database checked after.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from design_agent.actions import ActionContext, ActionEnvelope, answer_pending, run_action
from design_agent.actions.base import ActionResult
from design_agent.cli.context import AppContext
from design_agent.core.errors import (
    DesignAgentError,
    ExitCode,
    NotFoundError,
    ProviderNotInstalledError,
    UsageError,
)
from design_agent.memory import Memory
from design_agent.turn.session import Services
from design_agent.understanding.conversation import (
    NO_PROJECT,
    ConfirmDelete,
    ConfirmSwitch,
    DecisionProposal,
    Interview,
    Pending,
    ProjectChoice,
    ProjectNameNeeded,
    ProposedDecision,
    load_state,
)

# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def app(home: Path) -> Iterator[AppContext]:
    context = AppContext(str(home))
    yield context
    context.close()


@pytest.fixture
def services(app: AppContext, tmp_path: Path) -> Services:
    """The home's services; no AI CLI on PATH, so which provider is installed is up to a test."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    return Services(app.home, app.catalogue, app.memory, {}, environ={"PATH": str(empty)})


def context(services: Services, language: str = "en", message: str = "") -> ActionContext:
    project = services.memory.active_project()
    state = load_state(services.memory, project.id if project else None)
    return ActionContext(services, language, project, state, message)


def act(services: Services, action: str, language: str = "en", /, **data: Any) -> ActionResult:
    module, method = action.split(".")
    envelope = ActionEnvelope(module=module, method=method, input=data)  # type: ignore[arg-type]
    return run_action(envelope, context(services, language))


def reply(
    services: Services, text: str, pending: Pending, language: str = "en"
) -> ActionResult | None:
    return answer_pending(text, pending, context(services, language, text))


def project_with(memory: Memory, name: str, turns: int = 0, decisions: int = 0) -> str:
    project = memory.switch_project(memory.create_project(name).id)
    for n in range(turns):
        memory.add_turn(project.id, "user", f"message {n} about {name}")
    for n in range(decisions):
        memory.add_decision(project.id, f"decision {n}", "because")
    return project.id


# -- creating a project and its interview -------------------------------------------------


def test_a_new_project_without_a_name_asks_for_one_then_interviews(services: Services):
    asked = act(services, "projects.create", description="mobile checkout redesign")
    assert isinstance(asked.pending, ProjectNameNeeded)
    assert asked.done.asks == "What should the new project be called?"
    assert services.memory.list_projects() == []

    created = reply(services, '"Ledgerly"', asked.pending)
    assert created is not None and created.project_id == "ledgerly"
    assert created.done.message.startswith("Created and switched to project 'Ledgerly'.")
    assert "Who are the users of Ledgerly?" in created.done.message
    assert isinstance(created.pending, Interview) and created.pending.index == 0
    memory = services.memory
    assert memory.active_project().name == "Ledgerly"  # type: ignore[union-attr]
    assert memory.metadata("ledgerly")["description"] == "mobile checkout redesign"

    step = reply(services, "small-business owners", created.pending)
    assert step is not None and isinstance(step.pending, Interview) and step.pending.index == 1
    assert "What problem" in step.done.message
    step = reply(services, "skip", step.pending)
    assert step is not None and isinstance(step.pending, Interview)
    done = reply(services, "two developers, launch in May", step.pending)
    assert done is not None and done.pending is None
    assert "saved that as the project's context" in done.done.message
    assert memory.metadata("ledgerly") == {
        "description": "mobile checkout redesign",
        "users": "small-business owners",
        "constraints": "two developers, launch in May",
    }


def test_the_interview_in_spanish_and_a_question_is_not_an_answer(services: Services):
    created = act(services, "projects.create", "es", name="Tienda Café")
    assert created.done.message.startswith("He creado el proyecto 'Tienda Café'")
    assert "¿Quiénes son los usuarios de Tienda Café?" in created.done.message
    interview = created.pending
    assert isinstance(interview, Interview) and interview.language == "es"
    assert reply(services, "¿qué puedes hacer?", interview, "es") is None
    step = reply(services, "saltar", interview, "es")
    assert step is not None and "¿Qué problema" in step.done.message
    assert services.memory.metadata(interview.project_id) == {}


@pytest.mark.parametrize(
    ("answer", "name"),
    [
        ("Ledgerly", "Ledgerly"),
        ("  'Acme Portal'  ", "Acme Portal"),
        ("call it Northwind.", "Northwind"),
        ("se llama «Órbita»", "Órbita"),
    ],
)
def test_the_reply_to_what_should_it_be_called_is_the_name(
    services: Services, answer: str, name: str
):
    result = reply(services, answer, ProjectNameNeeded())
    assert result is not None
    assert services.memory.active_project().name == name  # type: ignore[union-attr]


def test_skipping_the_name_names_the_project_after_its_description(services: Services):
    result = reply(services, "skip", ProjectNameNeeded(description="a mobile checkout redesign"))
    assert result is not None and result.project_id == "mobile-checkout-redesign"
    assert services.memory.active_project().name == "Mobile checkout redesign"  # type: ignore[union-attr]
    assert reply(services, "saltar", ProjectNameNeeded()) is None


@pytest.mark.parametrize(
    "answer",
    [
        "what methods do you know?",
        "¿qué proyectos tengo?",
        "I am not sure yet, I think it is mostly about the checkout flow for shops",
    ],
)
def test_a_reply_that_is_not_a_name_is_not_taken_as_one(services: Services, answer: str):
    assert reply(services, answer, ProjectNameNeeded()) is None
    assert services.memory.list_projects() == []


@pytest.mark.parametrize("answer", ["no", "cancel", "olvídalo"])
def test_no_or_cancel_to_the_name_creates_nothing_and_says_so(services: Services, answer: str):
    result = reply(services, answer, ProjectNameNeeded())
    assert result is not None and result.pending is None
    assert result.shown().message in ("OK, no new project for now.", "OK, dropped.")
    assert services.memory.list_projects() == []


def test_creating_a_project_that_exists_says_how_to_switch_to_it(services: Services):
    project_with(services.memory, "Checkout")
    with pytest.raises(UsageError) as error:
        act(services, "projects.create", "es", name="checkout")
    assert error.value.exit_code == ExitCode.USAGE
    assert error.value.message.startswith("Ya existe un proyecto llamado 'Checkout'")


# -- switching, listing, renaming ---------------------------------------------------------


def test_switching_by_exact_name_says_where_you_left_off(services: Services):
    memory = services.memory
    checkout = project_with(memory, "Mobile Checkout")
    memory.add_turn(checkout, "user", "map the journey", task_id="journey_mapping")
    memory.add_decision(checkout, "Guest checkout", "sign-up loses buyers")
    project_with(memory, "Ledgerly")
    result = act(services, "projects.switch", name="mobile checkout")
    assert result.project_id == checkout and result.pending is None
    assert memory.active_project().id == checkout  # type: ignore[union-attr]
    assert result.done.message.startswith("Switched to 'Mobile Checkout'. Last conversation ")
    assert "about " in result.done.message and "1 decision(s) recorded" in result.done.message
    spanish = act(services, "projects.switch", "es", name="Ledgerly")
    assert spanish.done.message == "Ahora estás en 'Ledgerly'. Aún no hay nada registrado."


def test_a_word_of_one_name_switches_to_it_and_two_are_a_numbered_choice(services: Services):
    memory = services.memory
    project_with(memory, "Acme Admin Portal")
    project_with(memory, "General")
    switched = act(services, "projects.switch", name="admin")
    assert switched.pending is None and switched.project_id == "acme-admin-portal"
    project_with(memory, "Acme Mobile")
    asked = act(services, "projects.switch", name="acme")
    assert isinstance(asked.pending, ProjectChoice)
    assert asked.pending.names == ["Acme Admin Portal", "Acme Mobile"]
    assert asked.shown().message.endswith("1. Acme Admin Portal\n  2. Acme Mobile")
    for answer in ("the second one", "2", "the mobile one", "la segunda"):
        chosen = reply(services, answer, asked.pending)
        assert chosen is not None and chosen.project_id == "acme-mobile", answer


def test_the_start_of_a_name_asks_did_you_mean_and_yes_switches(services: Services):
    memory = services.memory
    project_with(memory, "Acme Admin Portal")
    project_with(memory, "General")
    asked = act(services, "projects.switch", name="acm")
    assert isinstance(asked.pending, ConfirmSwitch)
    assert asked.pending.name == "Acme Admin Portal" and asked.project_id is None
    assert asked.done.needs_confirmation
    assert "Did you mean 'Acme Admin Portal'? (yes/no)" in asked.done.message
    assert memory.active_project().name == "General"  # type: ignore[union-attr]

    assert reply(services, "what about the budget", asked.pending) is None
    kept = reply(services, "no", asked.pending)
    assert kept is not None and kept.done.message == "OK, staying in 'General'."
    switched = reply(services, "¡Sí!", asked.pending, "es")
    assert switched is not None and switched.project_id == "acme-admin-portal"
    assert memory.active_project().name == "Acme Admin Portal"  # type: ignore[union-attr]


def test_switching_to_a_project_that_does_not_exist_lists_the_projects(services: Services):
    with pytest.raises(NotFoundError) as nothing:
        act(services, "projects.switch", name="Ledgerly")
    assert "You have no projects yet" in nothing.value.message
    project_with(services.memory, "General")
    project_with(services.memory, "Checkout")
    with pytest.raises(NotFoundError) as error:
        act(services, "projects.switch", "es", name="Ledgerly")
    assert error.value.exit_code == ExitCode.NOT_FOUND == 6
    assert error.value.message == (
        "Ningún proyecto coincide con 'Ledgerly'. Tus proyectos: Checkout, General."
    )


def test_listing_projects_stars_the_active_one(services: Services):
    assert act(services, "projects.list").done.message.startswith("You have no projects yet")
    project_with(services.memory, "General", turns=2)
    project_with(services.memory, "Checkout", decisions=1)
    listed = act(services, "projects.list").done
    assert listed.message.splitlines() == [
        "Your projects:",
        "* Checkout (0 turns, 1 decisions)",
        "- General (2 turns, 0 decisions)",
    ]
    assert (
        "Tus proyectos:\n* Checkout (0 turnos" in act(services, "projects.list", "es").done.message
    )
    assert [p["name"] for p in listed.data["projects"]] == ["Checkout", "General"]


def test_renaming_the_active_project_or_one_by_name(services: Services):
    project_with(services.memory, "Checkout")
    project_with(services.memory, "Ledgerly")
    renamed = act(services, "projects.rename", new="Ledgerly Pro")
    assert renamed.done.message == "Renamed 'Ledgerly' to 'Ledgerly Pro'."
    spanish = act(services, "projects.rename", "es", old="checkout", new="Checkout 2")
    assert spanish.done.message == "He renombrado 'Checkout' a 'Checkout 2'."
    with pytest.raises(NotFoundError) as guess:
        act(services, "projects.rename", old="chekout 2", new="X")
    assert "did you mean 'Checkout 2'?" in guess.value.message


# -- the one fuzzy project lookup ---------------------------------------------------------

PROJECTS = ["General", "Acme Admin Portal", "B2B invoicing", "Café Órbita", "Mobile Checkout"]


@pytest.mark.parametrize(
    ("typed", "exact", "suggestion"),
    [
        ("general", "General", None),
        ("MOBILE CHECKOUT", "Mobile Checkout", None),
        ("mobile-checkout", "Mobile Checkout", None),  # the id
        ("cafe orbita", "Café Órbita", None),  # accents ignored
        ("the acme project", None, "Acme Admin Portal"),
        ("acme", None, "Acme Admin Portal"),  # the name starts with it
        ("B2B", None, "B2B invoicing"),  # whole words inside the name
        ("portal", None, "Acme Admin Portal"),
        ("orbita", None, "Café Órbita"),
        ("chekout", None, "Mobile Checkout"),  # a typo
        ("genral", None, "General"),
        ("ledgerly", None, None),  # never "General"
        ("ledger", None, None),
        ("ge", None, None),  # too little to guess from
        ("invoices 2020", None, None),
    ],
)
def test_the_project_lookup_finds_names_parts_and_typos(
    services: Services, typed: str, exact: str | None, suggestion: str | None
):
    for name in PROJECTS:
        services.memory.create_project(name)
    found = services.memory.lookup_project(typed)
    assert (found.exact.name if found.exact else None) == exact
    assert (found.suggestion.name if found.suggestion else None) == suggestion
    assert sorted(found.names) == sorted(PROJECTS)


def test_a_renamed_project_is_still_found_by_its_id(services: Services):
    memory = services.memory
    memory.create_project("Mobile Checkout")
    memory.rename_project("mobile-checkout", "Checkout 2.0")
    assert memory.lookup_project("mobile-checkout").exact.name == "Checkout 2.0"  # type: ignore[union-attr]
    assert memory.lookup_project("checkout 2.0").exact is not None


# -- deleting a project -------------------------------------------------------------------


def test_deleting_the_active_project_shows_the_counts_and_needs_yes(services: Services):
    memory = services.memory
    project_with(memory, "General")
    doomed = project_with(memory, "Marketing Website", turns=2, decisions=1)
    asked = act(services, "projects.delete")
    assert isinstance(asked.pending, ConfirmDelete)
    assert (asked.pending.turns, asked.pending.files, asked.pending.decisions) == (2, 0, 1)
    assert asked.done.message.startswith(
        "Delete project 'Marketing Website'? This removes 2 turns, 0 files and 1 decisions"
    )
    assert asked.done.needs_confirmation and asked.done.asks == asked.done.message
    kept = reply(services, "no", asked.pending)
    assert kept is not None and kept.done.message == "OK, nothing was deleted."
    assert reply(services, "plan a usability test", asked.pending) is None
    deleted = reply(services, "yes", asked.pending)
    assert deleted is not None and deleted.project_id == NO_PROJECT
    assert deleted.done.message == "Deleted 'Marketing Website' (2 turns, 0 files, 1 decisions)."
    assert [p.name for p in memory.list_projects()] == ["General"]
    assert memory.active_project() is None
    assert doomed not in {p.id for p in memory.list_projects()}


def test_a_project_that_changed_after_the_question_is_not_deleted(services: Services):
    memory = services.memory
    project_id = project_with(memory, "Checkout", turns=1)
    asked = act(services, "projects.delete", "es", name="checkout")
    assert asked.done.message.startswith("¿Borrar el proyecto 'Checkout'? Se eliminarán 1 turnos")
    memory.add_turn(project_id, "user", "one more message, after the question")
    assert asked.pending is not None
    with pytest.raises(UsageError) as error:
        reply(services, "sí", asked.pending, "es")
    assert error.value.exit_code == ExitCode.USAGE
    assert "ha cambiado desde que lo confirmaste (ahora tiene 2 turnos" in error.value.message
    assert memory.get_project(project_id).name == "Checkout"


def test_deleting_by_part_of_the_name_names_the_project_in_the_question(services: Services):
    project_with(services.memory, "Acme Admin Portal")
    project_with(services.memory, "General")
    asked = act(services, "projects.delete", name="acme")
    assert isinstance(asked.pending, ConfirmDelete)
    assert asked.pending.project_id == "acme-admin-portal"
    assert "Delete project 'Acme Admin Portal'?" in asked.done.message
    deleted = reply(services, "yes", asked.pending)
    assert deleted is not None and deleted.project_id is None  # "General" stays active


def test_deleting_a_project_that_does_not_exist_lists_the_projects(services: Services):
    project_with(services.memory, "Checkout")
    with pytest.raises(NotFoundError) as error:
        act(services, "projects.delete", name="Nope")
    assert error.value.exit_code == 6
    assert error.value.message == "No project matches 'Nope'. Your projects: Checkout."


def test_there_is_nothing_to_delete_without_an_active_project(services: Services):
    with pytest.raises(UsageError) as error:
        act(services, "projects.delete", "es")
    assert error.value.message.startswith("Aún no hay ningún proyecto activo")


# -- providers ----------------------------------------------------------------------------


def fake_binary(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_a_provider_that_is_not_installed_keeps_the_current_one(services: Services):
    settings_file = services.home.settings_file
    act(services, "providers.use", name="offline")
    assert "provider: offline" in settings_file.read_text(encoding="utf-8")
    with pytest.raises(ProviderNotInstalledError) as error:
        act(services, "providers.use", name="Gemini")
    assert error.value.exit_code == ExitCode.PROVIDER_UNAVAILABLE == 4
    assert error.value.message == (
        "Gemini CLI is not installed (npm install -g @google/gemini-cli); "
        "still using Offline (built-in)."
    )
    assert "provider: offline" in settings_file.read_text(encoding="utf-8")
    assert services.settings.values.provider == "offline"
    with pytest.raises(ProviderNotInstalledError) as spanish:
        act(services, "providers.use", "es", name="gemini")
    assert "no está instalado" in spanish.value.message and "sigo usando" in spanish.value.message


def test_an_installed_provider_is_used_from_now_on(services: Services, tmp_path: Path):
    gemini = fake_binary(tmp_path / "bin", "gemini")
    services.environ = {"PATH": str(gemini.parent)}
    result = act(services, "providers.use", name="gemini")
    assert result.done.message == "From now on answers come from Gemini CLI; your history is kept."
    assert result.done.data == {"provider": "gemini"}
    assert services.settings.values.provider == "gemini"
    assert "provider: gemini" in services.home.settings_file.read_text(encoding="utf-8")


def test_the_environment_variable_still_wins_next_time_and_we_say_so(services: Services):
    services.environ = {**(services.environ or {}), "DESIGN_AGENT_PROVIDER": "claude"}
    result = act(services, "providers.use", "es", name="offline")
    assert result.done.message.startswith("A partir de ahora responde ")
    assert "DESIGN_AGENT_PROVIDER=claude está definida en tu entorno" in result.done.message


def test_an_unknown_provider_lists_the_choices(services: Services):
    with pytest.raises(UsageError) as error:
        act(services, "providers.use", name="skynet")
    assert error.value.message.startswith("I don't know a provider called 'skynet'; choose one")
    assert "gemini" in error.value.message
    with pytest.raises(UsageError) as spanish:
        act(services, "providers.use", "es", name="skynet")
    assert spanish.value.message.startswith("No conozco ningún proveedor 'skynet'")


# -- files --------------------------------------------------------------------------------


def test_adding_a_brief_whose_path_has_spaces(services: Services, tmp_path: Path):
    project_with(services.memory, "Checkout")
    brief = tmp_path / "My Docs" / "brief v2.md"
    brief.parent.mkdir()
    brief.write_text("# Checkout brief\n\nBuyers abandon at sign-up.\n", encoding="utf-8")
    added = act(services, "files.add", path=f'"{brief}"')
    assert added.done.message.startswith("Added brief v2.md as a brief (")
    assert added.done.message.endswith("\n> Checkout brief")
    again = act(services, "files.add", "es", path=str(brief), file_type="research")
    assert again.done.message == (
        "brief v2.md ya está en este proyecto (mismo contenido); no he añadido nada."
    )
    assert [f.filename for f in services.memory.list_files("checkout")] == ["brief v2.md"]


def test_a_folder_a_missing_file_and_a_binary_are_refused_by_path(
    services: Services, tmp_path: Path
):
    project_with(services.memory, "Checkout")
    with pytest.raises(UsageError) as folder:
        act(services, "files.add", path=str(tmp_path))
    assert folder.value.message == (
        f"{tmp_path} is a folder; give me one file in it (text, markdown or PDF)."
    )
    missing = tmp_path / "no such brief.md"
    with pytest.raises(NotFoundError) as gone:
        act(services, "files.add", "es", path=str(missing))
    assert gone.value.exit_code == ExitCode.NOT_FOUND
    assert gone.value.message.startswith(f"No hay ningún archivo en {missing}.")
    logo = tmp_path / "logo.png"
    logo.write_bytes(b"\x89PNG\x00\x00binary")
    with pytest.raises(UsageError) as binary:
        act(services, "files.add", path=str(logo))
    assert binary.value.message.startswith(f"Could not add {logo}: logo.png looks like a binary")
    assert services.memory.list_files("checkout") == []


def test_a_file_needs_a_project(services: Services, tmp_path: Path):
    brief = tmp_path / "brief.md"
    brief.write_text("text", encoding="utf-8")
    with pytest.raises(UsageError) as error:
        act(services, "files.add", path=str(brief))
    assert error.value.message.startswith("There is no active project yet.")


# -- memory: recall, search, history ------------------------------------------------------


def test_why_did_we_recalls_the_decision_with_its_turn(services: Services):
    memory = services.memory
    project_id = project_with(memory, "Checkout")
    turn = memory.add_turn(project_id, "agent", "Let's test with moderated sessions")
    memory.add_decision(project_id, "Moderated usability testing", "we need to ask why", turn.id)
    found = act(services, "memory.recall", query="why did we choose moderated testing")
    assert found.done.message.startswith("Decisions in 'Checkout' that match:\n- ")
    assert f"(turn #{turn.id}): Moderated usability testing. Why: we need to ask why" in (
        found.done.message
    )
    spanish = act(services, "memory.recall", "es", query="¿por qué elegimos el test moderado?")
    assert "Por qué: we need to ask why" in spanish.done.message
    nothing = act(services, "memory.recall", query="why did we pick purple")
    assert nothing.done.message == "I found no recorded decision about that in 'Checkout'."


def test_searching_every_project_includes_the_current_one(services: Services):
    memory = services.memory
    other = project_with(memory, "Ledgerly")
    memory.add_turn(other, "user", "invoice reminders for freelancers")
    here = project_with(memory, "Checkout")
    memory.add_turn(here, "user", "invoice shown after payment")
    everywhere = act(services, "memory.search", query="invoice", all_projects=True)
    assert everywhere.done.message.startswith("Found in all projects:")
    groups = {g["project"]["name"] for g in everywhere.done.data["groups"]}
    assert groups == {"Ledgerly", "Checkout"}
    scoped = act(services, "memory.search", "es", query="invoice")
    assert scoped.done.message.startswith("Encontrado en Checkout:")
    assert {g["project"]["name"] for g in scoped.done.data["groups"]} == {"Checkout"}
    none = act(services, "memory.search", query="zebra")
    assert none.done.message == "Nothing found for 'zebra'."


def test_the_history_shows_the_latest_turns(services: Services):
    memory = services.memory
    project_id = project_with(memory, "Checkout")
    assert act(services, "history.show").done.message == "No conversation in 'Checkout' yet."
    for n in range(4):
        memory.add_turn(project_id, "user" if n % 2 == 0 else "agent", f"message [{n}]\nmore")
    memory.add_turn(project_id, "agent", "partial answer", status="cancelled")
    shown = act(services, "history.show", count=2).done.message.splitlines()
    assert shown[0] == "Latest turns in 'Checkout':"
    assert shown[1].endswith(" agent: message [3]")
    assert shown[2].endswith(" agent [cancelled]: partial answer")
    spanish = act(services, "history.show", "es", count=2).done.message
    assert "agente [cancelado]: partial answer" in spanish


# -- decisions ----------------------------------------------------------------------------


def test_we_decided_x_because_y_is_recorded_with_its_rationale(services: Services):
    memory = services.memory
    project_with(memory, "Checkout")
    recorded = act(
        services,
        "decisions.record",
        decision="Ship guest checkout",
        rationale="40% abandon at sign-up",
    )
    assert recorded.done.message == (
        "Recorded in 'Checkout': Ship guest checkout. Why: 40% abandon at sign-up"
    )
    [stored] = memory.list_decisions("checkout")
    assert (stored.decision, stored.rationale) == ("Ship guest checkout", "40% abandon at sign-up")
    [process] = memory.list_process_memory()
    assert (process.context, process.decision) == ("Checkout", "Ship guest checkout")
    spanish = act(services, "decisions.record", "es", decision="Tarjetas en lugar de tabla")
    assert (
        spanish.done.message == "Registrado en 'Checkout': Tarjetas en lugar de tabla. Por qué: -"
    )
    listed = act(services, "decisions.list").done.message.splitlines()
    assert listed[0] == "Decisions in 'Checkout':"
    assert listed[1].endswith(": Tarjetas en lugar de tabla. Why: -")
    assert listed[2].endswith(": Ship guest checkout. Why: 40% abandon at sign-up")


def test_no_decisions_yet(services: Services):
    project_with(services.memory, "Checkout")
    assert act(services, "decisions.list", "es").done.message.startswith(
        "Aún no hay decisiones en 'Checkout'."
    )


def proposal(turn_id: int | None = None) -> DecisionProposal:
    return DecisionProposal(
        decisions=[
            ProposedDecision(decision="Use cards", rationale="easier to scan"),
            ProposedDecision(decision="Drop the sidebar", rationale="mobile first"),
            ProposedDecision(decision="Weekly critiques", rationale=""),
        ],
        turn_id=turn_id,
        task_id="design_critique",
    )


@pytest.mark.parametrize(
    ("answer", "saved"),
    [
        ("yes", ["Use cards", "Drop the sidebar", "Weekly critiques"]),
        ("todas", ["Use cards", "Drop the sidebar", "Weekly critiques"]),
        ("1", ["Use cards"]),
        ("1 and 3", ["Use cards", "Weekly critiques"]),
        ("1 y 3", ["Use cards", "Weekly critiques"]),
        ("2, 3", ["Drop the sidebar", "Weekly critiques"]),
    ],
)
def test_proposed_decisions_are_stored_when_the_user_says_which(
    services: Services, answer: str, saved: list[str]
):
    memory = services.memory
    project_id = project_with(memory, "Dashboard")
    turn = memory.add_turn(project_id, "agent", "Here is the critique")
    result = reply(services, answer, proposal(turn.id))
    assert result is not None and result.pending is None
    assert result.done.message.startswith(f"Saved {len(saved)} decision(s):\n- {saved[0]}")
    stored = list(reversed(memory.list_decisions(project_id)))
    assert [d.decision for d in stored] == saved
    assert {d.conversation_id for d in stored} == {turn.id}
    contexts = {p.context for p in memory.list_process_memory()}
    assert len(contexts) == 1 and contexts.pop().startswith("Dashboard: ")


@pytest.mark.parametrize("answer", ["maybe later", "write user stories"])
def test_anything_else_is_not_an_answer_to_the_proposal(services: Services, answer: str):
    project_with(services.memory, "Dashboard")
    assert reply(services, answer, proposal()) is None
    assert services.memory.list_decisions("dashboard") == []


@pytest.mark.parametrize("answer", ["4", "the fourth one"])
def test_a_number_past_the_proposals_asks_again_saving_nothing(services: Services, answer: str):
    project_with(services.memory, "Dashboard")
    result = reply(services, answer, proposal())
    assert result is not None and result.pending is not None
    assert result.shown().message.startswith("There is no number 4: there are 3 to choose from.")
    assert services.memory.list_decisions("dashboard") == []


def test_no_drops_the_proposed_decisions(services: Services):
    project_with(services.memory, "Dashboard")
    dropped = reply(services, "no", proposal(), "es")
    assert dropped is not None and dropped.done.message == "De acuerdo, no las he guardado."
    assert services.memory.list_decisions("dashboard") == []


# -- the catalogue and the conversation itself ---------------------------------------------


def test_the_methods_are_listed_one_line_per_persona(services: Services):
    catalogue = services.catalogue
    english = act(services, "catalogue.methods").done
    lines = english.message.splitlines()
    assert lines[0] == f"I know {len(catalogue.tasks)} design methods, by specialist:"
    personas = [a for a in catalogue.agents.values() if catalogue.tasks_of(a.id)]
    assert len(lines) == 1 + len(personas)
    first = personas[0]
    assert lines[1].startswith(f"- {first.role.en}: {catalogue.tasks_of(first.id)[0].name.en}")
    spanish = act(services, "catalogue.methods", "es").done.message.splitlines()
    assert spanish[0].startswith("Conozco ")
    assert spanish[1].startswith(f"- {first.role.es}: {catalogue.tasks_of(first.id)[0].name.es}")


@pytest.mark.parametrize("language", ["en", "es"])
def test_help_gives_a_handful_of_examples(services: Services, language: str):
    message = act(services, "conversation.help", language).done.message
    examples = [line for line in message.splitlines() if line.startswith("- ")]
    assert 6 <= len(examples) <= 8


def test_small_talk_is_friendly_and_never_creates_a_project(services: Services):
    hello = act(services, "conversation.small_talk", kind="greeting").done.message
    assert hello.startswith("Hi! Tell me about your project")
    assert services.memory.list_projects() == []
    project_with(services.memory, "Checkout")
    thanks = act(services, "conversation.small_talk", "es", kind="thanks").done.message
    assert thanks == "De nada. ¿En qué trabajamos en 'Checkout'? Di 'ayuda' para ver ejemplos."
    for kind in ("how_are_you", "bye"):
        assert act(services, "conversation.small_talk", kind=kind).done.message


def test_cancel_drops_what_was_pending(services: Services):
    services.memory.set_state("last_language", "en")
    nothing = act(services, "conversation.cancel")
    assert nothing.done.message == "There was nothing pending to cancel."
    ctx = context(services)
    ctx.state.pending = ProjectNameNeeded()
    envelope = ActionEnvelope(module="conversation", method="cancel")
    dropped = run_action(envelope, ctx)
    assert dropped.done.message == "OK, dropped." and dropped.pending is None
    assert dropped.done.data == {"dropped": "project_name"}


def test_redo_without_an_answer_says_there_is_none(services: Services):
    result = act(services, "conversation.rerender", "es", verbosity="brief")
    assert result.done.message.startswith("Aún no hay ninguna respuesta que rehacer")


# -- every error is one of ours -----------------------------------------------------------


def test_every_handler_error_is_a_design_agent_error(services: Services):
    calls: list[tuple[str, dict[str, Any]]] = [
        ("projects.switch", {"name": "x"}),
        ("projects.delete", {}),
        ("projects.rename", {"new": "y"}),
        ("memory.recall", {"query": "why"}),
        ("memory.search", {"query": "q"}),
        ("history.show", {}),
        ("decisions.record", {"decision": "d"}),
        ("decisions.list", {}),
        ("files.add", {"path": os.devnull + "-missing"}),
    ]
    for name, data in calls:
        with pytest.raises(DesignAgentError):
            act(services, name, **data)


# -- the same lookup in `design-agent projects switch` ------------------------------------


def test_the_cli_switch_guesses_and_needs_yes_off_a_terminal(run_cli):  # type: ignore[no-untyped-def]
    run_cli("projects", "create", "Acme Admin Portal")
    run_cli("projects", "create", "General")
    guessed = run_cli("projects", "switch", "acme")
    assert guessed.exit_code == ExitCode.NOT_FOUND
    assert "Did you mean: Acme Admin Portal? (add --yes to switch to it)" in guessed.output
    accepted = run_cli("projects", "switch", "acme", "--yes")
    assert accepted.exit_code == 0 and "Active project: Acme Admin Portal" in accepted.output
    never = run_cli("projects", "switch", "ledgerly", "--yes")
    assert never.exit_code == ExitCode.NOT_FOUND and "Did you mean" not in never.output
    assert "Projects: Acme Admin Portal, General." in never.output


# -- slash commands go through the same handlers ------------------------------------------


@pytest.fixture
def shell(services: Services) -> Any:
    from design_agent.cli.shell import Shell

    return Shell(services)


def test_slash_upload_takes_quoted_and_unquoted_paths_with_spaces(
    shell: Any, services: Services, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    project_with(services.memory, "Checkout")
    folder = tmp_path / "My Docs"
    folder.mkdir()
    (folder / "brief v2.md").write_text("# Brief\nBuyers abandon.\n", encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\nInterview notes.\n", encoding="utf-8")
    shell.commands.run(f'/upload "{folder / "brief v2.md"}"')
    shell.commands.run(f"/up {folder / 'notes.md'} --type research")
    shell.commands.run(f"/upload {folder}")
    out = capsys.readouterr().out
    assert "Added brief v2.md as a brief" in out
    assert "Added notes.md as a research note" in out
    assert f"{folder} is a folder" in out
    files = services.memory.list_files("checkout")
    assert [(f.filename, f.file_type) for f in files] == [
        ("brief v2.md", "brief"),
        ("notes.md", "research"),
    ]


def test_slash_switch_with_a_guess_leaves_the_question_open(
    shell: Any, services: Services, capsys: pytest.CaptureFixture[str]
):
    project_with(services.memory, "Acme Admin Portal")
    general = project_with(services.memory, "General")
    shell.commands.run("/switch acm")
    assert "Did you mean 'Acme Admin Portal'? (yes/no)" in capsys.readouterr().out
    pending = load_state(services.memory, general).live_pending()
    assert isinstance(pending, ConfirmSwitch) and pending.project_id == "acme-admin-portal"
    shell.commands.run("/switch nope")
    assert "No project matches 'nope'. Your projects: " in capsys.readouterr().out


def test_slash_search_all_history_decisions_and_methods(
    shell: Any, services: Services, capsys: pytest.CaptureFixture[str]
):
    memory = services.memory
    other = project_with(memory, "Ledgerly")
    memory.add_turn(other, "user", "invoice reminders")
    here = project_with(memory, "Checkout")
    memory.add_turn(here, "user", "invoice after payment")
    memory.add_decision(here, "Guest checkout", "fewer steps")
    shell.commands.run("/search invoice --all")
    out = capsys.readouterr().out
    assert "Found in all projects:" in out and "Ledgerly:" in out and "Checkout:" in out
    shell.commands.run("/history 1")
    assert "user: invoice after payment" in capsys.readouterr().out
    shell.commands.run("/history lots")
    assert "Usage: /history [N]" in capsys.readouterr().out
    shell.commands.run("/decisions")
    assert "Guest checkout. Why: fewer steps" in capsys.readouterr().out
    shell.commands.run("/methods")
    assert "design methods, by specialist:" in capsys.readouterr().out
    shell.commands.run("/help")
    out = capsys.readouterr().out
    assert "/decisions" in out and "/methods" in out
