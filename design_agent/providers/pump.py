"""The read loop of one CLI process: pipes in, parser events out, timeouts enforced.

A reader thread of its own runs one selector over stdin (the prompt is
written as the CLI reads it, so a large prompt cannot deadlock against a full
stdout pipe), stdout, stderr, a wake-up pipe for `request_stop` and, on
Linux, a pidfd that becomes readable when the CLI exits. It hands the parsed
events to the consumer through an unbounded queue, so however slowly the
answer is shown, the CLI is never blocked on a full pipe and the timeouts
measure the CLI's silence, never ours; text past the answer's limit is dropped
before the queue, so a slow consumer never holds more than that. Stopping (cancel or timeout) sends
SIGINT to the group at once, SIGTERM after 0.5 s, SIGKILL after 1 s, and
gives up on the pipes after 1.5 s, so a stop always ends within 2 s.

When the CLI has exited, helpers still holding its pipes get STRAGGLER_GRACE;
then the group is killed and what the pipes hold is read as the end of the
output (a helper that left the group with `setsid` cannot be killed by it,
and must not hold a finished answer).

A stopped run also ends the helpers that left the group (descendants.py): the
reader samples the CLI's descendants while it streams, each stop signal goes
to the sampled ones outside the group too, and once the run is over one pass
over /proc kills whatever of it is left. An answer that finished by itself
leaves them alone: a CLI may keep a daemon of its own on purpose.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from queue import Empty, SimpleQueue

from design_agent.providers.descendants import SAMPLE_EVERY, RunTree, signal_each
from design_agent.providers.events import ParsedEvent, StreamDone, StreamError, TextDelta
from design_agent.providers.lines import ChunkDecoder, LineSplitter, LineTooLongError
from design_agent.providers.parsers.base import StreamParser
from design_agent.providers.process import (
    Spawned,
    guard,
    leader_exited,
    release,
    signal_group,
)
from design_agent.providers.spec import Timeouts

# What stops a turn from outside (cli/signals.py handles them): only ever by the main thread.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

READ_SIZE = 65536
STDERR_KEPT = 40
STDERR_LINE_MAX = 1 << 20
ESCALATION = ((0.5, signal.SIGTERM), (1.0, signal.SIGKILL))
GIVE_UP_AFTER = 1.5
# After the CLI exits, helpers still holding its pipes get this long.
STRAGGLER_GRACE = 0.5
POLL_WITHOUT_PIDFD = 0.05
# Reads of what a straggler left in the pipes, at most, before they are ended.
DRAIN_READS = 64
JOIN_TIMEOUT = 2.0
# The longest a stop signal waits for the main thread to run its handler.
SIGNAL_CHECK = 0.25


@dataclass
class Outcome:
    """What happened, for classification: exit code, stop reason, what the stream said."""

    returncode: int | None = None
    stop_reason: str | None = None
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=STDERR_KEPT))
    notices: deque[str] = field(default_factory=lambda: deque(maxlen=5))
    errors: list[str] = field(default_factory=list)
    result_seen: bool = False
    last_words: str = ""  # the CLI's last notice or stderr line when the stop began
    started_at: float = 0.0
    first_text_at: float | None = None
    ended_at: float | None = None


class StreamPump:
    """Drives one spawned CLI to its end; iterate `events()` once."""

    def __init__(
        self,
        spawned: Spawned,
        parser: StreamParser,
        timeouts: Timeouts,
        stdin: bytes,
        stall_signatures: list[str] | None = None,
        text_limit: int | None = None,
    ) -> None:
        self._spawned = spawned
        # Text past what the consumer keeps is read and dropped here, not queued: a consumer
        # slowed by a busy machine would otherwise hold the whole answer in the queue.
        self._text_left = text_limit if text_limit is not None else -1
        self._stalls = [s.casefold() for s in stall_signatures or []]
        self.pgid = spawned.pgid
        self._tree = RunTree(spawned.proc.pid, spawned.run_id)
        self._parser = parser
        self._timeouts = timeouts
        self._stdin = memoryview(stdin)
        self._out = LineSplitter() if parser.framing == "lines" else ChunkDecoder()
        self._err = LineSplitter(max_line=STDERR_LINE_MAX)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self.outcome = Outcome(started_at=time.monotonic())
        self._last_out = self.outcome.started_at
        self._stop_at: float | None = None
        self._signals_sent = 0
        self._leader_done_at: float | None = None
        self._straggler_killed = False
        self._pipes_closed_at: float | None = None
        self._open = 0
        self._closed = False
        self._stopping = threading.Lock()  # taken once, by the first request_stop
        self._queue: SimpleQueue[list[ParsedEvent] | None] = SimpleQueue()
        self._abandoned = False
        self._failure: BaseException | None = None

    # -- stopping (safe from a signal handler or another thread) -----------------

    def request_stop(self, reason: str) -> None:
        """Begin stopping: SIGINT to the group now; the loop escalates from there."""
        if self._closed or not self._stopping.acquire(blocking=False):
            return
        self.outcome.stop_reason = reason
        said = [*self.outcome.notices] or [*self.outcome.stderr_tail] or [""]
        self.outcome.last_words = said[-1]
        self._stop_at = time.monotonic()
        self._tree.sample(force=True)  # before the CLI dies and its helpers go to init
        self._signal(signal.SIGINT)
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"!")

    def _signal(self, sig: int) -> None:
        """`sig` to the group and to the sampled helpers that left it."""
        signal_group(self._spawned.pgid, sig)
        signal_each(self._tree.detached(self._spawned.pgid), sig)

    # -- the loop ---------------------------------------------------------------

    def events(self) -> Iterator[ParsedEvent]:
        """The CLI's parsed events, read by a thread of their own; leaving the loop
        early kills the group."""
        reader = threading.Thread(target=self._read_all, name="provider-reader", daemon=True)
        reader.start()
        try:
            while (batch := self._next_batch()) is not None:
                yield from batch
            if self._failure is not None:
                raise self._failure
        finally:
            self._abandoned = True
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"!")
            reader.join(JOIN_TIMEOUT)
            self.close()

    def _next_batch(self) -> list[ParsedEvent] | None:
        """The reader's next batch. Waited for in slices: a signal's Python handler (Ctrl-C
        cancels the turn) runs only when the main thread runs Python code, and a signal the
        kernel gave another thread (a timer's, a reaper's) does not end a blocked wait."""
        while True:
            with contextlib.suppress(Empty):
                return self._queue.get(timeout=SIGNAL_CHECK)

    def _read_all(self) -> None:
        """The reader thread: the loop, its events queued in batches, then None."""
        # Ctrl-C, SIGTERM and SIGHUP must reach the main thread, whose handler cancels the
        # turn. Delivered to this thread, one only sets a flag for the main thread, which
        # waits on the queue and would never see it: the turn would go on (a rare hang).
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            selector = self._register()
            try:
                self._loop(selector)
            finally:
                selector.close()
        except BaseException as e:  # handed to the consumer, raised there
            self._failure = e
        finally:
            self._queue.put(None)

    def _loop(self, selector: selectors.BaseSelector) -> None:
        while (self._open or self._leader_done_at is None) and not self._gave_up():
            if self._abandoned:
                return
            batch: list[ParsedEvent] = []
            for key, _ in selector.select(self._wait_time()):
                batch.extend(self._handle(selector, key))
            if self._check_timers():
                batch.extend(self._drain(selector))
            if self._leader_done_at is None:
                self._tree.sample()  # at most every SAMPLE_EVERY: a few reads of /proc
            if batch:
                self._queue.put(batch)

    def _register(self) -> selectors.BaseSelector:
        proc = self._spawned.proc
        assert proc.stdin and proc.stdout and proc.stderr
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ, "out")
        selector.register(proc.stderr, selectors.EVENT_READ, "err")
        selector.register(self._wake_r, selectors.EVENT_READ, "wake")
        if self._spawned.pidfd is not None:
            selector.register(self._spawned.pidfd, selectors.EVENT_READ, "exit")
        self._open = 2
        if self._stdin:
            selector.register(proc.stdin, selectors.EVENT_WRITE, "in")
        else:
            proc.stdin.close()
            guard(self._spawned)
        return selector

    def _handle(
        self, selector: selectors.BaseSelector, key: selectors.SelectorKey
    ) -> Iterator[ParsedEvent]:
        tag = key.data
        if tag == "out":
            yield from self._read_stdout(selector, key)
        elif tag == "err":
            self._read_stderr(selector, key)
        elif tag == "in":
            self._write_stdin(selector, key)
        elif tag == "wake":
            os.read(self._wake_r, 512)
        elif tag == "exit":
            selector.unregister(key.fileobj)
            self._leader_done_at = time.monotonic()

    def _read_stdout(
        self, selector: selectors.BaseSelector, key: selectors.SelectorKey
    ) -> Iterator[ParsedEvent]:
        yield from self._feed_stdout(selector, key, os.read(key.fd, READ_SIZE))

    def _feed_stdout(
        self, selector: selectors.BaseSelector, key: selectors.SelectorKey, chunk: bytes
    ) -> Iterator[ParsedEvent]:
        """Parse a chunk of stdout; an empty one is its end."""
        self._last_out = time.monotonic()
        try:
            items = self._out.feed(chunk) if chunk else self._out.flush()
        except LineTooLongError:
            # Closing our end makes the CLI's next write fail; then stop it.
            self._out = LineSplitter()
            self._close_pipe(selector, key)
            key.fileobj.close()  # type: ignore[union-attr]
            self.request_stop("overflow")
            return
        if not chunk:
            self._close_pipe(selector, key)
        for item in items:
            for event in self._parser.feed(item):
                if self._wanted(self._note(event)):
                    yield event
        if not chunk:
            for event in self._parser.end():
                if self._wanted(self._note(event)):
                    yield event

    def _wanted(self, event: ParsedEvent) -> bool:
        """Whether `event` goes to the consumer: all but text past the text limit (the first
        text that crosses it goes, so the consumer sees the answer was cut)."""
        if not isinstance(event, TextDelta) or self._text_left < 0:
            return True
        if self._text_left == 0:
            return False
        self._text_left = max(0, self._text_left - len(event.text))  # chars <= UTF-8 bytes
        return True

    def _note(self, event: ParsedEvent) -> ParsedEvent:
        outcome = self.outcome
        if isinstance(event, TextDelta) and outcome.first_text_at is None:
            outcome.first_text_at = time.monotonic()
        elif isinstance(event, StreamDone):
            outcome.result_seen = True
        elif isinstance(event, StreamError):
            (outcome.errors if event.terminal else outcome.notices).append(event.message)
            self._check_stall(event.message)
        return event

    def _check_stall(self, message: str) -> None:
        folded = message.casefold()
        if any(signature in folded for signature in self._stalls):
            self.request_stop("stalled")

    def _read_stderr(self, selector: selectors.BaseSelector, key: selectors.SelectorKey) -> None:
        self._feed_stderr(selector, key, os.read(key.fd, READ_SIZE))

    def _feed_stderr(
        self, selector: selectors.BaseSelector, key: selectors.SelectorKey, chunk: bytes
    ) -> None:
        try:
            lines = self._err.feed(chunk) if chunk else self._err.flush()
        except LineTooLongError:
            self._err = LineSplitter(max_line=STDERR_LINE_MAX)
            lines = ["[a stderr line longer than 1 MB was dropped]"]
        if not chunk:
            self._close_pipe(selector, key)
        for line in lines:
            if line.strip():
                self.outcome.stderr_tail.append(line if len(line) <= 500 else line[:500] + "…")
                self._check_stall(line)

    def _write_stdin(self, selector: selectors.BaseSelector, key: selectors.SelectorKey) -> None:
        try:
            written = os.write(key.fd, self._stdin[:READ_SIZE])
        except BlockingIOError:
            return
        except OSError:  # the CLI exited or closed stdin without reading it all
            written = len(self._stdin)
        self._stdin = self._stdin[written:]
        if not self._stdin:
            selector.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
            guard(self._spawned)  # the prompt is in: now the watchdog, off the CLI's way

    def _close_pipe(self, selector: selectors.BaseSelector, key: selectors.SelectorKey) -> None:
        selector.unregister(key.fileobj)
        self._open -= 1
        if not self._open:
            self._pipes_closed_at = time.monotonic()

    # -- time -------------------------------------------------------------------

    def _deadline(self) -> tuple[float, str]:
        """The next moment a timeout fires, and its name."""
        t, outcome = self._timeouts, self.outcome
        candidates = [(outcome.started_at + t.total, "total")]
        if outcome.first_text_at is None:
            candidates.append((outcome.started_at + t.first_output, "first_output"))
        else:
            candidates.append((self._last_out + t.idle, "idle"))
        return min(candidates)

    def _wait_time(self) -> float:
        now = time.monotonic()
        if self._stop_at is not None:
            steps = [self._stop_at + d for d, _ in ESCALATION] + [self._stop_at + GIVE_UP_AFTER]
            upcoming = [s for s in steps if s > now]
            wait = (min(upcoming) if upcoming else now) - now
        else:
            wait = self._deadline()[0] - now
        if self._leader_done_at is not None and self._open:
            wait = min(wait, self._leader_done_at + STRAGGLER_GRACE - now)
        if self._pipes_closed_at is not None and self._leader_done_at is None:
            wait = min(wait, self._pipes_closed_at + STRAGGLER_GRACE - now)
        if self._spawned.pidfd is None:
            wait = min(wait, POLL_WITHOUT_PIDFD)
        if self._leader_done_at is None:
            wait = min(wait, SAMPLE_EVERY)  # a silent CLI's helpers are sampled too
        return max(wait, 0.0)

    def _check_timers(self) -> bool:
        """Escalate a stop, fire a timeout; True when the pipes must be drained and ended."""
        now = time.monotonic()
        no_pidfd = self._spawned.pidfd is None
        if self._leader_done_at is None and no_pidfd and leader_exited(self._spawned.proc.pid):
            self._leader_done_at = now
        if self._stop_at is not None:
            self._escalate(now)
        else:
            when, name = self._deadline()
            if now >= when:
                self.request_stop(name)
        return self._check_lingering(now)

    def _check_lingering(self, now: float) -> bool:
        leader_done, closed = self._leader_done_at, self._pipes_closed_at
        stuck = leader_done is not None and self._open and now >= leader_done + STRAGGLER_GRACE
        if stuck and not self._straggler_killed:
            # The CLI exited but a helper keeps its pipes open: end the helper.
            self._straggler_killed = True
            signal_group(self._spawned.pgid, signal.SIGKILL)
        if closed is not None and leader_done is None and now >= closed + STRAGGLER_GRACE:
            self.request_stop("linger")  # output closed, yet the CLI does not exit
        return bool(stuck)

    def _drain(self, selector: selectors.BaseSelector) -> list[ParsedEvent]:
        """Read what the pipes hold now, then end them as if closed: the CLI has exited,
        and a helper outside its group (out of reach of the group kill) keeps them open."""
        events: list[ParsedEvent] = []
        for key in list(selector.get_map().values()):
            if key.data not in ("out", "err"):
                continue
            os.set_blocking(key.fd, False)
            for _ in range(DRAIN_READS):
                try:
                    chunk = os.read(key.fd, READ_SIZE)
                except BlockingIOError:
                    break
                if not chunk:
                    break
                events += self._feed(selector, key, chunk)
            if key.fd in selector.get_map():
                events += self._feed(selector, key, b"")
        return events

    def _feed(
        self, selector: selectors.BaseSelector, key: selectors.SelectorKey, chunk: bytes
    ) -> list[ParsedEvent]:
        if key.data == "out":
            return list(self._feed_stdout(selector, key, chunk))
        self._feed_stderr(selector, key, chunk)
        return []

    def _escalate(self, now: float) -> None:
        assert self._stop_at is not None
        for index, (delay, sig) in enumerate(ESCALATION):
            if self._signals_sent <= index and now >= self._stop_at + delay:
                self._signals_sent = index + 1
                self._signal(sig)

    def _gave_up(self) -> bool:
        return self._stop_at is not None and time.monotonic() >= self._stop_at + GIVE_UP_AFTER

    # -- the end ----------------------------------------------------------------

    def close(self) -> None:
        """Kill whatever is left of the group, reap the CLI, close every descriptor."""
        if self._closed:
            return
        self._closed = True
        proc = self._spawned.proc
        if self.outcome.stop_reason is not None or self._leader_done_at is None:
            # Stopped, or left before the CLI ended: whatever the run started goes too.
            signal_each(self._tree.strays(), signal.SIGKILL)
        # The leader is not reaped yet, so its pid still names only this group.
        signal_group(self._spawned.pgid, signal.SIGKILL)
        try:
            self.outcome.returncode = proc.wait(timeout=0.4)
        except subprocess.TimeoutExpired:  # stuck in the kernel: report no exit code
            self.outcome.returncode = None
        release(self._spawned)  # the group is gone: its watchdog must not fire later
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        for fd in (self._wake_r, self._wake_w, self._spawned.pidfd):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.outcome.ended_at = time.monotonic()
