"""The `talk` fixture: one person's conversation with design-agent on the test's temp home."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conversations.talk import Conversation
from design_agent.knowledge.registry import Catalogue


@pytest.fixture
def talk(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled_catalogue: Catalogue
) -> Iterator[Conversation]:
    """A conversation on a fresh home, answered offline unless a test installs a fake CLI.
    A fresh home has no catalogue files of its own, so its catalogue is the bundled one
    (tests/conftest.py: loaded once, its matcher built once, in-process)."""
    conversation = Conversation(home, tmp_path, monkeypatch, bundled_catalogue)
    yield conversation
    conversation.close()
