"""Whether a message goes on from the last answer is read from what it says of the answer:
"why two weeks?" questions it, "..., adapt it" edits it, "que dure una hora" says how it
should be; a question that half-names another method and nothing of the answer asks for
that method, however it opens ("and what do new users see ...?")."""

from __future__ import annotations

from conversations.talk import Conversation

AB_TEST = "plan an A/B test of the new pricing page"
RETRO = "prepara la retrospectiva del final del proyecto"


def test_questioning_the_plan_keeps_it_and_another_question_does_not(talk: Conversation) -> None:
    """After an A/B test plan, the PM questions its length, then asks about empty dashboards."""
    talk("create project Tally", reply="Who are the users", pending="interview")
    talk(AB_TEST, reply="A/B test", task="ab_testing", pending="interview")
    talk(
        "why two weeks? we have traffic for one",
        reply=["A/B test", "why two weeks? we have traffic for one"],
        task="ab_testing",
        pending=None,
    )
    talk(
        "and what do new users see on the dashboard when there's no data yet?",
        reply="Empty states",
        not_reply="A/B test",
        task="empty_states",
        pending=None,
    )


def test_un_deseo_sobre_la_respuesta_la_sigue(talk: Conversation) -> None:
    """Tras un test de usabilidad y una retrospectiva, "que dure una hora y media" y
    "somos todos remotos, adáptalo" ajustan la retrospectiva."""
    talk("crea el proyecto Faro", reply="usuarios de Faro", pending="interview")
    talk(
        "planifica un test de usabilidad del registro",
        reply="Plan de prueba de usabilidad",
        task="usability_test_plan",
        pending="interview",
    )
    talk(RETRO, reply="Retrospectiva", task="retrospective", pending=None)
    talk(
        "que dure una hora y media",
        reply=["Retrospectiva", "que dure una hora y media"],
        task="retrospective",
        pending=None,
        language="es",
    )
    talk(
        "somos todos remotos, adáptalo",
        reply=["Retrospectiva", "somos todos remotos, adáptalo"],
        task="retrospective",
        pending=None,
        language="es",
    )
