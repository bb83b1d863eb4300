"""Orchestrator overhead of one turn, and extra time to first token of `ask`.

1. Overhead per turn: everything the pipeline does except the provider's own
   time, with the offline provider, on the 1M-turn database of
   benchmarks/memory.py (copied, so the cached one stays pristine). The
   offline provider's own time is measured from its events and subtracted.
2. Extra time to first token of `design-agent ask` over running the same fake
   Claude CLI directly with a bare subprocess: in-process (`--no-server`), and
   sent to a running `design-agent serve` (the fast path of design_agent.launch.entry,
   started the way the console script starts it).

    python benchmarks/turn.py [--turns 1000000] [--runs 100] [--ttft-runs 20]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests")]

from fixtures.fakes import install_fake, recording  # noqa: E402
from memory import get_database  # noqa: E402

from design_agent.core.paths import HomeLayout  # noqa: E402
from design_agent.knowledge.registry import load_catalogue  # noqa: E402
from design_agent.memory import Memory  # noqa: E402
from design_agent.turn.pipeline import Pipeline, TurnRequest  # noqa: E402
from design_agent.turn.session import Services  # noqa: E402

MESSAGES = [
    "Plan a usability test for the new checkout",
    "We need a journey map of first-time buyers",
    "prioritise the backlog for next quarter with RICE",
    "necesito personas para la app de supermercado",
    "write acceptance criteria for saved payment cards",
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def home_with_database(turns: int) -> HomeLayout:
    home = HomeLayout(Path(tempfile.mkdtemp(prefix="da-turn-")))
    source = get_database(turns)
    shutil.copy(source, home.database_file)
    (home.root / "settings.yaml").write_text("provider: offline\n", encoding="utf-8")
    return home


def overhead(home: HomeLayout, runs: int) -> list[float]:
    memory = Memory.open(home.database_file)
    project = memory.list_projects()[0]
    memory.switch_project(project.id)
    services = Services(home, load_catalogue(home).require_valid(), memory)
    pipeline = Pipeline(services)
    for message in MESSAGES:  # warm caches: matcher, guides, adapters
        list(pipeline.run(TurnRequest(message)))
    samples = []
    for i in range(runs):
        started = time.perf_counter()
        provider_time = 0.0
        mark = None
        for event in pipeline.run(TurnRequest(MESSAGES[i % len(MESSAGES)])):
            kind = getattr(event, "kind", "")
            if kind == "tier":
                mark = time.perf_counter()
            elif kind == "validation" and mark is not None:
                provider_time = time.perf_counter() - mark
        samples.append((time.perf_counter() - started - provider_time) * 1000)
    return samples


def first_line_after(argv: list[str], env: dict[str, str], stdin: str, marker: str) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert process.stdin and process.stdout
    process.stdin.write(stdin)
    process.stdin.close()
    elapsed = float("nan")
    for line in process.stdout:
        if marker in line:
            elapsed = time.perf_counter() - started
            break
    process.stdout.read()
    process.wait()
    return elapsed * 1000


# What the installed console script runs (pip's wrapper imports re first), pointed at
# design_agent.launch.entry as pyproject's [project.scripts] says.
CONSOLE_SCRIPT = "import re, sys; from design_agent.launch.entry import main; sys.exit(main())"
ASK = ["ask", "--events", "Plan a usability test for checkout"]


def ttft(runs: int) -> dict[str, list[float]]:
    """Time to first token: the fake CLI alone, `ask --no-server`, `ask` with a server."""
    work = Path(tempfile.mkdtemp(prefix="da-ttft-"))
    fake = install_fake(work / "bin", "claude")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DESIGN_AGENT_")},
        # Bytecode cached as in an installed package (kept out of the checkout), whatever
        # PYTHONDONTWRITEBYTECODE says: compiling every module at each start is no user's cost.
        "PYTHONPYCACHEPREFIX": str(work / "pycache"),
        "FAKE_RECORDING": recording("run_claude_partial"),
        "DESIGN_AGENT_ENV_PASSTHROUGH": "FAKE_*",  # the fake's settings reach it
        "DESIGN_AGENT_HOME": str(work / "home"),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(fake),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    agent = [sys.executable, "-c", CONSOLE_SCRIPT]
    marker = '"kind":"text"'
    times: dict[str, list[float]] = {"direct": [], "in_process": [], "served": []}
    with serving(work / "home", env):
        for _ in range(2):  # the server's first turn loads the catalogue and matcher
            first_line_after([*agent, *ASK], env, "", marker)
        for _ in range(runs):
            times["direct"].append(first_line_after([str(fake)], env, "hi", "text_delta"))
            no_server = [*agent, *ASK[:1], "--no-server", *ASK[1:]]
            times["in_process"].append(first_line_after(no_server, env, "", marker))
            times["served"].append(first_line_after([*agent, *ASK], env, "", marker))
    shutil.rmtree(work, ignore_errors=True)
    return times


@contextmanager
def serving(home: Path, env: dict[str, str]) -> Iterator[None]:
    """`design-agent serve` on `home` in the background, for the block."""
    process = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not (home / "server.json").exists():
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("design-agent serve did not start")
            time.sleep(0.05)
        yield
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--ttft-runs", type=int, default=20)
    args = parser.parse_args()
    home = home_with_database(args.turns)
    try:
        samples = overhead(home, args.runs)
    finally:
        shutil.rmtree(home.root, ignore_errors=True)
    print(
        f"orchestrator overhead per turn ({args.turns:,} turns, offline, {args.runs} runs): "
        f"p50 {statistics.median(samples):.1f} ms, p95 {pct(samples, 0.95):.1f} ms "
        "(target p50 < 5 ms, p95 < 10 ms)"
    )
    times = ttft(args.ttft_runs)
    direct = times["direct"]
    print(
        f"time to first token, fake claude direct: p50 {statistics.median(direct):.1f} ms; "
        f"ask --no-server: p50 {statistics.median(times['in_process']):.1f} ms; "
        f"ask with a server running: p50 {statistics.median(times['served']):.1f} ms"
    )
    for name, label in (("in_process", "ask --no-server"), ("served", "ask, server running")):
        extra = [t - d for d, t in zip(direct, times[name], strict=True)]
        print(
            f"extra time to first token of {label}: p50 {statistics.median(extra):.1f} ms, "
            f"p95 {pct(extra, 0.95):.1f} ms (target with a server < 50 ms)"
        )
    print(
        "--no-server includes the interpreter start, imports and catalogue load of a fresh "
        "process; with a server, the interpreter start and the standard-library client "
        + json.dumps({"runs": args.ttft_runs})
    )


if __name__ == "__main__":
    main()
