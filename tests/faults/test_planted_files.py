"""Faults in a home another user can write: nothing they planted is read, run or followed.

The suite runs as root, so "another user" is played by chown-ing what we plant to
`nobody` (uid 65534), exactly as that user's own files would be; a group-writable
entry is one chmod away. Every command then stops with one line naming the file and
what to do, exit 3, and nothing planted runs.
"""

from __future__ import annotations

import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from design_agent.core.cache import CACHE_ENV
from design_agent.core.errors import ExitCode

OTHER_UID = 65534  # nobody
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="planting as another user needs root")


def design_agent(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`design-agent --home HOME ARGS` as a real process (its own cache: the home's)."""
    environ = {k: v for k, v in os.environ.items() if k != CACHE_ENV}
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "design_agent", "--home", str(home), *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
    )


def shared_home(tmp_path: Path) -> Path:
    home = tmp_path / "team"
    home.mkdir()
    home.chmod(0o1777)
    return home


def plant(path: Path, content: str | bytes, uid: int = OTHER_UID) -> Path:
    """Write `path` as another user would (their uid), with their usual 0644."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    path.chmod(0o644)
    os.chown(path, uid, uid)
    return path


def refused(result: subprocess.CompletedProcess[str], path: Path) -> str:
    """The one error line, which names `path`; exit code 3, no traceback."""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.returncode == ExitCode.INVALID_CONFIG, result.stderr
    assert len(errors) == 1 and str(path) in errors[0], result.stderr
    assert "Traceback" not in result.stderr and "unexpected" not in result.stderr
    return errors[0]


class Evil:
    """Unpickling this touches a marker file: proof that planted code ran."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path(self.marker).touch, ())


# -- 1. a planted pickle in the cache ------------------------------------------------------


@needs_root
def test_a_pickle_another_user_planted_in_the_cache_never_runs(tmp_path):
    home = shared_home(tmp_path)
    marker = tmp_path / "pwned"
    # The attacker makes the cache folder before we do (its name is the same in every home).
    cache = home / "cache"
    cache.mkdir(mode=0o777)
    cache.chmod(0o777)
    os.chown(cache, OTHER_UID, OTHER_UID)
    for kind in ("catalogue", "matcher", "adapters"):
        for name in _cache_names(kind):
            plant(cache / name, pickle.dumps(Evil(str(marker))))
    result = design_agent(home, "ask", "--provider", "offline", "plan a usability test")
    line = refused(result, cache)
    assert "owned by another user" in line
    assert not marker.exists()


def test_a_pickle_written_without_the_key_is_rebuilt_never_loaded(tmp_path):
    """Even in the user's own cache folder (any way a file got there), an entry without
    the folder's HMAC is not unpickled: it is deleted and built again."""
    home = tmp_path / "home"
    marker = tmp_path / "pwned"
    first = design_agent(home, "ask", "--provider", "offline", "plan a usability test")
    assert first.returncode == 0, first.stderr
    cache = home / "cache"
    assert stat.S_IMODE((cache / "key").stat().st_mode) == 0o600
    entries = sorted(cache.glob("*.pickle"))
    assert entries
    for entry in entries:
        entry.write_bytes(pickle.dumps(Evil(str(marker))))
    again = design_agent(home, "ask", "--provider", "offline", "plan a usability test")
    assert again.returncode == 0, again.stderr
    assert not marker.exists()
    for entry in entries:  # rebuilt, with the key's HMAC in front
        assert not entry.read_bytes().startswith(pickle.dumps(Evil(str(marker)))[:8])


def _cache_names(kind: str) -> list[str]:
    """The file names the bundled catalogue's entries get in any home (predictable)."""
    from design_agent.core.cache import signature
    from design_agent.core.paths import HomeLayout
    from design_agent.knowledge.registry import catalogue_sources

    return [f"{kind}-{signature(catalogue_sources(HomeLayout(Path('/nonexistent'))))}.pickle"]


# -- 2. a planted settings.yaml naming a program -------------------------------------------


@needs_root
def test_a_settings_file_another_user_planted_is_refused_and_runs_nothing(tmp_path):
    home = shared_home(tmp_path)
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil-claude"
    evil.write_text(f"#!/bin/sh\ntouch {marker}\n")
    evil.chmod(0o755)
    settings = plant(home / "settings.yaml", f"provider: claude\nbins:\n  claude: {evil}\n")
    for args in (["ask", "plan a usability test"], ["projects", "list"], ["config", "show"]):
        result = design_agent(home, *args)
        line = refused(result, settings)
        assert "owned by another user (uid 65534)" in line and "remove it" in line
    assert not marker.exists()


def test_a_settings_file_others_can_write_is_refused_with_the_chmod_to_run(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    settings = home / "settings.yaml"
    settings.write_text("language: en\n")
    settings.chmod(0o666)
    result = design_agent(home, "projects", "list")
    line = refused(result, settings)
    assert "can be written by other users (mode 666)" in line
    assert f"chmod go-w '{settings}'" in line
    settings.chmod(0o644)
    assert design_agent(home, "projects", "list").returncode == 0


@needs_root
def test_an_overlay_adapter_or_task_another_user_planted_is_refused(tmp_path):
    home = shared_home(tmp_path)
    config = home / "config"
    config.mkdir(mode=0o700)
    tasks = plant(config / "tasks.yaml", "tasks: []\n")
    refused(design_agent(home, "ask", "--provider", "offline", "plan a usability test"), tasks)
    tasks.unlink()
    adapter = plant(home / "adapters" / "evil.yaml", "name: evil\nbinary: sh\n")
    refused(design_agent(home, "providers", "list"), adapter.parent)


# -- 3. a planted logs symlink ------------------------------------------------------------


@needs_root
def test_a_logs_symlink_another_user_planted_is_never_followed(tmp_path):
    home = shared_home(tmp_path)
    target = tmp_path / "victim"
    target.mkdir()
    logs = home / "logs"
    logs.symlink_to(target)
    os.lchown(logs, OTHER_UID, OTHER_UID)
    result = design_agent(home, "ask", "--provider", "offline", "plan a usability test")
    refused(result, logs)
    assert list(target.iterdir()) == []


def test_a_logs_symlink_of_the_users_own_to_their_own_folder_is_followed(tmp_path):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    target = tmp_path / "my-logs"
    target.mkdir(mode=0o700)
    (home / "logs").symlink_to(target)
    result = design_agent(home, "ask", "--provider", "offline", "plan a usability test")
    assert result.returncode == 0, result.stderr
    assert (target / "events.jsonl").exists()


# -- the rest of the home -----------------------------------------------------------------


@needs_root
@pytest.mark.parametrize(
    "name",
    ["design-agent.db", "design-agent.db-wal", "server.json", "input-history", "recovery"],
)
def test_any_entry_another_user_planted_in_the_home_stops_every_command(tmp_path, name):
    home = shared_home(tmp_path)
    planted = plant(home / name, "x")
    result = design_agent(home, "projects", "list")
    refused(result, planted)


@needs_root
def test_a_home_owned_by_another_user_is_refused(tmp_path):
    home = tmp_path / "theirs"
    home.mkdir(mode=0o777)
    home.chmod(0o777)
    os.chown(home, OTHER_UID, OTHER_UID)
    refused(design_agent(home, "projects", "list"), home)


@needs_root
def test_a_planted_server_file_never_receives_a_turn(tmp_path):
    """The `ask` fast path would send the message and a token to the port it names."""
    home = shared_home(tmp_path)
    server = plant(
        home / "server.json",
        '{"pid": 1, "port": 9, "token": "t", "host": "127.0.0.1", "version": "x"}',
    )
    refused(design_agent(home, "ask", "--provider", "offline", "plan a usability test"), server)
