"""The tools as a table: each one's name, input model, what it needs (to read or to write
a project) and one-line description, and the function that runs it.

A tool function takes its validated input and the call (services, caller) and returns a
ToolResult; it raises DesignAgentError subclasses like the rest of design-agent, and
`run_tool` turns them into an MCP tool error with the same one-line message a command
prints. The functions live in methods.py and project_tools.py, registered with `@tool`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from design_agent.core.errors import UsageError
from design_agent.mcp.access import Access
from design_agent.mcp.call import Call, ToolResult

# The modules whose @tool functions make up the table.
TOOL_MODULES = ("design_agent.mcp.methods", "design_agent.mcp.project_tools")
# The order tools/list shows them in: the way a deliverable is made, then the project.
ORDER = (
    "find_method",
    "method_brief",
    "review_answer",
    "project_context",
    "record_decision",
    "retire_decision",
    "search_memory",
    "list_projects",
    "switch_project",
)

Input = TypeVar("Input", bound=BaseModel)
Output = TypeVar("Output", bound=ToolResult)


@dataclass(frozen=True)
class Tool:
    name: str
    input: type[BaseModel]
    access: Access
    description: str
    run: Callable[[Any, Call], ToolResult]
    output: type[ToolResult]


_TABLE: dict[str, Tool] = {}


def tool(
    name: str,
    input_model: type[Input],
    output_model: type[Output],
    access: Access,
    description: str,
) -> Callable[[Callable[[Input, Call], Output]], Callable[[Input, Call], Output]]:
    """Register a tool function in the table under `name`."""

    def register(function: Callable[[Input, Call], Output]) -> Callable[[Input, Call], Output]:
        _TABLE[name] = Tool(name, input_model, access, description, function, output_model)
        return function

    return register


@cache
def tools() -> dict[str, Tool]:
    """Every tool, by name (their modules imported once)."""
    for module in TOOL_MODULES:
        importlib.import_module(module)
    rank = {name: i for i, name in enumerate(ORDER)}
    return dict(sorted(_TABLE.items(), key=lambda item: rank.get(item[0], len(rank))))


def run_tool(name: str, arguments: dict[str, Any], call: Call) -> ToolResult:
    """Validate `arguments` against the tool's input and run it. UsageError for an unknown
    tool or invalid arguments (their first problem, in one line); the tool's own errors
    pass through unchanged."""
    found = tools().get(name)
    if found is None:
        raise UsageError(f"no tool '{name}'; the tools are: {', '.join(tools())}")
    try:
        args = found.input.model_validate(arguments)
    except ValidationError as e:
        raise UsageError(f"{name}: {first_problem(e)}") from e
    call.check(found.access, None)  # the tool itself; its project is checked where resolved
    return found.run(args, call)


def first_problem(error: ValidationError) -> str:
    """The first validation problem in one line: which argument, and what is wrong."""
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem.get("loc", ()))
    message = str(problem.get("msg", "invalid"))
    return f"{where}: {message}" if where else message
