"""What was typed in the shell, kept per project (`<home>/input-history`, 0600).

The file keeps prompt_toolkit's format (a `# time` line, then `+text` lines), with the
project each entry was typed in added to its time line (`# 2026-11-27 10:00:00
project=acme`). The up arrow shows the active project's entries only, and deleting a
project removes its entries; entries older versions wrote name no project and cannot be
told apart, so a delete drops them all (as the event log drops its old lines).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from design_agent.core.fsutil import write_private_text
from design_agent.core.logs import EventLog

if TYPE_CHECKING:
    from prompt_toolkit.history import History

    from design_agent.core.paths import HomeLayout

_PROJECT = re.compile(r" project=(\S+)$")


@dataclass(frozen=True)
class Entry:
    """One thing typed: its time line (as written) and its text."""

    header: str
    text: str

    @property
    def project(self) -> str | None:
        found = _PROJECT.search(self.header)
        return found.group(1) if found else None

    def written(self) -> str:
        lines = "".join(f"+{line}\n" for line in self.text.split("\n"))
        return f"\n{self.header}\n{lines}"


def read_entries(path: Path) -> list[Entry]:
    """The entries of the history file, oldest first ([] when there is none)."""
    try:
        content = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    return list(_parse(content.splitlines()))


def _parse(lines: Iterable[str]) -> Iterator[Entry]:
    header, text = "#", []
    for line in lines:
        if line.startswith("+"):
            text.append(line[1:])
        elif line.startswith("#"):
            if text:
                yield Entry(header, "\n".join(text))
            header, text = line, []
    if text:
        yield Entry(header, "\n".join(text))


def drop_project(path: Path, project_id: str) -> int:
    """Rewrite the history without `project_id`'s entries and without entries that name no
    project; how many were dropped."""
    entries = read_entries(path)
    kept = [entry for entry in entries if entry.project not in (project_id, None)]
    if len(kept) != len(entries):
        write_private_text(path, "".join(entry.written() for entry in kept))
    return len(entries) - len(kept)


def forget_project(home: HomeLayout, project_id: str) -> None:
    """After a delete: nothing the home's files keep may hold the project's words (its
    shell input, and event-log lines older versions wrote)."""
    drop_project(home.trusted(home.history_file), project_id)
    EventLog(home.logs_dir).drop_old_lines()


def project_history(path: Path, project: Callable[[], str | None]) -> History:
    """A prompt_toolkit history of `path` showing and storing the entries of `project()`,
    the active project, read again whenever it changes."""
    from prompt_toolkit.history import History

    class ProjectHistory(History):
        def __init__(self) -> None:
            super().__init__()
            self.shown: str | None = None

        async def load(self) -> AsyncGenerator[str, None]:
            if _tag(project()) != self.shown:  # switched: show the other project's entries
                self._loaded = False
            async for item in super().load():
                yield item

        def load_history_strings(self) -> Iterable[str]:
            self.shown = _tag(project())
            # Entries older versions wrote name no project: shown everywhere until a delete.
            mine = [e.text for e in read_entries(path) if e.project in (self.shown, None)]
            return reversed(mine)

        def store_string(self, string: str) -> None:
            stamp = datetime.datetime.now().isoformat(sep=" ", timespec="microseconds")
            entry = Entry(f"# {stamp} project={_tag(project())}", string)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(entry.written())

    return ProjectHistory()


def _tag(project_id: str | None) -> str:
    """How an entry names its project ('-' before any project exists)."""
    return project_id or "-"
