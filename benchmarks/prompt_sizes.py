"""How big each assembled prompt is: tokens per block for every prompt scenario.

The scenarios (tests/data/prompt_scenarios.yaml) cross methods, project states
(empty, partial, rich), languages and verbosity. For each, the prompt is
assembled exactly as a turn would assemble it for Claude Code (its context
limit), and the estimated tokens of each block are printed, then the total.
Estimates are characters / 4, as everywhere in design-agent.

    python benchmarks/prompt_sizes.py [--limit 200000] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

import yaml

from design_agent.core.paths import HomeLayout
from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.prompt import AssembledPrompt, ProjectContext, assemble
from design_agent.knowledge.registry import Catalogue, load_catalogue

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "data" / "prompt_scenarios.yaml"


def load_scenarios() -> tuple[dict[str, ProjectContext], list[dict[str, Any]]]:
    data = yaml.safe_load(SCENARIOS.read_text(encoding="utf-8"))
    projects = {
        key: ProjectContext(
            name=value["name"],
            metadata=value.get("metadata", {}),
            briefs=[tuple(b) for b in value.get("briefs", [])],
            decisions=[tuple(d) for d in value.get("decisions", [])],
        )
        for key, value in data["projects"].items()
    }
    return projects, data["scenarios"]


def assemble_scenario(
    catalogue: Catalogue,
    knowledge: Knowledge,
    projects: dict[str, ProjectContext],
    scenario: dict[str, Any],
    limit: int,
) -> AssembledPrompt:
    task = catalogue.task(scenario["task"])
    return assemble(
        message=scenario["message"],
        task=task,
        agent=catalogue.agent(task.agent),
        knowledge=knowledge,
        language=scenario["language"],
        verbosity=scenario["verbosity"],
        context_limit=limit,
        project=projects[scenario["project"]],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200_000, help="context limit in tokens")
    parser.add_argument("--json", action="store_true", help="one JSON object per scenario")
    args = parser.parse_args()
    catalogue = load_catalogue(HomeLayout(Path(tempfile.mkdtemp())))
    knowledge = Knowledge(catalogue)
    projects, scenarios = load_scenarios()
    totals = []
    for scenario in scenarios:
        assembled = assemble_scenario(catalogue, knowledge, projects, scenario, args.limit)
        totals.append(assembled.total_tokens)
        if args.json:
            print(json.dumps({"id": scenario["id"], **assembled.tokens}))
            continue
        blocks = " ".join(f"{k}={v}" for k, v in assembled.tokens.items() if v)
        print(f"{scenario['id']:<48} {assembled.total_tokens:>6}  {blocks}")
    if not args.json:
        print(
            f"\n{len(totals)} scenarios: median {statistics.median(totals):.0f} tokens, "
            f"min {min(totals)}, max {max(totals)}"
        )


if __name__ == "__main__":
    main()
