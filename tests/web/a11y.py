"""What every browser test checks on every state it reaches: axe finds no serious or
critical violation, and the page logged no error.

axe-core is vendored (tests/web/axe.min.js, see AXE.md) and injected before the page's
own scripts by playwright's init script, which the page's Content-Security-Policy does
not block. The console watch fails a test on any `console.error`, uncaught exception or
failed request the test did not expect (`expect` takes patterns of the messages a step
provokes on purpose, such as the 409 of choosing a provider that is not installed).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "axe.min.js"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
FAILING = ("serious", "critical")


class Console:
    """The page's errors, as they come."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console.error: {message.text}")

    def expect(self, *patterns: str) -> None:
        """Errors matching these are the step's own (a refused request it makes on purpose)."""
        self.allowed += [re.compile(p) for p in patterns]

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def check(self) -> None:
        found = self.unexpected()
        assert not found, "the page logged errors:\n" + "\n".join(found)


def new_page(chromium: Any, viewport: dict[str, int], **options: Any) -> tuple[Any, Console]:
    """A fresh context and page with axe ready in it, and its console watched."""
    context = chromium.new_context(viewport=viewport, **options)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    return page, Console(page)


def check_axe(page: Any, state: str, skip: Iterable[str] = ()) -> list[dict[str, Any]]:
    """Run axe on the page as it is; fail on a serious or critical violation. The
    violations of lesser impact are returned (for a look, never asserted)."""
    rules = {rule: {"enabled": False} for rule in skip}
    found = page.evaluate(
        """async (rules) => {
            const result = await axe.run(document, {resultTypes: ['violations'], rules});
            return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
        }""",
        rules,
    )
    bad = [v for v in found if v["impact"] in FAILING]
    assert not bad, f"axe, {state}:\n" + json.dumps(bad, indent=1, ensure_ascii=False)
    return [v for v in found if v["impact"] not in FAILING]
