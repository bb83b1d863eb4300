"""The server file `<home>/server.json`: who is serving this home, and how to reach it.

    {"pid": 4242, "port": 51234, "host": "127.0.0.1", "token": "...",
     "started": "2026-11-27T05:30:00+00:00", "version": "0.9.0", "env": "...", "env_keys": [...]}

Written atomically with mode 0600 when the server starts, removed when it
stops. A file whose pid is gone, or whose port does not answer
/api/v1/status with its token, is stale: `live_server` removes it. Only the
standard library is used, so `ask` can read it without loading the server.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

from design_agent.core.fsutil import write_private_text
from design_agent.core.home_trust import open_trusted
from design_agent.core.paths import HomeLayout

STATUS_PATH = "/api/v1/status"
PROBE_SECONDS = 1.0
STOP_WAIT_SECONDS = 10.0


def server_record(pid: int, port: int, host: str, token: str, started: str) -> dict[str, Any]:
    """What server.json holds (plus the environment fingerprint, when it can be made)."""
    from design_agent import __version__

    info: dict[str, Any] = {
        "pid": pid,
        "port": port,
        "host": host,
        "token": token,
        "started": started,
        "version": __version__,
    }
    info.update(_environment())
    return info


def _environment() -> dict[str, Any]:
    """`env` (fingerprint of the variables an answer depends on) and `env_keys` (their
    names), from design_agent.core.server_env, so `ask` can tell this server's environment
    is its own."""
    try:
        from design_agent.core import server_env
    except ImportError:
        return {}
    make = getattr(server_env, "fingerprint", None) or getattr(
        server_env, "environment_fingerprint", None
    )
    if make is None:
        return {}
    data: dict[str, Any] = {"env": make(os.environ)}
    patterns = getattr(server_env, "fingerprint_patterns", None)
    if patterns is not None:
        from fnmatch import fnmatchcase

        wanted = patterns(os.environ)
        data["env_keys"] = sorted(n for n in os.environ if any(fnmatchcase(n, p) for p in wanted))
    return data


def write_server_file(home: HomeLayout, info: dict[str, Any]) -> None:
    write_private_text(home.server_file, json.dumps(info, indent=2) + "\n")


def read_server_file(home: HomeLayout) -> dict[str, Any] | None:
    """The server file's content, or None when there is none or it is not readable.

    Raises UntrustedPathError for one another user planted: it names a port to talk to."""
    try:
        data = json.loads(open_trusted(home.server_file, home.root))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pid"), int):
        return None
    return data


def remove_server_file(home: HomeLayout, pid: int | None = None) -> None:
    """Remove the server file (only if it is still `pid`'s, when given)."""
    if pid is not None:
        current = read_server_file(home)
        if current is not None and current.get("pid") != pid:
            return  # another server wrote it since
    with contextlib.suppress(FileNotFoundError):
        home.server_file.unlink()


def pid_alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting to be reaped does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        return state not in {"Z", "X"}
    return True


def answers(info: dict[str, Any], timeout: float = PROBE_SECONDS) -> bool:
    """Whether the server of `info` answers /api/v1/status with its token."""
    host = "127.0.0.1" if info.get("host") in (None, "0.0.0.0", "::") else str(info["host"])
    try:
        conn = http.client.HTTPConnection(host, int(info["port"]), timeout=timeout)
        try:
            headers = {"Authorization": f"Bearer {info.get('token', '')}"}
            conn.request("GET", STATUS_PATH, headers=headers)
            return conn.getresponse().status == 200
        finally:
            conn.close()
    except (OSError, ValueError, KeyError, http.client.HTTPException):
        return False


def live_server(home: HomeLayout) -> dict[str, Any] | None:
    """The running server of this home, or None (a stale server file is removed)."""
    info = read_server_file(home)
    if info is None:
        if home.server_file.exists():
            remove_server_file(home)
        return None
    if pid_alive(int(info["pid"])) and answers(info):
        return info
    remove_server_file(home, int(info["pid"]))
    return None


def stop_server(home: HomeLayout, wait: float = STOP_WAIT_SECONDS) -> dict[str, Any] | None:
    """SIGTERM the running server and wait until it is gone; its info, or None if none ran.

    The server cancels its running turns (saved as cancelled) and removes its file."""
    info = live_server(home)
    if info is None:
        return None
    pid = int(info["pid"])
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + wait
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if pid_alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    remove_server_file(home, pid)
    return info


def url_of(info: dict[str, Any], token: bool = True) -> str:
    """The address to open: http://HOST:PORT/ (with ?token=... when `token`)."""
    host = str(info.get("host") or "127.0.0.1")
    host = f"[{host}]" if ":" in host else host
    base = f"http://{host}:{info['port']}/"
    return f"{base}?token={info['token']}" if token else base
