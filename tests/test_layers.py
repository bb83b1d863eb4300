"""The folders are the layers, and data flows down: no module imports from a layer above
its own, lazily (inside a function) or not. docs/architecture.md draws the same map.

Annotations may name a type from above (a handler is given the turn's services), so an
import under `if TYPE_CHECKING:` is not a dependency: it never runs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "design_agent"
# Top first. Layers on one line share a rank: neither imports the other.
LAYERS = [
    ["launch"],
    ["server"],
    ["mcp"],
    ["cli"],
    ["turn"],
    ["actions"],
    ["report"],
    ["understanding"],
    ["knowledge"],
    ["memory", "providers"],
    ["core"],
]
RANK = {name: len(LAYERS) - i for i, names in enumerate(LAYERS) for name in names}


def layer_of(module: str) -> str | None:
    """`design_agent.turn.pipeline` -> `turn`; None for the package's own top level."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "design_agent" else None


def module_of(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(relative.parts).removesuffix(".__init__")


def runtime_imports(tree: ast.AST, module: str) -> list[tuple[int, str]]:
    """(line, module) of every import that can run, lazy ones included."""
    found: list[tuple[int, str]] = []
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module)
            found.append((node.lineno, base))
            # `from design_agent import memory` names a submodule.
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.startswith("design_agent.")]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(node: ast.ImportFrom, module: str) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level]
    return ".".join([*base, node.module] if node.module else base)


def upward_imports() -> list[str]:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_of(path)
        here = layer_of(module)
        if here is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, imported in runtime_imports(tree, module):
            there = layer_of(imported)
            if there is None or there == here:
                continue
            if RANK.get(there, 0) >= RANK[here]:
                problems.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {here} -> {imported}")
    return sorted(set(problems))


def test_every_module_sits_in_a_layer_folder() -> None:
    loose = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert loose == [], "a module outside the layer folders"
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(RANK), "a layer folder missing from LAYERS (or the other way round)"


@pytest.mark.parametrize("layer", sorted(RANK))
def test_each_layer_says_what_it_is_for(layer: str) -> None:
    init = PACKAGE / layer / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring and len(docstring.split()) >= 12, f"{layer}/__init__.py has no docstring"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward_imports() == []


def test_the_walk_sees_lazy_imports_and_skips_type_only_ones() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from design_agent.cli import output\n"
        "def f():\n    from design_agent.turn import pipeline\n"
    )
    found = [name for _, name in runtime_imports(ast.parse(source), "design_agent.core.x")]
    assert "design_agent.turn.pipeline" in found and "design_agent.cli.output" not in found


def test_the_architecture_document_places_every_layer() -> None:
    document = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for layer in RANK:
        assert f"`{layer}/`" in document, f"docs/architecture.md does not place {layer}/"
