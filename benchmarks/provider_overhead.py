"""What the runner costs: time to first token and total time, runner vs a bare subprocess.

Both read the same fake claude CLI (tests/fixtures/fake_cli.py replaying the
recorded `claude -p --output-format stream-json --include-partial-messages`
run), 50 runs each, interleaved so drift hits both alike. The bare reader is
the least a caller could do: Popen, write the prompt, readline, json.loads
until the first text delta, then read to the end. Target: median overhead
under 5 ms.

    python benchmarks/provider_overhead.py [--runs 50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from design_agent.core.paths import bundled_root
from design_agent.core.settings import Settings
from design_agent.providers.events import TextDelta
from design_agent.providers.request import ProviderRequest
from design_agent.providers.runner import start
from design_agent.providers.spec import load_adapter_files

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
REQUEST = ProviderRequest(system_prompt="You are terse.", prompt="hello")


def install_fake(folder: Path) -> Path:
    path = folder / "claude"
    source = (FIXTURES / "fake_cli.py").read_text(encoding="utf-8")
    path.write_text(f"#!{sys.executable}\n{source}", encoding="utf-8")
    path.chmod(0o755)
    return path


def bare(binary: Path) -> tuple[float, float]:
    """(time to first token, total) reading the fake directly, in seconds."""
    began = time.perf_counter()
    proc = subprocess.Popen(
        [str(binary), "-p", "--output-format", "stream-json", "--verbose"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(REQUEST.prompt.encode())
    proc.stdin.close()
    first = None
    for line in proc.stdout:
        if first is None and b"text_delta" in line:
            event = json.loads(line)
            if event.get("event", {}).get("delta", {}).get("text"):
                first = time.perf_counter() - began
    proc.wait()
    assert first is not None
    return first, time.perf_counter() - began


def through_runner(settings: Settings, spec) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    first = None
    for event in start(spec, REQUEST, settings):
        if first is None and isinstance(event, TextDelta):
            first = time.perf_counter() - began
    assert first is not None
    return first, time.perf_counter() - began


def describe(label: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p90 = ms[int(len(ms) * 0.9) - 1]
    return f"{label:<28} median {statistics.median(ms):7.2f} ms   p90 {p90:7.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="runs of each (default 50)")
    runs = parser.parse_args().runs
    os.environ["FAKE_RECORDING"] = str(FIXTURES / "recorded" / "run_claude_partial.json")
    os.environ["FAKE_MODE"] = "replay"
    os.environ["DESIGN_AGENT_ENV_PASSTHROUGH"] = "FAKE_*"  # the fake's settings reach it
    spec = load_adapter_files({"claude": bundled_root() / "adapters" / "claude.yaml"})["claude"]
    with tempfile.TemporaryDirectory() as folder:
        binary = install_fake(Path(folder))
        settings = Settings(bins={"claude": str(binary)})
        for _ in range(3):  # warm the page cache and imports
            bare(binary), through_runner(settings, spec)
        results: dict[str, list[tuple[float, float]]] = {"bare": [], "runner": []}
        for _ in range(runs):
            results["bare"].append(bare(binary))
            results["runner"].append(through_runner(settings, spec))
    report(results, runs)


def report(results: dict[str, list[tuple[float, float]]], runs: int) -> None:
    print(f"provider overhead: fake claude stream-json, {runs} runs each, interleaved")
    for index, what in ((0, "time to first token"), (1, "total time")):
        bare_values = [r[index] for r in results["bare"]]
        runner_values = [r[index] for r in results["runner"]]
        print(describe(f"bare subprocess, {what}", bare_values))
        print(describe(f"runner, {what}", runner_values))
        overhead = statistics.median(runner_values) - statistics.median(bare_values)
        # Runs are interleaved, so pairing them cancels most of the machine's drift.
        paired = statistics.median(r - b for r, b in zip(runner_values, bare_values, strict=True))
        verdict = "ok" if paired * 1000 < 5 else "OVER TARGET"
        label = "overhead, median of pairs"
        print(f"{label:<28} {paired * 1000:+7.2f} ms   target < 5 ms: {verdict}")
        print(f"{'difference of medians':<28} {overhead * 1000:+7.2f} ms\n")


if __name__ == "__main__":
    main()
