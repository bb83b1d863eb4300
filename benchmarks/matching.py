"""Task matching: accuracy on the labelled messages and latency per message.

Prints top-1/top-3 accuracy and no-match results for tests/data/match_cases.yaml
(and the held-out set), then p50/p95/max latency of `Matcher.match` at the real
catalogue and at a catalogue expanded synthetically to --tasks tasks (default
1,000; the target is p95 < 2 ms there). "cold" clears the per-word cache before
every message, the worst case; "warm" is a session where words repeat. The
baseline row times the naive alternative, rapidfuzz extractOne with WRatio
over each task's names and keywords, on the same messages.

    python benchmarks/matching.py [--tasks 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from design_agent.matching import Matcher
from design_agent.models import Keywords, Localized, Task
from design_agent.paths import HomeLayout
from design_agent.registry import load_catalogue

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
CASE_FILES = ("match_cases.yaml", "match_cases_holdout.yaml")


def load_cases(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as handle:
        return list(yaml.safe_load(handle)["cases"])


def accuracy(matcher: Matcher, cases: list[dict[str, Any]]) -> dict[str, float]:
    """Top-1 and top-3 over the cases with a task; share of no-match cases scored LOW."""
    top1 = top3 = low = 0
    expected = [c for c in cases if c["expect"]]
    for case in cases:
        result = matcher.match(case["text"], limit=3)
        ids = [c.task_id for c in result.candidates]
        if case["expect"] is None:
            low += result.band == "LOW"
            continue
        top1 += ids[:1] == [case["expect"]]
        top3 += case["expect"] in ids
    nothing = len(cases) - len(expected)
    return {
        "top1": top1 / len(expected),
        "top3": top3 / len(expected),
        "no_match_low": low / nothing if nothing else 1.0,
        "cases": float(len(cases)),
    }


def _pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(5, 9)))


def _mutate(phrase: str, rng: random.Random) -> str:
    """The phrase with one word replaced by a made-up one (new vocabulary, same shape)."""
    words = phrase.split()
    words[rng.randrange(len(words))] = _pseudo_word(rng)
    return " ".join(words)


def expand(tasks: list[Task], total: int, seed: int = 7) -> list[Task]:
    """The real tasks plus synthetic variants of them, up to `total` tasks."""
    rng = random.Random(seed)
    expanded = list(tasks)
    for number in range(total - len(tasks)):
        template = tasks[number % len(tasks)]
        keywords = Keywords(
            en=[_mutate(k, rng) for k in template.keywords.en],
            es=[_mutate(k, rng) for k in template.keywords.es],
        )
        name = Localized(en=_mutate(template.name.en, rng), es=_mutate(template.name.es, rng))
        expanded.append(
            template.model_copy(
                update={"id": f"{template.id}_x{number}", "name": name, "keywords": keywords}
            )
        )
    return expanded


def latencies(matcher: Matcher, messages: list[str], rounds: int, cold: bool) -> list[float]:
    """Milliseconds per `match` call, every message `rounds` times."""
    times: list[float] = []
    for _ in range(rounds):
        for message in messages:
            if cold:
                matcher.clear_cache()
            start = time.perf_counter()
            matcher.match(message)
            times.append((time.perf_counter() - start) * 1000)
    return times


def describe(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (
        f"{label:<34} p50 {statistics.median(ordered):6.3f} ms  p95 {p95:6.3f} ms"
        f"  max {ordered[-1]:6.3f} ms  ({len(ordered)} calls)"
    )


def baseline(tasks: list[Task], messages: list[str]) -> list[float]:
    """The naive approach for comparison: rapidfuzz extractOne (WRatio) over every task."""
    from rapidfuzz import fuzz, process, utils

    choices = [" ".join([t.name.en, t.name.es, *t.keywords.en, *t.keywords.es]) for t in tasks]
    times: list[float] = []
    for message in messages:
        start = time.perf_counter()
        process.extractOne(message, choices, scorer=fuzz.WRatio, processor=utils.default_process)
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(tasks: list[Task], cases: dict[str, list[dict[str, Any]]], rounds: int) -> None:
    """Index build time, accuracy per case file and latency, for one catalogue size."""
    messages = [c["text"] for labelled in cases.values() for c in labelled]
    start = time.perf_counter()
    matcher = Matcher(tasks)
    print(f"\n{len(tasks)} tasks: index built in {(time.perf_counter() - start) * 1000:.0f} ms")
    for name, labelled in cases.items():
        scores = accuracy(matcher, labelled)
        print(
            f"  {name:<26} top-1 {scores['top1']:6.1%}  top-3 {scores['top3']:6.1%}"
            f"  no-match LOW {scores['no_match_low']:6.1%}  ({scores['cases']:.0f} cases)"
        )
    for cold in (True, False):
        label = f"  match, {'cold' if cold else 'warm'} word cache"
        print(describe(label, latencies(matcher, messages, rounds, cold)))
    print(describe("  baseline: extractOne WRatio", baseline(tasks, messages)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000, help="size of the expanded catalogue")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the messages")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as empty_home:  # bundled catalogue only
        catalogue = load_catalogue(HomeLayout(Path(empty_home)))
    if catalogue.problems:
        sys.exit(f"the catalogue has problems; run 'design-agent check': {catalogue.problems[0]}")
    real = list(catalogue.tasks.values())
    cases = {name: load_cases(name) for name in CASE_FILES}
    report(real, cases, args.rounds)
    report(expand(real, args.tasks), cases, args.rounds)


if __name__ == "__main__":
    main()
