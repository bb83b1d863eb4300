"""The services one turn needs, built once per process from the home.

Every external effect enters through one of these: the SQLite memory, the
provider adapters (subprocesses), the catalogue files. Tests build a real
Services on a temp home; nothing is patched.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar, cast

from design_agent.core.cache import cached
from design_agent.core.lexicon import lexicon
from design_agent.core.logs import EventLog, configure_file_logging
from design_agent.core.paths import HomeLayout
from design_agent.core.settings import EffectiveSettings, Settings, load_settings
from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.registry import Catalogue
from design_agent.memory import Memory
from design_agent.memory.url import DatabaseUrl
from design_agent.providers.resolve import Resolution, resolve_provider
from design_agent.providers.spec import AdapterSpec, load_adapters
from design_agent.understanding.matching import Matcher


def build_matcher(home: HomeLayout, catalogue: Catalogue) -> Matcher:
    """The catalogue's matcher, from the home's cache. Built from the catalogue and the
    lexicon's words: a change in either rebuilds it."""
    if not catalogue.signature:
        return Matcher.from_catalogue(catalogue)
    return cached(
        home,
        "matcher",
        f"{catalogue.signature}-{lexicon().signature}",
        lambda: Matcher.from_catalogue(catalogue),
    )


def build_adapters(home: HomeLayout, catalogue: Catalogue) -> dict[str, AdapterSpec]:
    """The provider adapters, from the home's cache. The adapter files are among the
    catalogue's sources, so its signature covers them."""
    if not catalogue.signature:
        return load_adapters(catalogue)
    return cached(home, "adapters", catalogue.signature, lambda: load_adapters(catalogue))


@dataclass
class Services:
    """Catalogue, memory, settings and providers of one design-agent home."""

    home: HomeLayout
    catalogue: Catalogue
    memory: Memory
    setting_flags: dict[str, object] = field(default_factory=dict)
    environ: Mapping[str, str] | None = None

    @cached_property
    def knowledge(self) -> Knowledge:
        return Knowledge(self.catalogue)

    @cached_property
    def matcher(self) -> Matcher:
        return build_matcher(self.home, self.catalogue)

    @cached_property
    def adapters(self) -> dict[str, AdapterSpec]:
        return build_adapters(self.home, self.catalogue)

    @cached_property
    def event_log(self) -> EventLog:
        configure_file_logging(self.home.logs_dir)
        return EventLog(self.home.logs_dir)

    def refresh_catalogue(self) -> bool:
        """Read the catalogue again when one of its files changed since it was read (a method
        added by talking, or with `methods new` in another terminal); True when it did. The
        knowledge, matcher and adapters built from the old one are built again when used."""
        from design_agent.knowledge.registry import catalogue_signature, load_catalogue_cached

        if not self.catalogue.signature:
            return False  # made in memory (a test's own): nothing on disk to follow
        if catalogue_signature(self.home) == self.catalogue.signature:
            return False
        self.catalogue = load_catalogue_cached(self.home).require_valid()
        for name in ("knowledge", "matcher", "adapters"):
            self.__dict__.pop(name, None)
        return True

    @property
    def settings(self) -> EffectiveSettings:
        # Re-read each time: "use Gemini from now on" changes settings.yaml mid-session.
        return load_settings(self.home, self.setting_flags, self.environ)

    def resolve(self, override: str | None = None, settings: Settings | None = None) -> Resolution:
        """The provider for the next answer: `override`, else the settings' choice.

        `settings` is a snapshot already read for this turn (read afresh when omitted)."""
        settings = settings or self.settings.values
        if override:
            settings = settings.model_copy(update={"provider": override})
        return resolve_provider(self.adapters, settings, self.environ)


Part = TypeVar("Part")
# Services' cached properties that are the same for every thread of a process.
SHARED = ("knowledge", "matcher", "adapters", "event_log")
# How often the catalogue's files are looked at for a change (a stat of each).
RECHECK_SECONDS = 1.0


class SharedServices:
    """One home's services for a long-running process that serves many threads (the HTTP
    server, the MCP server): SQLite connections belong to one thread, so each call gets its
    own Memory (`memory()` / `services()`); the catalogue, matcher, knowledge and adapters
    are read once and shared (nothing changes them after loading), and the catalogue is
    read again when one of its files changed, at most once a second (a method added with
    `methods new` while the process runs)."""

    def __init__(self, home: HomeLayout, database: DatabaseUrl | None = None) -> None:
        self.home = home
        self.database = database  # None: the home's own file
        self._shared: dict[str, object] = {}
        self._lock = threading.RLock()
        self._checked = 0.0

    @contextmanager
    def memory(self) -> Iterator[Memory]:
        """This thread's own connection to the home's database, closed after the block."""
        memory = Memory.open(self.database or self.home.database_file)
        try:
            yield memory
        finally:
            memory.close()

    def services(self) -> Services:
        """A call's services: a fresh Memory (close it: `services.memory.close()`) and the
        shared catalogue, matcher, knowledge and adapters."""
        memory = Memory.open(self.database or self.home.database_file)
        services = Services(self.home, self.catalogue(), memory)
        with self._lock:  # each built once, by the first call that needs it
            for name in SHARED:
                if name not in self._shared:
                    self._shared[name] = getattr(services, name)
                services.__dict__[name] = self._shared[name]
        return services

    def knowledge(self) -> Knowledge:
        """The guides' sections, read once and kept."""
        return self._part("knowledge", Knowledge)

    def matcher(self) -> Matcher:
        """The catalogue's matcher."""
        return self._part("matcher", lambda c: build_matcher(self.home, c))

    def adapters(self) -> dict[str, AdapterSpec]:
        """The home's provider adapters, bundled and the user's."""
        return self._part("adapters", lambda c: build_adapters(self.home, c))

    def _part(self, name: str, build: Callable[[Catalogue], Part]) -> Part:
        """The shared `name`, built from the current catalogue by the first call to need it."""
        with self._lock:
            catalogue = self.catalogue()
            if name not in self._shared:
                self._shared[name] = build(catalogue)
            return cast(Part, self._shared[name])

    def catalogue(self) -> Catalogue:
        """The home's catalogue (ConfigError when a bundled file of it is invalid; a broken
        entry of the home's own is left out), read again when one of its files changed."""
        from design_agent.knowledge.registry import catalogue_signature, load_catalogue_cached

        with self._lock:
            current = self._shared.get("catalogue")
            now = time.monotonic()
            if isinstance(current, Catalogue) and now - self._checked < RECHECK_SECONDS:
                return current
            self._checked = now
            if not isinstance(current, Catalogue) or catalogue_signature(self.home) != (
                current.signature
            ):
                for name in ("knowledge", "matcher", "adapters"):
                    self._shared.pop(name, None)  # built again from the new catalogue
                current = load_catalogue_cached(self.home).require_valid()
                self._shared["catalogue"] = current
            return current
