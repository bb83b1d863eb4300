"""Start-up time of `design-agent --version` (and `--help`) against `python -c pass`.

Prints median wall times over N runs. With --with-llm it also installs the `llm`
package into its own virtualenv under benchmarks/.cache and times `llm --version`
in the same run, for comparison (the target is a tenth of it).

    python benchmarks/startup.py [--runs 20] [--with-llm]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache"


def median_ms(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


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
    ]
    if args.with_llm:
        rows.append(("llm --version", [llm_binary(), "--version"]))
    for label, argv in rows:
        median_ms(argv, 2)  # warm the file cache
        print(f"{label:<26} median {median_ms(argv, args.runs):7.1f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
