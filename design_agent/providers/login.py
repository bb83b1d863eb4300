"""Is a provider's CLI logged in? A cheap check that makes no model call.

Each adapter declares its probe (`login:` in adapters/NAME.yaml, recorded in
../shared/providers): `claude auth status` prints JSON with `loggedIn` and
exits 1 when logged out; `codex login status` prints "Not logged in" and
exits 1; gemini has no such command, so its settings file, its environment
and its stored OAuth credentials are read instead.

A command probe takes 0.1-0.4 s, so its answer is cached for CACHE_SECONDS
in `<home>/cache/login-probes.json`, keyed by provider, binary path and the
binary's mtime (an update or a reinstall asks again); the file checks cost
microseconds and are never cached. A probe that fails, times out (PROBE
timeout, ~3 s) or says something unexpected gives "unknown", which callers
treat as "try it": only a clear "logged out" skips a provider. Nothing here
runs on the `--version` / `--help` path: only `providers list / doctor /
use`, the model's method choice and a turn with a fallback chain ask.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from design_agent.core.errors import DesignAgentError
from design_agent.core.fsutil import write_private_text
from design_agent.core.home_trust import open_trusted
from design_agent.providers.environment import child_environment
from design_agent.providers.process import QuickResult, run_quick
from design_agent.providers.resolve import find_binary

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec, LoginProbe

LoginState = Literal["logged_in", "logged_out", "unknown", "no_probe"]
CACHE_SECONDS = 300.0
CACHE_FILE = "login-probes.json"
_lock = threading.Lock()  # doctor probes side by side: one read-modify-write at a time
_memo: dict[str, LoginStatus] = {}  # a process without a home (model choice) still asks once


class LoginStatus(BaseModel):
    """What a probe found: the state, in words, and when it was checked."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built by the first probe

    provider: str
    state: LoginState
    detail: str
    checked_at: float
    cached: bool = False

    @property
    def logged_out(self) -> bool:
        return self.state == "logged_out"


def check_login(
    spec: AdapterSpec,
    binary: str | None,
    home: HomeLayout | None = None,
    parent: Mapping[str, str] | None = None,
    fresh: bool = False,
) -> LoginStatus:
    """The login state of `spec`'s CLI at `binary` (cached unless `fresh`)."""
    probe = spec.login
    env = child_environment(spec, os.environ if parent is None else parent)
    if probe is None or spec.is_offline:
        return _status(spec, "no_probe", "no login check declared")
    if probe.args is None:
        return _from_files(spec, probe, env)
    if binary is None:
        return _status(spec, "unknown", "not installed")
    key = _cache_key(spec.name, binary)
    if not fresh and (hit := _cached(home, key)) is not None:
        return hit
    status = _from_command(spec, probe, binary, env)
    _remember(home, key, status)
    return status


def provider_ready(
    spec: AdapterSpec,
    settings: Settings | None,
    environ: Mapping[str, str] | None,
    home: HomeLayout | None = None,
) -> tuple[bool, LoginStatus | None]:
    """(ready, login): installed and not clearly logged out; login is None when not installed."""
    if spec.is_offline:
        return True, None
    lookup = find_binary(spec, settings, environ)
    if lookup.path is None:
        return False, None
    status = check_login(spec, lookup.path, home)
    return not status.logged_out, status


def remember_logged_out(
    spec: AdapterSpec, binary: str | None, home: HomeLayout | None, detail: str
) -> None:
    """Record that a run just failed as logged out, so the next turn skips it at once."""
    if spec.login is None or spec.login.args is None or binary is None:
        return
    _remember(home, _cache_key(spec.name, binary), _status(spec, "logged_out", detail))


# -- a status command ----------------------------------------------------------------------


def _from_command(
    spec: AdapterSpec, probe: LoginProbe, binary: str, env: dict[str, str]
) -> LoginStatus:
    assert probe.args is not None
    command = " ".join([spec.binary or spec.name, *probe.args])
    try:
        result = run_quick([binary, *probe.args], probe.timeout, env)
    except OSError as e:
        return _status(spec, "unknown", f"'{command}' could not run: {e}")
    if result.timed_out:
        return _status(spec, "unknown", f"'{command}' did not answer within {probe.timeout:g} s")
    state, said = _read_result(probe, result)
    keys = [name for name in probe.env_any if env.get(name)]
    if state == "logged_out" and keys:
        # codex does not count OPENAI_API_KEY as a login, yet a headless run may use it.
        return _status(spec, "unknown", f"'{command}': {said}; but {keys[0]} is set")
    return _status(spec, state, f"'{command}': {said}")


