"""Checks on adapter files, run by `design-agent check` beside the catalogue's own."""

from __future__ import annotations

from design_agent.core.yamlfile import Problem
from design_agent.knowledge.registry import Catalogue


def adapter_problems(catalogue: Catalogue) -> list[Problem]:
    """Every adapter file, bundled and overlay, validated by the strict AdapterSpec.

    Each problem is reported as `path:line: adapter 'NAME': field: message`.
    """
    from design_agent.providers.spec import adapter_problems as spec_problems

    return spec_problems(catalogue.adapter_files)
