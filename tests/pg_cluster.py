"""A throwaway PostgreSQL server for the tests and the benchmarks.

Debian's `postgresql` package (never a download): `initdb` and `pg_ctl` make a cluster in
a temporary folder that listens on a unix socket only (`-k DIR -c listen_addresses=''`),
with durability off (a test database needs none). PostgreSQL refuses to run as root, so
as root the cluster belongs to the `postgres` user the package creates (`runuser -u
postgres`), and its folder is made theirs; any other user runs it as themselves.

One cluster serves a whole test run: the first xdist worker that needs it starts it under
a file lock and writes where it is (`state.json` in the run's shared folder); the other
workers read that; the run's last step stops it (tests/conftest.py). When PostgreSQL
cannot be had, `unavailable()` says why, and the tests that need it skip with that reason.

    cluster = start(Path("/tmp/run"))           # or reuse the one already started there
    url = cluster.url("design_agent_template")  # postgresql://postgres@/NAME?host=SOCKET
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "postgres"
STATE = "state.json"
LOCK = "lock"
SERVER_OPTIONS = (
    "-c listen_addresses='' -c fsync=off -c synchronous_commit=off "
    "-c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB"
)


@dataclass(frozen=True)
class Cluster:
    """A running cluster: its folder (data/, the socket, the log) and how to reach it."""

    folder: Path

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def socket_dir(self) -> Path:
        return self.folder

    def url(self, database: str) -> str:
        """The URL design-agent is given for `database` (the unix socket, no password)."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}"


def bin_dir() -> Path | None:
    """Where initdb and pg_ctl are: on PATH, else Debian's newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3])
    )
    return versions[-1].parent if versions else None


def unavailable() -> str | None:
    """Why no cluster can be started here, or None."""
    try:
        import psycopg  # noqa: F401  (the postgres extra)
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg is not installed: pip install -e '.[postgres]'"
    if bin_dir() is None:
        return "PostgreSQL is not installed (no initdb): apt-get install postgresql"
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root and no runuser to start PostgreSQL as the postgres user"
    if os.geteuid() == 0 and _postgres_uid() is None:
        return "running as root and there is no postgres user to run PostgreSQL as"
    return None


def _postgres_uid() -> tuple[int, int] | None:
    import pwd

    try:
        entry = pwd.getpwnam("postgres")
    except KeyError:
        return None
    return entry.pw_uid, entry.pw_gid


def _as_owner(argv: list[str]) -> list[str]:
    """`argv` run as the cluster's owner: the postgres user when we are root."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def _run(argv: list[str]) -> None:
    done = subprocess.run(_as_owner(argv), capture_output=True, text=True, timeout=120)
    if done.returncode:
        raise RuntimeError(f"{Path(argv[0]).name} failed: {(done.stderr or done.stdout)[-800:]}")


def _create(folder: Path, options: str = "") -> Cluster:
    """initdb + pg_ctl start in `folder` (a new temporary folder the owner can use), with
    the server's `options` added (`-c name=value ...`)."""
    binaries = bin_dir()
    assert binaries is not None
    owner = _postgres_uid() if os.geteuid() == 0 else None
    if owner is not None:
        os.chown(folder, *owner)
    cluster = Cluster(folder)
    _run(
        [
            str(binaries / "initdb"),
            "-D",
            str(cluster.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        ]
    )
    every = f"-k {cluster.socket_dir} {SERVER_OPTIONS} {options}"
    log = folder / "server.log"
    _run([str(binaries / "pg_ctl"), "-D", str(cluster.data), "-l", str(log), "-o", every, "-w",
          "start"])  # fmt: skip
    return cluster


def start(run_folder: Path, options: str = "") -> Cluster:
    """The run's cluster: started by the first caller (under a lock), found by the others.
    RuntimeError (with the reason) when it could not start, for every caller. `options`
    are the server's own (`-c shared_buffers=1GB`), for the first caller."""
    run_folder.mkdir(parents=True, exist_ok=True)
    with (run_folder / LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        state_file = run_folder / STATE
        if state_file.exists():
            state = json.loads(state_file.read_text(encoding="utf-8"))
        else:
            state = _start_new(options)
            state_file.write_text(json.dumps(state), encoding="utf-8")
    if state.get("error"):
        raise RuntimeError(state["error"])
    return Cluster(Path(state["folder"]))


def _start_new(options: str) -> dict[str, str]:
    reason = unavailable()
    if reason:
        return {"error": reason}
    folder = Path(tempfile.mkdtemp(prefix="design-agent-pg-"))
    try:
        return {"folder": str(_create(folder, options).folder)}
    except (OSError, RuntimeError, subprocess.SubprocessError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        return {"error": f"PostgreSQL could not be started: {e}"}


def stop(run_folder: Path) -> None:
    """Stop the run's cluster, if one was started, and remove its folder."""
    state_file = run_folder / STATE
    if not state_file.exists():
        return
    state = json.loads(state_file.read_text(encoding="utf-8"))
    state_file.unlink()
    if "folder" not in state:
        return
    cluster = Cluster(Path(state["folder"]))
    binaries = bin_dir()
    if binaries is not None:
        with contextlib.suppress(RuntimeError, OSError, subprocess.SubprocessError):
            _run([str(binaries / "pg_ctl"), "-D", str(cluster.data), "-m", "immediate", "stop"])
    shutil.rmtree(cluster.folder, ignore_errors=True)
