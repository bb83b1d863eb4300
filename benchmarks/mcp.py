"""The MCP server's figures: from start to the first tool result over stdio (target
< 300 ms), and find_method's p95 in a warm server (target < 5 ms).

Start to first result: the SDK's client spawns `design-agent mcp` on a temporary home
(its catalogue cache warm from one run first), connects (the initialize handshake the
agents speak today) and calls find_method; the clock runs from the spawn to the result.
For scale, the same is printed for the Python that only imports the SDK's server modules
(the floor no server on this SDK can go under), and design-agent's own share (the rest).

find_method p95: N calls in one warm stdio session, the round trip the agent sees; and
the server's own part (the tool as the server runs it, on a worker thread), in-process.

    python benchmarks/mcp.py [--runs 5] [--calls 200]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is called mcp.py: its own folder, first on sys.path when it runs as a script,
# would shadow the SDK's `mcp` package.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import anyio  # noqa: E402

REQUESTS = (
    "plan a usability test for the new checkout",
    "journey map for first-time buyers",
    "necesito priorizar el backlog con RICE",
    "interview guide for finance directors",
    "what should our onboarding metrics be?",
)
SDK_ONLY = "import mcp.server.lowlevel, mcp.server.stdio"


def script() -> str:
    return str(Path(sys.executable).with_name("design-agent"))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def children_cpu() -> float:
    """CPU milliseconds (user + system) of this process's reaped children so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


async def first_result(env: dict[str, str]) -> tuple[float, float]:
    """Wall milliseconds from spawning `design-agent mcp` to find_method's first result,
    and the server's CPU milliseconds for its whole life (start, that call, exit): the CPU
    figure does not grow when other work shares the machine."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=script(), args=["mcp"], env=env)
    cpu = children_cpu()
    started = time.perf_counter()
    with anyio.fail_after(120):
        async with Client(params, mode="legacy") as client:
            result = await client.call_tool("find_method", {"request": REQUESTS[0]})
            wall = (time.perf_counter() - started) * 1000
            assert not result.is_error
    return wall, children_cpu() - cpu


def sdk_floor(env: dict[str, str]) -> tuple[float, float]:
    """The same two figures for a Python that only imports the SDK's server modules."""
    cpu = children_cpu()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", SDK_ONLY], check=True, env=env, timeout=120)
    return (time.perf_counter() - started) * 1000, children_cpu() - cpu


async def warm_calls(env: dict[str, str], calls: int) -> list[float]:
    """Round-trip milliseconds of `calls` find_method calls in one session (after 20)."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=script(), args=["mcp"], env=env)
    timings: list[float] = []
    with anyio.fail_after(600):
        async with Client(params, mode="legacy") as client:
            for n in range(20 + calls):
                started = time.perf_counter()
                await client.call_tool("find_method", {"request": REQUESTS[n % len(REQUESTS)]})
                if n >= 20:
                    timings.append((time.perf_counter() - started) * 1000)
    return timings


async def in_server(home: Path, calls: int) -> list[float]:
    """The server's own part of find_method: the tool on a worker thread, as server.py
    runs it, without the transport."""
    from design_agent.core.paths import HomeLayout
    from design_agent.mcp.access import Caller
    from design_agent.mcp.server import _run
    from design_agent.mcp.tools import run_tool
    from design_agent.turn.session import SharedServices

    shared, caller = SharedServices(HomeLayout(home)), Caller("stdio")
    timings: list[float] = []
    for n in range(20 + calls):
        request: dict[str, Any] = {"request": REQUESTS[n % len(REQUESTS)]}
        started = time.perf_counter()
        await anyio.to_thread.run_sync(
            _run, shared, caller, lambda call, r=request: run_tool("find_method", r, call)
        )
        if n >= 20:
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold starts to time")
    parser.add_argument("--calls", type=int, default=200, help="warm find_method calls")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        env = {**os.environ, "DESIGN_AGENT_HOME": str(home)}
        anyio.run(first_result, env)  # fills the home's catalogue and matcher cache
        starts = [anyio.run(first_result, env) for _ in range(args.runs)]
        floors = [sdk_floor(env) for _ in range(args.runs)]
        warm = anyio.run(warm_calls, env, args.calls)
        os.environ["DESIGN_AGENT_HOME"] = str(home)
        own = anyio.run(in_server, home, args.calls)
    start = [statistics.median(t[i] for t in starts) for i in (0, 1)]
    floor = [statistics.median(t[i] for t in floors) for i in (0, 1)]
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(
        f"start to first tool result over stdio (median of {args.runs}): {start[0]:.0f} ms "
        f"wall, {start[1]:.0f} ms CPU   (target < 300 ms)"
    )
    print(
        f"  a Python that only imports the MCP SDK's server modules: {floor[0]:.0f} ms wall, "
        f"{floor[1]:.0f} ms CPU"
    )
    print(f"  design-agent's own share of the CPU: {start[1] - floor[1]:.0f} ms")
    print(
        f"find_method, warm stdio session, {args.calls} calls: p50 "
        f"{statistics.median(warm):.2f} ms, p95 {percentile(warm, 0.95):.2f} ms"
    )
    print(
        f"find_method in the server (tool on its worker thread): p50 "
        f"{statistics.median(own):.2f} ms, p95 {percentile(own, 0.95):.2f} ms   (target < 5 ms)"
    )


if __name__ == "__main__":
    main()
