"""Benchmark of the conversation tree: paths, states at nodes, and what snapshots cost on disk.

Builds one project 2,000 turns deep (a main line of user questions and agent
answers) with 200 branches forked from random turns (2-20 turns each), and the
project state at every node changing as a real conversation changes it:
decisions made now and then (with their rationale), the task switching, pending
proposals set by an answer and cleared by the next question, metadata filled in.
The same conversation (same seed) is built three times:

- deltas: the state saved at every node, a keyframe every 50 (the default);
- none: no state saved at all (the turns and decisions only);
- full: a full keyframe at every node.

Then prints, on the first: p50/p95 of the prompt's path (the last 20 turns on
the way to a random node), of the trace-back (the ids from the root) and of the
whole path with every text; p50/p95 of the state at a random node; saving a
turn with its state; and the three database sizes with their ratios. Targets
(printed beside the figures, never asserted): path p95 < 5 ms, state p95 < 5
ms, deltas <= 1.5x none and < 10 % of full. The last is printed two ways: the
whole files (which can never go below the share of the turns themselves,
printed too) and what the snapshots add (deltas - none) / (full - none).

    python benchmarks/tree.py               # about a minute
    python benchmarks/tree.py --million     # also the 1M-turn memory benchmark database
                                            # (built by benchmarks/memory.py if missing)
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from design_agent.memory import Memory, ProjectState
from design_agent.memory.schema import V5

DEPTH = 2_000
BRANCHES = 200
SAMPLES = 500
PROMPT_TURNS = 20
WORDS = " ".join(
    (
        "user users design research testing usability interview persona journey map flow",
        "checkout mobile payment onboarding prototype feedback insight survey task screen",
        "button navigation accessibility metric conversion experience product feature goal",
        "solution hypothesis moderated unmoderated session study data analysis pattern",
        "usuario diseño investigación prueba entrevista mapa flujo pago compra experiencia",
        "producto objetivo problema solución hipótesis sesión estudio datos análisis",
    )
).split()
TASKS = [f"task_{n}" for n in range(40)]
KEYS = ["goals", "users", "constraints", "platform", "deadline", "budget", "market", "tone"]


def text(rnd: random.Random, low: int, high: int) -> str:
    return " ".join(rnd.choices(WORDS, k=rnd.randint(low, high)))


def evolve(
    memory: Memory, project_id: str, node: int, role: str, base: ProjectState, rnd: random.Random
) -> ProjectState:
    """The state after one turn: what a conversation changes at that turn, now and then."""
    data = base.model_dump()
    if role == "user":
        data["pending"] = []  # the next question answers (or drops) the proposals
        if rnd.random() < 0.1:
            data["task_id"] = rnd.choice(TASKS)
    else:
        if rnd.random() < 0.08:
            made = memory.add_decision(project_id, text(rnd, 6, 12), text(rnd, 15, 30), node)
            data["decisions"].append(
                {"id": made.id, "decision": made.decision, "rationale": made.rationale}
            )
        if rnd.random() < 0.01 and data["decisions"]:
            data["decisions"].pop(rnd.randrange(len(data["decisions"])))  # revisited
        if rnd.random() < 0.1:
            data["pending"] = [{"decision": text(rnd, 6, 12)} for _ in range(rnd.randint(1, 2))]
    if rnd.random() < 0.03:
        data["metadata"][rnd.choice(KEYS)] = text(rnd, 5, 15)
    return ProjectState.model_validate(data)


class Builder:
    """Grows one project, saving states as `mode` says (deltas, none, full)."""

    def __init__(self, memory: Memory, mode: str, seed: int) -> None:
        self.memory, self.mode, self.rnd = memory, mode, random.Random(seed)
        self.project = memory.create_project("Deep conversation").id
        self.states: dict[int, ProjectState] = {}
        self.main: list[int] = []
        self.nodes: list[int] = []

    def turn(self, parent: int | None, role: str, branch: int | None = None) -> int:
        message = text(self.rnd, 15, 40) if role == "user" else text(self.rnd, 80, 250)
        with self.memory.transaction():  # the node and its state: one transaction
            added = self.memory.add_turn(
                self.project, role, message, parent_id=parent, branch_id=branch
            )
            node = added.id
            base = self.states.get(added.parent_id or 0, ProjectState())
            state = evolve(self.memory, self.project, node, role, base, self.rnd)
            if self.mode != "none":
                every = 1 if self.mode == "full" else 50
                self.memory.save_state(node, state, keyframe_every=every)
        self.states[node] = state
        self.nodes.append(node)
        return node

    def build(self) -> None:
        parent = None
        for n in range(DEPTH):
            parent = self.turn(parent, "user" if n % 2 == 0 else "agent")
            self.main.append(parent)
        for b in range(BRANCHES):
            fork_at = self.rnd.choice(self.main[:-1])
            branch = self.memory.fork(fork_at, f"branch {b}").id
            role = "agent" if self.memory.get_turn(fork_at).role == "user" else "user"
            for _ in range(self.rnd.randint(2, 20)):
                self.turn(None, role, branch)
                role = "user" if role == "agent" else "agent"


def build(folder: Path, mode: str, seed: int = 11) -> tuple[Path, Builder]:
    path = folder / f"tree-{mode}.db"
    memory = Memory.open(path)
    builder = Builder(memory, mode, seed)
    builder.build()
    memory.close()
    return path, builder


def size_of(path: Path) -> int:
    """Bytes of the file once its log is folded in and free pages dropped (VACUUM)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size


