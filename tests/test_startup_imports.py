"""What a design turn loads: `ask` and the shell import the pipeline, and must not pay for
modules only some meta-requests, comparisons or previews use (see actions/base.py's
load_handlers). One subprocess: this test's own workers import everything."""

from __future__ import annotations

import subprocess
import sys

# Loaded on first need only: each by the action, command or step that uses it.
LAZY = (
    "design_agent.actions.catalogue",
    "design_agent.actions.conversation",
    "design_agent.actions.decisions",
    "design_agent.actions.files",
    "design_agent.actions.inputs",
    "design_agent.actions.memory",
    "design_agent.actions.projects",
    "design_agent.actions.providers",
    "design_agent.actions.report",
    "design_agent.actions.tree",
    "design_agent.actions.usage",
    "design_agent.compare",
    "design_agent.preview",
    "design_agent.report",
    "fastapi",
    "uvicorn",
    "starlette",
)

CODE = f"""
import sys
import design_agent.cli.ask, design_agent.pipeline, design_agent.intents
from design_agent.intents import detect_action
from design_agent.lazy_regex import LazyPattern
import design_agent.intents as intents

assert detect_action("plan a usability test for checkout", ["claude", "offline"]) is None
patterns = [
    p for value in vars(intents).values()
    for p in (value if isinstance(value, list) else [value])
    if isinstance(p, LazyPattern) and (p.starts or p.needles)
]
print(sorted(m for m in {LAZY!r} if m in sys.modules))
print(sum("compiled" in vars(p) for p in patterns), len(patterns))
"""


def test_a_design_turn_loads_no_handler_and_compiles_no_meta_request_pattern():
    result = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, timeout=60, check=True
    )
    loaded, compiled = result.stdout.splitlines()
    assert loaded == "[]"
    count, total = map(int, compiled.split())
    assert count == 0 and total > 30
