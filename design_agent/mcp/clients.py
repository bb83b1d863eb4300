"""`design-agent mcp install|uninstall CLIENT`: register the stdio server with an agent the
way that agent documents it.

    claude   `claude mcp add --scope user design-agent -- COMMAND...` (Claude Code's own
             command; when `claude` is not on PATH, the exact command to run is said)
    gemini   ~/.gemini/settings.json, `mcpServers.design-agent` {command, args}
    codex    $CODEX_HOME/config.toml (default ~/.codex), `[mcp_servers.design-agent]`
    cursor   ~/.cursor/mcp.json, `mcpServers.design-agent` {command, args}

The registered command is this installation's own `design-agent` (an absolute path, since
an agent may start it with another PATH), with `--home` when one was given, then `mcp`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from design_agent.core.errors import ProviderFailedError, ProviderNotInstalledError
from design_agent.mcp import config_files as files

NAME = "design-agent"
CLIENTS = ("claude", "gemini", "codex", "cursor")
CLAUDE_TIMEOUT = 60.0  # `claude mcp add` writes a file; a minute is far more than it takes


@dataclass(frozen=True)
class Change:
    """What an install or uninstall did (or, with --print, would do)."""

    where: str  # the file, or the command that was run
    shown: str  # the entry written, the table, or the command line
    changed: bool  # False: already as asked (uninstall of an entry that is not there)


def server_command(home: Path | None) -> list[str]:
    """How an agent starts this design-agent's MCP server: the console script beside this
    Python, else the one on PATH, else this Python with -m; `--home` when one was given."""
    script = Path(sys.executable).with_name("design-agent")
    found = shutil.which("design-agent")
    if script.is_file():
        base = [str(script)]
    elif found:
        base = [str(Path(found).resolve())]
    else:
        base = [sys.executable, "-m", "design_agent"]
    return [*base, *(["--home", str(home)] if home is not None else []), "mcp"]


def install(client: str, command: list[str], dry: bool) -> Change:
    return _TARGETS[client](command, dry)


def uninstall(client: str, dry: bool) -> Change:
    return _TARGETS[client](None, dry)


def _entry(command: list[str]) -> files.Entry:
    return {"command": command[0], "args": command[1:]}


def _json_file(*parts: str) -> Callable[[list[str] | None, bool], Change]:
    """A client whose servers are `mcpServers` in the JSON file at ~/PARTS (the home read
    at each call)."""

    def change(command: list[str] | None, dry: bool) -> Change:
        path = Path.home().joinpath(*parts)
        text = files.read_text(path)
        entry = _entry(command) if command is not None else None
        present = files.json_entry(text, path, NAME) is not None
        shown = files.json_with("", path, NAME, entry) if entry else f'mcpServers["{NAME}"]'
        if entry is None and not present:
            return Change(str(path), shown, changed=False)
        if not dry:
            files.write_text(path, files.json_with(text, path, NAME, entry))
        return Change(str(path), shown, changed=True)

    return change


def _codex(command: list[str] | None, dry: bool) -> Change:
    home = os.environ.get("CODEX_HOME")
    path = (Path(home) if home else Path.home() / ".codex") / "config.toml"
    text = files.read_text(path)
    entry = _entry(command) if command is not None else None
    present = files.toml_entry(text, path, NAME) is not None
    shown = files.toml_table(NAME, entry) if entry else f"[mcp_servers.{NAME}]"
    if entry is None and not present:
        return Change(str(path), shown, changed=False)
    if not dry:
        files.write_text(path, files.toml_with(text, path, NAME, entry))
    return Change(str(path), shown, changed=True)


def _claude(command: list[str] | None, dry: bool) -> Change:
    """Claude Code keeps its configuration itself (~/.claude.json, rewritten by running
    sessions): its own `claude mcp add/remove` change it, never a file edit."""
    if command is None:
        argv = ["claude", "mcp", "remove", "--scope", "user", NAME]
    else:
        argv = ["claude", "mcp", "add", "--scope", "user", NAME, "--", *command]
    shown = shlex.join(argv)
    if dry:
        return Change("claude", shown, changed=True)
    binary = shutil.which("claude")
    if binary is None:
        raise ProviderNotInstalledError(
            "Claude Code (claude) is not on PATH; install it (npm install -g "
            f"@anthropic-ai/claude-code), or run this where it is: {shown}",
            "claude",
        )
    if command is not None:  # replaces an older registration (another path or home)
        _run([binary, "mcp", "remove", "--scope", "user", NAME], check=False)
    _run([binary, *argv[1:]], check=True)
    return Change("claude", shown, changed=True)


def _run(argv: list[str], check: bool) -> None:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=CLAUDE_TIMEOUT, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ProviderFailedError(f"{shlex.join(argv)} failed: {e}", "claude") from e
    if check and done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise ProviderFailedError(
            f"{shlex.join(argv)} failed (exit {done.returncode}): {said[-1] if said else ''}",
            "claude",
            said[-5:],
        )


_TARGETS: dict[str, Callable[[list[str] | None, bool], Change]] = {
    "claude": _claude,
    "gemini": _json_file(".gemini", "settings.json"),
    "codex": _codex,
    "cursor": _json_file(".cursor", "mcp.json"),
}
