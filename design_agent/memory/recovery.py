"""The recovery journal: an answer the database could not take waits here until it is saved.

When saving a finished answer fails (a full disk, most often), the answer, the user's
message and what the turn was (task, persona, provider, model, status) are written to
`<home>/recovery/<time>-<pid>.json` (0600, in a 0700 folder), and the turn's error says
where. The next command that opens the database saves them there, oldest first, and says
so on standard error (cli/context.py); `design-agent history --recover` does it on
demand. An entry is removed once its turns are committed; one whose project was deleted
meanwhile is dropped, and said so.

A full disk must not stop the journal too, so room is set aside beforehand: when a
design turn starts and the disk has room to spare, `reserve` gives recovery/reserve
RESERVE_BYTES of real blocks (posix_fallocate, not a sparse file). `keep` deletes it
first, so the entry finds room even where the database found none; when even that
fails, the error says so and asks the user to copy the answer from the screen.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from design_agent.core.errors import DesignAgentError, DiskFullError, NotFoundError
from design_agent.core.fsutil import ensure_private_dir, write_private_bytes
from design_agent.memory import Memory
from design_agent.memory.faults import disk_full, free_bytes, storage_error

RESERVE_BYTES = 4 << 20  # more than an answer (cut at 2 MB) and its message
RESERVE_NAME = "reserve"
ZEROS = bytes(64 * 1024)


class Unsaved(BaseModel):
    """One answer that is not in the database yet, with the message it answers."""

    model_config = ConfigDict(extra="ignore")

    version: Literal[1] = 1
    kept_at: datetime
    project_id: str
    project_name: str
    user_turn_id: int | None  # the message, when it was saved before the answer ran
    message: str
    answer: str
    status: str
    task_id: str | None = None
    agent_id: str | None = None
    provider: str | None = None
    model: str | None = None
    tier: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Recovered:
    """An entry dealt with: the numbers of its two turns, or None (its project is gone)."""

    entry: Unsaved
    numbers: tuple[int, int] | None


def reserve(folder: Path) -> None:
    """Set RESERVE_BYTES aside in `folder`/reserve, unless it is there or the disk has less
    than twice that free (the reserve must never be what fills it). Best effort: silent."""
    target = folder / RESERVE_NAME
    with contextlib.suppress(OSError):
        if target.stat().st_size >= RESERVE_BYTES:
            return
    try:
        ensure_private_dir(folder)
        if free_bytes(folder) < 2 * RESERVE_BYTES:
            return
        fd, name = tempfile.mkstemp(dir=folder, prefix=".reserve.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            _allocate(handle.fileno(), RESERVE_BYTES)
        os.replace(name, target)
    except OSError:
        Path(name).unlink(missing_ok=True)


def _allocate(fd: int, size: int) -> None:
    """Real blocks for `size` bytes (a sparse file would give nothing back when deleted)."""
    try:
        os.posix_fallocate(fd, 0, size)
        return
    except AttributeError:  # not on this platform: zeros written below
        pass
    except OSError as e:
        if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL):  # not on this filesystem
            raise
    for _ in range(0, size, len(ZEROS)):
        os.write(fd, ZEROS)
    os.fsync(fd)


def keep(folder: Path, entry: Unsaved) -> Path | None:
    """Write `entry` to the journal (0600, flushed), on the reserve's room; its path, or None
    when even that failed."""
    path = folder / f"{entry.kept_at:%Y%m%dT%H%M%S%f}-{os.getpid()}.json"
    with contextlib.suppress(OSError):
        (folder / RESERVE_NAME).unlink(missing_ok=True)  # its room is for this entry
    try:
        write_private_bytes(path, entry.model_dump_json().encode("utf-8"))
    except OSError:
        return None
    return path


def not_saved(
    error: BaseException, database: Path, folder: Path, entry: Unsaved
) -> DesignAgentError:
    """The error of a turn whose answer the database did not take: what happened, and where
    the answer is kept (it is written here), or that it could not be kept."""
    found = storage_error(error, database)
    left = free_bytes(database.parent)  # the room the database had, before the reserve's
    kept = keep(folder, entry)
    if kept is not None:
        then = (
            f"the answer is kept in {kept} and saved by the next design-agent command once "
            "the database can take it (or by design-agent history --recover)"
        )
    else:
        then = f"the answer could not be kept in {folder} either: copy it from above"
    if isinstance(found, DiskFullError):
        return disk_full(database, str(error), then=f"{then}; free some space", left=left)
    if found is not None:  # a damaged file
        return type(found)(f"{found.message}; {then}")
    return DesignAgentError(f"the answer could not be saved in {database} ({error}); {then}")


def waiting(folder: Path) -> list[Path]:
    """The journal's entries, oldest first."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == ".json")
    except OSError:
        return []


def replay(memory: Memory, folder: Path) -> list[Recovered]:
    """Save every waiting entry into the database, oldest first, each removed once saved;
    a database error stops it (the rest keep waiting). An unreadable entry is left alone."""
    done: list[Recovered] = []
    for path in waiting(folder):
        try:
            entry = Unsaved.model_validate_json(path.read_bytes())
        except (OSError, ValidationError):
            continue
        done.append(Recovered(entry, _save(memory, entry)))
        path.unlink(missing_ok=True)
    return done


def _save(memory: Memory, entry: Unsaved) -> tuple[int, int] | None:
    """The entry's message (unless it was saved already) and answer, in one transaction;
    their turn numbers, or None when the project is gone."""
    if not memory.project_exists(entry.project_id):
        return None
    with memory.transaction():
        user = _message_turn(memory, entry)
        answer = memory.add_turn(
            entry.project_id,
            "agent",
            entry.answer,
            task_id=entry.task_id,
            agent_id=entry.agent_id,
            provider=entry.provider,
            model=entry.model,
            status=entry.status,
            parent_id=user,
            tier=entry.tier,
        )
    return memory.turn_number(user), memory.turn_number(answer.id)


def _message_turn(memory: Memory, entry: Unsaved) -> int:
    """The id of the user's message: the one saved before the answer ran, else saved now."""
    if entry.user_turn_id is not None:
        try:
            turn = memory.get_turn(entry.user_turn_id)
        except NotFoundError:
            turn = None
        if turn is not None and turn.project_id == entry.project_id and turn.role == "user":
            return turn.id
    added = memory.add_turn(entry.project_id, "user", entry.message, task_id=entry.task_id)
    return added.id


def report(done: list[Recovered]) -> list[str]:
    """What was recovered, one line per entry."""
    lines = []
    for item in done:
        when = item.entry.kept_at.astimezone().strftime("%Y-%m-%d %H:%M")
        if item.numbers is None:
            lines.append(
                f"Dropped an answer kept on {when}: its project '{item.entry.project_name}' "
                "was deleted meanwhile."
            )
            continue
        first, second = item.numbers
        lines.append(
            f"Saved the answer kept on {when} (it could not be saved then) to "
            f"'{item.entry.project_name}' as turns {first} and {second}."
        )
    return lines
