"""The log folder in the home: `design-agent.log` and the pipeline's `events.jsonl`.

Both files are private (0600) and rotate at a few megabytes. Logging never
stops a turn: if the folder cannot be written, the turn goes on unlogged. A `logs`
that another user made (a symlink planted in a shared home) is never followed: that
stops the command with one line naming it (design_agent.core.home_trust).

events.jsonl keeps ids and counts only, never the user's words: each event's
numbers, timings and our own names (task and agent ids, provider, model,
tier, status, action, the routing reason), with every list reduced to its length (`n_keywords`).
No message, brief line, decision, question, answer or project name is written
there, so deleting a project has nothing to scrub from the log. Lines written
by older versions (no `"v": 2`) may hold text: deleting a project drops them
(`EventLog.drop_old_lines`), since they cannot be told apart by project.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from design_agent.core.fsutil import (
    FILE_MODE,
    ensure_private_dir,
    touch_private,
    write_private_text,
)
from design_agent.core.home_trust import trusted
from design_agent.core.text import clean_text

MAX_BYTES = 4 * 1024 * 1024
# The answer itself is in the database; logging it again would only bloat the log.
UNLOGGED_KINDS = {"text"}
LOG_VERSION = 2
# Values named by these keys are ours (catalogue ids, providers, states), not the user's.
NAMES = frozenset(
    {"kind", "action", "meta", "task", "task_id", "agent", "agent_id", "band", "provider"}
    | {"model", "tier", "status", "language", "verbosity", "error", "reason"}
)
NUMBER_MAPS = frozenset({"timings", "tokens", "usage"})
MAX_NAME = 80
# Libraries that log what a file holds: a hostile PDF's font names reach pypdf's warnings.
LIBRARY_LOGGERS = ("pypdf", "py.warnings")
_library_routed = threading.Event()

# design-agent's own records go to its log file once configured, never to the terminal
# through logging's last-resort handler.
logging.getLogger("design_agent").addHandler(logging.NullHandler())


def lean(event: BaseModel) -> dict[str, Any]:
    """The event as the log keeps it: ids, names of ours, numbers and counts; no text."""
    line: dict[str, Any] = {"v": LOG_VERSION}
    for key, value in event.model_dump(mode="json").items():
        if value is None or isinstance(value, bool | int | float):
            line[key] = value
        elif isinstance(value, str) and key in NAMES:
            line[key] = value[:MAX_NAME]
        elif isinstance(value, list):
            line[f"n_{key}"] = len(value)
        elif isinstance(value, dict) and key in NUMBER_MAPS:
            line[key] = {k: v for k, v in value.items() if isinstance(v, int | float)}
    return line


class QuietFileHandler(RotatingFileHandler):
    """The log file, skipped when it cannot be written (a full disk): logging's own report
    of that is a traceback on the user's terminal, and logging never stops a turn."""

    def handleError(self, record: logging.LogRecord) -> None:
        return


def configure_file_logging(logs_dir: Path) -> None:
    """Send design-agent's log records (INFO and up) to logs/design-agent.log, once."""
    logger = logging.getLogger("design_agent")
    if any(getattr(h, "design_agent", False) for h in logger.handlers):
        return
    path = logs_dir / "design-agent.log"
    trusted(path, logs_dir.parent)  # never a planted link
    try:
        touch_private(ensure_private_dir(logs_dir) / path.name)
        handler = QuietFileHandler(path, maxBytes=MAX_BYTES, backupCount=2, encoding="utf-8")
    except OSError:
        return
    handler.design_agent = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


class _Cleaned(logging.Handler):
    """Re-logs a library's record as design-agent's, its text cleaned to one safe line."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = clean_text(record.getMessage(), one_line=True)[:2000]
        except Exception:  # a record that cannot even be formatted says nothing
            return
        logging.getLogger("design_agent.library").log(record.levelno, "%s: %s", record.name, text)


def route_library_warnings() -> None:
    """Send the warnings of libraries that read users' files (pypdf's on a hostile PDF: the
    clipboard, the window title, a cleared screen) to design-agent's log, cleaned like all
    other text, instead of raw to the terminal or server.log. Python's `warnings` too."""
    if _library_routed.is_set():
        return
    handler = _Cleaned()
    for name in LIBRARY_LOGGERS:
        library = logging.getLogger(name)
        library.addHandler(handler)
        library.propagate = False
    logging.captureWarnings(True)
    _library_routed.set()


def _open_private(path: Path) -> int:
    """`path` opened for appending, made if missing, 0600 whatever it was: one open where a
    touch, a chmod, a stat and a second open were (each turn writes the log)."""
    fd = os.open(path, os.O_CREAT | os.O_APPEND | os.O_WRONLY | os.O_NOFOLLOW, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
    except OSError:
        os.close(fd)
        raise
    return fd


class EventLog:
    """Appends one turn's events as JSON lines to logs/events.jsonl."""

    def __init__(self, logs_dir: Path) -> None:
        self.path = logs_dir / "events.jsonl"

    def write(self, events: Iterable[BaseModel]) -> None:
        lines = [
            json.dumps(lean(e), ensure_ascii=False) + "\n"
            for e in events
            if getattr(e, "kind", None) not in UNLOGGED_KINDS
        ]
        if not lines:
            return
        trusted(self.path, self.path.parent.parent)  # never a planted link
        data = "".join(lines).encode("utf-8")
        try:
            ensure_private_dir(self.path.parent)
            fd = _open_private(self.path)
            try:
                if os.fstat(fd).st_size > MAX_BYTES:
                    os.close(fd)
                    fd = -1
                    self.path.replace(self.path.with_suffix(".jsonl.1"))
                    fd = _open_private(self.path)
                os.write(fd, data)
            finally:
                if fd >= 0:
                    os.close(fd)
        except OSError:
            logging.getLogger("design_agent").warning("could not write %s", self.path)

    def drop_old_lines(self) -> None:
        """Rewrite the log and its rotated copy without lines older versions wrote.

        Those lines may hold a deleted project's words and name no project, so a
        delete drops them all; the lines of this version hold no text at all."""
        for path in (self.path, self.path.with_suffix(".jsonl.1")):
            try:
                lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
                kept = [line for line in lines if _is_lean(line)]
                if len(kept) != len(lines):
                    write_private_text(path, "".join(kept))
            except FileNotFoundError:
                continue
            except (OSError, UnicodeDecodeError):
                logging.getLogger("design_agent").warning("could not clean %s", path)


def _is_lean(line: str) -> bool:
    try:
        data = json.loads(line)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("v") == LOG_VERSION
