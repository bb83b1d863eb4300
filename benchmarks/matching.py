"""Task matching: accuracy on the labelled messages and latency per message.

For every labelled set in tests/data (the held-out routing set first, then the
routing dev and tuning sets, match_cases and its holdout) prints top-1/top-3
accuracy, HIGH precision (the share of HIGH answers that are right) with the HIGH
count, and how many messages that ask for no method came out HIGH or not LOW; for
the routing sets, also split by whether the message names the method. Then p50/p95/max
latency of `Matcher.match` at the real catalogue and at a catalogue expanded
synthetically to --tasks tasks (default 1,000; the target is p95 < 2 ms there).
"cold" clears the per-word cache before every message, the worst case; "warm"
is a session where words repeat. The baseline row times the naive alternative,
rapidfuzz extractOne with WRatio over each task's names and keywords, on the
same messages. "huge" times messages of 1 MB (prose, one 1 MB word, a 2 MB line of
one letter): the work per message is bounded (target p95 < 5 ms, cold).

    python benchmarks/matching.py [--tasks 1000] [--rounds 3] [--sets NAME ...]
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

from design_agent.core.models import Keywords, Localized, Task
from design_agent.core.paths import HomeLayout
from design_agent.knowledge.registry import load_catalogue
from design_agent.understanding.matching import Matcher, usage_notes
from design_agent.understanding.routing_eval import evaluate, meta_check
from design_agent.understanding.routing_eval import load_cases as load_set

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
CASE_FILES = (
    "routing_heldout_4.yaml",
    "routing_heldout_3.yaml",
    "routing_heldout_2.yaml",
    "routing_heldout.yaml",
    "routing_dev_2.yaml",
    "routing_dev.yaml",
    "routing_tuning.yaml",
    "match_cases.yaml",
    "match_cases_holdout.yaml",
)


def load_cases(name: str) -> list[dict[str, Any]]:
    return load_set(DATA / name)


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


def huge_messages() -> list[str]:
    """Pasted text of 1 MB: prose with a request at its start, one 1 MB "word" after a
    request, a 2 MB line of one accented letter."""
    prose = "we need to plan a usability test for the new checkout with five customers " * 14_000
    return [
        prose[:1_000_000],
        "plan a usability test " + "a" * 1_000_000,
        "é" * 2_000_000,
    ]


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


def report(
    tasks: list[Task],
    usage: tuple[dict[str, str], dict[str, str]],
    cases: dict[str, list[dict[str, Any]]],
    rounds: int,
) -> None:
    """Index build time, accuracy per case file and latency, for one catalogue size."""
    messages = [c["text"] for labelled in cases.values() for c in labelled]
    start = time.perf_counter()
    matcher = Matcher(tasks, *usage)
    print(f"\n{len(tasks)} tasks: index built in {(time.perf_counter() - start) * 1000:.0f} ms")
    for name, labelled in cases.items():
        print(f"  {name:<26} {evaluate(matcher, labelled).summary()}")
        routed = evaluate(matcher, labelled, meta_check()).summary()
        print(f"    {'routed (meta first)':<24} {routed}")
        if all("names_method" in c for c in labelled):
            for names in (True, False):
                part = [c for c in labelled if c["expect"] and c["names_method"] is names]
                label = f"names the method: {'yes' if names else 'no'}"
                print(f"    {label:<24} {evaluate(matcher, part).summary(no_method=False)}")
    for cold in (True, False):
        label = f"  match, {'cold' if cold else 'warm'} word cache"
        print(describe(label, latencies(matcher, messages, rounds, cold)))
    print(describe("  match, huge messages, cold", latencies(matcher, huge_messages(), 7, True)))
    print(describe("  baseline: extractOne WRatio", baseline(tasks, messages)))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000, help="size of the expanded catalogue")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the messages")
    parser.add_argument(
        "--sets", nargs="*", default=list(CASE_FILES), help="labelled sets in tests/data"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as empty_home:  # bundled catalogue only
        catalogue = load_catalogue(HomeLayout(Path(empty_home)))
    if catalogue.problems:
        sys.exit(f"the catalogue has problems; run 'design-agent check': {catalogue.problems[0]}")
    real = list(catalogue.tasks.values())
    # The synthetic tasks copy their template's guides, so the guides' usage notes serve all.
    usage = (usage_notes(catalogue), usage_notes(catalogue, "es"))
    cases = {name: load_cases(name) for name in args.sets if (DATA / name).exists()}
    report(real, usage, cases, args.rounds)
    if args.tasks > len(real):
        report(expand(real, args.tasks), usage, cases, args.rounds)


if __name__ == "__main__":
    main()
