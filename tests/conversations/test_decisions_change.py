"""The team changes its mind: a decision is replaced or retired by saying so, after a question
that names it, and keeps its history; on a branch that forked before a decision, the listing
says where the decisions are instead of "none yet"."""

from __future__ import annotations

from conversations.talk import ANY_TASK, Conversation
from design_agent.actions import ActionEnvelope
from design_agent.core.events import ActionDone


def all_branches() -> ActionEnvelope:
    """What /decisions all sends."""
    return ActionEnvelope.model_validate(
        {"module": "decisions", "method": "list", "input": {"all_branches": True}}
    )


def test_valencia_replaces_madrid_and_why_tells_what_it_replaced(talk: Conversation) -> None:
    """A product lead records the launch order, the port partners sign, Valencia goes first."""
    talk("create project Harbour Routes", reply="Who are the users", pending="interview")
    talk(
        "we decided Madrid goes first because it is the biggest market",
        reply="Recorded in 'Harbour Routes': Madrid goes first",
        pending="interview",
    )
    talk("we decided to release every two weeks", reply="Recorded", pending=None)
    talk(
        "we changed our mind: Valencia goes first because the port partners signed",
        reply=[
            "Replace the decision 'Madrid goes first' (",
            "with 'Valencia goes first' (why: the port partners signed)?",
            "The old one stays in the history. (yes / no)",
        ],
        not_reply="release every two weeks",
        action="decisions.supersede",
        pending="decision_change",
        decisions=["Madrid goes first", "release every two weeks"],
    )
    talk(
        "yes",
        reply="Replaced in 'Harbour Routes': 'Madrid goes first' is now 'Valencia goes first'. "
        "Why: the port partners signed.",
        pending=None,
        decisions=["release every two weeks", "Valencia goes first"],
    )
    talk(
        "why did we pick Valencia?",
        reply=[
            "Valencia goes first. Why: the port partners signed",
            "It replaced 'Madrid goes first' (decided 2",
        ],
        action="memory.recall",
        pending=None,
    )
    talk(
        "what have we decided?",
        reply=["Valencia goes first", "release every two weeks", "1 replaced and 0 retired"],
        not_reply="Madrid",
        action="decisions.list",
        pending=None,
    )


def test_a_retired_decision_is_no_longer_decided_but_why_remembers_it(talk: Conversation) -> None:
    """Madrid is forgotten after a yes with a tail; a second change is turned down."""
    talk("create project Harbour Routes", reply="Who are the users", pending="interview")
    talk("decision: Madrid goes first", reply="Recorded", pending="interview")
    talk(
        "we decided on weekly releases because the clinics want fixes fast",
        reply="Recorded",
        pending=None,
    )
    talk(
        "forget the Madrid decision",
        reply=["Retire the decision 'Madrid goes first'", "no longer count as decided"],
        not_reply="weekly releases",
        action="decisions.retire",
        pending="decision_change",
    )
    talk(
        "yes, go ahead",
        reply="Retired in 'Harbour Routes': 'Madrid goes first'. Why: -.",
        pending=None,
        decisions=["weekly releases"],
    )
    talk(
        "actually we're not doing weekly releases anymore because QA needs more time",
        reply=["Retire the decision 'weekly releases'", "(why: QA needs more time)"],
        pending="decision_change",
    )
    talk(
        "no, leave it",
        reply="Nothing changed; the decisions stay as they were.",
        pending=None,
        decisions=["weekly releases"],
    )
    talk(
        "what have we decided?",
        reply=["weekly releases", "Not listed: 0 replaced and 1 retired"],
        not_reply="Madrid",
        pending=None,
    )
    talk(
        "why did we choose Madrid?",
        reply=["Madrid goes first", "Retired on 2", "it no longer counts as decided"],
        pending=None,
    )


