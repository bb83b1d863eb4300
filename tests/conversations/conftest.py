"""The `talk` fixture: one person's conversation with design-agent on the test's temp home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conversations.talk import Conversation
from design_agent.cli.context import AppContext
from design_agent.registry import Catalogue


@pytest.fixture(scope="session")
def bundled_catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """The bundled catalogue, loaded once: a fresh home has no catalogue files of its own, so
    every test home's catalogue is this one (and its matcher is built once, in-process)."""
    return AppContext(str(tmp_path_factory.mktemp("catalogue") / "home")).catalogue


@pytest.fixture
def talk(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled_catalogue: Catalogue
) -> Iterator[Conversation]:
    """A conversation on a fresh home, answered offline unless a test installs a fake CLI."""
    conversation = Conversation(home, tmp_path, monkeypatch, bundled_catalogue)
    yield conversation
    conversation.close()
