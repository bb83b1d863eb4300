"""Starting a project by talking: its name said every way, asked once when missing, and the
three-question interview, which never swallows a request said in the middle of it."""

from __future__ import annotations

from conversations.talk import ANY_TASK, Conversation


def test_the_interview_does_not_swallow_a_request(talk: Conversation) -> None:
    """A designer starts Ledgerly, then asks other things before answering the interview."""
    talk(
        "I'm starting a new project for a B2B invoicing app called Ledgerly",
        reply=["switched to project 'Ledgerly'", "Who are the users of Ledgerly?"],
        action="projects.create",
        pending="interview",
        project="Ledgerly",
    )
    assert talk.metadata() == {"description": "B2B invoicing app"}
    talk(
        "what projects do I have?", reply="* Ledgerly", action="projects.list", pending="interview"
    )
    talk("can you plan a usability test?", reply="Usability test plan", pending=None, task=ANY_TASK)
    assert talk.metadata() == {"description": "B2B invoicing app"}, "nothing taken as an answer"


def test_a_project_without_a_name_is_asked_its_name_once(talk: Conversation) -> None:
    """The designer describes the project but names it only when asked, then answers."""
    talk(
        "I'm starting a new project for a mobile checkout redesign",
        reply="What should the new project be called?",
        pending="project_name",
        project=None,
    )
    talk("call it Northwind", reply="Who are the users of Northwind?", pending="interview")
    talk("first-time buyers on phones", reply="What problem are you solving", pending="interview")
    talk("skip", reply="Any constraints", pending="interview")
    talk("launch in May, two developers", reply="saved that as the project's context", pending=None)
    assert talk.metadata() == {
        "description": "mobile checkout redesign",
        "users": "first-time buyers on phones",
        "constraints": "launch in May, two developers",
    }
    assert talk.project_names() == ["Northwind"], "asked once, created once"


def test_every_way_of_naming_a_new_project(talk: Conversation) -> None:
    """Someone opens several projects in a row, never finishing an interview."""
    talk("create project Atlas", reply="Who are the users of Atlas?", pending="interview")
    talk("I'm working on a new project, Orion", reply="project 'Orion'", pending="interview")
    talk("let's start another project, Vega", reply="project 'Vega'", pending="interview")
    talk('new project "Nova Bank"', reply="users of Nova Bank?", pending="interview")
    talk("I want a new project for a grocery app", reply="be called?", pending="project_name")
    talk(
        "plan a usability test for the new checkout",
        reply="Usability test plan",
        pending="project_name",
    )
    talk("I want a new project for a grocery app", reply="be called?", pending="project_name")
    talk('"Fresh Cart"', reply="project 'Fresh Cart'", pending="interview", project="Fresh Cart")
    assert talk.project_names() == ["Atlas", "Fresh Cart", "Nova Bank", "Orion", "Vega"]
    assert talk.state("Atlas").pending is None, "leaving a project drops its interview"