def _read_result(probe: LoginProbe, result: QuickResult) -> tuple[LoginState, str]:
    """The state a status command's output shows, and the line that shows it."""
    output = f"{result.stdout}\n{result.stderr}"
    first = next((line.strip() for line in result.stdout.splitlines() if line.strip()), "")
    if probe.json_field:
        data = _json_object(result.stdout)
        if data is None or probe.json_field not in data:
            return "unknown", f"no '{probe.json_field}' in its output (exit {result.returncode})"
        logged_in = data[probe.json_field] is True
        method = data.get("authMethod")
        said = f"{probe.json_field}: {str(logged_in).lower()}" + (
            f", {method}" if isinstance(method, str) else ""
        )
        return ("logged_in" if logged_in else "logged_out"), said
    folded = output.casefold()
    if any(text.casefold() in folded for text in probe.logged_out_text):
        return "logged_out", first[:120] or "logged out"
    if result.returncode == 0:
        return "logged_in", first[:120] or "exit 0"
    if not probe.logged_out_text and result.returncode in probe.logged_out_exit:
        return "logged_out", f"exit {result.returncode}"
    return "unknown", f"exit {result.returncode}: {first[:120]}"


def _json_object(text: str) -> dict[str, Any] | None:
    """The JSON object in `text` (a warning line before it is allowed), or None."""
    start, end = text.find("{"), text.rfind("}")
    try:
        data = json.loads(text[start : end + 1]) if 0 <= start < end else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


# -- files and environment (gemini) --------------------------------------------------------


def _from_files(spec: AdapterSpec, probe: LoginProbe, env: Mapping[str, str]) -> LoginStatus:
    keys = [name for name in probe.env_any if env.get(name)]
    if keys:
        return _status(spec, "logged_in", f"{keys[0]} is set")
    if probe.settings_file:
        path = _expand(probe.settings_file, env)
        selected = _settings_value(path, probe.settings_keys)
        if selected:
            return _status(spec, "logged_in", f"auth method '{selected}' in {path}")
    for name in probe.oauth_files:
        if _expand(name, env).is_file():
            return _status(spec, "logged_in", f"stored credentials in {_expand(name, env)}")
    where = probe.settings_file or "its settings"
    names = ", ".join(probe.env_any) or "no variable"
    return _status(spec, "logged_out", f"no auth method in {where}, and none of {names} is set")


def _settings_value(path: Path, keys: list[str]) -> str | None:
    """The first of `keys` (dotted) set to a non-empty string in the JSON file, or None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for key in keys:
        value: Any = data
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _expand(name: str, env: Mapping[str, str]) -> Path:
    """`~/x` under the HOME the CLI would get (its environment), else ours."""
    if name.startswith("~/"):
        return Path(env.get("HOME") or Path.home()) / name[2:]
    return Path(name)


# -- the cache -----------------------------------------------------------------------------


def _status(spec: AdapterSpec, state: LoginState, detail: str) -> LoginStatus:
    return LoginStatus(provider=spec.name, state=state, detail=detail, checked_at=time.time())


def _cache_key(name: str, binary: str) -> str:
    try:
        mtime = os.stat(binary).st_mtime_ns
    except OSError:
        mtime = 0
    return f"{name}|{binary}|{mtime}"


def _cache_file(home: HomeLayout | None) -> Path | None:
    return None if home is None else home.cache_dir / CACHE_FILE


def _fresh(status: LoginStatus | None) -> LoginStatus | None:
    if status is None or time.time() - status.checked_at > CACHE_SECONDS:
        return None
    return status.model_copy(update={"cached": True})


def _cached(home: HomeLayout | None, key: str) -> LoginStatus | None:
    path = _cache_file(home)
    if path is None:
        return _fresh(_memo.get(key))
    with _lock:
        raw = _read_cache(path).get(key)
    try:
        return _fresh(LoginStatus.model_validate(raw)) if raw is not None else None
    except ValidationError:
        return None


def _remember(home: HomeLayout | None, key: str, status: LoginStatus) -> None:
    """Keep `status` under `key`, dropping stale entries; a cache that cannot be written
    only means probing again."""
    _memo[key] = status
    path = _cache_file(home)
    if path is None:
        return
    now = time.time()
    with _lock:
        entries = {
            k: v
            for k, v in _read_cache(path).items()
            if isinstance(v, dict) and now - float(v.get("checked_at", 0)) <= CACHE_SECONDS
        }
        entries[key] = status.model_dump(exclude={"cached"})
        with contextlib.suppress(OSError, DesignAgentError):
            write_private_text(path, json.dumps(entries, indent=1, sort_keys=True))


def _read_cache(path: Path) -> dict[str, Any]:
    """The cached probes; {} when there are none, or the file is not the user's own."""
    try:
        data = json.loads(open_trusted(path, path.parent))
    except (OSError, ValueError, DesignAgentError):
        return {}
    return data if isinstance(data, dict) else {}
