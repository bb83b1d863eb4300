"""The review's model-graded pass (issue 26): after a real AI CLI's answer has streamed,
its fast tier reads the answer once against the points only a reader can judge (the
method's rubric), and returns a strict JSON verdict per point with a quote from the
answer as evidence. A verdict whose quote is not in the answer is not taken. On any
failure or timeout the deterministic checks stand alone, and the footer says so; the
offline provider never runs it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.providers.request import ProviderRequest
from design_agent.providers.text_call import run_text

if TYPE_CHECKING:
    from design_agent.core.checklist import CheckItem, Validation
    from design_agent.core.settings import Settings
    from design_agent.providers.spec import AdapterSpec

# Seconds the grading may take before the deterministic checks stand alone.
REVIEW_TIMEOUT = 30.0
# The answer is cut to this many characters in the grading prompt.
ANSWER_CHARS = 24_000

_OBJECT = re.compile(r"\{.*\}", re.DOTALL)

SYSTEM_PROMPT = """\
You review a product-design deliverable as a strict senior practitioner. For each \
numbered point, decide whether the answer meets it. Quote the answer's own words \
(one short exact passage) as evidence for every verdict. Reply with exactly one JSON \
object and nothing else:
{"items": [{"id": "<point id>", "passed": true|false, "evidence": "<exact quote>", \
"detail": "<one line: what is wrong, or empty>"}]}"""


class Verdict(BaseModel):
    """The model's verdict on one point."""

    model_config = ConfigDict(extra="ignore", strict=True)

    id: str
    passed: bool
    evidence: str = Field(min_length=1)
    detail: str = ""


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)

    items: list[Verdict]


def points(validation: Validation) -> list[CheckItem]:
    """The items the model grades."""
    return [item for item in validation.items if item.by == "model"]


def grade(
    answer: str,
    validation: Validation,
    spec: AdapterSpec,
    settings: Settings,
    environ: Mapping[str, str] | None,
    language: str,
    timeout: float = REVIEW_TIMEOUT,
) -> Validation:
    """`validation` with the model's verdicts merged in (`model_review="graded"`), or
    marked `"unavailable"` when the call or its reply failed."""
    wanted = points(validation)
    if not wanted or spec.is_offline:
        return validation
    request = ProviderRequest(
        system_prompt=SYSTEM_PROMPT,
        prompt=build_prompt(answer, wanted, language),
        tier="fast",
        tier_reason="reviewing the answer",
        language="es" if language == "es" else "en",
    )
    text = run_text(spec, request, settings, environ, timeout)
    verdicts = parse_verdicts(text, {item.id for item in wanted}) if text else None
    if verdicts is None:
        return validation.model_copy(update={"model_review": "unavailable"})
    return merge(validation, verdicts, answer, language)


def build_prompt(answer: str, wanted: list[CheckItem], language: str) -> str:
    lines = "\n".join(f"- {item.id}: {item.label}" for item in wanted)
    tongue = "Spanish" if language == "es" else "English"
    return (
        f"The answer ({tongue}):\n<<<\n{answer[:ANSWER_CHARS]}\n>>>\n\n"
        f"Points to judge:\n{lines}\n\n"
        f"Write each detail in {tongue}. Reply with the JSON object only."
    )


def parse_verdicts(text: str, ids: set[str]) -> dict[str, Verdict] | None:
    """The verdicts of a reply, by point id; None unless it is one valid JSON object
    giving a verdict for at least one of the points asked about."""
    match = _OBJECT.search(text)
    if match is None:
        return None
    try:
        reply = _Reply.model_validate(json.loads(match.group(0)))
    except (ValueError, ValidationError):
        return None
    found = {v.id: v for v in reply.items if v.id in ids}
    return found or None


def merge(
    validation: Validation, verdicts: dict[str, Verdict], answer: str, language: str
) -> Validation:
    """Each graded point assessed with its verdict, when its quote is in the answer."""
    haystack = _flat(answer)
    items = []
    for item in validation.items:
        verdict = verdicts.get(item.id) if item.by == "model" else None
        if verdict is None:
            items.append(item)
        elif _flat(verdict.evidence) not in haystack:
            detail = say("review_model_quote_missing", language)
            items.append(item.model_copy(update={"detail": detail}))
        else:
            items.append(
                item.model_copy(
                    update={
                        "assessed": True,
                        "passed": verdict.passed,
                        "detail": verdict.detail[:300],
                        "evidence": verdict.evidence[:300],
                    }
                )
            )
    return validation.model_copy(update={"items": items, "model_review": "graded"})


def _flat(text: str) -> str:
    """Folded, markdown marks and spacing taken off: a quote matches however it wraps."""
    return " ".join(re.sub(r"[*_`>#|]+", " ", fold(text)).split()).strip(" .\"'“”«»")
