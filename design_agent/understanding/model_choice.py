"""Model-assisted task choice: when matching is unsure, ask the provider's fast model.

The matcher ranks design tasks from the words of a message; when it is not
confident (the match is not HIGH) and the active provider is a real AI CLI,
the pipeline may ask that CLI's fast tier to choose among the top candidates.
The request goes through the same provider runner the answers use, so the
binary lookup, process group handling and error classification are shared.

The model must reply with one JSON object, `{"task": "<id or null>",
"reason": "..."}`. Anything else (a timeout, a provider error, text that is
not that object, an id that was not offered) yields None: the caller then
falls back to asking the user. Nothing here raises for a provider problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, ValidationError

from design_agent.providers.login import provider_ready
from design_agent.providers.request import ProviderRequest
from design_agent.providers.text_call import run_text

if TYPE_CHECKING:
    from design_agent.core.settings import Settings
    from design_agent.knowledge.registry import Catalogue
    from design_agent.providers.spec import AdapterSpec
    from design_agent.understanding.matching import TaskScore

# A candidate's description is cut to this many characters in the prompt.
DESCRIPTION_CHARS = 160
# The reason is for logs and the user's eyes: one sentence is enough.
REASON_CHARS = 300
# Replies that mean "none of them" when a model writes them as a string.
NONE_WORDS = frozenset({"null", "none", ""})

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL | re.IGNORECASE)
_OBJECT = re.compile(r"\{.*\}", re.DOTALL)

SYSTEM_PROMPT = """\
You route requests for a product-design assistant. Read the user's message and choose \
the ONE design method from the candidate list that best fits what the user asks for. \
If none of them fits (small talk, an off-topic request, or a need none of them covers), \
choose null.
Reply with exactly one JSON object and nothing else:
{"task": "<candidate id or null>", "reason": "<one short sentence>"}"""


class ModelChoice(BaseModel):
    """What the model chose: a candidate's task id, or None for "none of them fits"."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    task_id: str | None
    reason: str = ""


class _Reply(BaseModel):
    """The JSON object the model is asked for."""

    model_config = ConfigDict(strict=True, extra="ignore")

    task: str | None
    reason: str = ""


def choose_with_model(
    message: str,
    candidates: Sequence[TaskScore],
    catalogue: Catalogue,
    spec: AdapterSpec,
    settings: Settings,
    environ: Mapping[str, str] | None,
    language: str,
    timeout: float = 12.0,
) -> ModelChoice | None:
    """Ask `spec`'s fast model which of `candidates` `message` asks for.

    Returns None at once for the offline provider, a provider not installed or
    logged out (its login probe, providers/login.py), or no candidates, and None on
    any failure; the run is cancelled (its process group killed) after `timeout`
    seconds.
    """
    if spec.name == "offline" or spec.is_offline or not candidates:
        return None
    if not provider_ready(spec, settings, environ)[0]:  # not installed or logged out: skip it
        return None
    request = ProviderRequest(
        system_prompt=SYSTEM_PROMPT,
        prompt=build_prompt(message, candidates, catalogue, language),
        tier="fast",
        tier_reason="choosing the design method",
        language="es" if language == "es" else "en",
    )
    text = run_text(spec, request, settings, environ, timeout)
    if text is None:
        return None
    return parse_choice(text, [c.task_id for c in candidates])


def build_prompt(
    message: str, candidates: Sequence[TaskScore], catalogue: Catalogue, language: str
) -> str:
    """The user's message and one line per candidate: id, name, a short description."""
    lines = [f"- {line}" for line in _candidate_lines(candidates, catalogue, language)]
    return (
        "User's message:\n<<<\n"
        f"{message.strip()}\n>>>\n\n"
        "Candidate design methods (id: name - what it is):\n" + "\n".join(lines) + "\n\n"
        'Reply with one JSON object: {"task": "<id or null>", "reason": "..."}'
    )


def _candidate_lines(
    candidates: Sequence[TaskScore], catalogue: Catalogue, language: str
) -> Iterator[str]:
    for candidate in candidates:
        task = catalogue.tasks.get(candidate.task_id)
        if task is None:
            continue
        name = task.name.es if language == "es" else task.name.en
        yield f"{task.id}: {name} - {_one_line(task.description)}"


def _one_line(text: str) -> str:
    """The first sentence of `text`, on one line, at most DESCRIPTION_CHARS long."""
    flat = " ".join(text.split())
    first = flat.split(". ")[0].rstrip(".")
    if len(first) > DESCRIPTION_CHARS:
        first = first[: DESCRIPTION_CHARS - 3].rstrip() + "..."
    return first


def parse_choice(text: str, offered: Sequence[str]) -> ModelChoice | None:
    """The choice in a model's reply, or None when it is not one valid JSON object
    naming an offered id (or null). A ```json fence around the object is fine."""
    body = json_object(text)
    if body is None:
        return None
    try:
        reply = _Reply.model_validate(json.loads(body))
    except (json.JSONDecodeError, ValidationError):
        return None
    task = reply.task
    if task is not None and task.strip().lower() in NONE_WORDS:
        task = None
    if task is not None and task not in offered:
        return None
    return ModelChoice(task_id=task, reason=" ".join(reply.reason.split())[:REASON_CHARS])


def json_object(text: str) -> str | None:
    """The first {...} of a model's reply, inside a ```json fence or not; None if none."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text.strip()
    found = _OBJECT.search(body)
    return found.group(0) if found else None
