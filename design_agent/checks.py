"""Checks on adapter files, run by `design-agent check` beside the catalogue's own."""

from __future__ import annotations

from design_agent.registry import Catalogue
from design_agent.yamlfile import Problem, YamlFileError, load_located


def adapter_problems(catalogue: Catalogue) -> list[Problem]:
    """Every adapter file must parse as a YAML mapping."""
    problems: list[Problem] = []
    for path in catalogue.adapter_files.values():
        try:
            located = load_located(path)
        except YamlFileError as e:
            problems.append(e.problem)
            continue
        if not isinstance(located.data, dict):
            problems.append(located.problem((), "an adapter file must be a mapping of fields"))
    return problems
