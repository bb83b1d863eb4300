"""Questions left open: each belongs to its project, lapses after a while, and can always be
escaped by saying something else (a request, a meta-request, small talk, skip, cancel)."""

from __future__ import annotations

from conversations.talk import Conversation

VAGUE = "help me with something"


def test_a_question_in_one_project_is_not_answered_in_another(talk: Conversation) -> None:
    """A vague request in Alpha (from `ask --project`) waits there; "2" in Beta is Beta's."""
    talk("create project Alpha", reply="Who are the users of Alpha?", pending="interview")
    talk("create project Beta", reply="Who are the users of Beta?", pending="interview")
    assert talk.state("Alpha").pending is None, "leaving Alpha dropped its interview"
    talk("nevermind", reply="OK, dropped.", pending=None, project="Beta")
    asked = talk(VAGUE, reply="I'm not sure which method", pending=None, in_project="Alpha")
    assert talk.state("Alpha").pending is not None, "the question is Alpha's"
    talk("2", reply="There is no open question", pending=None, project="Beta")
    assert talk.state("Alpha").pending is not None, "Beta's '2' did not answer it"
    second = asked.options[1]
    talk("2", reply="Offline answer", task=second, pending=None, in_project="Alpha")
    assert talk.state("Alpha").pending is None, "answered in Alpha"


def test_a_late_yes_answers_nothing(talk: Conversation) -> None:
    """Someone asks to delete Acme, goes to lunch, and types "yes" an hour later."""
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("delete the Acme project", reply="Type 'yes' to delete it.", pending="confirm_delete")
    talk.age_pending(minutes=60)
    talk("yes", reply="There is no open question", pending=None, project="Acme")
    assert talk.project_names() == ["Acme"]


def test_small_talk_puts_the_question_again_once(talk: Conversation) -> None:
    """Pleasantries while the interview waits: the question comes back once, then lapses."""
    talk("create project Acme", reply="Who are the users of Acme?", pending="interview")
    talk("hello", reply=["Hi!", "Who are the users of Acme?"], pending="interview")
    talk("thanks!", reply="You're welcome", not_reply="Who are the users", pending=None)
    talk("accountants", reply="I'm not sure which method", pending="choice")
    assert talk.metadata() == {}, "after the question lapsed, nothing is an answer to it"


def test_skip_cancel_and_nevermind_drop_any_question(talk: Conversation) -> None:
    """Each kind of open question is dropped by the words people use to drop things."""
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("what projects do I have?", reply="* Acme", pending="interview")
    talk(VAGUE, reply="Reply with a number", pending="choice", choice=True)
    talk("skip", reply="OK, dropped.", action="conversation.cancel", pending=None)
    talk("delete the Acme project", reply="Delete project 'Acme'?", pending="confirm_delete")
    talk("cancel", reply="OK, dropped.", pending=None)
    talk("switch to acm", reply="Did you mean 'Acme'?", pending="confirm_switch")
    talk("nevermind", reply="OK, dropped.", pending=None)
    talk("yes", reply="There is no open question", pending=None)
    assert talk.project_names() == ["Acme"]


