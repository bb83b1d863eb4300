"""Shared test fixtures: every test gets its own design-agent home."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from design_agent.cli import cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty design-agent home per test; no DESIGN_AGENT_* leaks in from outside.

    The fake CLIs' FAKE_* variables reach them through DESIGN_AGENT_ENV_PASSTHROUGH.
    """
    for name in list(os.environ):
        if name.startswith("DESIGN_AGENT_"):
            monkeypatch.delenv(name)
    path = tmp_path / "home"
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(path))
    # The fake CLIs read FAKE_* settings; a provider gets an allow-listed environment
    # (providers/environment.py), to which a user adds variables exactly like this.
    monkeypatch.setenv("DESIGN_AGENT_ENV_PASSTHROUGH", "FAKE_*")
    yield path


@pytest.fixture
def run_cli():  # type: ignore[no-untyped-def]
    """Run `design-agent ARGS...` in-process with click's CliRunner."""

    def run(*args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)

    return run
