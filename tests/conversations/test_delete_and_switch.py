"""Deleting and switching projects by talking: deletes always show what they remove and need
a "yes" that still matches; names are found from a part or a typo, and confirmed first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conversations.talk import Conversation
from design_agent.core.errors import NotFoundError, UsageError


def test_deleting_a_project_by_name_shows_what_it_removes(talk: Conversation) -> None:
    """From Ledgerly, the designer deletes the old Acme project and its history."""
    talk("create project Acme", reply="Who are the users of Acme?", pending="interview")
    talk(
        "we decided to drop the wizard because nobody finished it",
        reply="Recorded",
        pending="interview",
    )
    talk("plan a usability test for the new checkout", reply="Usability test plan", pending=None)
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        "delete the Acme project",
        reply="Delete project 'Acme'? This removes 6 turns, 0 files and 1 decisions",
        action="projects.delete",
        pending="confirm_delete",
    )
    talk("yes", reply="Deleted 'Acme' (6 turns, 0 files, 1 decisions)", pending=None)
    assert talk.project_names() == ["Ledgerly"]
    talk("what projects do I have?", reply="* Ledgerly", not_reply="Acme", pending=None)


def test_delete_this_project_means_the_active_one(talk: Conversation) -> None:
    """The designer hesitates, keeps the project, then deletes it for real."""
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("create project Scratch", reply="Who are the users of Scratch?", pending="interview")
    talk("delete this project", reply="Delete project 'Scratch'?", pending="confirm_delete")
    talk("no", reply="OK, nothing was deleted.", pending=None, project="Scratch")
    talk("delete this project", reply="Delete project 'Scratch'?", pending="confirm_delete")
    talk("yes", reply="Deleted 'Scratch'", pending=None, project=None)
    assert talk.project_names() == ["Acme"]
    talk("switch to acme", reply="Switched to 'Acme'", pending=None, project="Acme")


def test_deleting_a_project_that_does_not_exist(talk: Conversation) -> None:
    """A wrong name is exit 6 and lists the projects; it also ends an earlier delete question."""
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("delete the Acme project", reply="Delete project 'Acme'?", pending="confirm_delete")
    talk(
        "delete the Nope project",
        reply="No project matches 'Nope'. Your projects: Acme.",
        error=NotFoundError,
        exit_code=6,
        pending=None,
    )
    talk("yes", reply="There is no open question", pending=None, project="Acme")
    assert talk.project_names() == ["Acme"], "the earlier question was not answered by 'yes'"


def test_a_project_that_changed_since_the_question_is_kept(
    talk: Conversation, run_cli: Callable[..., Any]
) -> None:
    """While the delete question waits, a teammate records a decision from another terminal."""
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        "delete the Acme project",
        reply="2 turns, 0 files and 0 decisions",
        pending="confirm_delete",
    )
    added = run_cli("decisions", "add", "Keep the wizard", "--why", "legal", "-p", "Acme")
    assert added.exit_code == 0, added.output
    talk(
        "yes",
        reply="'Acme' changed since you confirmed (it has 2 turns, 0 files and 1 decisions now)",
        error=UsageError,
        exit_code=2,
        pending=None,
    )
    assert talk.project_names() == ["Acme", "Ledgerly"]
    assert talk.decisions("Acme") == ["Keep the wizard"]


def test_borrar_un_proyecto_por_su_nombre(talk: Conversation) -> None:
    """From another project, the person deletes Acme in Spanish and checks the list."""
    talk("crea el proyecto Acme", reply="¿Quiénes son los usuarios de Acme?", pending="interview")
    talk(
        "decidimos quitar el asistente porque nadie lo terminaba",
        reply="Registrado",
        pending="interview",
    )
    talk("crea el proyecto Cobros", reply="He creado el proyecto 'Cobros'", pending="interview")
    talk(
        "borra el proyecto Acme",
        reply="¿Borrar el proyecto 'Acme'? Se eliminarán 4 turnos, 0 archivos y 1 decisiones",
        pending="confirm_delete",
        language="es",
    )
    talk("sí", reply="He borrado 'Acme' (4 turnos, 0 archivos, 1 decisiones).", pending=None)
    talk("¿qué proyectos tengo?", reply="* Cobros", not_reply="Acme", pending=None)


def test_borra_este_proyecto_es_el_activo(talk: Conversation) -> None:
    """The person says "no" first, then deletes the project they are in."""
    talk("crea el proyecto Borrador", reply="usuarios de Borrador", pending="interview")
    talk("borra este proyecto", reply="¿Borrar el proyecto 'Borrador'?", pending="confirm_delete")
    talk("no", reply="De acuerdo, no he borrado nada.", pending=None, project="Borrador")
    talk("elimina este proyecto", reply="Escribe 'sí' para borrarlo.", pending="confirm_delete")
    talk("sí", reply="He borrado 'Borrador'", pending=None, project=None, language="es")
    talk("¿qué proyectos tengo?", reply="Aún no tienes proyectos", pending=None)


def test_borrar_un_proyecto_que_no_existe(talk: Conversation) -> None:
    """A name that matches nothing is exit 6, said in Spanish, and nothing is asked."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk(
        "borra el proyecto Nada",
        reply="Ningún proyecto coincide con 'Nada'. Tus proyectos: Cobros.",
        error=NotFoundError,
        exit_code=6,
        pending=None,
        language="es",
    )
    assert talk.project_names() == ["Cobros"]