def test_a_request_escapes_every_question(talk: Conversation) -> None:
    """Confirmations and choices give way to whatever the person asks next."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk("create project Acme", reply="Who are the users", pending="interview")
    talk("switch to ledgrly", reply="Did you mean 'Ledgerly'?", pending="confirm_switch")
    talk(
        "plan a usability test for the new checkout",
        reply="Usability test plan",
        pending="confirm_switch",
    )
    talk("delete this project", reply="Delete project 'Acme'?", pending="confirm_delete")
    talk("what methods do you know?", reply="design methods", pending="confirm_delete")
    talk(VAGUE, reply="Reply with a number", pending="choice")
    talk(
        "who are our competitors and how do they handle reminders",
        reply="Competitive",
        pending="choice",
    )
    talk("yes", reply="There is no open question", pending=None, project="Acme")
    assert talk.project_names() == ["Acme", "Ledgerly"]


def test_una_pregunta_de_un_proyecto_no_se_responde_en_otro(talk: Conversation) -> None:
    """A choice left in Alfa; in Beta "2" answers nothing; back in Alfa the old question is gone."""
    talk("crea el proyecto Alfa", reply="¿Quiénes son los usuarios de Alfa?", pending="interview")
    talk("olvídalo", reply="De acuerdo, lo dejo.", pending=None)
    talk("ayúdame con algo", reply="Responde con un número", pending="choice", language="es")
    talk("crea el proyecto Beta", reply="He creado el proyecto 'Beta'", pending="interview")
    talk("cancela", reply="lo dejo", pending=None)
    talk("2", reply="No hay ninguna pregunta abierta", pending=None, language="es")
    talk("cambia a alfa", reply="Ahora estás en 'Alfa'", pending=None, project="Alfa")
    # Switching shows the project's summary, not its old question: a "2" now answers nothing.
    talk("2", reply="No hay ninguna pregunta abierta", pending=None)


def test_un_si_tardio_no_responde_nada(talk: Conversation) -> None:
    """The delete question waits too long; the "sí" that comes later deletes nothing."""
    talk("crea el proyecto Acme", reply="He creado el proyecto 'Acme'", pending="interview")
    talk("borra este proyecto", reply="Escribe 'sí' para borrarlo.", pending="confirm_delete")
    talk.age_pending(minutes=16)
    talk("sí", reply="No hay ninguna pregunta abierta", pending=None, language="es")
    assert talk.project_names() == ["Acme"]


def test_la_charla_repite_la_pregunta_una_vez(talk: Conversation) -> None:
    """A method choice waits; "hola" gets it again with its options, "gracias" does not."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk("saltar", reply="¿Qué problema", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    talk("ayúdame con algo", reply="No estoy seguro", pending="choice", choice=True)
    talk("hola", reply=["¡Hola!", "No estoy seguro", "1. "], pending="choice", language="es")
    talk("gracias", reply="De nada", not_reply="No estoy seguro", pending=None)


def test_saltar_y_olvidalo_dejan_cualquier_pregunta(talk: Conversation) -> None:
    """Every open question in Spanish is dropped by "saltar", "olvídalo" or "no"."""
    talk("crea el proyecto Acme", reply="¿Quiénes son los usuarios", pending="interview")
    talk("¿qué proyectos tengo?", reply="* Acme", pending="interview")
    talk("ayúdame con algo", reply="Responde con un número", pending="choice")
    talk("saltar", reply="De acuerdo, lo dejo.", pending=None)
    talk("borra el proyecto Acme", reply="¿Borrar el proyecto 'Acme'?", pending="confirm_delete")
    talk("olvídalo", reply="De acuerdo, lo dejo.", pending=None)
    talk("cambia a acm", reply="¿Te refieres a 'Acme'?", pending="confirm_switch")
    talk("no", reply="seguimos en 'Acme'", pending=None)
    talk("sí", reply="No hay ninguna pregunta abierta", pending=None, language="es")
    assert talk.project_names() == ["Acme"]


def test_una_peticion_escapa_de_cualquier_pregunta(talk: Conversation) -> None:
    """A confirmation waits; the person asks for work instead (the question is put again,
    once), then for a list (the question is let go): a late "sí" deletes nothing."""
    talk("crea el proyecto Acme", reply="usuarios de Acme", pending="interview")
    talk("borra este proyecto", reply="¿Borrar el proyecto 'Acme'?", pending="confirm_delete")
    talk(
        "haz un mapa de recorrido del cliente",
        reply=["Mapa de viaje", "Sigue pendiente: ¿Borrar el proyecto 'Acme'?"],
        pending="confirm_delete",
    )
    talk("¿qué métodos conoces?", reply="Conozco", not_reply="Sigue pendiente", pending=None)
    talk("sí", reply="No hay ninguna pregunta abierta", pending=None, project="Acme")


def test_una_eleccion_caduca(talk: Conversation) -> None:
    """A method choice waits half an hour; the "2" typed then is not an answer to it."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk("olvídalo", reply="lo dejo", pending=None)
    talk("ayúdame con algo", reply="No estoy seguro", pending="choice", choice=True)
    talk.age_pending(minutes=30)
    talk("2", reply="No hay ninguna pregunta abierta", pending=None, language="es")