def test_which_one_when_two_decisions_fit(talk: Conversation) -> None:
    """Two Madrid decisions: a numbered choice; a bare yes is asked for its number once."""
    talk("create project Harbour Routes", reply="Who are the users", pending="interview")
    talk("decision: a pilot in Madrid in May", reply="Recorded", pending="interview")
    talk("decision: hire two researchers", reply="Recorded", pending=None)
    talk("decision: the Madrid office opens in June", reply="Recorded", pending=None)
    asked = talk(
        "forget the Madrid decision",
        reply=[
            "Which decision should I retire?",
            "1. the Madrid office opens in June",
            "2. a pilot in Madrid in May",
            "(the number, or no)",
        ],
        not_reply="researchers",
        pending="decision_change",
    )
    assert asked.finished is not None and asked.finished.status == "complete"
    talk(
        "yes",
        reply=["Which one? Say its number.", "1. the Madrid office"],
        pending="decision_change",
    )
    talk(
        "the second one",
        reply="Retired in 'Harbour Routes': 'a pilot in Madrid in May'",
        pending=None,
        decisions=["hire two researchers", "the Madrid office opens in June"],
    )
    talk(
        "we changed our mind: weekly digests",
        reply=[
            "Which decision does 'weekly digests' replace?",
            "1. the Madrid office opens in June",
            "2. hire two researchers",
        ],
        pending="decision_change",
    )
    talk(
        "2",
        reply="'hire two researchers' is now 'weekly digests'",
        pending=None,
        decisions=["the Madrid office opens in June", "weekly digests"],
    )


def test_cambiamos_de_idea_y_el_porque_cuenta_lo_que_sustituyo(talk: Conversation) -> None:
    """Un equipo de facturación cambia el precio único por dos planes."""
    talk("crea el proyecto Factura Autónomos", reply="usuarios de", pending="interview")
    talk(
        "hemos decidido un precio único de 9 euros al mes porque es fácil de explicar",
        reply="Registrado en 'Factura Autónomos': un precio único de 9 euros al mes",
        pending="interview",
    )
    talk(
        "cambiamos de idea: habrá dos planes, de 5 y 12 euros, porque los autónomos pedían "
        "uno más barato",
        reply=[
            "¿Sustituyo la decisión 'un precio único de 9 euros al mes' (",
            "por 'habrá dos planes, de 5 y 12 euros' (por qué: los autónomos pedían uno más "
            "barato)?",
            "(sí / no)",
        ],
        pending="decision_change",
        language="es",
    )
    talk(
        "sí, cámbiala",
        reply="Sustituida en 'Factura Autónomos': 'un precio único de 9 euros al mes' ahora es "
        "'habrá dos planes, de 5 y 12 euros'",
        pending=None,
        decisions=["habrá dos planes, de 5 y 12 euros"],
    )
    talk(
        "¿por qué tenemos dos planes?",
        reply=[
            "habrá dos planes, de 5 y 12 euros. Por qué: los autónomos pedían uno más barato",
            "Sustituyó a 'un precio único de 9 euros al mes' (decidida el 2",
        ],
        action="memory.recall",
        pending=None,
        language="es",
    )


def test_borra_la_ultima_decision(talk: Conversation) -> None:
    """'borra la última decisión' nombra la de Sevilla; tras el sí queda la primera."""
    talk("crea el proyecto Ruta Sur", reply="usuarios de", pending="interview")
    talk(
        "decidimos hacer las entrevistas siempre en remoto", reply="Registrado", pending="interview"
    )
    talk("decidimos lanzar primero en Sevilla", reply="Registrado", pending=None)
    talk(
        "borra la última decisión",
        reply=["¿Retiro la decisión 'lanzar primero en Sevilla'", "(sí / no)"],
        not_reply="remoto",
        pending="decision_change",
        language="es",
    )
    talk(
        "sí",
        reply="Retirada en 'Ruta Sur': 'lanzar primero en Sevilla'",
        pending=None,
        decisions=["hacer las entrevistas siempre en remoto"],
    )
    talk(
        "¿qué hemos decidido?",
        reply=[
            "hacer las entrevistas siempre en remoto",
            "Sin listar: 0 sustituida(s) y 1 retirada(s)",
        ],
        not_reply="Sevilla",
        pending=None,
    )


def test_cual_de_las_dos_con_una_pregunta_en_medio(talk: Conversation) -> None:
    """Dos decisiones hablan de clientes: se elige por número; mirar la lista no cierra la
    pregunta, y 'ya no vamos a ...' también pregunta antes de retirar."""
    talk("crea el proyecto Cobro Fácil", reply="usuarios de", pending="interview")
    talk("decidimos probar con clientes de Madrid", reply="Registrado", pending="interview")
    talk("decidimos probar con clientes de Sevilla", reply="Registrado", pending=None)
    talk(
        "olvida la decisión de los clientes",
        reply=[
            "¿Qué decisión retiro?",
            "1. probar con clientes de Sevilla",
            "2. probar con clientes de Madrid",
            "(el número, o no)",
        ],
        pending="decision_change",
        language="es",
    )
    talk(
        "¿qué hemos decidido?",
        reply=["Decisiones de 'Cobro Fácil'", "clientes de Madrid", "¿Qué decisión retiro?"],
        action="decisions.list",
        pending="decision_change",
    )
    talk(
        "la segunda",
        reply="Retirada en 'Cobro Fácil': 'probar con clientes de Madrid'",
        pending=None,
        decisions=["probar con clientes de Sevilla"],
    )
    talk(
        "ya no vamos a probar con clientes de Sevilla porque no hay presupuesto",
        reply=[
            "¿Retiro la decisión 'probar con clientes de Sevilla'",
            "(por qué: no hay presupuesto)",
        ],
        pending="decision_change",
    )
    talk("no, mejor no", reply="No he cambiado nada", pending=None)
    talk("¿qué hemos decidido?", reply="probar con clientes de Sevilla", pending=None)


