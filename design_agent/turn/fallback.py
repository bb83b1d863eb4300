"""The provider fallback chain: when a turn's provider cannot answer, the next ready one does.

    design-agent config set providers.fallback claude,gemini,codex,offline

Without a chain nothing changes: the provider's error ends the turn. With
one, a turn moves on when its provider (the active one or the turn's own)

- is not installed, or its login probe says it is logged out
  (providers/login.py), before the turn starts; or
- fails before writing any text with "not installed", "not logged in",
  "rate limited" or "quota exhausted" (providers/classify.py).

It moves to the next provider of the chain after it (then wrapping to the
ones before it), skipping those not installed or logged out, each tried at
most once per turn, with one line saying so (a `ProviderFallback` event).
It never moves once text has been shown (the partial answer is kept and
the failure shown, as without a chain), after the user's cancel, or for a
crash or a timeout (which a second provider would not explain). When no
provider is left, the last error is raised, naming every provider tried.
The answer's turn is stored with the provider that answered.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from design_agent.core.errors import (
    ProviderError,
    ProviderNotAuthenticatedError,
    ProviderNotInstalledError,
    ProviderQuotaExhaustedError,
    ProviderRateLimitedError,
)
from design_agent.core.events import ProviderFallback
from design_agent.core.messages import say
from design_agent.providers.events import ProviderFailure
from design_agent.providers.login import provider_ready, remember_logged_out
from design_agent.providers.resolve import find_binary
from design_agent.providers.runner import start
from design_agent.turn.answer_stream import AnswerStream

if TYPE_CHECKING:
    from design_agent.core.settings import Settings
    from design_agent.providers.run import ProviderRun
    from design_agent.providers.spec import AdapterSpec
    from design_agent.turn.request_builder import BuiltRequest
    from design_agent.turn.session import Services

# Checked in order: quota is a kind of rate limit, so it comes first.
REASONS: list[tuple[type[ProviderError], str]] = [
    (ProviderNotInstalledError, "not_installed"),
    (ProviderNotAuthenticatedError, "not_logged_in"),
    (ProviderQuotaExhaustedError, "quota_exhausted"),
    (ProviderRateLimitedError, "rate_limited"),
]
Builder = Callable[["AdapterSpec"], "BuiltRequest"]
Events = Generator[Any, None, Any]


@dataclass
class FallbackChain:
    """One turn's walk along `settings.providers.fallback`.

    `watch` is told of every run started (the pipeline cancels it on Ctrl-C)
    and answers whether the turn was cancelled already.
    """

    services: Services
    settings: Settings
    language: str
    watch: Callable[[ProviderRun | None], bool]
    tried: list[tuple[str, str]] = field(default_factory=list)  # (provider, reason)

    @property
    def names(self) -> list[str]:
        return [n for n in self.settings.providers.fallback if n in self.services.adapters]

    def ready(self, spec: AdapterSpec) -> Events:
        """`spec`, or the first ready provider after it when it is not (one line says so).
        With nobody ready, `spec` itself: its run fails with its own error."""
        if not self.names:
            return spec
        reason, detail = self._not_ready(spec)
        if reason is None:
            return spec
        self.tried.append((spec.name, reason))
        target = self._next_ready(spec.name)
        if target is None:
            return spec
        yield self._moved(spec, target, reason, detail)
        return target

    def answer(self, spec: AdapterSpec, request: BuiltRequest, build: Builder) -> Events:
        """Stream the answer of `spec`, moving along the chain while a provider fails before
        any text; returns (the stream that ended the turn, the request it was sent)."""
        while True:
            stream = self._launch(spec, request)
            held: list[ProviderFailure] = []
            try:
                for event in stream.events():
                    if isinstance(event, ProviderFailure) and self.names:
                        held.append(event)  # shown only if the turn does not move on
                    else:
                        yield event
            finally:
                self.watch(None)
            reason = self._reason(stream)
            target = self._next_ready(spec.name) if reason else None
            if reason is None or target is None:
                yield from held
                self._name_all(stream)
                return stream, request
            assert stream.error is not None
            yield self._moved(spec, target, reason, stream.error.message)
            spec, request = target, build(target)

    # -- the pieces ------------------------------------------------------------------------

    def _launch(self, spec: AdapterSpec, request: BuiltRequest) -> AnswerStream:
        run = start(spec, request.built, self.settings, self.services.environ)
        stream = AnswerStream(run, scan_tags=not spec.is_offline)  # offline: see answer_stream
        if self.watch(run):  # cancelled before the answer began: it never starts
            run.cancel()
        return stream

    def _reason(self, stream: AnswerStream) -> str | None:
        """Why this failed run may move on, or None (no chain, text shown, cancelled...)."""
        error = stream.error
        if not self.names or error is None or stream.status == "cancelled" or self.watch(None):
            return None
        if stream.text or stream.run.partial_text:
            return None  # output has started: the partial answer stays, as without a chain
        reason = next((r for cls, r in REASONS if isinstance(error, cls)), None)
        if reason is not None:
            self.tried.append((stream.provider, reason))
        if reason == "not_logged_in":
            spec = self.services.adapters[stream.provider]
            binary = find_binary(spec, self.settings, self.services.environ).path
            remember_logged_out(spec, binary, self.services.home, error.message[:200])
        return reason

    def _not_ready(self, spec: AdapterSpec) -> tuple[str | None, str]:
        ready, login = provider_ready(
            spec, self.settings, self.services.environ, self.services.home
        )
        if ready:
            return None, ""
        if login is None:
            return "not_installed", f"'{spec.binary}' not found"
        return "not_logged_in", login.detail

    def _next_ready(self, after: str) -> AdapterSpec | None:
        """The first ready provider of the chain after `after` (wrapping), not tried yet."""
        names = self.names
        start_at = names.index(after) + 1 if after in names else 0
        done = {name for name, _ in self.tried} | {after}
        for name in names[start_at:] + names[:start_at]:
            if name in done:
                continue
            spec = self.services.adapters[name]
            skip, _ = self._not_ready(spec)
            if skip is None:
                return spec
            self.tried.append((name, skip))
        return None

    def _moved(
        self, source: AdapterSpec, target: AdapterSpec, reason: str, detail: str
    ) -> ProviderFallback:
        why = say(f"fallback_why_{reason}", self.language)
        line = say("fallback_moved", self.language, source=source.name, why=why, target=target.name)
        return ProviderFallback(
            from_provider=source.name,
            to_provider=target.name,
            reason=reason,  # type: ignore[arg-type]
            detail=detail[:300],
            message=line,
        )

    def _name_all(self, stream: AnswerStream) -> None:
        """When the chain ran out, the last error says which providers were tried."""
        error = stream.error
        first = dict(reversed(self.tried))  # one reason per provider: its first
        if error is None or len(first) < 2 or stream.text:
            return
        names = dict.fromkeys(name for name, _ in self.tried)
        tried = ", ".join(f"{n}: {say(f'fallback_why_{first[n]}', self.language)}" for n in names)
        message = say("fallback_all_failed", self.language, tried=tried, message=error.message)
        stream.error = type(error)(message, provider=error.provider, stderr_tail=error.stderr_tail)
