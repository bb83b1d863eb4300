"""What showing a streamed answer costs: render time per update, and a 100 KB answer end to end.

1. The CPU cost of one update (one ~100-character delta, redrawn at once)
   when the answer so far is 10, 100 and 1,000 KB long: it must not grow
   with the answer.
2. A 100 KB answer arriving evenly over 10 s (1,000 deltas) through the real
   TurnView into a rich console the size of a terminal (100 x 40), writing
   to /dev/null: the total time, how far the display fell behind the
   provider at worst, and the CPU time it took (what the user's machine
   pays while the answer streams). Ideally the total is the 10 s of the stream.

The answer is markdown with every kind of block in each section (heading,
paragraph, loose list, ordered list, code fence with blank lines, table,
quote, rule): see tests/faults/test_long_answers.py.

    python benchmarks/render.py [--sizes 10 100 1000] [--kb 100] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console

import design_agent.cli.turn_view as turn_view
from design_agent.cli.render import MarkdownStream
from design_agent.cli.turn_view import TurnView
from design_agent.providers.events import TextDelta

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from faults.test_long_answers import long_answer

DELTA = 100


def screen() -> Console:
    """A terminal-sized console writing to /dev/null, set up like the app's own."""
    sink = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the run)
    return Console(
        file=sink, force_terminal=True, width=100, height=40, highlight=False, soft_wrap=True
    )


def cost_per_update(kb: int, updates: int = 40) -> tuple[float, float]:
    """(median, worst) CPU seconds of one update once the answer is `kb` KB long."""
    size = kb * 1024
    answer = long_answer(size + updates * DELTA)
    stream = MarkdownStream(screen(), fps=1e9)  # every update redraws
    for at in range(0, size, 8192):  # get there (each block is rendered once on the way)
        stream.feed(answer[at : min(at + 8192, size)])
    times = []
    for n in range(updates):
        began = time.process_time()  # CPU, not wall time: steady on a busy machine
        stream.feed(answer[size + n * DELTA : size + (n + 1) * DELTA])
        times.append(time.process_time() - began)
    stream.finish()
    return statistics.median(times), max(times)


def streamed(kb: int, seconds: float) -> tuple[float, float, float]:
    """(total seconds, worst lag behind the provider, CPU seconds) for `kb` KB arriving
    over `seconds`."""
    answer = long_answer(kb * 1024)[: kb * 1024]
    deltas = [answer[at : at + DELTA] for at in range(0, len(answer), DELTA)]
    console = screen()
    turn_view.console = lambda: console  # type: ignore[assignment]
    view, every = TurnView("text"), seconds / len(deltas)
    began, lag, cpu = time.perf_counter(), 0.0, time.process_time()
    for n, text in enumerate(deltas):
        due = began + n * every
        if (ahead := due - time.perf_counter()) > 0:
            time.sleep(ahead)
        view.show(TextDelta(text=text))
        lag = max(lag, time.perf_counter() - due)
    view.close()
    return time.perf_counter() - began, lag, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--kb", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    for kb in args.sizes:
        median, worst = cost_per_update(kb)
        print(f"render per update at {kb:>5} KB: median {median * 1000:6.1f} ms, "
              f"worst {worst * 1000:6.1f} ms of CPU")  # fmt: skip
    total, lag, cpu = streamed(args.kb, args.seconds)
    print(f"{args.kb} KB streamed over {args.seconds:.0f} s through TurnView: "
          f"total {total:.2f} s, worst lag behind the provider {lag * 1000:.0f} ms, "
          f"CPU {cpu:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
