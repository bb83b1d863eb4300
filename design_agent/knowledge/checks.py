"""Checks on adapter files, the lexicon and the methods' shapes, run by `design-agent
check` beside the catalogue's own."""

from __future__ import annotations

import difflib
from pathlib import Path

from design_agent.core.paths import HomeLayout
from design_agent.core.yamlfile import Problem
from design_agent.knowledge.registry import Catalogue


def lexicon_problems(home: HomeLayout) -> list[Problem]:
    """Every lexicon file, bundled and the home's (`<home>/lexicon/<language>/*.yaml`):
    its shape, and that each name a home gives is one design-agent reads, as a list or a
    table like the bundled one. Reported as `path:line: message`."""
    from design_agent.core.lexicon import load

    return list(load(home).problems)


def shape_problems(catalogue: Catalogue, home: HomeLayout) -> list[Problem]:
    """Every group a method's shape is written with is a list the lexicon gives
    (lexicon/<language>/shapes.yaml): a misspelt group would leave the shape unmatched."""
    from design_agent.core.lexicon import load

    words = load(home)
    given = {name for language in words.languages for name in words.lists.get(language, {})}
    problems: list[Problem] = []
    for task_id, task in catalogue.tasks.items():
        origin = catalogue.origins.get(("tasks", task_id))
        for group in sorted({g for shape in task.shapes for g in shape} - given):
            path, line = (origin.path, origin.line_of("shapes")) if origin else (Path(), None)
            close = difflib.get_close_matches(group, given, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            problems.append(
                Problem(
                    path,
                    line,
                    f"task '{task_id}': shapes: '{group}' is not a word group of the "
                    f"lexicon's shapes.yaml{hint}",
                )
            )
    return problems


def adapter_problems(catalogue: Catalogue) -> list[Problem]:
    """Every adapter file, bundled and overlay, validated by the strict AdapterSpec.

    Each problem is reported as `path:line: adapter 'NAME': field: message`.
    """
    from design_agent.providers.spec import adapter_problems as spec_problems

    return spec_problems(catalogue.adapter_files)
