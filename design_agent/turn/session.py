"""The services one turn needs, built once per process from the home.

Every external effect enters through one of these: the SQLite memory, the
provider adapters (subprocesses), the catalogue files. Tests build a real
Services on a temp home; nothing is patched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from design_agent.core.cache import cached
from design_agent.core.lexicon import lexicon
from design_agent.core.logs import EventLog, configure_file_logging
from design_agent.core.paths import HomeLayout
from design_agent.core.settings import EffectiveSettings, Settings, load_settings
from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.registry import Catalogue
from design_agent.memory import Memory
from design_agent.providers.resolve import Resolution, resolve_provider
from design_agent.providers.spec import AdapterSpec, load_adapters
from design_agent.understanding.matching import Matcher


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
        # Built from the catalogue and the lexicon's words: a change in either rebuilds it.
        if not self.catalogue.signature:
            return Matcher.from_catalogue(self.catalogue)
        return cached(
            self.home,
            "matcher",
            f"{self.catalogue.signature}-{lexicon().signature}",
            lambda: Matcher.from_catalogue(self.catalogue),
        )

    @cached_property
    def adapters(self) -> dict[str, AdapterSpec]:
        # The adapter files are among the catalogue's sources, so its signature covers them.
        if not self.catalogue.signature:
            return load_adapters(self.catalogue)
        return cached(
            self.home, "adapters", self.catalogue.signature, lambda: load_adapters(self.catalogue)
        )

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
