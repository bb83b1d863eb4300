"""What every provider run is: the ProviderRun protocol and the BaseRun both runs build on.

The CLI runner (runner.py) and the offline provider (offline.py) both
subclass BaseRun; keeping it here, below both, means neither imports the
other's module to share it.

The answer kept is capped at ANSWER_LIMIT_BYTES: past it, text is dropped
(the CLI's output is still read to the end, so it is never blocked on a
full pipe) and the answer ends with a note in the user's language; the
final `Done` says `truncated`. Without the cap a 50 MB answer took a gigabyte
of memory on its way to the terminal and the database.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Protocol

from design_agent.core.errors import (
    ProviderError,
    ProviderNotAuthenticatedError,
    ProviderNotInstalledError,
    ProviderOutputError,
    ProviderRateLimitedError,
    ProviderTimeoutError,
)
from design_agent.core.messages import say
from design_agent.providers.events import (
    Done,
    FailureKind,
    ProviderFailure,
    RunEvent,
    Status,
    TextDelta,
    TierChosen,
    Usage,
)
from design_agent.providers.request import ProviderRequest
from design_agent.providers.spec import AdapterSpec

ANSWER_LIMIT_BYTES = 2 * 1024 * 1024
ANSWER_LIMIT_LABEL = "2 MB"
FAILURE_KINDS: list[tuple[type[ProviderError], FailureKind]] = [
    (ProviderNotInstalledError, "not_installed"),
    (ProviderNotAuthenticatedError, "not_authenticated"),
    (ProviderRateLimitedError, "rate_limited"),
    (ProviderTimeoutError, "timed_out"),
    (ProviderOutputError, "bad_output"),
    (ProviderError, "crashed"),
]


class ProviderRun(Protocol):
    """What `start` returns, for the CLI providers and the offline one alike."""

    provider: str
    model: str | None

    def __iter__(self) -> Iterator[RunEvent]: ...

    def cancel(self) -> None: ...

    @property
    def partial_text(self) -> str: ...

    @property
    def result(self) -> Done | None: ...


class BaseRun:
    """What every run shares: text so far, usage, timing, the end events."""

    def __init__(self, spec: AdapterSpec, request: ProviderRequest, model: str | None) -> None:
        self.spec = spec
        self.request = request
        self.provider = spec.name
        self.model = model
        self._texts: list[str] = []
        self._kept_bytes = 0
        self.truncated = False  # the answer passed ANSWER_LIMIT_BYTES and was cut
        self._usage: Usage | None = None
        self._result: Done | None = None
        self._cancelled = False
        self._iterated = False
        self._started = time.monotonic()
        self._first_token: float | None = None

    @property
    def partial_text(self) -> str:
        """Everything the answer said so far (the whole text once done)."""
        return "".join(self._texts)

    @property
    def result(self) -> Done | None:
        """The final Done event, once the run has ended."""
        return self._result

    def __iter__(self) -> Iterator[RunEvent]:
        if self._iterated:
            raise RuntimeError("a provider run can be iterated only once")
        self._iterated = True
        self._started = time.monotonic()
        return self._events()

    def _events(self) -> Iterator[RunEvent]:
        raise NotImplementedError

    def _tier_event(self) -> TierChosen:
        request = self.request
        reason = request.tier_reason or f"{request.tier} tier requested"
        return TierChosen(
            provider=self.provider, tier=request.tier, model=self.model, reason=reason
        )

    def _text(self, delta: TextDelta) -> Iterator[TextDelta]:
        """Keep and pass on `delta` while the answer fits ANSWER_LIMIT_BYTES; cut it once."""
        if self._first_token is None:
            self._first_token = time.monotonic() - self._started
        if self.truncated:
            return
        room = ANSWER_LIMIT_BYTES - self._kept_bytes
        text = delta.text
        size = len(text) if text.isascii() else len(text.encode("utf-8"))
        if size <= room:
            self._kept_bytes += size
            self._texts.append(delta.text)
            yield delta
            return
        self.truncated = True
        head = delta.text.encode("utf-8")[:room].decode("utf-8", errors="ignore")
        note = "\n\n" + say("answer_cut", self.request.language, size=ANSWER_LIMIT_LABEL)
        for piece in (head, note):
            if piece:
                self._texts.append(piece)
                yield TextDelta(text=piece)

    def _done(self, status: Status) -> Done:
        self._result = Done(
            provider=self.provider,
            model=self.model,
            status=status,
            text=self.partial_text,
            usage=self._usage,
            seconds=round(time.monotonic() - self._started, 4),
            first_token_seconds=None if self._first_token is None else round(self._first_token, 4),
            truncated=self.truncated,
        )
        return self._result

    def _fail(self, error: ProviderError, returncode: int | None = None) -> Iterator[RunEvent]:
        """Yield the failure and the final Done, then raise `error`."""
        kind = next(k for cls, k in FAILURE_KINDS if isinstance(error, cls))
        yield ProviderFailure(
            provider=self.provider,
            error=kind,
            message=error.message,
            exit_code=int(error.exit_code),
            returncode=returncode,
            stderr_tail=error.stderr_tail,
        )
        yield self._done("failed")
        raise error
