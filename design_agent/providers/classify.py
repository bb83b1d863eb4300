"""Turn how a CLI run ended into a typed error that says what to do next (or None).

Exit codes alone are not trusted: claude exits 0 when interrupted, gemini 0
after SIGINT. A run succeeded only when its stream's final event says so (for
the structured formats) and it exited 0. Not-logged-in, quota (checked before
rate limit: their wording overlaps) and rate-limit are recognised from each
adapter's signatures (the recorded messages in
`../shared/providers/`), in the stream's errors, stderr and non-JSON output.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass

from design_agent.core.errors import (
    ProviderCrashedError,
    ProviderError,
    ProviderNotAuthenticatedError,
    ProviderOutputError,
    ProviderQuotaExhaustedError,
    ProviderRateLimitedError,
    ProviderTimeoutError,
)
from design_agent.providers.pump import Outcome
from design_agent.providers.spec import AdapterSpec

DOCTOR = "run 'design-agent providers doctor {name}' to check it"
TIMEOUT_FIELD = {"first_output": "first_output", "idle": "idle", "total": "total"}


@dataclass(frozen=True)
class RunFacts:
    """Everything classification looks at, gathered by the runner."""

    outcome: Outcome
    needs_result: bool
    format_label: str
    valid_lines: int
    noise: list[str]
    has_text: bool = False
    text_tail: str = ""


def classify(spec: AdapterSpec, facts: RunFacts) -> ProviderError | None:
    """The typed error for a finished run, or None when it succeeded (or was cancelled)."""
    outcome = facts.outcome
    reason = outcome.stop_reason
    if reason == "cancel":
        return None
    if reason == "overflow":
        return _error(ProviderOutputError, spec, outcome, _overflow_message(spec, facts))
    if reason == "stalled":
        message = (
            f"{spec.display_name} cannot reach its service ('{_clip(outcome.last_words, 120)}'). "
            f"Check your network, and your login with 'design-agent providers doctor {spec.name}'"
        )
        return _error(ProviderTimeoutError, spec, outcome, message)
    if reason in TIMEOUT_FIELD:
        message = _timeout_message(spec, outcome, reason, kept=facts.has_text)
        return _error(ProviderTimeoutError, spec, outcome, message)
    if not _failed(facts):
        return None
    return _signature_error(spec, facts) or _crash_error(spec, facts)


def _failed(facts: RunFacts) -> bool:
    """Both must say success: the stream's final event (when the format has one) and exit 0."""
    outcome = facts.outcome
    if outcome.errors:
        return True
    missing_result = facts.needs_result and not outcome.result_seen
    if outcome.stop_reason == "linger":  # we ended it ourselves: its exit code says nothing
        return missing_result
    return missing_result or outcome.returncode not in (0, None)


def _signature_error(spec: AdapterSpec, facts: RunFacts) -> ProviderError | None:
    outcome = facts.outcome
    haystack = [*outcome.errors, *outcome.notices, *outcome.stderr_tail, *facts.noise]
    if facts.text_tail:
        haystack.append(facts.text_tail)
    auth = _match(haystack, spec.auth_signatures)
    if auth or outcome.returncode in spec.auth_exit_codes:
        detail = auth or f"exit code {outcome.returncode}"
        hint = spec.login_hint or "log in to it"
        message = (
            f"{spec.display_name} is not logged in ({detail}). {_sentence(hint)}, then retry; "
            + DOCTOR.format(name=spec.name)
        )
        return _error(ProviderNotAuthenticatedError, spec, outcome, message)
    quota = _match(haystack, spec.quota_signatures)
    if quota:
        message = (
            f"{spec.display_name} has used up its quota or plan limit ({quota}). It comes back "
            "when the limit resets (see the time above, if given) or with more credit; until "
            "then switch provider with 'design-agent providers use NAME', or set a fallback "
            "chain: 'design-agent config set providers.fallback claude,gemini,codex,offline'"
        )
        return _error(ProviderQuotaExhaustedError, spec, outcome, message)
    limited = _match(haystack, spec.rate_limit_signatures)
    if limited:
        message = (
            f"{spec.display_name} is rate limited ({limited}). Wait a few minutes and retry, "
            "or switch provider with 'design-agent providers use NAME'"
        )
        return _error(ProviderRateLimitedError, spec, outcome, message)
    return None


def _crash_error(spec: AdapterSpec, facts: RunFacts) -> ProviderError:
    outcome, name = facts.outcome, spec.display_name
    doctor = DOCTOR.format(name=spec.name)
    if outcome.errors:
        message = f"{name} reported an error: {_clip(outcome.errors[-1])}; {doctor}"
    elif facts.needs_result and facts.valid_lines == 0 and facts.noise:
        message = (
            f"{name} printed output that is not {facts.format_label} "
            f"('{_clip(facts.noise[0], 80)}'): is '{spec.binary}' really {name}? "
            + _sentence(doctor)
        )
        return _error(ProviderOutputError, spec, outcome, message)
    elif outcome.stop_reason == "linger":
        message = f"{name} closed its output but did not exit, and was stopped; {doctor}"
    elif outcome.returncode not in (0, None):
        message = f"{name} {_exit_text(outcome.returncode)}{_stderr_text(outcome)}; {doctor}"
    else:
        message = (
            f"{name} stopped before its final result ({_exit_text(outcome.returncode)})"
            f"{_stderr_text(outcome)}; the partial answer was kept. Retry, or {doctor}"
        )
    return _error(ProviderCrashedError, spec, outcome, message)


def _timeout_message(spec: AdapterSpec, outcome: Outcome, reason: str, kept: bool) -> str:
    seconds = getattr(spec.timeouts, reason)
    last = outcome.last_words
    said = f" (its last message: '{_clip(last, 120)}')" if last else ""
    what = {
        "first_output": f"gave no answer within {seconds:g} s{said}",
        "idle": f"stopped writing for {seconds:g} s in the middle of its answer{said}",
        "total": f"did not finish within {seconds:g} s{said}",
    }[reason]
    partial = "; the partial answer was kept" if kept else ""
    return (
        f"{spec.display_name} {what}{partial}. Check your network and login with "
        f"'design-agent providers doctor {spec.name}'; a slow model may need a longer "
        f"'timeouts.{reason}' in adapters/{spec.name}.yaml in your design-agent home"
    )


def _overflow_message(spec: AdapterSpec, facts: RunFacts) -> str:
    return (
        f"{spec.display_name} wrote an output line too long to read as {facts.format_label}; "
        f"is '{spec.binary}' really {spec.display_name}? {_sentence(DOCTOR.format(name=spec.name))}"
    )


def _error(
    kind: type[ProviderError], spec: AdapterSpec, outcome: Outcome, message: str
) -> ProviderError:
    return kind(message, provider=spec.name, stderr_tail=list(outcome.stderr_tail)[-5:])


def _match(haystack: list[str], signatures: list[str]) -> str | None:
    """The first haystack line containing a signature (case-insensitive), clipped."""
    lowered = [s.casefold() for s in signatures]
    for line in haystack:
        folded = line.casefold()
        if any(sig in folded for sig in lowered):
            return _clip(line.strip(), 160)
    return None


def _exit_text(code: int | None) -> str:
    if code is None:
        return "did not report an exit code"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _stderr_text(outcome: Outcome) -> str:
    tail = [line.strip() for line in outcome.stderr_tail][-3:]
    return f": {_clip(' | '.join(tail), 300)}" if tail else ""


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]
