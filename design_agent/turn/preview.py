"""`ask --show-prompt` and `/prompt`: what a turn would send, without sending it.

The preview is built by the same code as a turn (request_builder), and the
argv, environment and stdin by the same function the runner spawns with
(providers.argv.build_invocation), so the preview is the contract's test.
Nothing is run and nothing is saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from design_agent.providers.argv import build_invocation

if TYPE_CHECKING:
    from design_agent.providers.resolve import Resolution
    from design_agent.turn.request_builder import BuiltRequest
    from design_agent.understanding.matching import MatchResult

# The runner writes the system prompt file into a fresh scratch folder per run.
SCRATCH = Path("<scratch folder>")


class PromptPreview(BaseModel):
    """What would reach the provider for one request, with token estimates per block."""

    model_config = ConfigDict(frozen=True)

    provider: str
    model: str | None
    argv: list[str] = Field(description="the command line, binary first (empty offline)")
    env: dict[str, str] = Field(description="variables set for the CLI besides yours")
    system_prompt: str
    system_prompt_via: str = Field(description="args (a file named in argv), env or stdin")
    stdin: str = Field(description="exactly what is written to the CLI's standard input")
    tokens: dict[str, int] = Field(description="estimated tokens per prompt block")
    total_tokens: int
    budget: int = Field(description="the provider's context limit in tokens")
    task_id: str
    task_name: str
    band: str
    alternatives: list[str] = Field(default_factory=list)
    language: str
    verbosity: str
    sections: list[str] = Field(default_factory=list)
    dropped: list[str] = Field(default_factory=list)


def make_preview(
    request: BuiltRequest, resolution: Resolution, match: MatchResult, task_name: str
) -> PromptPreview:
    """The preview of `request` as `resolution`'s provider would receive it."""
    spec, built, assembled = resolution.spec, request.built, request.assembled
    if spec.is_offline:
        argv: list[str] = []
        env: dict[str, str] = {}
        stdin, via, model = built.prompt, "stdin", None
    else:
        binary = resolution.lookup.path or spec.binary or spec.name
        invocation = build_invocation(spec, built, binary, SCRATCH)
        argv, env, model = invocation.argv, invocation.env, invocation.model
        stdin, via = invocation.stdin.decode("utf-8"), spec.system_prompt.via
    best = match.best
    return PromptPreview(
        provider=spec.name,
        model=model,
        argv=argv,
        env=env,
        system_prompt=built.system_prompt,
        system_prompt_via=via,
        stdin=stdin,
        tokens=assembled.tokens,
        total_tokens=assembled.total_tokens,
        budget=request.budget,
        task_id=best.task_id if best else "",
        task_name=task_name,
        band=best.band if best else "LOW",
        alternatives=[c.task_id for c in match.alternates],
        language=built.language,
        verbosity=built.verbosity,
        sections=[s.citation for s in assembled.sections],
        dropped=assembled.dropped,
    )
