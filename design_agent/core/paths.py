"""Where things live: the bundled data folders and the user's design-agent home.

The bundled `config/`, `knowledge/` and `adapters/` folders ship inside the
wheel under `design_agent/_data`; an editable install or a checkout has no
`_data`, so we fall back to the repository root.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

APP_NAME = "design-agent"
HOME_ENV = "DESIGN_AGENT_HOME"


TEAM_FILE = "team.json"  # core/team_login.py reads it without importing this module


def bundled_root() -> Path:
    """The folder that holds the bundled config/, knowledge/ and adapters/."""
    packaged = Path(str(resources.files("design_agent"))) / "_data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2]  # design_agent/core/paths.py -> the checkout


def default_home() -> Path:
    """The platform's user config dir for design-agent (e.g. ~/.config/design-agent)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME))


def resolve_home(flag: str | os.PathLike[str] | None = None) -> Path:
    """Home precedence: `--home` flag > DESIGN_AGENT_HOME > platform default."""
    if flag:
        return Path(flag).expanduser().resolve()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_home()


@dataclass(frozen=True)
class DataLayout:
    """The three data folders of one layer (bundled or the user's overlay)."""

    root: Path

    @property
    def agents_file(self) -> Path:
        return self.root / "config" / "agents.yaml"

    @property
    def tasks_file(self) -> Path:
        return self.root / "config" / "tasks.yaml"

    @property
    def inputs_file(self) -> Path:
        """The inputs methods may name (config/inputs.yaml)."""
        return self.root / "config" / "inputs.yaml"

    @property
    def guides_dir(self) -> Path:
        return self.root / "knowledge" / "guides"

    @property
    def materials_dir(self) -> Path:
        return self.root / "knowledge" / "materials"

    @property
    def adapters_dir(self) -> Path:
        return self.root / "adapters"


@dataclass(frozen=True)
class HomeLayout(DataLayout):
    """The user's home: an overlay data layer plus design-agent's own files."""

    @property
    def settings_file(self) -> Path:
        return self.root / "settings.yaml"

    @property
    def database_file(self) -> Path:
        return self.root / "design-agent.db"

    @property
    def logs_dir(self) -> Path:
        return self.root / "logs"

    @property
    def recovery_dir(self) -> Path:
        """Answers the database could not take (a full disk), until they are saved
        (0700, files 0600; see design_agent.memory.recovery)."""
        return self.root / "recovery"

    @property
    def history_file(self) -> Path:
        return self.root / "input-history"

    @property
    def server_file(self) -> Path:
        """The running server's pid, port and token (0600; see design_agent.server.lifecycle)."""
        return self.root / "server.json"

    @property
    def team_file(self) -> Path:
        """The team server this home is logged in to, and its token (0600; `design-agent
        login URL`, see design_agent.core.team_login)."""
        return self.root / TEAM_FILE

    @property
    def uploads_dir(self) -> Path:
        """Files uploaded to the server while they are read (see design_agent.server.uploads)."""
        return self.root / "uploads"

    @property
    def server_log_file(self) -> Path:
        """Where `serve --detach` writes its output."""
        return self.logs_dir / "server.log"

    @property
    def cache_dir(self) -> Path:
        return self.root / "cache"

    def entries(self) -> tuple[Path, ...]:
        """Every file and folder design-agent reads or writes at the top of the home."""
        database = self.database_file
        return (
            self.settings_file,
            *(database, database.with_name(database.name + "-wal")),
            *(database.with_name(database.name + "-shm"),),
            *(database.with_name(database.name + "-journal"),),
            *(self.history_file, self.server_file, self.cache_dir, self.logs_dir),
            self.team_file,
            *(self.root / "config", self.root / "knowledge", self.adapters_dir),
            self.root / "lexicon",
            *(self.root / "uploads", self.root / "recovery"),
        )

    def verify(self) -> None:
        """Refuse a home where another user made or can change what design-agent would read
        (design_agent.core.home_trust): one lstat per entry, at every command's start."""
        from design_agent.core.home_trust import check_home, trusted

        check_home(self.root)
        for entry in self.entries():
            trusted(entry, self.root)

    def trusted(self, path: Path) -> Path:
        """`path`, checked as the user's own from the home down (home_trust.trusted)."""
        from design_agent.core.home_trust import trusted

        trusted(path, self.root)
        return path
