"""The events a provider run yields, as they happen.

A run yields, in order: one `TierChosen`; any number of `TextDelta` (the
answer as it is generated) and `Usage`; on failure one `ProviderFailure`;
and always a final `Done` carrying the whole text (partial when the run
failed or was cancelled). The stream parsers speak a smaller vocabulary of
their own (`TextDelta`, `Usage`, `StreamError`, `StreamDone`) that the runner
turns into the events above.

Text enters here: every string field of an event is made valid Unicode as the
event is built (a lone surrogate escape in a CLI's JSON becomes U+FFFD), so no
consumer (the terminal, JSON output, SQLite) ever meets one.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from design_agent.core.text import valid_unicode

Tier = Literal["fast", "deep"]
Status = Literal["ok", "failed", "cancelled"]
FailureKind = Literal[
    "not_installed", "not_authenticated", "rate_limited", "crashed", "timed_out", "bad_output"
]


class Event(BaseModel):
    """Base of every event; `kind` names it in JSON lines (`ask --events`)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    @field_validator("*", mode="after")
    @classmethod
    def _valid_text(cls, value: object) -> object:
        if isinstance(value, str):
            return valid_unicode(value)
        if isinstance(value, list):
            return [valid_unicode(v) if isinstance(v, str) else v for v in value]
        return value


class TierChosen(Event):
    """Which model tier and model answer this request, and why."""

    kind: Literal["tier"] = "tier"
    provider: str
    tier: Tier
    model: str | None
    reason: str


class TextDelta(Event):
    """A piece of the answer, in the order it was generated."""

    kind: Literal["text"] = "text"
    text: str


class Usage(Event):
    """Tokens (and cost, when the CLI reports it) of the whole request."""

    kind: Literal["usage"] = "usage"
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


class ProviderFailure(Event):
    """The run failed; the same facts are raised afterwards as a typed error."""

    kind: Literal["failure"] = "failure"
    provider: str
    error: FailureKind
    message: str
    exit_code: int
    returncode: int | None = None
    stderr_tail: list[str] = []


class Done(Event):
    """The last event of every run: the whole (or partial) text and how it ended."""

    kind: Literal["done"] = "done"
    provider: str
    model: str | None
    status: Status
    text: str
    usage: Usage | None = None
    seconds: float = 0.0
    first_token_seconds: float | None = None
    truncated: bool = False  # the text was cut at the answer limit (providers/run.py)


class StreamError(Event):
    """Parser level: the CLI reported an error; `terminal` when it ends the request."""

    kind: Literal["stream_error"] = "stream_error"
    message: str
    terminal: bool = True


class StreamDone(Event):
    """Parser level: the CLI's final success event arrived (`text` when it carries one)."""

    kind: Literal["stream_done"] = "stream_done"
    text: str | None = None


ParsedEvent = TextDelta | Usage | StreamError | StreamDone
RunEvent = TierChosen | TextDelta | Usage | ProviderFailure | Done
