"""Checks on adapter files and the lexicon, run by `design-agent check` beside the
catalogue's own."""

from __future__ import annotations

from design_agent.core.paths import HomeLayout
from design_agent.core.yamlfile import Problem
from design_agent.knowledge.registry import Catalogue


def lexicon_problems(home: HomeLayout) -> list[Problem]:
    """Every lexicon file, bundled and the home's (`<home>/lexicon/<language>/*.yaml`):
    its shape, and that each name a home gives is one design-agent reads, as a list or a
    table like the bundled one. Reported as `path:line: message`."""
    from design_agent.core.lexicon import load

    return list(load(home).problems)


def adapter_problems(catalogue: Catalogue) -> list[Problem]:
    """Every adapter file, bundled and overlay, validated by the strict AdapterSpec.

    Each problem is reported as `path:line: adapter 'NAME': field: message`.
    """
    from design_agent.providers.spec import adapter_problems as spec_problems

    return spec_problems(catalogue.adapter_files)
