"""Adding and removing one MCP server entry in a client's own configuration file, keeping
everything else in it as it was.

JSON (Gemini CLI's settings.json, Cursor's mcp.json): the file is read, the one entry
under `mcpServers` set or removed, and written back whole (two-space indent, the keys in
their order). TOML (Codex's config.toml): the text is edited, not re-serialised, so the
user's comments and layout stay: the server's own table (`[mcp_servers.NAME]` and its
sub-tables) is cut out and, to install, written again at the end; the result is parsed
with tomllib and must hold exactly the entry, or nothing is written.

Every write goes through core/user_files.py: a temporary file beside the file, renamed
over it (the file is whole or unchanged, its mode kept). A link is followed to the file
it points to (a dotfile manager's link stays a link).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from design_agent.core.errors import UsageError
from design_agent.core.user_files import write_file

Entry = dict[str, Any]


def read_text(path: Path) -> str:
    """The file's text ("" when it does not exist yet)."""
    try:
        return _target(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path} ({e}); nothing was changed") from e


def write_text(path: Path, text: str) -> None:
    """Replace the file's text atomically (its folder made first, private to the user)."""
    target = _target(path)
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_file(target, text.encode("utf-8"), replace=True)


def _target(path: Path) -> Path:
    return path.resolve() if path.is_symlink() else path


# -- JSON: {"mcpServers": {NAME: {command, args}}} ------------------------------------------


def json_with(text: str, path: Path, name: str, entry: Entry | None) -> str:
    """`text` (a JSON object, or nothing) with `mcpServers[name]` set to `entry`, or
    removed when `entry` is None."""
    data = _json_object(text, path)
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise UsageError(f"{path}: mcpServers is not an object; fix it by hand first")
    if entry is None:
        servers.pop(name, None)
    else:
        servers[name] = entry
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def json_entry(text: str, path: Path, name: str) -> Entry | None:
    """The entry `name` of `mcpServers`, or None."""
    servers = _json_object(text, path).get("mcpServers")
    found = servers.get(name) if isinstance(servers, dict) else None
    return found if isinstance(found, dict) else None


def _json_object(text: str, path: Path) -> dict[str, Any]:
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(
            f"{path} is not plain JSON (line {e.lineno}: {e.msg}); nothing was changed: "
            "fix it, or add the entry `design-agent mcp install --print` shows by hand"
        ) from e
    if not isinstance(data, dict):
        raise UsageError(f"{path} does not hold a JSON object; nothing was changed")
    return data


# -- TOML: [mcp_servers.NAME] command = "...", args = [...] ---------------------------------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def toml_table(name: str, entry: Entry) -> str:
    """`[mcp_servers.NAME]` with the entry's strings and lists of strings."""
    lines = [f"[mcp_servers.{_key(name)}]"]
    for key, value in entry.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"


def toml_with(text: str, path: Path, name: str, entry: Entry | None) -> str:
    """`text` without the table of `name` (and its sub-tables), with `entry`'s appended
    unless it is None; checked by parsing the result."""
    _toml(text, path)  # a file that is not TOML is refused before anything is cut
    kept = _without_table(text, name)
    if entry is not None:
        gap = "" if not kept.strip() else ("\n" if kept.endswith("\n") else "\n\n")
        kept = f"{kept}{gap}{toml_table(name, entry)}"
    try:
        servers = tomllib.loads(kept).get("mcp_servers")
    except tomllib.TOMLDecodeError:
        servers = None  # the table clashes with the same server written another way
    if (servers.get(name) if isinstance(servers, dict) else None) != entry:
        raise UsageError(
            f"{path} defines mcp_servers.{name} in a form design-agent does not edit (an "
            "inline table or dotted keys); nothing was changed: edit it by hand"
        )
    return kept


def toml_entry(text: str, path: Path, name: str) -> Entry | None:
    """The table `mcp_servers.NAME`, or None."""
    servers = _toml(text, path).get("mcp_servers")
    found = servers.get(name) if isinstance(servers, dict) else None
    return found if isinstance(found, dict) else None


def _toml(text: str, path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path} is not valid TOML ({e}); nothing was changed") from e


def _without_table(text: str, name: str) -> str:
    """The lines of `text` outside the tables `[mcp_servers.NAME]` and
    `[mcp_servers.NAME.*]` (a table runs to the next header)."""
    own = {f"mcp_servers.{name}", f'mcp_servers."{name}"'}
    kept: list[str] = []
    inside = False
    for line in text.splitlines(keepends=True):
        header = _HEADER.match(line)
        if header is not None:
            key = re.sub(r"\s*\.\s*", ".", header.group(1))
            inside = any(key == o or key.startswith(f"{o}.") for o in own)
        if not inside:
            kept.append(line)
    return "".join(kept).rstrip("\n") + "\n" if "".join(kept).strip() else ""


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    """A string or a list of strings as TOML (a JSON string is a TOML basic string)."""
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + pairs + " }" if pairs else "{}"
    return json.dumps(str(value), ensure_ascii=False)
