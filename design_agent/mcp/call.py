"""What one tool call, resource read or prompt works with: the home's services for this
call (its own database connection), who is calling, and the project it is about.

Each call runs in a worker thread with its own Memory, opened when the call first needs
it (SQLite connections belong to one thread); the catalogue, matcher and knowledge are the
process's shared ones, so finding a method opens no database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from design_agent.core.errors import UsageError
from design_agent.mcp.access import Access, Caller, check_access

if TYPE_CHECKING:
    from design_agent.knowledge.guides import Knowledge
    from design_agent.knowledge.registry import Catalogue
    from design_agent.memory.models import Project
    from design_agent.turn.session import Services, SharedServices
    from design_agent.understanding.matching import Matcher

LANGUAGES = ("en", "es")


@dataclass
class Call:
    """One request's services and caller; `close()` when it is done."""

    shared: SharedServices
    caller: Caller
    _services: Services | None = field(default=None, init=False)

    @property
    def services(self) -> Services:
        """This call's services, with its own database connection (opened on first use)."""
        if self._services is None:
            self._services = self.shared.services()
        return self._services

    @property
    def catalogue(self) -> Catalogue:
        return self.shared.catalogue()

    @property
    def knowledge(self) -> Knowledge:
        return self.shared.knowledge()

    @property
    def matcher(self) -> Matcher:
        return self.shared.matcher()

    def close(self) -> None:
        if self._services is not None:
            self._services.memory.close()

    def project(self, name: str | None, access: Access) -> Project:
        """The project called `name`, else the active one, else "General" (made the first
        time, as a first design request does), once the caller may `access` it."""
        memory = self.services.memory
        if name:
            project = memory.find_project(name)
        else:
            project = memory.active_project() or _default_project(memory)
        self.check(access, project.id)
        return project

    def check(self, access: Access, project_id: str | None) -> None:
        """Raise when the caller may not `access` the project (access.py)."""
        check_access(self.caller, access, project_id)

    def language(self, asked: str | None) -> str:
        """`asked`, else the `language` setting when it names one, else English."""
        if asked:
            if asked not in LANGUAGES:
                raise UsageError(f"language: give {' or '.join(LANGUAGES)}, not '{asked}'")
            return asked
        setting = str(self.services.settings.values.language)
        return setting if setting in LANGUAGES else "en"


def _default_project(memory: object) -> Project:
    from design_agent.turn.answering import default_project

    return default_project(memory)


class Strict(BaseModel):
    """A tool's input: unknown fields are refused, not ignored (a misspelt argument is
    said, never silently dropped)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolResult(BaseModel):
    """A tool's result: `structuredContent` is the model, the text is `as_text()` (short,
    for the model reading it)."""

    def as_text(self) -> str:
        return self.model_dump_json(exclude_none=True)


def clip(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters (an ellipsis says it was cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
