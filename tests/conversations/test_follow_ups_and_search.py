"""The conversation carries on: a follow-up keeps the last method, a new method is a new
method, and "did I solve something similar?" looks through every project."""

from __future__ import annotations

from conversations.talk import Conversation

USABILITY = "plan a usability test for the new checkout"
COMPETITORS = "who are our competitors and how do they handle reminders"


def test_a_new_question_is_a_new_method_and_a_follow_up_is_not(talk: Conversation) -> None:
    """After a test plan, the designer asks about competitors, then widens that answer."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(USABILITY, reply="Usability test plan", task="usability_test_plan", pending="interview")
    talk(COMPETITORS, reply="Competitive analysis", task="competitive_analysis", pending=None)
    talk(
        "make it cover the mobile app too",
        reply=["Competitive analysis", "make it cover the mobile app too"],
        task="competitive_analysis",
        pending=None,
    )
    talk("now create personas for our users", reply="Personas", task="personas", pending=None)


def test_un_seguimiento_mantiene_el_metodo(talk: Conversation) -> None:
    """A usability plan, then a competitive analysis, then "que cubra también la app móvil"."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk(
        "planifica un test de usabilidad del registro",
        reply="Plan de prueba de usabilidad",
        task="usability_test_plan",
        pending="interview",
        language="es",
    )
    talk(
        "haz un análisis competitivo de las apps de facturación",
        reply="Análisis competitivo",
        task="competitive_analysis",
        pending=None,
    )
    talk(
        "que cubra también la app móvil",
        reply=["Análisis competitivo", "que cubra también la app móvil"],
        task="competitive_analysis",
        pending=None,
        language="es",
    )


def test_something_similar_in_another_project(talk: Conversation) -> None:
    """Working on Cobros, the designer remembers Ledgerly dealt with reminders too."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        "we decided to send reminders by email because accountants live in their inbox",
        reply="Recorded",
        pending="interview",
    )
    talk(COMPETITORS, reply="Competitive analysis", pending=None)
    talk("create project Cobros", reply="Who are the users of Cobros?", pending="interview")
    talk("accountants at small firms", reply="What problem", pending="interview")
    talk("clients pay late and reminders are manual", reply="Any constraints", pending="interview")
    talk("skip", reply="saved that as the project's context", pending=None)
    talk(
        "did I solve something similar in another project?",
        reply=["Found in all projects", "Ledgerly:", "reminders"],
        not_reply="Cobros:",
        action="memory.search",
        pending=None,
    )
    talk(
        "we decided to send SMS reminders because clients ignore email",
        reply="Recorded",
        pending=None,
    )
    talk(
        "search all my projects for reminders",
        reply=["Found in all projects", "Ledgerly:", "Cobros:", "send SMS reminders"],
        pending=None,
    )
    talk(
        "search for reminders", reply=["Found in Cobros", "SMS"], not_reply="Ledgerly", pending=None
    )


def test_algo_parecido_en_otro_proyecto(talk: Conversation) -> None:
    """In Cobros, the person asks whether Facturas already solved payment reminders."""
    talk("crea el proyecto Facturas", reply="usuarios de Facturas", pending="interview")
    talk(
        "decidimos enviar recordatorios por correo porque los contables viven en su bandeja",
        reply="Registrado",
        pending="interview",
    )
    talk("haz un análisis de la competencia", reply="Análisis competitivo", pending=None)
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk("contables de pymes", reply="¿Qué problema", pending="interview")
    talk(
        "los clientes pagan tarde y los recordatorios son manuales",
        reply="restricción",
        pending="interview",
    )
    talk("saltar", reply="lo he guardado como contexto", pending=None)
    talk("planifica un test de usabilidad del registro", reply="Plan de prueba", pending=None)
    talk(
        "¿resolví algo parecido en otro proyecto?",
        reply=["Encontrado en todos los proyectos", "Facturas:", "recordatorios por correo"],
        not_reply="Cobros:",
        pending=None,
        language="es",
    )
    talk(
        "decidimos recordatorios por SMS porque nadie lee el correo",
        reply="Registrado",
        pending=None,
    )
    talk(
        "busca recordatorios en todos mis proyectos",
        reply=["Encontrado en todos los proyectos", "Facturas:", "Cobros:"],
        pending=None,
    )


def test_un_metodo_nuevo_no_es_un_seguimiento(talk: Conversation) -> None:
    """ "ahora crea personas" names a new method; "y añade también..." follows it up."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk(
        "haz un mapa de recorrido del cliente",
        reply="Mapa de viaje",
        task="journey_mapping",
        pending="interview",
    )
    talk(
        "ahora crea personas de usuario para la app",
        reply="Personas de usuario",
        task="personas",
        pending=None,
    )
    talk(
        "y añade también a los recepcionistas",
        reply=["Personas de usuario", "y añade también a los recepcionistas"],
        task="personas",
        pending=None,
        language="es",
    )
