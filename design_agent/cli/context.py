"""The state shared by all commands of one invocation: home, flags, settings, catalogue.

Everything is loaded on first use, so a command pays only for what it touches.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from design_agent import startup
from design_agent.paths import HomeLayout, resolve_home

if TYPE_CHECKING:
    from design_agent.memory import Memory
    from design_agent.registry import Catalogue
    from design_agent.session import Services
    from design_agent.settings import EffectiveSettings


class AppContext:
    """One invocation's view of the home, with settings and catalogue loaded lazily."""

    def __init__(self, home_flag: str | None = None, debug: bool = False) -> None:
        self.home = HomeLayout(resolve_home(home_flag))
        self.debug = debug
        self.setting_flags: dict[str, Any] = {}

    @cached_property
    def verified_home(self) -> HomeLayout:
        """The home, once nothing in it was made or can be changed by another user."""
        self.home.verify()
        return self.home

    @cached_property
    def settings(self) -> EffectiveSettings:
        from design_agent.settings import load_settings

        return load_settings(self.verified_home, self.setting_flags)

    @cached_property
    def raw_catalogue(self) -> Catalogue:
        """The catalogue with its problems, for `check`."""
        from design_agent.registry import load_catalogue_cached

        catalogue = load_catalogue_cached(self.verified_home)
        startup.ready()  # the command has reached the home's data: start-up is over
        return catalogue

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue, or ConfigError if any file has a problem."""
        return self.raw_catalogue.require_valid()

    @cached_property
    def memory(self) -> Memory:
        """The memory database in the home, opened (created, migrated) on first use."""
        from design_agent.memory import Memory

        memory = Memory.open(self.verified_home.database_file)
        startup.ready()
        return memory

    def services(self) -> Services:
        """Everything a turn needs (catalogue, memory, settings, providers)."""
        from design_agent.session import Services

        return Services(self.verified_home, self.catalogue, self.memory, self.setting_flags)

    def close(self) -> None:
        """Close the database if this invocation opened it (merges its search indexes)."""
        if "memory" in self.__dict__:
            self.memory.close()
