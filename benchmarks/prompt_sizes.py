"""How big each assembled prompt is: tokens per block for every prompt scenario.

The scenarios (tests/data/prompt_scenarios.yaml) cross methods, project states
(empty, partial, rich), languages and verbosity. For each, the prompt is
assembled exactly as a turn would assemble it for Claude Code (its context
limit), and the estimated tokens of each block are printed, then the total.
Estimates are characters / 4, as everywhere in design-agent.

Then three figures the prompt contract has targets for (tests/test_prompt_contract.py):
- brief / detailed: for each `pairs:` request, the brief prompt's tokens over the
  detailed one's, per method, with the median and the max (target <= 70 %);
- the largest normal-length prompt in an empty project (target <= 6,000 tokens);
- in each Spanish prompt, the share of words in English sentences (target <= 25 %).

    python benchmarks/prompt_sizes.py [--limit 200000] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
from pathlib import Path
from typing import Any

import yaml

from design_agent.core.paths import HomeLayout
from design_agent.core.text import estimate_tokens
from design_agent.knowledge.guides import Knowledge
from design_agent.knowledge.prompt import AssembledPrompt, ProjectContext, assemble
from design_agent.knowledge.registry import Catalogue, load_catalogue

SCENARIOS = Path(__file__).resolve().parent.parent / "tests" / "data" / "prompt_scenarios.yaml"
_CHUNKS = re.compile(r"\n+|(?<=[.;:?!])\s+")
_WORD = re.compile(r"[^\W\d_]{2,}")


def english_share(text: str) -> float:
    """The share of `text`'s words that are in sentences (or lines) read as English."""
    from design_agent.understanding.language import language_signal

    english = total = 0
    for chunk in _CHUNKS.split(text):
        words = len(_WORD.findall(chunk))
        total += words
        language, margin = language_signal(chunk)
        if language == "en" and margin > 0:
            english += words
    return english / total if total else 0.0


def paired(scenarios: list[dict[str, Any]], pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each pair's request as a brief and a detailed scenario, ids ending -brief, -detailed."""
    out = list(scenarios)
    for pair in pairs:
        for verbosity in ("brief", "detailed"):
            out.append({**pair, "id": f"{pair['id']}-{verbosity}", "verbosity": verbosity})
    return out


def ratios(prompts: dict[str, AssembledPrompt], pairs: list[dict[str, Any]]) -> dict[str, float]:
    """Each pair's brief prompt tokens over its detailed prompt tokens (the whole prompt,
    system prompt included)."""
    return {
        pair["id"]: _size(prompts[f"{pair['id']}-brief"]) / _size(prompts[f"{pair['id']}-detailed"])
        for pair in pairs
    }


def every_method_empty(catalogue: Catalogue, knowledge: Knowledge, limit: int) -> dict[str, int]:
    """Every method in each language, asked by its name at normal length in an empty
    project: the prompt's tokens by `<method>-<language>`."""
    sizes: dict[str, int] = {}
    for task in catalogue.tasks.values():
        for language in ("en", "es"):
            assembled = assemble(
                message=task.name.get(language),
                task=task,
                agent=catalogue.agent(task.agent),
                knowledge=knowledge,
                language=language,
                verbosity="normal",
                context_limit=limit,
                project=ProjectContext(name="New app"),
            )
            sizes[f"{task.id}-{language}"] = assembled.total_tokens
    return sizes


def _size(assembled: AssembledPrompt) -> int:
    return estimate_tokens(assembled.system) + estimate_tokens(assembled.prompt)


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
    return projects, paired(data["scenarios"], data.get("pairs", []))


def load_pairs() -> list[dict[str, Any]]:
    """The requests asked both briefly and in detail (`pairs:` in the scenarios file)."""
    data = yaml.safe_load(SCENARIOS.read_text(encoding="utf-8"))
    return list(data.get("pairs", []))


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
    prompts = {
        s["id"]: assemble_scenario(catalogue, knowledge, projects, s, args.limit) for s in scenarios
    }
    for scenario in scenarios:
        assembled = prompts[scenario["id"]]
        if args.json:
            print(json.dumps({"id": scenario["id"], **assembled.tokens}))
            continue
        blocks = " ".join(f"{k}={v}" for k, v in assembled.tokens.items() if v)
        print(f"{scenario['id']:<48} {assembled.total_tokens:>6}  {blocks}")
    if not args.json:
        _figures(prompts, scenarios)
        every = every_method_empty(catalogue, knowledge, args.limit)
        worst = max(every, key=lambda k: every[k])
        print(
            f"every method at normal length in an empty project ({len(every)} prompts): "
            f"max {every[worst]} tokens ({worst})"
        )


def _figures(prompts: dict[str, AssembledPrompt], scenarios: list[dict[str, Any]]) -> None:
    totals = [p.total_tokens for p in prompts.values()]
    print(
        f"\n{len(totals)} scenarios: median {statistics.median(totals):.0f} tokens, "
        f"min {min(totals)}, max {max(totals)}"
    )
    by_pair = ratios(prompts, load_pairs())
    print("\nbrief / detailed tokens, per method:")
    for pair_id, ratio in by_pair.items():
        print(f"  {pair_id:<46} {ratio:6.1%}")
    values = list(by_pair.values())
    print(f"  median {statistics.median(values):.1%}, max {max(values):.1%} (target <= 70 %)")
    empty = [s for s in scenarios if s["project"] == "empty" and s["verbosity"] == "normal"]
    largest = max(empty, key=lambda s: prompts[s["id"]].total_tokens)
    print(
        f"\nlargest normal prompt in an empty project: {largest['id']} "
        f"{prompts[largest['id']].total_tokens} tokens (target <= 6,000)"
    )
    spanish = {
        s["id"]: english_share(prompts[s["id"]].prompt) for s in scenarios if s["language"] == "es"
    }
    worst = max(spanish, key=lambda k: spanish[k])
    print(
        f"English words in Spanish prompts: median {statistics.median(spanish.values()):.1%}, "
        f"max {spanish[worst]:.1%} ({worst}; target <= 25 %)"
    )


if __name__ == "__main__":
    main()
