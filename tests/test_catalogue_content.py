"""The bundled catalogue keeps its promised size and substance.

A user relies on a broad set of methods, each with a guide worth reading and
keywords in both languages; these tests fail when an edit shrinks any of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from design_agent.paths import HomeLayout
from design_agent.registry import Catalogue, load_catalogue

MINIMUM_COUNTS = {"agents": 12, "tasks": 80, "guides": 64, "materials": 11}
MINIMUM_GUIDE_WORDS = 500


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """The bundled catalogue alone (an empty home adds nothing)."""
    return load_catalogue(HomeLayout(tmp_path_factory.mktemp("empty-home")))


def test_design_agent_check_passes(run_cli):
    result = run_cli("check")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("kind", "minimum"), sorted(MINIMUM_COUNTS.items()))
def test_catalogue_counts_never_drop_below_the_promise(bundled, kind, minimum):
    count = len(getattr(bundled, kind))
    assert count >= minimum, f"only {count} {kind}; the catalogue promises at least {minimum}"


def test_every_guide_is_substantial(bundled):
    short = {
        name: words
        for name, path in bundled.guides.items()
        if (words := len(Path(path).read_text(encoding="utf-8").split())) < MINIMUM_GUIDE_WORDS
    }
    assert not short, f"guides under {MINIMUM_GUIDE_WORDS} words: {short}"


def test_every_task_has_spanish_keywords(bundled):
    missing = [
        task.id
        for task in bundled.tasks.values()
        if not [keyword for keyword in task.keywords.es if keyword.strip()]
    ]
    assert not missing, f"tasks without Spanish keywords: {missing}"
