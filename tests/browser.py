"""Launch Debian's chromium headless through playwright, for the web page's tests.

Only the system browser is used: playwright's Python package ships the driver, and
`executable_path` points it at /usr/bin/chromium (or `chromium` on PATH). Nothing here
ever downloads a browser; without one the tests skip and say how to get it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STATIC = Path(__file__).resolve().parents[1] / "design_agent" / "server" / "static"
# Read at import: the autouse `home` fixture clears every DESIGN_AGENT_* variable.
SCREENSHOTS = os.environ.get("DESIGN_AGENT_SCREENSHOTS")


def chromium_path() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


@contextmanager
def browser() -> Iterator[Any]:
    """A headless chromium, or a skip naming what is missing."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("no chromium executable: `apt-get install chromium` (.ci/run does this)")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed: pip install '.[test]'"
    )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


def screenshot_dir(default: Path) -> Path:
    """Where screenshots go: $DESIGN_AGENT_SCREENSHOTS when set (to copy one into
    docs/images), else a temp folder; never the repository."""
    folder = Path(SCREENSHOTS or default)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
