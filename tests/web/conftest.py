"""One headless chromium for the web page's tests (tests/browser.py launches it).

Package-scoped: the two modules run as one unit on one worker (tests/conftest.py's
scheduler), so the browser and playwright's driver start once for both (~1.5 s of CPU
each time) and close when the last of their tests is done.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import browser


@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched
