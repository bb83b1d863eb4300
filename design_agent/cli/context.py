"""The state shared by all commands of one invocation: home, flags, settings, catalogue.

Everything is loaded on first use, so a command pays only for what it touches.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING, Any

from design_agent.core import startup
from design_agent.core.paths import HomeLayout, resolve_home

if TYPE_CHECKING:
    from design_agent.core.settings import EffectiveSettings
    from design_agent.core.team_login import TeamLogin
    from design_agent.knowledge.registry import Catalogue
    from design_agent.memory import Memory
    from design_agent.memory.url import DatabaseUrl
    from design_agent.turn.session import Services


class AppContext:
    """One invocation's view of the home, with settings and catalogue loaded lazily."""

    def __init__(self, home_flag: str | None = None, debug: bool = False) -> None:
        self.home = HomeLayout(resolve_home(home_flag))
        self.debug = debug
        self.setting_flags: dict[str, Any] = {}
        # Answers a full disk kept out of the database are saved when it opens (recovery.py);
        # `history --recover` turns this off to do it itself and say what it saved.
        self.recover_on_open = True
        # What of the home's own catalogue files was left out is said once on stderr; the
        # shell says it in its banner instead.
        self.left_out_said = False
        # The command goes to the team's server this home is logged in to (cli/team.py):
        # then nothing is said about acting on this home.
        self.remote = False

    @cached_property
    def verified_home(self) -> HomeLayout:
        """The home, once nothing in it was made or can be changed by another user. A home
        logged in to a team's server says, once, that this command acts on it instead."""
        self.home.verify()
        if not self.remote and self.team_login is not None:
            from design_agent.cli.output import echo

            login = self.team_login
            echo(
                f"Note: this home is logged in to {login.url} as {login.person}; this command "
                f"acts on this computer's own home ({self.home.root}), not on that server.",
                err=True,
            )
        return self.home

    @cached_property
    def team_login(self) -> TeamLogin | None:
        """The team's server this home is logged in to (`design-agent login`), or None."""
        from design_agent.core.team_login import logged_in, read_login

        return read_login(self.home.root) if logged_in(self.home.root) else None

    @cached_property
    def settings(self) -> EffectiveSettings:
        from design_agent.core.settings import load_settings

        return load_settings(self.verified_home, self.setting_flags)

    @cached_property
    def raw_catalogue(self) -> Catalogue:
        """The catalogue with its problems, for `check`."""
        from design_agent.knowledge.registry import load_catalogue_cached

        catalogue = load_catalogue_cached(self.verified_home)
        startup.ready()  # the command has reached the home's data: start-up is over
        return catalogue

    @property
    def catalogue(self) -> Catalogue:
        """The catalogue, or ConfigError if a bundled file has a problem. A broken entry of
        the home's own files is left out, and said once on stderr (one line each)."""
        catalogue = self.raw_catalogue.require_valid()
        if catalogue.left_out and not self.left_out_said:
            self.left_out_said = True
            from design_agent.cli.output import echo

            for line in catalogue.left_out_lines(self.language):
                echo(line, err=True)
        return catalogue

    @property
    def language(self) -> str:
        """The language to speak before any message says one: the setting, else the last
        one spoken (when the database is open already), else English."""
        from design_agent.core.errors import DesignAgentError

        try:
            setting = self.settings.values.language
        except DesignAgentError:
            setting = "auto"  # a broken settings file is said by the commands that read it
        if setting in ("en", "es"):
            return str(setting)
        said = self.memory.get_state("last_language") if "memory" in self.__dict__ else None
        return "es" if said == "es" else "en"

    @cached_property
    def database(self) -> DatabaseUrl:
        """The memory's database: DESIGN_AGENT_DATABASE_URL, else the `database.url` setting,
        else the home's own file. The settings are loaded only when something names a
        database (`projects list` and `history` never load them otherwise)."""
        from design_agent.memory.url import ENV, DatabaseUrl

        home = self.verified_home
        if "settings" in self.__dict__ or os.environ.get(ENV) or _mentions_database(home):
            url = self.settings.values.database.url
            if url:
                return DatabaseUrl.parse(url)
        return DatabaseUrl.parse(home.database_file)

    @property
    def has_database(self) -> bool:
        """Whether there is a database to read (a server's, or the home's file made)."""
        return self.database.is_postgres or self.home.database_file.exists()

    @cached_property
    def memory(self) -> Memory:
        """The memory database, opened (created, migrated) on first use."""
        from design_agent.memory import Memory

        memory = Memory.open(self.database)
        memory.operator = _operator()  # who the audit log names for a team's database
        startup.ready()
        if self.recover_on_open and self.home.recovery_dir.is_dir():
            self._recover(memory)
        return memory

    def _recover(self, memory: Memory) -> None:
        """Save what the recovery journal holds and say so on stderr; when the database
        still cannot take it, say that it waits, and carry on with the command."""
        import sqlite3

        from design_agent.cli.output import echo
        from design_agent.core.errors import DesignAgentError
        from design_agent.memory import recovery

        folder = self.home.recovery_dir
        if not recovery.waiting(folder):
            return
        try:
            done = recovery.replay(memory, folder)
        except (sqlite3.Error, DesignAgentError) as e:
            count = len(recovery.waiting(folder))
            echo(
                f"Warning: {count} unsaved answer(s) wait in {folder} ({e}); they are "
                "saved once the database can take them (design-agent history --recover)",
                err=True,
            )
            return
        for line in recovery.report(done):
            echo(line, err=True)

    def services(self) -> Services:
        """Everything a turn needs (catalogue, memory, settings, providers)."""
        from design_agent.turn.session import Services

        return Services(self.verified_home, self.catalogue, self.memory, self.setting_flags)

    def close(self) -> None:
        """Close the database if this invocation opened it (merges its search indexes)."""
        if "memory" in self.__dict__:
            self.memory.close()


def _mentions_database(home: HomeLayout) -> bool:
    """Whether settings.yaml may set `database` (a peek at its bytes, not a YAML parse)."""
    try:
        return b"database" in home.settings_file.read_bytes()
    except OSError:
        return False


def _operator() -> str:
    """This command line, as a team's audit log names it: "command line (USER)"."""
    import getpass

    try:
        return f"command line ({getpass.getuser()})"
    except (KeyError, OSError):  # no user name to be had (a container's uid)
        return f"command line (uid {os.getuid()})"
