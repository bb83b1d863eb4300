"""What a command's start-up costs.

A design turn: `ask` and the shell import the pipeline, and must not pay for modules only
some meta-requests, comparisons or previews use (see actions/base.py's load_handlers).
The cyclic collector: off while the console script starts, back on (with what start-up
built frozen) once the command reaches the home's data (design_agent/startup.py).
Subprocesses: this test's own workers import everything and keep their collector.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from design_agent.core import startup

# Loaded on first need only: each by the action, command or step that uses it.
LAZY = (
    "design_agent.actions.catalogue",
    "design_agent.actions.conversation",
    "design_agent.actions.decisions",
    "design_agent.actions.files",
    "design_agent.understanding.inputs",
    "design_agent.actions.memory",
    "design_agent.actions.projects",
    "design_agent.actions.providers",
    "design_agent.actions.report",
    "design_agent.actions.tree",
    "design_agent.actions.usage",
    "design_agent.turn.compare",
    "design_agent.turn.preview",
    "design_agent.report",
    "fastapi",
    "uvicorn",
    "starlette",
    "mcp",  # the MCP SDK: only `design-agent mcp` (serving) and /mcp of a server load it
    "mcp_types",
    "design_agent.mcp",
    "yaml",  # by the first YAML file read (yamlfile.py): none when the catalogue is cached
    # A team's PostgreSQL only (memory/postgres/): never on the SQLite path.
    "psycopg",
    "psycopg_pool",
    "design_agent.memory.postgres",
    "design_agent.memory.copy",
)

# A turn reads its home's words (the lexicon, and the intent patterns made from it) from
# the home's cache, as it reads the catalogue: the first run fills it.
CODE = f"""
import sys
from pathlib import Path
import design_agent.cli.ask, design_agent.turn.pipeline, design_agent.understanding.intents
from design_agent.core.lexicon import use_home
from design_agent.core.paths import HomeLayout
from design_agent.understanding.intents import detect_action, phrase_book

use_home(HomeLayout(Path(sys.argv[1])))
assert detect_action("plan a usability test for checkout", ["claude", "offline"]) is None
patterns = [
    p for group in phrase_book().groups().values() for p in group if p.starts or p.needles
]
print(sorted(m for m in {LAZY!r} if m in sys.modules))
print(sum("compiled" in vars(p) for p in patterns), len(patterns))
"""


def test_a_design_turn_loads_no_handler_and_compiles_no_meta_request_pattern(home):
    turn = [sys.executable, "-c", CODE, str(home)]
    subprocess.run(turn, capture_output=True, text=True, timeout=60, check=True)  # the cache
    result = subprocess.run(turn, capture_output=True, text=True, timeout=60, check=True)
    loaded, compiled = result.stdout.splitlines()
    assert loaded == "[]"
    count, total = map(int, compiled.split())
    assert count == 0 and total > 30


# The console script's own entry, with the collector's state printed as the process ends.
COLLECTOR_AT_EXIT = """
import atexit, gc, sys
atexit.register(lambda: print("collector:", gc.isenabled(), gc.get_freeze_count(), file=sys.stderr))
sys.argv = ["design-agent", *sys.argv[1:]]
from design_agent.launch.entry import main
main()
"""


def collector_at_exit(*args: str) -> tuple[bool, int]:
    result = subprocess.run(
        [sys.executable, "-c", COLLECTOR_AT_EXIT, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "DESIGN_AGENT_PROVIDER": "offline"},
    )
    assert result.returncode == 0, result.stderr
    enabled, frozen = result.stderr.splitlines()[-1].removeprefix("collector: ").split()
    return enabled == "True", int(frozen)


def test_a_turn_runs_with_the_collector_and_what_start_up_built_is_frozen():
    enabled, frozen = collector_at_exit("ask", "plan a usability test for the checkout")
    assert enabled
    assert frozen > 20_000  # modules, validators, the catalogue: never scanned again


def wait_until_it_answers(url: str, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except urllib.error.HTTPError:
            return  # an answer, whatever its status
        except OSError:
            assert time.monotonic() < deadline, f"{url} never answered"
            time.sleep(0.05)


def test_the_server_serves_with_the_collector_on(tmp_path):
    """`serve` opens no AppContext: it says itself that start-up is over."""
    server = subprocess.Popen(
        [sys.executable, "-c", COLLECTOR_AT_EXIT, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        wait_until_it_answers(url)  # uvicorn handles SIGTERM from then on
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=30)
    finally:
        server.kill()
        server.wait()
    enabled, frozen = err.splitlines()[-1].removeprefix("collector: ").split()
    assert server.returncode == 0 and enabled == "True" and int(frozen) > 20_000


# The console script's entry, then which of the MCP SDK and the web stack were imported.
LOADED_AT_EXIT = """
import atexit, sys
heavy = ("mcp", "mcp_types", "fastapi", "starlette", "anyio")
atexit.register(lambda: print("loaded:", sorted(m for m in heavy if m in sys.modules)))
sys.argv = ["design-agent", *sys.argv[1:]]
from design_agent.launch.entry import main
main()
"""


def test_registering_the_mcp_server_loads_neither_the_sdk_nor_the_web_stack(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path)}
    for args in (["--help"], ["mcp", "--help"], ["mcp", "install", "codex", "--print"]):
        result = subprocess.run(
            [sys.executable, "-c", LOADED_AT_EXIT, *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[-1] == "loaded: []", args


def test_a_command_that_never_reaches_the_home_ends_without_collecting():
    assert collector_at_exit("--version") == (False, 0)


def test_ready_leaves_a_process_that_never_turned_the_collector_off_as_it_was():
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    startup.ready()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
