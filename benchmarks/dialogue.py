"""Follow-up or new request: how often the turn reads the next message as the person meant.

For every labelled set of (previous request, next message) pairs in tests/data
(followups*.yaml), prints accuracy, the share of follow-ups answered with the previous
method, the share of new requests kept apart from it, and how many new requests whose own
method scores HIGH or MEDIUM were answered as the previous method (the target is none),
then the cases read wrong with --wrong. Offline: no model breaks a tie here.

    python benchmarks/dialogue.py [--wrong]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

from design_agent.core.paths import HomeLayout
from design_agent.knowledge.registry import load_catalogue
from design_agent.understanding.followup_eval import evaluate
from design_agent.understanding.matching import Matcher
from design_agent.understanding.routing_eval import meta_action

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--wrong", action="store_true", help="list the cases read wrong")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as empty_home:  # bundled catalogue only
        catalogue = load_catalogue(HomeLayout(Path(empty_home)))
    if catalogue.problems:
        sys.exit(f"the catalogue has problems; run 'design-agent check': {catalogue.problems[0]}")
    matcher = Matcher.from_catalogue(catalogue)
    for path in sorted(DATA.glob("followups*.yaml")):
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
        figures = evaluate(matcher, catalogue, cases, meta_action())
        print(f"{path.name:<24} {figures.summary()}")
        for line in figures.wrong if args.wrong else []:
            print(f"    {line}")


if __name__ == "__main__":
    main()
