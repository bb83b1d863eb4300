"""The log folder in the home: `design-agent.log` and the pipeline's `events.jsonl`.

Both files are private (0600) and rotate at a few megabytes. Logging never
stops a turn: if the folder cannot be written, the turn goes on unlogged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from logging.handlers import RotatingFileHandler
from pathlib import Path

from pydantic import BaseModel

from design_agent.fsutil import ensure_private_dir, touch_private

MAX_BYTES = 4 * 1024 * 1024
# The answer itself is in the database; logging it again would only bloat the log.
UNLOGGED_KINDS = {"text"}
LEAN: dict[str, set[str]] = {"finished": {"text"}}


def configure_file_logging(logs_dir: Path) -> None:
    """Send design-agent's log records (INFO and up) to logs/design-agent.log, once."""
    logger = logging.getLogger("design_agent")
    if any(getattr(h, "design_agent", False) for h in logger.handlers):
        return
    try:
        path = touch_private(ensure_private_dir(logs_dir) / "design-agent.log")
        handler = RotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=2, encoding="utf-8")
    except OSError:
        return
    handler.design_agent = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


class EventLog:
    """Appends one turn's events as JSON lines to logs/events.jsonl."""

    def __init__(self, logs_dir: Path) -> None:
        self.path = logs_dir / "events.jsonl"

    def write(self, events: Iterable[BaseModel]) -> None:
        lines = [
            e.model_dump_json(exclude=LEAN.get(getattr(e, "kind", ""))) + "\n"
            for e in events
            if getattr(e, "kind", None) not in UNLOGGED_KINDS
        ]
        if not lines:
            return
        try:
            ensure_private_dir(self.path.parent)
            touch_private(self.path)
            if self.path.stat().st_size > MAX_BYTES:
                self.path.replace(self.path.with_suffix(".jsonl.1"))
                touch_private(self.path)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.writelines(lines)
        except OSError:
            logging.getLogger("design_agent").warning("could not write %s", self.path)
