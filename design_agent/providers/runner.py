"""Run one request through one provider: `run = start(spec, request, settings)`.

The run spawns nothing until it is iterated. Iterating yields, as they
happen: `TierChosen`, then `TextDelta` / `Usage` events, and always a final
`Done` with the whole text. How a run ends:

- success: `Done(status="ok")`.
- cancel(): `Done(status="cancelled")` with the partial text; nothing is
  raised (the caller asked for it).
- failure: `ProviderFailure`, then `Done(status="failed")` with the partial
  text, then the typed error from design_agent.core.errors is raised
  (ProviderNotInstalledError ... ProviderOutputError; exit codes 4 and 5).

`cancel()` may be called from a signal handler or another thread at any
time. A `RunGroup` cancels the runs started in its scope and no others (one
turn's, in a server that runs several turns at once; a signal cancels the
turn's group).
Stopping the iteration early (break, close) kills the process group at
once. The offline provider (`offline.OfflineRun`) follows the same contract.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from design_agent.core.errors import (
    ProviderCrashedError,
    ProviderError,
)
from design_agent.core.fsutil import FILE_MODE
from design_agent.core.settings import Settings
from design_agent.providers.argv import (
    SYSTEM_PROMPT_FILE_NAME,
    Invocation,
    build_invocation,
    choose_model,
)
from design_agent.providers.classify import RunFacts, classify
from design_agent.providers.environment import child_environment
from design_agent.providers.events import (
    ParsedEvent,
    RunEvent,
    TextDelta,
    Usage,
)
from design_agent.providers.offline import OfflineRun
from design_agent.providers.parsers import make_parser
from design_agent.providers.parsers.base import StreamParser
from design_agent.providers.process import spawn
from design_agent.providers.pump import StreamPump
from design_agent.providers.request import ProviderRequest
from design_agent.providers.resolve import BinaryLookup, find_binary, not_installed_error
from design_agent.providers.run import ANSWER_LIMIT_BYTES, BaseRun, ProviderRun
from design_agent.providers.scratch import make_scratch, remove_stale
from design_agent.providers.spec import AdapterSpec


def start(
    spec: AdapterSpec,
    request: ProviderRequest,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
) -> ProviderRun:
    """A run of `request` through `spec`'s provider (not started until iterated)."""
    if spec.is_offline:
        run: ProviderRun = OfflineRun(spec, request)
    else:
        run = CliRun(spec, request, find_binary(spec, settings, environ))
    group = getattr(_SCOPE, "group", None)
    if group is not None:
        group.add(run)
    return run


class RunGroup:
    """The runs started on one thread while the group is in scope (one turn's runs).

    `cancel()` stops them and no other run of the process, and cancels at
    once any run the scope starts afterwards (until `reset()`).
    """

    def __init__(self) -> None:
        self._runs: weakref.WeakSet[ProviderRun] = weakref.WeakSet()
        self._lock = threading.Lock()
        self.cancelled = False

    def add(self, run: ProviderRun) -> None:
        with self._lock:
            self._runs.add(run)
            cancelled = self.cancelled
        if cancelled:
            run.cancel()

    def cancel(self) -> None:
        """Cancel every run of the group (safe from a signal handler or another thread)."""
        self.cancelled = True
        for run in list(self._runs):
            run.cancel()

    def reset(self) -> None:
        """Forget the runs and the cancel: the next turn starts clean."""
        with self._lock:
            self._runs = weakref.WeakSet()
            self.cancelled = False

    @contextmanager
    def scope(self) -> Iterator[None]:
        """While the block runs, `start()` on this thread adds its runs to the group."""
        previous = getattr(_SCOPE, "group", None)
        _SCOPE.group = self
        try:
            yield
        finally:
            _SCOPE.group = previous


_SCOPE = threading.local()


def scope_cancelled() -> bool:
    """Whether the run group in scope on this thread was cancelled: the turn was (Ctrl-C, a
    cancel from the web page), as opposed to one run that timed out or failed."""
    group: RunGroup | None = getattr(_SCOPE, "group", None)
    return group is not None and group.cancelled


