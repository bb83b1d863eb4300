"""Talk about design-agent itself: greetings, help, the methods it knows, the history, and
answers redone shorter, longer or in the other language. None of it creates a project."""

from __future__ import annotations

from conversations.talk import Conversation

USABILITY = "plan a usability test for the new checkout"
JOURNEY_ES = "haz un mapa de recorrido del cliente"


def test_small_talk_help_and_methods_on_a_first_run(talk: Conversation) -> None:
    """A newcomer says hello and asks what the tool can do before starting anything."""
    talk("hello", reply="Hi! Tell me about your project", pending=None, project=None)
    talk(
        "what can you do?", reply="Tell me what you need", action="conversation.help", pending=None
    )
    talk(
        "what methods do you know?",
        reply=["design methods, by specialist", "Usability test plan", "Customer journey map"],
        action="catalogue.methods",
        pending=None,
    )
    talk("thanks!", reply="You're welcome.", pending=None, project=None, language="en")
    assert talk.project_names() == [], "small talk never creates a project"
    talk(USABILITY, reply=["I created 'General'", "Usability test plan"], pending=None)
    talk("show me the history", reply=["Latest turns in 'General'", USABILITY], pending=None)
    assert talk.project_names() == ["General"]


def test_charla_ayuda_y_metodos_la_primera_vez(talk: Conversation) -> None:
    """A Spanish speaker greets the tool on its first run and looks around."""
    talk("hola", reply="¡Hola! Cuéntame tu proyecto", pending=None, project=None, language="es")
    talk("¿qué puedes hacer?", reply="Dime lo que necesitas", pending=None, language="es")
    talk("¿qué métodos conoces?", reply=["Conozco", "Mapa de viaje del cliente"], pending=None)
    talk("gracias", reply="De nada.", pending=None, project=None, language="es")
    assert talk.project_names() == []
    talk(JOURNEY_ES, reply=["he creado 'General'", "Mapa de viaje del cliente"], pending=None)
    talk("muestra el historial", reply=["Últimos turnos de 'General'", JOURNEY_ES], pending=None)


def test_make_it_shorter_longer_and_in_spanish(talk: Conversation) -> None:
    """The designer asks to redo before asking anything, then reshapes one answer three ways."""
    talk("make it shorter", reply="There is no answer to redo yet", pending=None, project=None)
    talk("create project Checkout", reply="Who are the users", pending="interview")
    normal = talk(
        USABILITY, reply="Usability test plan", task="usability_test_plan", pending="interview"
    )
    brief = talk(
        "make it shorter", reply="Usability test plan", task="usability_test_plan", pending=None
    )
    detailed = talk("more detail", reply="Usability test plan", pending=None)
    assert len(brief.answer) < 0.6 * len(normal.answer) < len(detailed.answer)
    talk(
        "in Spanish",
        reply=["Respuesta offline", "Plan de prueba de usabilidad", f"Tu petición:** {USABILITY}"],
        task="usability_test_plan",
        pending=None,
        language="es",
    )
    assert talk.state().language == "es"


def test_mas_corto_mas_detalle_y_en_ingles(talk: Conversation) -> None:
    """Nothing to redo at first; then one journey map, shorter, deeper and in English."""
    talk("más corto", reply="Aún no hay ninguna respuesta que rehacer", pending=None)
    talk("crea el proyecto Viajes", reply="usuarios de Viajes", pending="interview")
    normal = talk(JOURNEY_ES, reply="Mapa de viaje del cliente", pending="interview", language="es")
    brief = talk(
        "más corto", reply="Mapa de viaje del cliente", task="journey_mapping", pending=None
    )
    detailed = talk("con más detalle", reply="Mapa de viaje del cliente", pending=None)
    assert len(brief.answer) < 0.6 * len(normal.answer) < len(detailed.answer)
    talk(
        "en inglés",
        reply=["Offline answer", "Customer journey map", f"Your request:** {JOURNEY_ES}"],
        task="journey_mapping",
        pending=None,
        language="en",
    )


def test_redo_after_a_restart_uses_the_last_answer(talk: Conversation) -> None:
    """The last answer is remembered across sessions, per project."""
    talk("create project Checkout", reply="Who are the users", pending="interview")
    normal = talk(USABILITY, reply="Usability test plan", pending="interview")
    talk.restart()
    brief = talk(
        "make it shorter", reply="Usability test plan", task="usability_test_plan", pending=None
    )
    assert len(brief.answer) < len(normal.answer)
    talk("create project Empty", reply="Who are the users of Empty?", pending="interview")
    talk(
        "make it shorter",
        reply="There is no answer to redo yet",
        pending="interview",
        project="Empty",
    )


def test_el_historial_muestra_los_ultimos_turnos(talk: Conversation) -> None:
    """After two requests, the person asks for the last two messages only."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk(JOURNEY_ES, reply="Mapa de viaje del cliente", pending="interview")
    talk("planifica un test de usabilidad del registro", reply="Plan de prueba", pending=None)
    said = talk(
        "muéstrame los últimos 2 mensajes",
        reply=["Últimos turnos de 'Citas'", "tú: planifica un test de usabilidad", "agente:"],
        not_reply=JOURNEY_ES,
        action="history.show",
        pending=None,
        language="es",
    )
    assert len(said.reply.splitlines()) == 3
