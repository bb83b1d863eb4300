"""A continuation that adds to the answer, names who it is for now or says the situation it
must fit goes on from the answer, however it is worded: "add the case where ...", "añade una
para ...", a Spanish edit verb with the answer joined to it ("revísala", "redúcelo"), or a
statement of how things are ("es remota y solo dura 40 minutos"). A request for another
method after them is still answered as that method."""

from __future__ import annotations

from conversations.talk import Conversation

CRITERIA = "write the acceptance criteria for the password reset story"
CRITERIOS = (
    "redacta los criterios de aceptación en formato dado/cuando/entonces para recuperar la"
    " contraseña"
)


def test_adding_a_case_to_the_criteria_keeps_them(talk: Conversation) -> None:
    """A PO gets acceptance criteria, adds the case of a used link, then asks for the next
    piece of work, a stakeholder map, which is answered as one."""
    talk("create project Keyring", reply="Who are the users", pending="interview")
    talk(CRITERIA, reply="Acceptance criteria", task="acceptance_criteria", pending="interview")
    talk(
        "add the case where the reset link was already used",
        reply=["Acceptance criteria", "add the case where the reset link was already used"],
        task="acceptance_criteria",
        pending=None,
    )
    talk(
        "legal, support, marketing and the bank partners all have opinions on this. who do I"
        " keep close and who just needs a monthly email?",
        reply="Stakeholder map",
        not_reply="Acceptance criteria",
        task="stakeholder_mapping",
        pending=None,
    )


def test_un_caso_nuevo_en_los_criterios_los_sigue(talk: Conversation) -> None:
    """Una PO pide los criterios de aceptación y añade el caso de un usuario con cuenta."""
    talk(CRITERIOS, reply="Criterios de aceptación", task="acceptance_criteria", pending=None)
    talk(
        "añade el caso de que el usuario ya tenga una cuenta",
        reply=["Criterios de aceptación", "añade el caso de que el usuario ya tenga una cuenta"],
        task="acceptance_criteria",
        pending=None,
        language="es",
    )


def test_revisala_y_reducelo_editan_la_respuesta(talk: Conversation) -> None:
    """Tras una revisión de localización, "ahora revísala también para México" la repite
    para otro mercado; tras una crítica, la situación ("es remota y solo dura 40
    minutos") la ajusta."""
    talk(
        "haz una revisión de localización de la app en español de España",
        reply="Revisión de localización",
        task="localization_review",
        pending=None,
    )
    talk(
        "ahora revísala también para México",
        reply=["Revisión de localización", "ahora revísala también para México"],
        task="localization_review",
        pending=None,
        language="es",
    )
    talk(
        "prepara una crítica de diseño de los conceptos del checkout",
        reply="Crítica de diseño",
        task="design_critique",
        pending=None,
    )
    talk(
        "es remota y solo dura 40 minutos",
        reply=["Crítica de diseño", "es remota y solo dura 40 minutos"],
        task="design_critique",
        pending=None,
        language="es",
    )


def test_a_list_of_competitors_is_a_competitive_analysis(talk: Conversation) -> None:
    """A PM names three banks and asks what is standard: a competitive analysis."""
    talk(
        "how do Wise, Revolut and N26 handle freezing a card? I want to see what's standard"
        " and where we could stand out",
        reply="Competitive analysis",
        task="competitive_analysis",
        pending=None,
    )