class CliRun(BaseRun):
    """A request answered by an AI CLI subprocess."""

    def __init__(self, spec: AdapterSpec, request: ProviderRequest, lookup: BinaryLookup) -> None:
        super().__init__(spec, request, choose_model(spec, request))
        self._lookup = lookup
        self._pump: StreamPump | None = None
        self._parser: StreamParser = make_parser(spec.output)
        self.pgid: int | None = None  # the CLI's process group, once spawned

    def cancel(self) -> None:
        """Stop the CLI (SIGINT, SIGTERM, SIGKILL to its group within 2 s); keep the text."""
        self._cancelled = True
        pump = self._pump
        if pump is not None:
            pump.request_stop("cancel")

    def _events(self) -> Iterator[RunEvent]:
        yield self._tier_event()
        if self._lookup.path is None:
            yield from self._fail(not_installed_error(self.spec, self._lookup))
        if self._cancelled:
            yield self._done("cancelled")
            return
        remove_stale()  # left by a design-agent killed with -9
        workdir = make_scratch()
        spawn_error: ProviderError | None = None
        try:
            yield from self._stream(workdir)
        except ProviderError as e:  # raised only while spawning
            spawn_error = e
        finally:
            if self._pump is not None:
                self._pump.close()
            _remove_scratch(workdir)
        if spawn_error is not None:
            yield from self._fail(spawn_error)
        yield from self._finish()

    def _stream(self, workdir: Path) -> Iterator[RunEvent]:
        assert self._lookup.path is not None
        invocation = build_invocation(self.spec, self.request, self._lookup.path, workdir)
        for path, text in invocation.files.items():
            _write_scratch(path, text)
        self._pump = pump = self._spawn(invocation, workdir, self._parser)
        self.pgid = pump.pgid
        if self._cancelled:  # cancel() arrived while we were spawning
            pump.request_stop("cancel")
        for event in pump.events():
            yield from self._public(event)

    def _spawn(self, invocation: Invocation, workdir: Path, parser: StreamParser) -> StreamPump:
        env = child_environment(self.spec, os.environ, invocation.env)
        try:
            spawned = spawn(invocation.argv, env, workdir)
        except (FileNotFoundError, PermissionError) as e:
            raise not_installed_error(self.spec, BinaryLookup(None, "missing")) from e
        except OSError as e:
            message = f"{self.spec.display_name} could not be started ({e}); is it installed right?"
            raise ProviderCrashedError(message, provider=self.spec.name) from e
        spec = self.spec
        return StreamPump(
            spawned,
            parser,
            spec.timeouts,
            invocation.stdin,
            spec.stall_signatures,
            text_limit=ANSWER_LIMIT_BYTES + 1,  # one byte past it: the consumer cuts there
        )

    def _public(self, event: ParsedEvent) -> Iterator[RunEvent]:
        if isinstance(event, TextDelta):
            yield from self._text(event)
        elif isinstance(event, Usage):
            self._usage = event
            yield event

    def _finish(self) -> Iterator[RunEvent]:
        assert self._pump is not None
        outcome, parser = self._pump.outcome, self._parser
        if outcome.stop_reason == "cancel":
            yield self._done("cancelled")
            return
        plain = not parser.needs_result
        facts = RunFacts(
            outcome=outcome,
            needs_result=parser.needs_result,
            format_label=f"{self.spec.output} output",
            valid_lines=parser.valid_lines,
            noise=list(parser.noise_sample),
            has_text=bool(self._texts),
            text_tail=self.partial_text[-500:] if plain and outcome.returncode else "",
        )
        error = classify(self.spec, facts)
        if error is not None:
            yield from self._fail(error, outcome.returncode)
        yield self._done("ok")


def _write_scratch(path: Path, text: str) -> None:
    """Write a file the CLI reads once: private (0600, in a 0700 folder), not fsynced.

    It lives for one run in a fresh scratch folder, so durability buys nothing
    and an fsync would cost milliseconds on every request.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def _remove_scratch(workdir: Path) -> None:
    # Usually only our own file is there: two syscalls instead of a tree walk.
    with contextlib.suppress(OSError):
        (workdir / SYSTEM_PROMPT_FILE_NAME).unlink(missing_ok=True)
        workdir.rmdir()
        return
    shutil.rmtree(workdir, ignore_errors=True)  # the CLI left files in its folder


@contextmanager
def cancel_on_ctrl_c(run: ProviderRun) -> Iterator[None]:
    """While a run streams, Ctrl-C cancels its process group (keeping the partial
    text) instead of raising KeyboardInterrupt; only the main thread gets signals.
    A caller that handles SIGINT itself (the CLI cancels the whole turn) keeps it."""
    own = signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    if own or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: run.cancel())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