def payload_bytes(path: Path) -> int:
    db = sqlite3.connect(path)
    total = db.execute("SELECT coalesce(sum(length(payload)), 0) FROM state_snapshots").fetchone()
    db.close()
    return int(total[0])


def figures(times: list[float], target: float | None = None) -> str:
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    met = "" if target is None else f"   (target p95 < {target:g} ms: {_yes(cuts[94] < target)})"
    return f"p50 {cuts[49]:6.2f} ms   p95 {cuts[94]:6.2f} ms   max {max(times):6.2f} ms{met}"


def _yes(ok: bool) -> str:
    return "met" if ok else "NOT met"


def measure(path: Path, builder: Builder, rnd: random.Random) -> None:
    nodes = builder.nodes
    with Memory.open(path) as memory:
        depth = len(memory.path_to(builder.main[-1]))
        branches = len(memory.branches(builder.project))
        print(f"{'turns / depth / branches':34} {len(nodes):,} / {depth:,} / {branches}")

        def pick() -> int:
            return rnd.choice(nodes)

        recent = timed(lambda: memory.path_to(pick(), PROMPT_TURNS), SAMPLES)
        print(f"{'prompt path (last 20 turns)':34} {figures(recent, 5)}")
        trace = timed(lambda: memory.path_ids(pick()), SAMPLES)
        print(f"{'path ids, root to node':34} {figures(trace, 5)}")
        whole = timed(lambda: memory.path_to(pick()), SAMPLES)
        print(f"{'whole path with texts':34} {figures(whole, 5)}")
        states = timed(lambda: memory.state_at(pick()), SAMPLES)
        print(f"{'state at a node':34} {figures(states, 5)}")
        decided = timed(lambda: memory.decisions_on_path(pick(), 10), SAMPLES)
        print(f"{'decisions so far (10)':34} {figures(decided)}")
        whole_tree = timed(lambda: memory.tree(builder.project), 20)
        print(f"{'tree of the project (20)':34} {figures(whole_tree)}")
        print(f"{'save a turn with its state':34} {figures(_saves(memory, builder, rnd))}")


def _saves(memory: Memory, builder: Builder, rnd: random.Random) -> list[float]:
    times = []
    for _ in range(200):
        parent = rnd.choice(builder.nodes)
        state = memory.state_at(parent).model_copy(update={"task_id": rnd.choice(TASKS)})
        started = time.perf_counter()
        memory.add_turn(builder.project, "user", text(rnd, 15, 40), parent_id=parent, state=state)
        times.append((time.perf_counter() - started) * 1000)
    return times


