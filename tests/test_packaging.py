"""A non-editable install carries its data and works from any directory."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# pip and the installed copy compile into their own temporary folders, not into the suite's
# shared bytecode folder (conftest.py), which would keep every run's copy.
CLEAN = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The backend is installed with the test extra: no isolated build environment.
    build = ["wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out), str(ROOT)]
    subprocess.run(
        [sys.executable, "-m", "pip", *build],
        check=True,
        capture_output=True,
        env=CLEAN,
    )
    return next(out.glob("design_agent-*.whl"))


def test_wheel_contains_the_data_folders(wheel: Path):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "design_agent/_data/config/agents.yaml",
        "design_agent/_data/config/tasks.yaml",
        "design_agent/_data/adapters/",
        "design_agent/_data/knowledge/guides/",
        "design_agent/_data/knowledge/materials/",
    ):
        assert any(name.startswith(required) for name in names), required


def test_installed_wheel_reads_its_data_outside_the_checkout(wheel: Path, tmp_path: Path):
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-compile",  # the run below compiles only what it imports
            "--quiet",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
        env=CLEAN,
    )
    code = (
        "from design_agent.core.paths import bundled_root\n"
        "from design_agent.cli import cli\n"
        "print(bundled_root())\n"
        "cli.main(['check'], prog_name='design-agent')\n"
    )
    env = {**CLEAN, "PYTHONPATH": str(target), "DESIGN_AGENT_HOME": str(tmp_path / "h")}
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=empty, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    root, summary = run.stdout.splitlines()[:2]
    assert Path(root) == target / "design_agent" / "_data"
    assert re.match(r"ok: \d+ agents, \d+ tasks", summary)


def test_readme_commands_are_what_ci_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line.strip() for line in readme.splitlines() if line.startswith("    python3 -m venv")
    ]
    assert len(commands) == 2, "README must show exactly the two set-up commands"
    start, test = commands
    assert start.endswith("pip install . && design-agent")
    assert test.endswith("pip install '.[test]' && pytest")
    assert "pip install '.[test]'" in ci and "\npytest\n" in ci
    assert "set -euo pipefail" in ci and "ruff check" in ci
