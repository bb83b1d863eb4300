"""The fast model settles a close call: does a message go on from the last answer?

understanding/follow_up.py weighs the evidence for each reading; when neither wins by
CLEAR_MARGIN and the active provider is a real AI CLI, the turn asks that CLI's fast tier
once (the same runner, login probe and timeout as the method choice, model_choice.py).
The model must reply with one JSON object, `{"reading": "follow_up" | "new_request",
"reason": "..."}`; anything else (a timeout, a provider error, other text) yields None
and the deterministic reading stands. Nothing here raises for a provider problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from design_agent.providers.login import provider_ready
from design_agent.providers.request import ProviderRequest
from design_agent.providers.text_call import run_text
from design_agent.understanding.model_choice import REASON_CHARS, json_object

if TYPE_CHECKING:
    from design_agent.core.models import Task
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec

SYSTEM_PROMPT = """\
You read a conversation with a product-design assistant. It has just answered the user's \
last request with one design method. Decide whether the user's new message goes on from \
that answer (changes, extends, shortens, translates or asks about it, or applies it to \
another audience) or asks for something new (another deliverable or method).
Reply with exactly one JSON object and nothing else:
{"reading": "follow_up" or "new_request", "reason": "<one short sentence>"}"""


class FollowUpVerdict(BaseModel):
    """What the model read: the message goes on from the last answer, or asks anew."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    reading: Literal["follow_up", "new_request"]
    reason: str = ""


def read_with_model(
    message: str,
    last: Task,
    last_request: str,
    spec: AdapterSpec,
    settings: Settings,
    environ: Mapping[str, str] | None,
    language: str,
    timeout: float,
) -> FollowUpVerdict | None:
    """Ask `spec`'s fast model whether `message` goes on from the answer to `last_request`
    (made with `last`); None at once when the provider is offline or not ready, and None
    on any failure (the run is cancelled after `timeout` seconds)."""
    if spec.is_offline or not provider_ready(spec, settings, environ)[0]:
        return None
    request = ProviderRequest(
        system_prompt=SYSTEM_PROMPT,
        prompt=build_prompt(message, last, last_request, language),
        tier="fast",
        tier_reason="reading whether a message goes on from the last answer",
        language="es" if language == "es" else "en",
    )
    text = run_text(spec, request, settings, environ, timeout)
    return parse_verdict(text) if text is not None else None


def build_prompt(message: str, last: Task, last_request: str, language: str) -> str:
    """The last request, the method that answered it, and the new message."""
    name = last.name.es if language == "es" else last.name.en
    return (
        "Last request:\n<<<\n"
        f"{last_request.strip()}\n>>>\n"
        f"Answered with the method: {last.id} ({name})\n\n"
        "New message:\n<<<\n"
        f"{message.strip()}\n>>>\n\n"
        'Reply with one JSON object: {"reading": "follow_up" or "new_request", '
        '"reason": "..."}'
    )


def parse_verdict(text: str) -> FollowUpVerdict | None:
    """The verdict in a model's reply, or None when it is not one valid JSON object with
    a known reading (a ```json fence around it is fine)."""
    body = json_object(text)
    if body is None:
        return None
    try:
        data = json.loads(body)
        if not isinstance(data, dict):
            return None
        reason = " ".join(str(data.get("reason", "")).split())[:REASON_CHARS]
        return FollowUpVerdict.model_validate({"reading": data.get("reading"), "reason": reason})
    except (json.JSONDecodeError, ValidationError):
        return None
