"""Users manage projects, providers, files, decisions and the conversation by saying so.

Each row is a message as a person types it (English or Spanish, typos, shouting,
trailing punctuation) and the envelope it must become, or None when it is a design
request for task matching. The envelope's input is compared whole, so a change in a
name, a path or a rationale shows up here.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from design_agent.actions import ActionEnvelope
from design_agent.understanding.inputs import CreateProject, HistoryCount, Rerender
from design_agent.understanding.intents import detect_action

PROVIDERS = ["claude", "gemini", "codex", "offline", "llm", "ollama"]
PROJECTS = ["Atlas", "Acme", "Ledgerly", "Mobile Checkout", "Enterprise Dashboard"]

Expected = tuple[str, dict[str, Any]] | None


def create(name: str | None = None, description: str | None = None) -> Expected:
    return "projects.create", {"name": name, "description": description}


def switch(name: str) -> Expected:
    return "projects.switch", {"name": name}


def delete(name: str | None = None) -> Expected:
    return "projects.delete", {"name": name}


def rename(old: str | None, new: str) -> Expected:
    return "projects.rename", {"old": old, "new": new}


def use(name: str) -> Expected:
    return "providers.use", {"name": name}


def recall(query: str) -> Expected:
    return "memory.recall", {"query": query}


def search(query: str, all_projects: bool = False) -> Expected:
    return "memory.search", {"query": query, "all_projects": all_projects}


def add_file(path: str, file_type: str) -> Expected:
    return "files.add", {"path": path, "file_type": file_type}


def record(decision: str, rationale: str = "") -> Expected:
    return "decisions.record", {"decision": decision, "rationale": rationale}


def history(count: int = 10) -> Expected:
    return "history.show", {"count": count}


def small_talk(kind: str) -> Expected:
    return "conversation.small_talk", {"kind": kind}


def rerender(verbosity: str | None = None, language: str | None = None) -> Expected:
    return "conversation.rerender", {"verbosity": verbosity, "language": language}


PROJECT_LIST: Expected = ("projects.list", {})
DECISIONS: Expected = ("decisions.list", {})
METHODS: Expected = ("catalogue.methods", {})
HELP: Expected = ("conversation.help", {})
CANCEL: Expected = ("conversation.cancel", {})

ENGLISH: list[tuple[str, Expected]] = [
    # projects.create: a name only when the user gave one; never "app called Ledgerly"
    (
        "I'm starting a new project for a B2B invoicing app called Ledgerly",
        create("Ledgerly", "B2B invoicing app"),
    ),
    (
        "starting a new project for a mobile checkout redesign",
        create(None, "mobile checkout redesign"),
    ),
    ("Create a project called Enterprise Dashboard", create("Enterprise Dashboard")),
    ("create a project named Orion.", create("Orion")),
    ("create project Atlas", create("Atlas")),
    ("I'm working on a new project, Atlas", create("Atlas")),
    ("let's start another project, Orion", create("Orion")),
    ("new project: Nimbus", create("Nimbus")),
    ("create a project 'Atlas'", create("Atlas")),
    ("start a new project “Northwind”", create("Northwind")),
    ("I'm starting a new project. Call it Atlas.", create("Atlas")),
    ("let's start a new project", create()),
    ("New project!", create()),
    (
        "can you create a new project called Atlas for the billing team?",
        create("Atlas", "billing team"),
    ),
    ("create a new project called Atlas for the billing team", create("Atlas", "billing team")),
    ('Let\'s start a new project called "Design for Good"', create("Design for Good")),
    ("start a new project called Design for Good", create("Design for Good")),
    ("creat a project called Vega", create("Vega")),
    ("create a project plan for the launch", None),
    ("a new project onboarding checklist", None),
    ("should I start a new project for this?", None),
    ("we're starting a new project on monday, help me run the kickoff", None),
    # projects.switch / list / delete / rename
    ("switch to Enterprise Dashboard", switch("Enterprise Dashboard")),
    ("go back to Mobile Checkout", switch("Mobile Checkout")),
    ("switch to ledgerly", switch("ledgerly")),
    ("open the Atlas project", switch("Atlas")),
    ("let's work on Acme", switch("Acme")),
    ("switch to this project", None),
    ("switch to the next step", None),
    ("go back to the previous version", None),
    ("what projects do I have?", PROJECT_LIST),
    ("list my projects", PROJECT_LIST),
    ("delete this project", delete()),
    ("delete the Acme project", delete("Acme")),
    ("delete Acme", delete("Acme")),
    ("delet the Acme project", delete("Acme")),
    ("remove the empty state from the dashboard", None),
    ("delete the project settings page from the sitemap", None),
    ("rename this project to Checkout 2.0", rename(None, "Checkout 2.0")),
    ("rename Acme to Atlas Pro", rename("Acme", "Atlas Pro")),
    ("call this project Orion", rename(None, "Orion")),
    ("rename the Sign up step to Register", None),
    # providers.use, offline included; only adapters that exist
    ("use gemini from now on", use("gemini")),
    ("Use Gemini from now on.", use("gemini")),
    ("switch to codex", use("codex")),
    ("SWITCH TO CODEX!!", use("codex")),
    ("swich to gemini", use("gemini")),
    ("use claude code", use("claude")),
    ("switch to chatgpt", use("codex")),
    ("go back to offline answers", use("offline")),
    ("use the offline mode", use("offline")),
    ("without AI", use("offline")),
    ("use chatgpt-web from now on", None),
    ("use personas to plan the research", None),
    # memory
    ("why did we go with moderated testing?", recall("why did we go with moderated testing")),
    ("what did we decide about the navigation?", recall("what did we decide about the navigation")),
    (
        "what have we decided so far about the pricing page?",
        recall("what have we decided so far about the pricing page"),
    ),
    ("remind me why we chose Stripe", recall("remind me why we chose Stripe")),
    (
        "did I solve something similar in another project?",
        search("did I solve something similar in another project", True),
    ),
    ("search for card sorting", search("search for card sorting")),
    ("have we done a card sort before?", search("have we done a card sort before")),
    ("search for competitors in the invoicing space", None),
    ("why are we losing users?", None),
    # files.add: whole paths, spaces and quotes; folders and images too
    ("here is the brief: ./brief.pdf", add_file("./brief.pdf", "brief")),
    ("here is the brief: ./my brief.md", add_file("./my brief.md", "brief")),
    ('"~/Docs/Q3 research.pdf"', add_file("~/Docs/Q3 research.pdf", "research")),
    ("here is the brief: ./docs/", add_file("./docs/", "brief")),
    ("here's the logo: ./logo.png", add_file("./logo.png", "design")),
    ("upload ./my brief.md please", add_file("./my brief.md", "brief")),
    ("here are the interview notes: notes/round 1.txt", add_file("notes/round 1.txt", "research")),
    ("redesign the /settings page", None),
    ("check out https://example.com/brief.pdf", None),
    # decisions
    (
        "We decided to start with email reminders because accountants live in their inbox",
        record("start with email reminders", "accountants live in their inbox"),
    ),
    ("decision: monthly billing because finance asked", record("monthly billing", "finance asked")),
    ("record a decision: use Stripe", record("use Stripe")),
    (
        "let's go with moderated testing because remote sessions failed",
        record("moderated testing", "remote sessions failed"),
    ),
    (
        "we've decided on weekly digests since people ignore daily ones",
        record("weekly digests", "people ignore daily ones"),
    ),
    ("let's go with a journey map", None),
    ("decision matrix for vendors", None),
    ("we need to decide how to prioritise the backlog", None),
    ("how do we decide?", None),
    ("we decided to run a survey, what questions should we ask?", None),
    ("show me my decisions", DECISIONS),
    ("what have we decided so far?", DECISIONS),
    ("list the decisions", DECISIONS),
    # history
    ("show the history", history()),
    ("show me the last 5 turns", history(5)),
    ("show me the last message", history(1)),
    ("show the last 500 turns", history(200)),
    ("what have we talked about?", history()),
    ("show me the histroy", history()),
    # catalogue and help
    ("what methods do you know?", METHODS),
    ("which methods can you run?", METHODS),
    ("list the methods", METHODS),
    ("what methods should we use for onboarding research?", None),
    ("what can you do?", HELP),
    # The last request again, on another provider (a branch beside the first answer).
    ("try that again with gemini", ("conversation.rerender", {"provider": "gemini"})),
    ("¿qué diría codex?", ("conversation.rerender", {"provider": "codex"})),
    ("compara claude y gemini", ("conversation.compare", {"providers": ["claude", "gemini"]})),
    ("compare with codex", ("conversation.compare", {"providers": ["codex"]})),
    # Going back in the conversation tree (confirmed by the handler before moving).
    (
        "go back to before we chose moderated testing",
        ("tree.back", {"decision": "moderated testing"}),
    ),
    (
        "vuelve a antes de decidir el pago con tarjeta",
        ("tree.back", {"decision": "el pago con tarjeta"}),
    ),
    ("go back to turn 3", ("tree.back", {"target": "3"})),
    ("vuelve a la rama remota", ("tree.back", {"target": "remota"})),
    # Asking what the assistant is: answered as help, never as a chatbot design request.
    ("are you a bot or a human?", HELP),
    ("¿eres un robot?", HELP),
    ("am I talking to a person?", HELP),
    ("help", HELP),
    ("how does this work?", HELP),
    ("how do I create a project?", HELP),
    ("help me plan a usability test", None),
    # small talk, only on its own
    ("hello", small_talk("greeting")),
    ("hi!", small_talk("greeting")),
    ("good morning", small_talk("greeting")),
    ("thanks!", small_talk("thanks")),
    ("thnaks", small_talk("thanks")),
    ("great, thanks!", small_talk("thanks")),
    ("cheers", small_talk("thanks")),
    ("how are you?", small_talk("how_are_you")),
    ("hi, how are you?", small_talk("how_are_you")),
    ("thanks, bye!", small_talk("bye")),
    ("hi, plan a usability test", None),
    # cancel, only the whole message
    ("nevermind", CANCEL),
    ("never mind", CANCEL),
    ("Cancel.", CANCEL),
    ("forget it", CANCEL),
    ("nevermnd", CANCEL),
    # rerender
    ("make it shorter", rerender("brief")),
    ("shorter please", rerender("brief")),
    ("too long", rerender("brief")),
    ("That's too long!", rerender("brief")),
    ("more detail", rerender("detailed")),
    ("make it longer", rerender("detailed")),
    ("expand on that", rerender("detailed")),
    ("in Spanish", rerender(language="es")),
    ("in English please", rerender(language="en")),
    ("switch to Spanish", rerender(language="es")),
    ("shorter and in Spanish", rerender("brief", "es")),
    ("Make It Shorter", rerender("brief")),
    ("make a journey map shorter than the last one", None),
    ("write a persona in Spanish", None),
    # design requests
    ("plan a usability test", None),
    ("can you plan a usability test?", None),
    ("who are our competitors and how do they handle reminders", None),
    ("I need a journey map for our onboarding", None),
    ("write user stories for the project settings page", None),
    ("switch the onboarding to a wizard", None),
]

SPANISH: list[tuple[str, Expected]] = [
    # projects.create
    (
        "estoy empezando un proyecto para una app de facturación B2B llamada Ledgerly",
        create("Ledgerly", "app de facturación B2B"),
    ),
    (
        "empiezo un proyecto nuevo para el rediseño del checkout móvil",
        create(None, "rediseño del checkout móvil"),
    ),
    ("crea un proyecto llamado Rediseño Móvil", create("Rediseño Móvil")),
    ("quiero crear un proyecto nuevo que se llama Faro", create("Faro")),
    ("nuevo proyecto: Nimbo", create("Nimbo")),
    ("Nuevo proyecto. Llámalo Atlas.", create("Atlas")),
    ("crea un proyecto llamado “Casa Ñandú”", create("Casa Ñandú")),
    ("crea un proyecto llamado Casa con Alma para la ONG", create("Casa con Alma", "ONG")),
    ("tengo un proyecto nuevo: Pegaso", create("Pegaso")),
    ("otro proyecto, Luna", create("Luna")),
    ("crea el proyecto Atlas", create("Atlas")),
    ("empecemos un proyecto nuevo", create()),
    ("crea un proyecto de investigación con usuarios", create(None, "investigación con usuarios")),
    ("el lunes empezamos el proyecto con todo el equipo del cliente", None),
    ("empiezo un proyecto nuevo, ¿me ayudas con la investigación?", None),
    # projects.switch / list / delete / rename
    ("cambia al proyecto Enterprise Dashboard", switch("Enterprise Dashboard")),
    ("abre el proyecto Atlas", switch("Atlas")),
    ("volvamos a Atlas", switch("Atlas")),
    ("vamos al proyecto Mobile Checkout", switch("Mobile Checkout")),
    ("cambia a este proyecto", None),
    ("volvamos al paso anterior", None),
    ("¿qué proyectos tengo?", PROJECT_LIST),
    ("muéstrame mis proyectos", PROJECT_LIST),
    ("borra este proyecto", delete()),
    ("elimina el proyecto actual", delete()),
    ("borra el proyecto Acme", delete("Acme")),
    ("¿puedes borrar el proyecto Acme?", delete("Acme")),
    ("borra Acme", delete("Acme")),
    ("renombra Acme a Atlas", rename("Acme", "Atlas")),
    ("renombra el proyecto a Faro", rename(None, "Faro")),
    ("cambia el nombre del proyecto a Faro Azul", rename(None, "Faro Azul")),
    # providers.use
    ("cambia a Claude", use("claude")),
    ("usa gemini de ahora en adelante", use("gemini")),
    ("usa el modo offline", use("offline")),
    ("sin IA", use("offline")),
    ("responde sin IA, por favor", use("offline")),
    ("pásate a Codex", use("codex")),
    # memory
    (
        "¿por qué decidimos hacer pruebas moderadas?",
        recall("por qué decidimos hacer pruebas moderadas"),
    ),
    ("¿qué decidimos sobre la navegación?", recall("qué decidimos sobre la navegación")),
    (
        "¿qué hemos decidido hasta ahora del buscador?",
        recall("qué hemos decidido hasta ahora del buscador"),
    ),
    ("recuérdame por qué elegimos Stripe", recall("recuérdame por qué elegimos Stripe")),
    (
        "¿resolví algo parecido en otro proyecto?",
        search("resolví algo parecido en otro proyecto", True),
    ),
    ("busca entrevistas sobre precios", search("busca entrevistas sobre precios")),
    ("¿hemos hecho algo parecido antes?", search("hemos hecho algo parecido antes")),
    ("busca participantes para un test", None),
    ("¿por qué los usuarios abandonan el checkout?", None),
    # files.add
    ('aquí está el brief: "./mi brief.pdf"', add_file("./mi brief.pdf", "brief")),
    ("aquí está el brief: docs/brief.md", add_file("docs/brief.md", "brief")),
    (
        "te paso la investigación: ~/Documentos/entrevistas Q3.pdf",
        add_file("~/Documentos/entrevistas Q3.pdf", "research"),
    ),
    ("sube ./diseños/portada final.png", add_file("./diseños/portada final.png", "design")),
    ("aquí tienes la carpeta: ./mis docs/", add_file("./mis docs/", "other")),
    ("rediseña la página /ajustes", None),
    # decisions
    (
        "decidimos empezar con recordatorios por email porque los contables viven en su bandeja",
        record("empezar con recordatorios por email", "los contables viven en su bandeja"),
    ),
    ("hemos decidido lanzar en marzo", record("lanzar en marzo")),
    (
        "anota la decisión: usar Stripe porque es más barato",
        record("usar Stripe", "es más barato"),
    ),
    ("decisión: sin app móvil", record("sin app móvil")),
    (
        "vamos con Stripe ya que tiene mejor documentación",
        record("Stripe", "tiene mejor documentación"),
    ),
    ("vamos con un mapa de empatía", None),
    ("necesitamos decidir cómo priorizar el backlog", None),
    ("matriz de decisión para proveedores", None),
    ("muéstrame las decisiones", DECISIONS),
    ("¿qué hemos decidido?", DECISIONS),
    ("¿Qué decisiones hemos tomado hasta ahora?", DECISIONS),
    # history
    ("muestra el historial", history()),
    ("¿de qué hemos hablado?", history()),
    ("muéstrame los últimos 3 mensajes", history(3)),
    ("muestra los últimos veinte turnos", history(20)),
    ("¿dónde estábamos?", history()),
    # catalogue and help
    ("¿qué métodos conoces?", METHODS),
    ("qué técnicas sabes hacer", METHODS),
    ("lista los métodos disponibles", METHODS),
    ("ayuda", HELP),
    ("¿qué puedes hacer?", HELP),
    ("¿cómo funciona esto?", HELP),
    ("¿en qué me puedes ayudar?", HELP),
    ("¿cómo creo un proyecto?", HELP),
    ("ayúdame a planificar un test de usabilidad", None),
    # small talk
    ("hola", small_talk("greeting")),
    ("buenas", small_talk("greeting")),
    ("¡Buenos días!", small_talk("greeting")),
    ("gracias", small_talk("thanks")),
    ("graicas!", small_talk("thanks")),
    ("muchas gracias, ¡genial!", small_talk("thanks")),
    ("¿qué tal?", small_talk("how_are_you")),
    ("hola, ¿qué tal?", small_talk("how_are_you")),
    ("¿cómo estás?", small_talk("how_are_you")),
    ("adiós", small_talk("bye")),
    ("hasta luego", small_talk("bye")),
    ("hola, necesito un mapa de empatía", None),
    # cancel
    ("olvídalo", CANCEL),
    ("da igual", CANCEL),
    ("déjalo", CANCEL),
    ("Olvídalo.", CANCEL),
    ("no importa", CANCEL),
    # rerender
    ("más corto", rerender("brief")),
    ("más corto, por favor", rerender("brief")),
    ("MÁS CORTO!!!", rerender("brief")),
    ("resúmelo", rerender("brief")),
    ("es demasiado largo", rerender("brief")),
    ("más detallado", rerender("detailed")),
    ("hazlo más largo", rerender("detailed")),
    ("dame más detalles", rerender("detailed")),
    ("en español", rerender(language="es")),
    ("en inglés", rerender(language="en")),
    ("traduce al inglés", rerender(language="en")),
    ("más corto y en inglés", rerender("brief", "en")),
    ("hazme un mapa de empatía más detallado", None),
    ("resume las entrevistas", None),
    # more of the same, typed the way people type
    ("Crea un proyecto llamado Bosque.", create("Bosque")),
    ("empezamos otro proyecto, Sirius", create("Sirius")),
    ("¿Puedes crear un proyecto que se llame Delta?", create("Delta")),
    ("CAMBIA AL PROYECTO ATLAS", switch("ATLAS")),
    ("cámbiate al proyecto Acme, por favor", switch("Acme")),
    ("retoma el proyecto Ledgerly", switch("Ledgerly")),
    ("¿cuáles son mis proyectos?", PROJECT_LIST),
    ("elimina el proyecto Acme", delete("Acme")),
    ("renombra el proyecto Acme a Acme Pro", rename("Acme", "Acme Pro")),
    ("cambia el proveedor a codex", use("codex")),
    ("vuelve al modo offline", use("offline")),
    ("usa Ollama por favor", use("ollama")),
    ("cambia a Gemnii", use("gemini")),
    (
        "¿qué habíamos decidido sobre los precios?",
        recall("qué habíamos decidido sobre los precios"),
    ),
    (
        "¿hablamos de accesibilidad en otro proyecto?",
        search("hablamos de accesibilidad en otro proyecto", True),
    ),
    (
        'aquí está la investigación: "~/Mis Documentos/encuesta final.pdf"',
        add_file("~/Mis Documentos/encuesta final.pdf", "research"),
    ),
    ("adjunto el brief ./brief_v2.docx", add_file("./brief_v2.docx", "brief")),
    (
        "acordamos priorizar móvil porque el 70% del tráfico es móvil",
        record("priorizar móvil", "el 70% del tráfico es móvil"),
    ),
    (
        "decisión final: lanzar en beta dado que faltan pruebas",
        record("lanzar en beta", "faltan pruebas"),
    ),
    ("registra una decisión: cero notificaciones push", record("cero notificaciones push")),
    ("¿qué decidimos?", DECISIONS),
    ("historial", history()),
    ("muéstrame el último mensaje", history(1)),
    ("muestra el hsitorial", history()),
    ("¿qué tareas puedes hacer?", METHODS),
    ("ayúdame", None),
    ("buenas tardes", small_talk("greeting")),
    ("nos vemos", small_talk("bye")),
    ("cancela", CANCEL),
    ("acórtalo", rerender("brief")),
    ("amplía eso", rerender("detailed")),
    ("respóndeme en inglés", rerender(language="en")),
    ("más detallado y en español", rerender("detailed", "es")),
    ("gracias, ahora hazme un journey map", None),
    ("diseña un onboarding sin IA generativa", None),
    ("borra los pasos innecesarios del onboarding", None),
    ("el historial de compras de los usuarios", None),
    ("haz un resumen de las entrevistas", None),
    # design requests
    ("necesito un mapa de viaje del cliente", None),
    ("¿cómo priorizo el backlog?", None),
    ("planifica un test de usabilidad", None),
    ("¿puedes planificar un test de usabilidad?", None),
    ("quiero un benchmark de la competencia", None),
]


def test_the_table_is_big_and_half_spanish() -> None:
    assert len(ENGLISH) + len(SPANISH) >= 150
    assert len(SPANISH) * 2 >= len(ENGLISH) + len(SPANISH) - 10


@pytest.mark.parametrize(("text", "expected"), ENGLISH + SPANISH)
def test_what_people_say_becomes_the_right_envelope(text: str, expected: Expected) -> None:
    envelope = detect_action(text, PROVIDERS, PROJECTS)
    got = (envelope.name, envelope.input) if envelope else None
    assert got == expected


def test_switching_to_a_name_that_is_not_an_adapter_switches_project() -> None:
    envelope = detect_action("switch to ledgerly", PROVIDERS)
    assert envelope is not None and envelope.name == "projects.switch"
    envelope = detect_action("switch to the gemini project", PROVIDERS)
    assert envelope is not None and envelope.input == {"name": "gemini"}


def test_only_installed_adapters_are_providers() -> None:
    assert detect_action("use gemini from now on", ["claude", "offline"]) is None
    assert detect_action("sin IA", ["claude"]) is None
    envelope = detect_action("cambia a Claude", ["Claude"])
    assert envelope is not None and envelope.input == {"name": "Claude"}


def test_unknown_names_after_weak_verbs_need_a_known_project() -> None:
    assert detect_action("delete Zephyr", PROVIDERS, PROJECTS) is None
    envelope = detect_action("delete Zephyr", PROVIDERS, ["Zephyr"])
    assert envelope is not None and envelope.input == {"name": "Zephyr"}


def test_a_pasted_multi_line_message_is_read_as_one_line() -> None:
    envelope = detect_action("create a project called\nPaste Test", PROVIDERS)
    assert envelope is not None and envelope.input["name"] == "Paste Test"


def test_a_very_long_message_is_a_design_request() -> None:
    assert detect_action("thanks " * 200, PROVIDERS) is None


def test_typed_input_is_the_registered_model() -> None:
    created = detect_action("new project: Atlas", PROVIDERS)
    assert created is not None and created.typed_input() == CreateProject(name="Atlas")
    shown = detect_action("show me the last 3 turns", PROVIDERS)
    assert shown is not None and shown.typed_input() == HistoryCount(count=3)
    shorter = detect_action("más corto", PROVIDERS)
    assert shorter is not None and isinstance(shorter.typed_input(), Rerender)


@pytest.mark.parametrize(
    ("module", "method", "data"),
    [
        ("projects", "drop_database", {}),
        ("projects", "switch", {"name": "x", "sql": "DROP"}),
        ("shell", "run", {"cmd": "rm -rf /"}),
        ("history", "show", {"count": "5"}),
        ("history", "show", {"count": 0}),
        ("history", "show", {"count": 201}),
        ("conversation", "rerender", {}),
        ("conversation", "small_talk", {"kind": "insult"}),
        ("decisions", "record", {"decision": "", "rationale": ""}),
        ("files", "add", {"path": "./x.md", "file_type": "script"}),
        ("projects", "create", {"name": "x" * 121}),
    ],
)
def test_envelopes_are_strict(module: str, method: str, data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ActionEnvelope(module=module, method=method, input=data)  # type: ignore[arg-type]


def test_an_envelope_rejects_extra_fields() -> None:
    with pytest.raises(ValidationError):
        ActionEnvelope(module="projects", method="list", input={}, extra="x")  # type: ignore[call-arg]


# Words the rules look for, and characters that fold oddly ("ß" -> "ss", "İ" -> "i̇").
_FUZZ_TEXT = """switch to use delete the project called new here is brief ./a b.md " ' : ,
    why did we decide because porque hola thanks shorter in spanish más corto
    proyecto llamado nuevo ß İ ﬁ é ñ ¿ ? ! / ~ \\ . decision: rename to history
    last 5 turns offline sin IA"""
FUZZ_WORDS = tuple(_FUZZ_TEXT.split())


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    text=st.one_of(
        st.text(max_size=400),
        st.lists(
            st.sampled_from(FUZZ_WORDS),
            max_size=30,
        ).map(" ".join),
    ),
    projects=st.lists(st.text(max_size=12), max_size=3),
)
def test_any_text_gives_none_or_a_valid_envelope(text: str, projects: list[str]) -> None:
    envelope = detect_action(text, PROVIDERS, projects)
    if envelope is not None:
        again = ActionEnvelope.model_validate(envelope.model_dump())
        again.typed_input()