def test_going_back_before_a_decision_says_where_the_decisions_are(talk: Conversation) -> None:
    """After going back in the tree, a branch without the later decisions says so, never
    'no decisions yet'; going forward again finds them."""
    talk("create project Checkout", reply="Who are the users", pending="interview")
    talk(
        "plan a usability test for the checkout",
        reply="Usability test plan",
        task=ANY_TASK,
        pending="interview",
    )
    talk(
        "we decided to use moderated testing because we need to probe",
        reply="Recorded",
        pending=None,
    )
    talk("write personas for our shoppers", reply="Personas", task=ANY_TASK, pending=None)
    talk("we decided the personas cover first-time buyers", reply="Recorded", pending=None)
    # Creating the project is turns 1-2; its first answer is turn 4, the personas' turn 8.
    talk("go back to turn 4", reply="Go back to turn 4", pending="confirm_goto")
    talk("yes", reply="Now at turn 4", pending=None)
    talk(
        "what have we decided?",
        reply=[
            "use moderated testing",
            "1 more on other branches (list them with 'decisions list --all-branches' or "
            "/decisions all)",
        ],
        not_reply="first-time buyers",
        pending=None,
    )
    talk("go back to turn 1", reply="Go back to turn 1", pending="confirm_goto")
    talk("yes", reply="Now at turn 1", pending=None)
    said = talk(
        "what have we decided?",
        reply="No decisions on this branch of 'Checkout'; 2 on other branches (list them with "
        "'decisions list --all-branches' or /decisions all).",
        not_reply=["yet", "moderated testing"],
        pending=None,
    )
    assert said.finished is not None and said.finished.data["counts"]["elsewhere"] == 2
    # /decisions all: every branch's, each with the turn and branch it was made on.
    every = [e for e in talk.pipeline.act(all_branches()) if isinstance(e, ActionDone)][-1]
    assert "Decisions in 'Checkout', on every branch:" in every.message
    assert "(turn 8, an unnamed branch): the personas cover first-time buyers" in every.message
    assert "(turn 4, an unnamed branch): use moderated testing" in every.message
    talk(
        "forget the moderated testing decision",
        reply="There are no decisions on this branch of 'Checkout' to change; 2 on other branches",
        pending=None,
    )
    talk("go back to turn 10", reply="Go back to turn 10", pending="confirm_goto")
    talk("yes", reply="Now at turn 10", pending=None)
    talk(
        "what have we decided?",
        reply=["use moderated testing", "the personas cover first-time buyers"],
        not_reply="other branches",
        pending=None,
    )


def test_en_otra_rama_la_decision_sigue_como_estaba(talk: Conversation) -> None:
    """Un cambio de idea hecho más adelante no toca la rama que se abrió antes de él."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk(
        "planifica una prueba de usabilidad de la reserva",
        reply="Plan de prueba de usabilidad",
        task=ANY_TASK,
        pending="interview",
    )
    talk("decidimos recordar las citas por SMS", reply="Registrado", pending=None)
    talk(
        "escribe historias de usuario para la reserva",
        reply="Historias de usuario",
        task=ANY_TASK,
        pending=None,
    )
    talk(
        "cambiamos de idea: recordar las citas por WhatsApp porque nadie lee los SMS",
        reply="¿Sustituyo la decisión 'recordar las citas por SMS'",
        pending="decision_change",
    )
    talk("sí", reply="Sustituida en 'Citas'", pending=None)
    talk("¿qué hemos decidido?", reply="por WhatsApp", not_reply="por SMS.", pending=None)
    talk("vuelve al turno 4", reply="¿Vuelvo al turno 4", pending="confirm_goto")
    talk("sí", reply="Ahora estás en el turno 4", pending=None)
    talk(
        "¿qué hemos decidido?",
        reply=["recordar las citas por SMS", "1 más en otras ramas"],
        not_reply="WhatsApp",
        pending=None,
    )
