"""The one place design-agent spawns AI CLI processes and signals them.

Each CLI starts in its own session, so its process group holds the CLI and
every helper it starts (gemini runs a second node process that keeps
streaming if only the parent is signalled); we always signal the group.
Plain pipes, not a pseudo-terminal: measured, a pty costs ten times more per
line and pexpect adds 100 ms at every close.

The group also dies with design-agent, even when design-agent is killed with
-9 and cannot stop it: a watchdog (`/bin/sh`, in a session of its own) waits
to read a pipe whose only write end is ours. When we die, however, the
kernel closes it, the read ends, and the watchdog kills the whole group,
helpers included. The pump starts it (`guard`) once the prompt is written,
so it never delays the CLI; a run that ends stops it first (`release`).
Unlike a parent-death signal (prctl), this reaches the helpers too, works
beyond Linux, and lets the CLI be spawned with vfork (no preexec_fn).

Helpers that leave the group (setsid, a daemon's double fork) are found by
descendants.py; each CLI is started with the run's own DESIGN_AGENT_RUN
variable, which the watchdog also looks for (Linux /proc) once it has killed
the group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from design_agent.providers.descendants import RUN_VARIABLE, new_run_id

WATCHDOG = "/bin/sh"
# Once design-agent is gone: the group, then every process started with the run's variable
# (its initial environment, in /proc; nothing is found where there is no /proc).
WATCHDOG_SCRIPT = (
    "read _; kill -KILL -{pgid}; "
    "for e in /proc/[0-9]*/environ; do "
    "if grep -qzx '{variable}={run_id}' \"$e\" 2>/dev/null; then "
    'p=${{e#/proc/}}; kill -KILL "${{p%/environ}}"; fi; done'
)


@dataclass
class Spawned:
    """A started CLI: its Popen, process group and (on Linux) a pidfd that wakes on exit."""

    proc: subprocess.Popen[bytes]
    pgid: int
    pidfd: int | None
    run_id: str | None = None  # the value of DESIGN_AGENT_RUN its processes inherit
    watchdog: subprocess.Popen[bytes] | None = None  # kills the group if we die
    lifeline: int | None = None  # our end of the watchdog's pipe


def spawn(argv: list[str], env: dict[str, str], cwd: Path) -> Spawned:
    """Start `argv` in a new session with three pipes; stdin is made non-blocking.

    Raises FileNotFoundError / PermissionError / OSError as Popen does.
    """
    run_id = new_run_id()
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, RUN_VARIABLE: run_id},
        cwd=cwd,
        start_new_session=True,
        bufsize=0,
    )
    assert proc.stdin is not None
    os.set_blocking(proc.stdin.fileno(), False)
    return Spawned(proc=proc, pgid=proc.pid, pidfd=_pidfd(proc.pid), run_id=run_id)


def guard(spawned: Spawned) -> None:
    """Start the watchdog of `spawned`'s group (if it cannot start, the run goes on)."""
    if spawned.watchdog is None:
        script = WATCHDOG_SCRIPT.format(
            pgid=spawned.pgid, variable=RUN_VARIABLE, run_id=spawned.run_id or "-"
        )
        spawned.watchdog, spawned.lifeline = _watchdog(script)


def _watchdog(script: str) -> tuple[subprocess.Popen[bytes] | None, int | None]:
    """A watchdog running `script` and the write end of its pipe, or (None, None).

    The write end is close-on-exec (os.pipe), so no other child holds it open.
    """
    read_end, write_end = os.pipe()
    try:
        watchdog = subprocess.Popen(
            [WATCHDOG, "-c", script],
            stdin=read_end,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={"PATH": "/usr/bin:/bin"},  # for grep; nothing of ours
            start_new_session=True,
        )
    except OSError:
        os.close(write_end)
        return None, None
    finally:
        os.close(read_end)
    return watchdog, write_end


def release(spawned: Spawned) -> None:
    """Stop the watchdog without letting it fire (the run is over), then close its pipe.

    Once SIGKILL is sent the watchdog never runs another instruction, so closing
    the pipe cannot make it fire; it is reaped in the background, off the run's time.
    """
    watchdog = spawned.watchdog
    if watchdog is not None:
        with contextlib.suppress(OSError):
            watchdog.kill()
        if watchdog.poll() is None:
            threading.Thread(target=watchdog.wait, name="watchdog-reaper", daemon=True).start()
    if spawned.lifeline is not None:
        with contextlib.suppress(OSError):
            os.close(spawned.lifeline)
        spawned.lifeline = None


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux >= 5.3: the runner polls instead
        return None


def signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to the whole group; False when nothing is left to signal."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def leader_exited(pid: int) -> bool:
    """Whether the CLI itself has exited, without reaping it.

    Not reaping keeps its pid (which is also the group id) reserved, so a
    later group signal can never reach an unrelated process that reused it.
    """
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes in group `pgid`, read from /proc (Linux)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the ")" that closes the command name: state ppid pgrp ...
        state, _ppid, pgrp = stat.rpartition(")")[2].split()[:3]
        if int(pgrp) == pgid and state not in {"Z", "X"}:
            members.append(int(entry.name))
    return members


@dataclass(frozen=True)
class QuickResult:
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool


def run_quick(argv: list[str], timeout: float, env: dict[str, str] | None = None) -> QuickResult:
    """Run a short command (`--version`) in its own group; kill the group on timeout."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        signal_group(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    text = (out or b"").decode("utf-8", "replace"), (err or b"").decode("utf-8", "replace")
    return QuickResult(None if timed_out else proc.returncode, text[0], text[1], timed_out)
