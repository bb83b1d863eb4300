"""Changing the AI CLI and handing over files by talking: a provider that is not installed is
refused and the current one kept; a brief's path may have spaces; a folder or a binary file
is a clear error, never a design request."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.fakes import recording

from conversations.talk import Conversation, file_in
from design_agent.core.errors import NotFoundError, ProviderNotInstalledError, UsageError

JOURNEY = "I need a journey map for first-time buyers"
JOURNEY_ES = "necesito un mapa de viaje del cliente para la app"
BRIEF = "# Ledgerly brief\nInvoices for accountants, reminders by email.\n"


def provider(talk: Conversation) -> str:
    return talk.services.settings.values.provider


def test_use_gemini_only_once_it_is_installed(talk: Conversation) -> None:
    """The designer asks for Gemini before installing it, installs it, then goes offline."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        "use gemini from now on",
        reply="Gemini CLI is not installed (npm install -g @google/gemini-cli); still using",
        error=ProviderNotInstalledError,
        exit_code=4,
        pending=None,
    )
    assert provider(talk) == "offline"
    said = talk(JOURNEY, reply="Offline answer", task="journey_mapping", pending=None)
    assert said.finished is not None and said.finished.provider == "offline"
    talk.install("gemini", recording("run_gemini_stream"))
    talk("use gemini from now on", reply="answers come from Gemini CLI", pending=None)
    assert provider(talk) == "gemini"
    said = talk(JOURNEY, reply="Hello from fake server", pending="decision_proposal")
    assert said.finished is not None and said.finished.provider == "gemini"
    talk("no", reply="I did not save them", pending=None, decisions=[])
    talk("go back to offline answers", reply="answers come from Offline", pending=None)
    assert provider(talk) == "offline"


def test_usa_gemini_sin_instalar_y_vuelve_a_offline(talk: Conversation) -> None:
    """In Spanish: Gemini is refused with how to install it, and offline mode is chosen."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk(
        "usa gemini a partir de ahora",
        reply="Gemini CLI no está instalado (npm install -g @google/gemini-cli); sigo usando",
        error=ProviderNotInstalledError,
        exit_code=4,
        pending=None,
        language="es",
    )
    talk.use("claude", talk.recording("Un mapa de viaje ", "escrito por Claude."))
    said = talk(JOURNEY_ES, reply="Un mapa de viaje escrito por Claude.", pending=None)
    assert said.finished is not None and said.finished.provider == "claude"
    talk("usa el modo offline", reply="A partir de ahora responde Offline", pending=None)
    assert provider(talk) == "offline"
    talk(JOURNEY_ES, reply="Respuesta offline", task="journey_mapping", pending=None)


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    """The designer's documents folder: a brief with a space in its name, a folder, a binary."""
    folder = tmp_path / "docs"
    file_in(folder, "my brief.md", BRIEF)
    file_in(folder, "mi brief.md", BRIEF.replace("Invoices", "Facturas"))
    file_in(folder, "photos/cover.md", "not this one")
    file_in(folder, "scan.pdf", b"%PDF\x00\x01\x02\xff\xfe binary \x00")
    return folder


def test_a_brief_with_a_space_in_its_name(talk: Conversation, docs: Path) -> None:
    """The designer hands over a brief by absolute path, then by a relative one, then mistakes."""
    talk("create project Ledgerly", reply="Who are the users", pending="interview")
    talk(
        f"here is the brief: {docs}/my brief.md",
        reply=["Added my brief.md as a brief", "> Ledgerly brief"],
        action="files.add",
        pending="interview",
    )
    talk.monkeypatch.chdir(docs)
    talk(
        "here is the brief: ./my brief.md",
        reply="my brief.md is already in this project",
        pending=None,
    )
    talk(
        f"here is the brief: {docs}/photos",
        reply=f"{docs}/photos is a folder; give me one file in it",
        error=UsageError,
        exit_code=2,
        pending=None,
    )
    talk(
        "here is the brief: ./scan.pdf",
        reply="Could not add scan.pdf",
        error=UsageError,
        exit_code=2,
        pending=None,
    )
    talk(
        "here is the brief: ./missing brief.md",
        reply="There is no file at missing brief.md",
        error=NotFoundError,
        exit_code=6,
        pending=None,
    )
    files = talk.memory.project_context(talk.state().project_id).briefs
    assert [f.filename for f in files] == ["my brief.md"]


def test_un_brief_con_espacios_una_carpeta_y_un_binario(talk: Conversation, docs: Path) -> None:
    """In Spanish, from the documents folder: one brief added, two clear refusals."""
    talk("crea el proyecto Cobros", reply="usuarios de Cobros", pending="interview")
    talk.monkeypatch.chdir(docs)
    talk(
        "aquí está el brief: ./mi brief.md",
        reply=["He añadido mi brief.md como brief", "Lo usaré como contexto"],
        pending="interview",
        language="es",
    )
    talk(
        "aquí tienes el brief: ./photos/",
        reply="es una carpeta; dame un archivo de dentro",
        error=UsageError,
        exit_code=2,
        pending=None,
        language="es",
    )
    talk(
        "te paso el brief: ./scan.pdf",
        reply="No he podido añadir scan.pdf",
        error=UsageError,
        exit_code=2,
        pending=None,
    )
    said = ["Mapa de viaje del cliente", "**Briefs leídos:** mi brief.md (ninguna línea habla"]
    talk(JOURNEY_ES, reply=said, pending=None)


def test_cambiar_a_gemini_instalado_y_volver(talk: Conversation) -> None:
    """With Gemini installed, "cambia a gemini" works; its proposal is declined; back offline."""
    talk("crea el proyecto Citas", reply="usuarios de Citas", pending="interview")
    talk.install("gemini", recording("run_gemini_stream"))
    talk("cambia a gemini", reply="A partir de ahora responde Gemini CLI", pending="interview")
    assert provider(talk) == "gemini"
    said = talk(JOURNEY_ES, reply="¿Las guardo?", pending="decision_proposal", language="es")
    assert said.finished is not None and said.finished.provider == "gemini"
    talk("no", reply="no las he guardado", pending=None, decisions=[])
    talk("vuelve al modo offline", reply="A partir de ahora responde Offline", pending=None)
    assert provider(talk) == "offline"