def sizes(folder: Path, deltas: Path) -> None:
    none, _ = build(folder, "none")
    full, _ = build(folder, "full")
    files = {"deltas": deltas, "none": none, "full": full}
    size = {name: size_of(path) for name, path in files.items()}
    for name, path in files.items():
        megabytes, payloads = size[name] / 1_048_576, payload_bytes(path) / 1_048_576
        print(f"{'size, ' + name:34} {megabytes:8.2f} MB   (state payloads {payloads:6.2f} MB)")
    ratio("deltas / none, whole file", size["deltas"] / size["none"], 1.5, "x")
    floor = f"; the turns alone are {size['none'] / size['full']:.1%}"
    ratio("deltas / full, whole file", size["deltas"] / size["full"], 0.1, "%", floor)
    growth = (size["deltas"] - size["none"]) / (size["full"] - size["none"])
    ratio("deltas / full, what snapshots add", growth, 0.1, "%")


def ratio(label: str, value: float, target: float, unit: str, note: str = "") -> None:
    shown = f"{value:8.2f}x" if unit == "x" else f"{value:8.1%} "
    bound = f"<= {target:g}x" if unit == "x" else f"< {target:.0%}"
    met = value <= target if unit == "x" else value < target
    print(f"{label:34} {shown}   (target {bound}: {_yes(met)}{note})")


def timed(action: Callable[[], Any], repeat: int) -> list[float]:
    """Milliseconds per call of `action`, `repeat` times (the memory benchmark's timer)."""
    return list(memory_benchmark().timed(action, repeat))


@functools.cache
def memory_benchmark() -> ModuleType:
    """benchmarks/memory.py, which builds and caches the 1M-turn database."""
    here = Path(__file__).with_name("memory.py")
    spec = importlib.util.spec_from_file_location("memory_benchmark", here)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def million(folder: Path, rnd: random.Random) -> None:
    """The memory benchmark's database as migration 5 would find it, migrated, then used."""
    bench = memory_benchmark()
    source = bench.get_database(1_000_000)
    path = folder / "million.db"
    shutil.copy(source, path)
    with Memory.open(path) as memory:  # its turns were bulk-inserted: no parent yet
        memory.db.execute("UPDATE conversations SET parent_id = NULL")
        memory.db.execute("DELETE FROM branches")
        started = time.perf_counter()
        with memory.transaction():  # what migration 5 does to existing rows
            _relink(memory)
        print(f"{'1M: migration 5 (1M turns)':34} {time.perf_counter() - started:6.1f} s")
        ids = [p.id for p in memory.list_projects()]
        asked = iter([(q, rnd.choice(ids)) for q in bench.queries()])
        searches = timed(lambda: memory.search(*next(asked)), 200)
        print(f"{'1M: scoped search (200)':34} {figures(searches, 20)}")
        text_ = text(rnd, 40, 80)
        saves = timed(lambda: memory.add_turn(ids[0], "user", text_), 200)
        print(f"{'1M: save a turn (200)':34} {figures(saves, 5)}")
        last = memory.last_turn(ids[0])
        assert last is not None
        paths = timed(lambda: memory.path_to(last.id, PROMPT_TURNS), 200)
        print(f"{'1M: prompt path at the end':34} {figures(paths, 5)}")
        depth = len(memory.path_ids(last.id))
        first = timed(lambda: memory.add_turn(ids[0], "user", text_, state=ProjectState()), 1)
        print(f"{'1M: first state, ' + format(depth, ',') + ' deep':34} {first[0]:6.2f} ms (once)")
        states = timed(lambda: memory.add_turn(ids[0], "user", text_, state=ProjectState()), 200)
        print(f"{'1M: save a turn with its state':34} {figures(states, 5)}")


def _relink(memory: Memory) -> None:
    for statement in V5:
        if statement.startswith(("UPDATE conversations", "INSERT INTO branches")):
            memory.db.execute(statement)


def main() -> None:
    """Build the three databases and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--million", action="store_true", help="also the 1M-turn database")
    args = parser.parse_args()
    rnd = random.Random(5)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        deltas, builder = build(folder, "deltas")
        print(f"built {len(builder.nodes):,} turns in {time.perf_counter() - started:.0f} s")
        measure(deltas, builder, rnd)
        sizes(folder, deltas)
        if args.million:
            million(folder, rnd)


if __name__ == "__main__":
    main()