def test_switching_away_mid_interview_drops_it(talk: Conversation) -> None:
    """Halfway through the interview the designer remembers another project."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk("create project Checkout", reply="Who are the users of Checkout?", pending="interview")
    talk("small-business owners", reply="What problem", pending="interview")
    talk("switch to ledgerly", reply="Switched to 'Ledgerly'", pending=None, project="Ledgerly")
    talk("switch to checkout", reply="Switched to 'Checkout'", pending=None, project="Checkout")
    talk("plan a usability test for the new checkout", reply="Usability test plan", pending=None)
    assert talk.metadata() == {"users": "small-business owners"}


def test_a_restart_in_the_middle_of_the_interview(talk: Conversation) -> None:
    """The terminal closes after the first question; the next session starts with work."""
    talk("create project Ledgerly", reply="Who are the users of Ledgerly?", pending="interview")
    talk("accountants at small firms", reply="What problem", pending="interview")
    talk.restart()
    talk(
        "plan a usability test for the new checkout",
        reply="Usability test plan",
        task="usability_test_plan",
        pending="interview",
        project="Ledgerly",
    )
    talk("make it cover the mobile app too", reply="mobile app", task=ANY_TASK, pending=None)
    assert talk.metadata() == {"users": "accountants at small firms"}


def test_la_entrevista_no_se_traga_una_peticion(talk: Conversation) -> None:
    """A designer starts a project in Spanish and asks for a list before answering."""
    talk(
        "empiezo un proyecto nuevo llamado Tienda Café",
        reply=["He creado el proyecto 'Tienda Café'", "¿Quiénes son los usuarios de Tienda Café?"],
        action="projects.create",
        pending="interview",
        language="es",
    )
    talk("saltar", reply="¿Qué problema les estás resolviendo?", pending="interview")
    talk("¿qué proyectos tengo?", reply="Tus proyectos:\n* Tienda Café", pending="interview")
    talk("haz un mapa de recorrido del cliente", reply="Mapa de viaje del cliente", pending=None)
    assert talk.metadata() == {}


def test_un_proyecto_sin_nombre_pregunta_el_nombre(talk: Conversation) -> None:
    """Someone describes a bookings app, names it when asked, and asks for work mid-interview."""
    talk(
        "empiezo un proyecto nuevo para una app de reservas",
        reply="¿Cómo se llamará el nuevo proyecto?",
        pending="project_name",
        project=None,
        language="es",
    )
    talk("llámalo Reservas Ya", reply="usuarios de Reservas Ya?", pending="interview")
    talk("dueños de restaurantes pequeños", reply="¿Qué problema", pending="interview")
    talk(
        "planifica un test de usabilidad del registro",
        reply="Plan de prueba de usabilidad",
        task="usability_test_plan",
        pending="interview",
        language="es",
    )
    assert talk.metadata() == {
        "description": "app de reservas",
        "users": "dueños de restaurantes pequeños",
    }


def test_saltar_sin_nombre_usa_la_descripcion(talk: Conversation) -> None:
    """Asked for a name, the person says "saltar": the project is named after its purpose."""
    talk(
        "quiero un proyecto nuevo para rediseñar el checkout móvil",
        reply="¿Cómo se llamará",
        pending="project_name",
    )
    talk("saltar", reply="proyecto 'Rediseñar el checkout móvil'", pending="interview")
    talk("saltar", reply="¿Qué problema", pending="interview")
    talk("saltar", reply="¿Alguna restricción", pending="interview")
    talk("saltar", reply="lo he guardado como contexto", pending=None)
    assert talk.metadata() == {"description": "rediseñar el checkout móvil"}
    assert talk.project_names() == ["Rediseñar el checkout móvil"]


def test_cambiar_de_proyecto_en_mitad_de_la_entrevista(talk: Conversation) -> None:
    """Mid-interview the person goes back to another project, by a name in lower case."""
    talk("crea el proyecto Ledgerly", reply="¿Quiénes son los usuarios", pending="interview")
    talk("crea el proyecto Cobros", reply="He creado el proyecto 'Cobros'", pending="interview")
    talk("cambia a ledgerly", reply="Ahora estás en 'Ledgerly'", pending=None, language="es")
    assert talk.state("Cobros").pending is None
    assert talk.metadata("Cobros") == {}


def test_reiniciar_en_mitad_de_la_entrevista(talk: Conversation) -> None:
    """The session ends after the first question; the next one opens with a request."""
    talk(
        "empiezo un proyecto nuevo llamado Cobros", reply="usuarios de Cobros?", pending="interview"
    )
    talk.restart()
    talk(
        "necesito un mapa de viaje del cliente para la app",
        reply="Mapa de viaje del cliente",
        task="journey_mapping",
        pending="interview",
        project="Cobros",
        language="es",
    )
    assert talk.metadata() == {}, "the request was not stored as the users' answer"


def test_una_peticion_no_es_el_nombre_del_proyecto(talk: Conversation) -> None:
    """Asked for the new project's name, the person asks for work instead: no project is made."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk(
        "empiezo un proyecto nuevo para una app de citas",
        reply="¿Cómo se llamará",
        pending="project_name",
    )
    talk(
        "haz un mapa de recorrido del cliente",
        reply="Mapa de viaje del cliente",
        task="journey_mapping",
        pending="project_name",
        project="Citas",
        language="es",
    )
    assert talk.project_names() == ["Citas"]
