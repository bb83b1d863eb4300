"""The `design-agent` console script: `ask` through a running server, else the CLI.

Standard library only until the normal command is chosen: `ask` sent to a
running `design-agent serve` must not pay for importing click, pydantic or
rich (design_agent.launch.remote_ask). Every other command, and every `ask` the fast
path does not take, runs `design_agent.cli:main` exactly as before.
"""

from __future__ import annotations

import os
import sys

from design_agent.core import startup, stdio

# Tests set this to a file: at exit, the modules this process imported are written there.
MODULES_HOOK = "DESIGN_AGENT_TEST_MODULES_FILE"


def main() -> None:
    """Console-script entry point."""
    startup.begin()
    stdio.hold_closed_stdin()
    if "ask" in sys.argv[1:]:
        from design_agent.launch.remote_ask import main as remote_ask

        code = remote_ask(sys.argv[1:])
        if code is not None:
            _note_modules()
            sys.exit(code)
    from design_agent.cli import main as cli_main

    cli_main()


def _note_modules() -> None:
    path = os.environ.get(MODULES_HOOK)
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(sorted(sys.modules)))


if __name__ == "__main__":
    main()
