"""The processes one run started, wherever they went: the CLI's descendants (Linux /proc).

A stop signals the CLI's process group. A helper that calls setsid() leaves
that group, and a daemon that forks twice is adopted by init as well: neither
is reached by the group, so both outlived a cancelled turn. Three things find
them, cheapest first:

- while the run streams, and once more when a stop begins, `RunTree.sample`
  notes the CLI's descendants from /proc/PID/task/*/children (a few small reads
  from the CLI down, at most every SAMPLE_EVERY seconds), each with its start
  time, so a pid the system gave to someone else later is never taken for it;
- every CLI gets a variable of its own, `DESIGN_AGENT_RUN=<random>`, which its
  children inherit through any number of forks, setsid and re-parenting;
- at the end of a stopped run `RunTree.strays` reads /proc once: a process is
  the run's when it was sampled, carries the run's variable, is in a session
  or group that a sampled process created (what a daemon's double fork leaves),
  or descends from any of these.

The watchdog (process.py) finds the same variable when design-agent is killed.
A helper that both forks away before a sample and clears its environment is
not found. Without /proc (not Linux) nothing is found and only the group is
signalled, as before.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

RUN_VARIABLE = "DESIGN_AGENT_RUN"
SAMPLE_EVERY = 0.25
PROC = Path("/proc")


def new_run_id() -> str:
    """The value of RUN_VARIABLE for one run (never shared by two)."""
    return secrets.token_hex(12)


@dataclass(frozen=True)
class ProcStat:
    """What /proc/PID/stat says about a live process."""

    pid: int
    ppid: int
    pgrp: int
    sid: int
    started: int  # clock ticks after boot: with the pid, names one process for good


def read_stat(pid: int) -> ProcStat | None:
    """`pid`'s stat, or None when it is gone (or a zombie, waiting to be reaped)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (OSError, ValueError):
        return None
    # After the ")" that ends the command name: state ppid pgrp session ... (22nd: start)
    fields = text.rpartition(")")[2].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return ProcStat(pid, int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]))


def children_of(pid: int) -> list[int]:
    """The children of every thread of `pid` (a child belongs to the thread that forked it)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.scandir(PROC / str(pid) / "task"):
            with contextlib.suppress(OSError, ValueError):
                found += [int(c) for c in Path(task.path, "children").read_text().split()]
    return found


class RunTree:
    """The processes of one run: the CLI (`root`) and what it started."""

    def __init__(self, root: int, run_id: str | None) -> None:
        self.root = root
        self.run_id = run_id
        self.seen: dict[int, int] = {}  # pid -> start time, of every descendant sampled
        self._next_sample = 0.0

    def sample(self, force: bool = False) -> None:
        """Note the CLI's descendants now (at most every SAMPLE_EVERY seconds unless
        `force`); cheap, a few reads per process of the tree."""
        now = time.monotonic()
        if not force and now < self._next_sample:
            return
        self._next_sample = now + SAMPLE_EVERY
        todo, visited = [self.root], set()
        while todo:
            pid = todo.pop()
            if pid in visited:
                continue
            visited.add(pid)
            found = read_stat(pid)
            if found is not None:
                self.seen.setdefault(pid, found.started)
                todo += children_of(pid)

    def detached(self, pgid: int) -> list[int]:
        """Sampled processes, still alive, that are outside the group `pgid` (which a
        group signal reaches anyway)."""
        alive = []
        for pid, started in list(self.seen.items()):
            found = read_stat(pid)
            if found is not None and found.started == started and found.pgrp != pgid:
                alive.append(pid)
        return alive

    def strays(self) -> list[int]:
        """Every live process of the run, found in one pass over /proc (see the module)."""
        table = _all_processes()
        mine = {p for p, s in table.items() if self._belongs(s, table)}
        children: dict[int, list[int]] = {}
        for found in table.values():
            children.setdefault(found.ppid, []).append(found.pid)
        todo = list(mine)
        while todo:  # and what they started, by parent links
            for child in children.get(todo.pop(), []):
                if child not in mine:
                    mine.add(child)
                    todo.append(child)
        return sorted(mine - {os.getpid(), os.getppid(), 1})

    def _belongs(self, found: ProcStat, table: dict[int, ProcStat]) -> bool:
        if self.seen.get(found.pid) == found.started:
            return True
        for leader in (found.sid, found.pgrp):  # a session or group a descendant created
            if leader in self.seen and _same_or_gone(leader, self.seen[leader], table):
                return True
        return self.run_id is not None and _carries(found.pid, self.run_id)


def _same_or_gone(pid: int, started: int, table: dict[int, ProcStat]) -> bool:
    """Whether the sampled `pid` is still the same process, or gone (its session lives on
    after it, as a daemon's does); not when the pid now names another process."""
    now = table.get(pid)
    return now is None or now.started == started


def _all_processes() -> dict[int, ProcStat]:
    table: dict[int, ProcStat] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir(PROC):
            if entry.name.isdigit() and (found := read_stat(int(entry.name))) is not None:
                table[found.pid] = found
    return table


def _carries(pid: int, run_id: str) -> bool:
    """Whether `pid` was started with this run's variable (its initial environment)."""
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:  # another user's process, or gone
        return False
    return f"{RUN_VARIABLE}={run_id}".encode() in environ.split(b"\0")


def signal_each(pids: list[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
