"""The person's language: a Spanish conversation is answered in Spanish throughout, and a
short reply ("2", "sí", "yes") is read in the language its question was asked in."""

from __future__ import annotations

from conversations.talk import Conversation
from design_agent.core.events import ChoiceNeeded


def test_una_conversacion_en_espanol_recibe_respuestas_en_espanol(talk: Conversation) -> None:
    """Every reply, the method choice included, comes back in Spanish."""
    talk("hola", reply="¡Hola!", pending=None, language="es")
    talk(
        "empiezo un proyecto nuevo para una app de cobros llamado Cobros",
        reply="¿Quiénes son los usuarios de Cobros?",
        pending="interview",
        language="es",
    )
    talk("olvídalo", reply="De acuerdo, lo dejo.", pending=None, language="es")
    asked = talk(
        "ayúdame con algo",
        reply=["No estoy seguro de qué método necesitas", "1. ", "2. "],
        not_reply="I'm not sure",
        pending="choice",
        choice=True,
        language="es",
    )
    tasks = talk.services.catalogue.tasks
    shown = [o for e in asked.events if isinstance(e, ChoiceNeeded) for o in e.options]
    assert [o.name for o in shown] == [tasks[o.task_id].name.es for o in shown]
    assert [o.name for o in shown] != [tasks[o.task_id].name.en for o in shown]
    talk("2", reply="Respuesta offline", task=asked.options[1], pending=None, language="es")
    talk("cambia a cobros", reply="Ya estás en 'Cobros'", pending=None, language="es")
    talk("gracias", reply="De nada", pending=None, language="es")


def test_a_reply_is_answered_in_its_own_language_and_ok_keeps_the_conversations(
    talk: Conversation,
) -> None:
    """An English question answered "sí" is answered in Spanish (the reply says its language);
    a Spanish one answered "ok", which says none, stays Spanish."""
    talk("create project Acme", reply="Who are the users of Acme?", pending="interview")
    talk("create project Scratch", reply="Who are the users", pending="interview", language="en")
    talk("delete this project", reply="Type 'yes' to delete it.", pending="confirm_delete")
    talk("sí", reply="He borrado 'Scratch'", pending=None, project=None, language="es")
    talk("cambia al proyecto Acme", reply="Ahora estás en 'Acme'", pending=None, language="es")
    talk("borra este proyecto", reply="Escribe 'sí' para borrarlo.", pending="confirm_delete")
    talk("ok", reply="He borrado 'Acme'", pending=None, project=None, language="es")


def test_an_english_conversation_stays_in_english(talk: Conversation) -> None:
    """Proper nouns and numbers never tip an English conversation into Spanish."""
    talk(
        "create project Casa Bonita", reply="Who are the users of Casa Bonita?", pending="interview"
    )
    talk("skip", reply="What problem", pending="interview", language="en")
    talk("cancel", reply="OK, dropped.", pending=None, language="en")
    asked = talk("help me with something", reply="I'm not sure which method", pending="choice")
    talk("2", reply="Offline answer", task=asked.options[1], pending=None, language="en")
    talk("switch to casa bonita", reply="You are already in 'Casa Bonita'", pending=None)
    talk("thanks!", reply="You're welcome", pending=None, language="en")


def test_spanish_mid_conversation_is_answered_in_spanish(talk: Conversation) -> None:
    """An English conversation; a colleague takes the keyboard and writes in Spanish."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk("plan a usability test for the new checkout", reply="Offline answer", pending="interview")
    talk("¿qué hemos decidido?", reply="Aún no hay decisiones en 'Ledgerly'", pending=None)
    talk(
        "haz un mapa de recorrido del cliente",
        reply=["Respuesta offline", "Mapa de viaje del cliente"],
        task="journey_mapping",
        pending=None,
        language="es",
    )
    talk(
        "in English", reply=["Offline answer", "Customer journey map"], pending=None, language="en"
    )