def test_un_proyecto_que_cambio_no_se_borra(
    talk: Conversation, run_cli: Callable[..., Any]
) -> None:
    """While "¿Borrar?" waits, a turn is added to the project from another terminal."""
    talk("crea el proyecto Acme", reply="usuarios de Acme", pending="interview")
    talk("borra este proyecto", reply="Se eliminarán 2 turnos", pending="confirm_delete")
    added = run_cli("decisions", "add", "Mantener el asistente", "-p", "Acme")
    assert added.exit_code == 0, added.output
    talk(
        "sí",
        reply="'Acme' ha cambiado desde que lo confirmaste",
        error=UsageError,
        exit_code=2,
        pending=None,
        language="es",
    )
    assert talk.project_names() == ["Acme"]


def test_partial_names_and_typos_find_the_project(talk: Conversation) -> None:
    """A word of one project's name finds it at once; the start of a name or a typo is a
    guess, confirmed with "yes"."""
    for name in ("Acme Admin Portal", "B2B Invoicing", "Ledgerly"):
        talk(f"create project {name}", reply=f"users of {name}?", pending="interview")
    talk("switch to admin", reply="Switched to 'Acme Admin Portal'", pending=None)
    talk("switch to b2b invoice", reply="Did you mean 'B2B Invoicing'?", pending="confirm_switch")
    talk("yes", reply="Switched to 'B2B Invoicing'", pending=None, project="B2B Invoicing")
    talk("switch to acm", reply="Did you mean 'Acme Admin Portal'?", pending="confirm_switch")
    talk("yes", reply="Switched to 'Acme Admin Portal'", pending=None, project="Acme Admin Portal")
    talk(
        "switch to b2b", reply="Switched to 'B2B Invoicing'", pending=None, project="B2B Invoicing"
    )
    talk("switch to ledgrly", reply="Did you mean 'Ledgerly'? (yes/no)", pending="confirm_switch")
    talk("no", reply="OK, staying in 'B2B Invoicing'.", pending=None, project="B2B Invoicing")
    talk("switch to ledgerly", reply="Switched to 'Ledgerly'", pending=None, project="Ledgerly")


def test_ledgerly_never_suggests_general(talk: Conversation) -> None:
    """With only General and Atlas, asking for Ledgerly finds nothing rather than a bad guess."""
    talk("plan a usability test for the new checkout", reply="I created 'General'", pending=None)
    talk("create project Atlas", reply="users of Atlas?", pending="interview")
    talk(
        "switch to ledgerly",
        reply="No project matches 'ledgerly'. Your projects: Atlas, General.",
        not_reply="Did you mean",
        error=NotFoundError,
        exit_code=6,
        pending=None,
        project="Atlas",
    )


def test_nombres_parciales_y_erratas(talk: Conversation) -> None:
    """In Spanish, the start of a name or a typo asks "¿Te refieres a ...?" first."""
    for name in ("Acme Admin Portal", "Cobros"):
        talk(f"crea el proyecto {name}", reply=f"usuarios de {name}?", pending="interview")
    talk(
        "cambia a acm",
        reply="¿Te refieres a 'Acme Admin Portal'? (sí/no)",
        pending="confirm_switch",
    )
    talk("sí", reply="Ahora estás en 'Acme Admin Portal'", pending=None, language="es")
    talk("cambia a cobross", reply="¿Te refieres a 'Cobros'?", pending="confirm_switch")
    talk("no", reply="De acuerdo, seguimos en 'Acme Admin Portal'.", pending=None)
    talk("vamos a Cobros", reply="Ahora estás en 'Cobros'", pending=None, project="Cobros")
    talk(
        "cambia a ledgerly",
        reply="Ningún proyecto coincide con 'ledgerly'",
        error=NotFoundError,
        exit_code=6,
        pending=None,
    )
