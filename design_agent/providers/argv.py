"""Building a CLI invocation from an adapter and a request: a pure function.

argv = binary + args + tier_args[tier] + model_args (when a model is chosen)
+ system_prompt.args (when the system prompt goes in a file) + tail_args.
The prompt is always the stdin payload; when the adapter has no file
mechanism for the system prompt, it is prepended to that payload instead of
ever being put on the command line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from design_agent.core.errors import UsageError
from design_agent.providers.request import ProviderRequest
from design_agent.providers.spec import FILE_FIELD, MODEL_FIELD, AdapterSpec

SYSTEM_PROMPT_FILE_NAME = "system_prompt.md"
# A model name becomes one argv element: it must not look like an option.
_MODEL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:/@+\-\[\]]{0,127}$")
_SEPARATOR = "\n\n---\n\n"


@dataclass(frozen=True)
class Invocation:
    """What to spawn: argv, extra environment, the stdin payload, and files to write."""

    argv: list[str]
    env: dict[str, str]
    stdin: bytes
    model: str | None
    system_prompt_file: Path | None = None
    files: dict[Path, str] = field(default_factory=dict)


def choose_model(spec: AdapterSpec, request: ProviderRequest) -> str | None:
    """The request's model override, else the adapter's model for the tier (None = CLI default)."""
    model = request.model or spec.model_for(request.tier)
    if model is not None and not _MODEL_NAME.match(model):
        raise UsageError(
            f"invalid model name '{model}': use letters, digits and . _ : / @ + - only, "
            "e.g. 'design-agent config set model sonnet'"
        )
    return model


def build_invocation(
    spec: AdapterSpec, request: ProviderRequest, binary: str, workdir: Path
) -> Invocation:
    """The argv, env and stdin for `request` (pure: files are listed, not written)."""
    model = choose_model(spec, request)
    values = {MODEL_FIELD: model or "", FILE_FIELD: str(workdir / SYSTEM_PROMPT_FILE_NAME)}
    argv = [binary, *_fill(spec.args, values), *_fill(spec.tier_args.get(request.tier, []), values)]
    if model is not None:
        argv += _fill(spec.model_args, values)
    env = dict(zip(spec.env, _fill(list(spec.env.values()), values), strict=True))
    payload = request.prompt
    files: dict[Path, str] = {}
    prompt_file: Path | None = None
    has_system = bool(request.system_prompt.strip())
    if has_system and spec.system_prompt.via == "stdin":
        payload = request.system_prompt + _SEPARATOR + request.prompt
    elif has_system:
        prompt_file = Path(values[FILE_FIELD])
        files[prompt_file] = request.system_prompt
        argv += _fill(spec.system_prompt.args, values)
        sp_env = spec.system_prompt.env
        env.update(zip(sp_env, _fill(list(sp_env.values()), values), strict=True))
    argv += _fill(spec.tail_args, values)
    return Invocation(argv, env, payload.encode("utf-8"), model, prompt_file, files)


def _fill(templates: list[str], values: dict[str, str]) -> list[str]:
    return [template.format(**values) for template in templates]
