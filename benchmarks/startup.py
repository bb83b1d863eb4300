"""Start-up time of `design-agent --version` (and `--help`) against `python -c pass`, and
the CPU time of whole commands: `ask --provider offline "..."` and `projects list`.

Prints median wall and CPU (user + system) times over N runs. The commands run on a
temporary home, with the bytecode and the catalogue cache warm (one `ask` first).
With --with-llm it also installs the `llm` package into its own virtualenv under
benchmarks/.cache and times `llm --version` in the same run, for comparison (the
target is a tenth of it).

    python benchmarks/startup.py [--runs 20] [--with-llm]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache"


ASK = ["ask", "--provider", "offline", "plan a usability test for checkout"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_ms(argv: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall and CPU milliseconds of `argv` over `runs` runs."""
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if done.returncode:
            sys.exit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode()}")
        walls.append(time.perf_counter() - start)
        cpus.append(children_cpu() - cpu)
    return statistics.median(walls) * 1000, statistics.median(cpus) * 1000


def command_env(home: str) -> dict[str, str]:
    """A private temporary home; bytecode written and read, as an installed package does."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    os.chmod(home, 0o700)
    return {**env, "DESIGN_AGENT_HOME": home}


def llm_binary() -> str:
    venv = CACHE / "llm-venv"
    binary = venv / "bin" / "llm"
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "llm"], check=True)
    return str(binary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--with-llm", action="store_true", help="also time `llm --version`")
    args = parser.parse_args()
    agent = shutil.which("design-agent")
    if agent is None:
        sys.exit("design-agent is not on PATH: install the package first (pip install .)")
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("design-agent --version", [agent, "--version"]),
        ("design-agent --help", [agent, "--help"]),
        ("design-agent ask (offline)", [agent, *ASK]),
        ("design-agent projects list", [agent, "projects", "list"]),
    ]
    if args.with_llm:
        rows.append(("llm --version", [llm_binary(), "--version"]))
    with tempfile.TemporaryDirectory(prefix="design-agent-startup-") as home:
        env = command_env(home)
        for label, argv in rows:
            median_ms(argv, 2, env)  # warm the file, bytecode and catalogue caches
            wall, cpu = median_ms(argv, args.runs, env)
            print(
                f"{label:<28} median {wall:7.1f} ms wall, {cpu:7.1f} ms CPU over {args.runs} runs"
            )


if __name__ == "__main__":
    main()
