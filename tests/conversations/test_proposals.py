"""Decisions a model writes in an answer are proposals: nothing is stored until the person
says yes (or picks numbers); "no", a new request, a failed or cancelled answer store nothing.
A fake `claude` CLI replays recorded stream-json runs."""

from __future__ import annotations

from fixtures.fakes import recording

from conversations.talk import Conversation
from design_agent.core.errors import CancelledError, ProviderCrashedError

CRITIQUE = "Plan a design critique of the card layout"
JOURNEY_ES = "necesito un mapa de viaje del cliente para la app"


def _two_decisions(talk: Conversation) -> None:
    talk.use(
        "claude",
        talk.recording(
            "Here is the critique plan. ",
            '<decision rationale="faster feedback">ship weekly</decision> and ',
            "<decision>use cards</decision> done.",
        ),
    )


def test_a_decision_in_an_answer_waits_for_yes(talk: Conversation) -> None:
    """Claude's answer says "use cards"; the designer first declines, then accepts."""
    talk("create project Cards", reply="Who are the users", pending="interview")
    talk.use("claude", recording("run_claude_partial"))
    said = talk(
        CRITIQUE,
        reply=["The answer proposes these decisions:", "1. use cards", "Save them?"],
        not_reply="<decision",
        action="decisions.propose",
        pending="decision_proposal",
        decisions=[],
    )
    assert said.finished is not None and said.finished.provider == "claude"
    talk("no", reply="OK, I did not save them.", pending=None, decisions=[])
    talk(CRITIQUE, reply="1. use cards", pending="decision_proposal", decisions=[])
    talk("yes", reply="Saved 1 decision(s):\n- use cards", pending=None, decisions=["use cards"])
    talk("why did we decide to use cards?", reply=["use cards", "turn #"], pending=None)
    talk(CRITIQUE, reply="Hello from fake server", not_reply="proposes", pending=None)


def test_numbers_pick_which_proposals_to_keep(talk: Conversation) -> None:
    """Two decisions are proposed; "1" keeps only the first, with its rationale."""
    talk("create project Cards", reply="Who are the users", pending="interview")
    _two_decisions(talk)
    talk(
        CRITIQUE,
        reply="1. ship weekly (faster feedback)\n  2. use cards",
        pending="decision_proposal",
    )
    talk("1", reply="Saved 1 decision(s):\n- ship weekly", pending=None, decisions=["ship weekly"])
    talk("show me my decisions", reply="ship weekly. Why: faster feedback", pending=None)


def test_a_new_request_puts_the_proposal_again_once_then_lets_it_go(talk: Conversation) -> None:
    """The designer asks for something else: the proposal is asked again after that answer;
    asked for something else once more, it is let go, and a late "yes" saves nothing."""
    talk("create project Cards", reply="Who are the users", pending="interview")
    _two_decisions(talk)
    talk(CRITIQUE, reply="2. use cards", pending="decision_proposal")
    talk.use("claude", talk.recording("A plain answer with no decisions."))
    talk(
        "create personas for our users",
        reply=["A plain answer", "Still open: The answer proposes these decisions"],
        task="personas",
        pending="decision_proposal",
    )
    talk("what methods do you know?", reply="design methods", not_reply="Still open", pending=None)
    talk("yes", reply="There is no open question", pending=None, decisions=[])


def test_a_failed_or_cancelled_answer_proposes_nothing(talk: Conversation) -> None:
    """The CLI crashes after writing a decision; then the designer presses Ctrl-C mid-answer."""
    talk("create project Cards", reply="Who are the users", pending="interview")
    pieces = ("Partial plan. <decision>use cards</decision> ", "and then more text.")
    talk.use("claude", talk.recording(*pieces), mode="crash", after="1")
    talk(
        CRITIQUE,
        reply="Partial plan.",
        error=ProviderCrashedError,
        exit_code=5,
        pending="interview",
    )
    talk.use("claude", talk.recording(*pieces), mode="replay", delay="0.3")
    talk(
        CRITIQUE,
        reply="answer cancelled",
        interrupt=True,
        error=CancelledError,
        exit_code=130,
        pending=None,
        decisions=[],
    )
    talk("yes", reply="There is no open question", pending=None, decisions=[])


def test_una_decision_propuesta_se_guarda_con_si(talk: Conversation) -> None:
    """In Spanish the proposal is asked in Spanish and "sí" stores it."""
    talk("crea el proyecto Tarjetas", reply="usuarios de Tarjetas", pending="interview")
    talk.use("claude", recording("run_claude_partial"))
    talk(
        JOURNEY_ES,
        reply=["La respuesta propone estas decisiones:", "1. use cards", "¿Las guardo?"],
        task="journey_mapping",
        pending="decision_proposal",
        language="es",
        decisions=[],
    )
    talk("sí", reply="He guardado 1 decisión(es):\n- use cards", pending=None, language="es")
    talk("¿qué hemos decidido?", reply="use cards", pending=None, decisions=["use cards"])


def test_no_u_otra_peticion_descartan_la_propuesta(talk: Conversation) -> None:
    """ "no" drops one proposal, "olvídalo" another; a third is asked again after a new
    request, once, and let go after the next one."""
    talk("crea el proyecto Tarjetas", reply="usuarios de Tarjetas", pending="interview")
    _two_decisions(talk)
    talk(JOURNEY_ES, reply="¿Las guardo?", pending="decision_proposal", language="es")
    talk("no", reply="De acuerdo, no las he guardado.", pending=None, decisions=[])
    talk(JOURNEY_ES, reply="¿Las guardo?", pending="decision_proposal")
    talk("olvídalo", reply="De acuerdo, lo dejo.", pending=None, decisions=[])
    talk(JOURNEY_ES, reply="¿Las guardo?", pending="decision_proposal")
    talk.use("claude", talk.recording("Una respuesta sin decisiones."))
    talk(
        "crea personas de usuario para la app",
        reply=["sin decisiones", "Sigue pendiente"],
        pending="decision_proposal",
    )
    talk("¿qué proyectos tengo?", reply="Tarjetas", not_reply="Sigue pendiente", pending=None)
    talk("sí", reply="No hay ninguna pregunta abierta", pending=None, decisions=[])
