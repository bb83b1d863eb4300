"""The answer review measured on the answer corpus (issue 26): seeded defects named, by
kind and language, and good answers with any failed item (false alarms).

Each answer is reviewed as a turn reviews it (knowledge/validation.py, the project's
decisions as recorded), with the method's guide sections as what the writer had. A
defect counts as named when a failed item's detail holds its hint. Targets: at least
90 % named, at most 5 % of good answers with a failed item.

    python benchmarks/review.py [--dir tests/data/answers] [--quiet]

`--dir` evaluates another folder of the same format (the held-out one, once).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from design_agent.core.checklist import Validation
from design_agent.core.paths import HomeLayout
from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.registry import load_catalogue
from design_agent.knowledge.review.corpus import Case, load_cases, measure
from design_agent.knowledge.validation import RecordedDecision, validate_answer

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "answers"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=CORPUS, help="a folder of answer files")
    parser.add_argument("--quiet", action="store_true", help="the figures only")
    args = parser.parse_args()
    catalogue = load_catalogue(HomeLayout(Path(tempfile.mkdtemp(prefix="review-bench-"))))
    knowledge = Knowledge(catalogue)

    def reviewed(case: Case) -> Validation:
        task = catalogue.task(case.method)
        decisions = [
            RecordedDecision(n, d.text, date.today().isoformat())
            for n, d in enumerate(case.project.decisions, 1)
        ]
        sent = knowledge.known_citations(task)
        return validate_answer(
            case.answer, task, case.language, sent, knowledge.headings_of, decisions
        )

    cases = load_cases(args.dir)
    figures = measure(cases, reviewed)
    print(f"{len(cases)} answers in {args.dir}")
    lines = figures.lines()
    print("\n".join(line for line in lines if not (args.quiet and line.startswith("  "))))
    print(_timings(cases, reviewed))
    return 0


def _timings(cases: list[Case], reviewed: Callable[[Case], Validation]) -> str:
    """Review time per answer (p50, max), and of one answer of about 1 MB (the corpus's
    answers joined, as a long report would be)."""
    times = []
    for case in cases:
        started = time.perf_counter()
        reviewed(case)
        times.append(time.perf_counter() - started)
    whole = "\n\n".join(c.answer for c in cases)
    big = cases[0].model_copy(update={"answer": whole * max(1, 1_000_000 // len(whole))})
    started = time.perf_counter()
    reviewed(big)
    one_mb = time.perf_counter() - started
    return (
        f"review time per answer: p50 {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms; a {len(big.answer) // 1000} KB answer: {one_mb:.2f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
