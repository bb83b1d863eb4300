"""Decisions said in words are stored with their reason, listed, and recalled by asking why."""

from __future__ import annotations

from conversations.talk import Conversation


def test_decisions_said_three_ways_are_stored_with_their_reasons(talk: Conversation) -> None:
    """A designer records decisions as they come, mid-interview too, then reviews them."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        "We decided to start with email reminders because accountants live in their inbox",
        reply="Recorded in 'Ledgerly': start with email reminders. Why: accountants live in",
        action="decisions.record",
        pending="interview",
        decisions=["start with email reminders"],
    )
    talk(
        "decision: a weekly digest because daily mails are noise",
        reply="Why: daily mails are noise",
        pending=None,
        decisions=["start with email reminders", "a weekly digest"],
    )
    talk("record a decision: no SMS", reply="Recorded in 'Ledgerly': no SMS. Why: -", pending=None)
    talk(
        "show me my decisions",
        reply=["- ", "no SMS", "a weekly digest", "start with email reminders"],
        action="decisions.list",
        pending=None,
    )
    talk(
        "why did we start with email reminders?",
        reply="start with email reminders. Why: accountants live in their inbox",
        action="memory.recall",
        pending=None,
    )
    assert talk.decisions() == ["start with email reminders", "a weekly digest", "no SMS"]


def test_a_decision_interrupts_a_question_and_a_recall_finds_nothing(talk: Conversation) -> None:
    """A decision said while "did you mean?" waits is recorded; an unknown topic is not made up."""
    talk("create project Acme Admin Portal", reply="Who are the users", pending="interview")
    talk("switch to acm", reply="Did you mean", pending="confirm_switch")
    talk(
        "we agreed to keep the sidebar because admins use it daily",
        reply="Recorded",
        pending="confirm_switch",
    )
    talk("why did we choose moderated testing?", reply="I found no recorded decision", pending=None)
    talk("what have we decided so far?", reply="keep the sidebar", pending=None)
    assert talk.decisions() == ["keep the sidebar"]


def test_decisiones_dichas_en_espanol(talk: Conversation) -> None:
    """A Spanish-speaking team records decisions their way and asks what they decided."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk(
        "decidimos usar WhatsApp porque los clientes lo usan a diario",
        reply="Registrado en 'Cobros': usar WhatsApp. Por qué: los clientes lo usan a diario",
        pending="interview",
        language="es",
        decisions=["usar WhatsApp"],
    )
    talk(
        "hemos decidido cobrar por adelantado ya que los impagos nos hunden",
        reply="Por qué: los impagos nos hunden",
        pending=None,
    )
    talk(
        "decisión: sin app nativa porque el presupuesto no llega", reply="Registrado", pending=None
    )
    talk(
        "¿qué hemos decidido?",
        reply=["Decisiones de 'Cobros'", "usar WhatsApp", "sin app nativa"],
        action="decisions.list",
        pending=None,
    )
    talk(
        "¿por qué decidimos usar WhatsApp?",
        reply="usar WhatsApp. Por qué: los clientes lo usan a diario",
        action="memory.recall",
        pending=None,
        language="es",
    )
    assert talk.decisions() == ["usar WhatsApp", "cobrar por adelantado", "sin app nativa"]


def test_una_decision_en_mitad_de_la_entrevista(talk: Conversation) -> None:
    """The interview asks about users; the person records a decision instead, then lists."""
    talk(
        "empiezo un proyecto nuevo llamado Reservas",
        reply="usuarios de Reservas",
        pending="interview",
    )
    talk(
        "anota una decisión: reservas sin registro porque la mitad abandona",
        reply="Registrado en 'Reservas': reservas sin registro",
        pending="interview",
    )
    talk("muéstrame las decisiones", reply="reservas sin registro", pending=None, language="es")
    talk("¿por qué elegimos el test moderado?", reply="No encuentro ninguna decisión", pending=None)
    assert talk.metadata() == {}, "the decision was not taken as the interview's answer"


def test_las_decisiones_sobreviven_a_un_reinicio(talk: Conversation) -> None:
    """A decision recorded today is recalled after the terminal was closed and reopened."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk(
        "decidimos recordar las citas por SMS porque nadie abre el correo",
        reply="Registrado en 'Citas': recordar las citas por SMS",
        pending="interview",
    )
    talk.restart()
    talk(
        "¿por qué decidimos recordar las citas por SMS?",
        reply="recordar las citas por SMS. Por qué: nadie abre el correo",
        pending=None,
        project="Citas",
        language="es",
    )
    talk(
        "renombra este proyecto a Citas Pro",
        reply="He renombrado 'Citas' a 'Citas Pro'.",
        pending=None,
    )
    talk("¿qué proyectos tengo?", reply="* Citas Pro (8 turnos, 1 decisiones)", pending=None)
