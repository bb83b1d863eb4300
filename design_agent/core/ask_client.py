"""`ask` through a server, on the client's side: the request, the streamed answer, the
cancel on a signal, the exit code. Standard library only (it runs before click, pydantic
and rich are imported: design_agent/launch/remote_ask.py), and for a team's server from
the CLI's team shell and `login`'s checks too.

The server renders the turn's events for this terminal (design_agent/server/ask_route.py)
and sends newline-delimited JSON frames: `{"turn_id"}`, `{"out"}`, `{"err"}`, `{"end"}`.
A `Target` says where: this home's loopback server (a raw socket from the C module,
~10 ms cheaper than socket.py; a refusal before the turn falls back to the in-process
command), or a team's server at a URL (http or https, as the person logged in with
`design-agent login`; a refusal is said, with its exit code: it never runs locally).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from _socket import AF_INET, SOCK_STREAM
from _socket import socket as Socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from design_agent.core.stdio import (
    PIPE_CLOSED_EXIT,
    output_closed,
    was_output_closed,
    write_nowhere,
)

ASK_PATH = "/api/v1/ask"
CONNECT_TIMEOUT = 0.2
TEAM_CONNECT_TIMEOUT = 10.0  # a team's server is across a network
CANCEL_TIMEOUT = 2.0  # the cancel request itself
CANCEL_WAIT = 10.0  # after a cancel, how long a silent server may keep us
POLL = 0.5  # the stream is read in slices this long, to notice a cancel that went unanswered
# What rich reads from the environment to decide colours, width and tty-ness.
TERMINAL_ENV = (
    *("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"),
    *("COLUMNS", "LINES"),
)
UNEXPECTED = 1  # design_agent.core.errors.ExitCode.UNEXPECTED (that module is not imported here)
UNREACHABLE = 9  # ExitCode.DATABASE_UNAVAILABLE: the team's server could not be reached


class Fallback(Exception):
    """The server cannot take this turn (nothing was shown yet): run it in-process."""


class Refused(Exception):
    """A team's server did not take the turn: what it said, and the exit code to end with."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message, self.exit_code = message, exit_code


@dataclass(frozen=True)
class Target:
    """Where the turn goes. `team`: a team's server (any host, https too): a refusal is
    Refused, never a fallback to the in-process command."""

    host: str
    port: int
    token: str
    tls: bool = False
    team: bool = False

    @classmethod
    def loopback(cls, port: int, token: str) -> Target:
        return cls("127.0.0.1", port, token)

    @classmethod
    def of_url(cls, url: str, token: str) -> Target:
        """The team's server at `url` (http://host[:port] or https://host[:port])."""
        from urllib.parse import urlsplit

        found = urlsplit(url)
        tls = found.scheme == "https"
        return cls(found.hostname or "", found.port or (443 if tls else 80), token, tls, True)

    @property
    def host_header(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.tls else 80
        return shown if self.team and self.port == default else f"{shown}:{self.port}"


def terminal() -> dict[str, object]:
    """What rich would see of this terminal in-process: tty-ness, size, encoding, env."""
    size = None
    for fd in (0, 1, 2):  # rich asks stdin, stdout, stderr in this order
        try:
            size = list(os.get_terminal_size(fd))
        except (AttributeError, ValueError, OSError):
            continue
        break
    return {
        "isatty": _isatty(sys.stdout),
        "size": size,
        "encoding": getattr(sys.stdout, "encoding", None) or "utf-8",
        "env": {name: os.environ[name] for name in TERMINAL_ENV if name in os.environ},
    }


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


class RemoteAsk:
    """One turn through the server: send, stream, cancel on a signal, end like `ask`."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.turn_id: str | None = None
        self.received: list[int] = []  # signals, in order
        self.signalled_at: float | None = None
        self.cancel_sent = False

    def run(self, parsed: dict[str, object]) -> int:
        """The command's exit code; Fallback when the server refused before the turn."""
        body = {**parsed, "cwd": os.getcwd(), "terminal": terminal()}
        previous = {s: signal.signal(s, self._on_signal) for s in _stop_signals()}
        try:
            sock = self._post(ASK_PATH, body, CONNECT_TIMEOUT)
            try:
                return self._stream(HttpReader(sock, self._waited_too_long))
            finally:
                sock.close()
        except (Fallback, Refused):
            if not self.received:
                raise
            _write(sys.stderr, "Cancelled.\n")  # as the CLI edge says it before a turn
            return 128 + (self._signum() or signal.SIGINT)
        finally:
            ending = bool(self.received)  # ask ends after this turn: a late signal changes nothing
            for sig, handler in previous.items():
                signal.signal(sig, signal.SIG_IGN if ending else handler)

    def _post(self, path: str, body: dict[str, object], timeout: float) -> Any:
        target = self.target
        data = json.dumps(body).encode("utf-8")
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {target.host_header}\r\n"
            f"Authorization: Bearer {target.token}\r\nContent-Type: application/json\r\n"
            f"X-Design-Agent: 1\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n"
        )
        try:
            sock = _connect(target, timeout)
        except OSError as e:
            if target.team:
                raise Refused(
                    f"cannot reach the team's server {target.host_header} ({e.strerror or e}); "
                    "nothing was sent: try again, or design-agent logout to ask on this "
                    "computer's own home",
                    UNREACHABLE,
                ) from e
            raise Fallback from e
        try:
            sock.settimeout(None)  # the answer may take minutes: the pipeline decides
            sock.sendall(head.encode("latin-1") + data)
        except OSError as e:
            sock.close()
            if target.team:
                raise Refused(f"the team's server closed the connection ({e})", UNREACHABLE) from e
            raise Fallback from e
        return sock

    def _stream(self, reader: HttpReader) -> int:
        if reader.status != 200 and self.target.team:
            raise _refusal(reader)
        if reader.status != 200:
            raise Fallback  # refused (busy project, old token): nothing was shown yet
        for line in reader.lines():
            frame = json.loads(line)
            if "turn_id" in frame:
                self.turn_id = str(frame["turn_id"])
                if self.received:
                    self._cancel()
            elif "out" in frame:
                _write(sys.stdout, frame["out"])
            elif "err" in frame:
                _write(sys.stderr, frame["err"])
            elif "end" in frame:
                return self._end(frame["end"])
        if self.received:  # cancelled, and the server went silent: end as the signal says
            return self._end({"exit": 1, "error": None, "cancelled": True})
        from design_agent.core.messages import say  # only on this rare path: it imports typing

        return self._end({"exit": 1, "error": say("ask_server_gone", "en")})

    def _end(self, end: dict[str, object]) -> int:
        """Print the error line the CLI edge prints and return the exit code; a signal that
        came makes a finished or cancelled turn end as cancelled (cli/signals.py)."""
        error, code = end.get("error"), end.get("exit")
        code = code if isinstance(code, int) else UNEXPECTED
        signum = self._signum()
        if signum is not None and (error is None or end.get("cancelled")):
            error = error or f"stopped by {signal.Signals(signum).name}"
            code = 128 + signum
        if error:
            _write(sys.stderr, f"Error: {error}\n")
        if code == 0 and was_output_closed():  # saved, but nobody read all of it
            return PIPE_CLOSED_EXIT
        return code

    def _signum(self) -> int | None:
        ending = [s for s in self.received if s != signal.SIGINT]
        first = ending or self.received
        return first[0] if first else None

    def _on_signal(self, signum: int, frame: object) -> None:
        if signum == getattr(signal, "SIGHUP", None) and signum not in self.received:
            write_nowhere()  # the terminal is gone
        self.received.append(signum)
        self.signalled_at = self.signalled_at or time.monotonic()
        if self.turn_id is not None:
            self._cancel()

    def _cancel(self) -> None:
        """Ask the server to cancel the turn (once); the stream then brings its end."""
        if self.cancel_sent or self.turn_id is None:
            return
        self.cancel_sent = True
        try:
            sock = self._post(f"/api/v1/turns/{self.turn_id}/cancel", {}, CANCEL_TIMEOUT)
        except (Fallback, Refused):
            return  # the stream's end, or its silence, says the rest
        try:
            sock.settimeout(CANCEL_TIMEOUT)
            sock.recv(1024)
        except OSError:
            pass
        finally:
            sock.close()

    def _waited_too_long(self) -> bool:
        """A signal came CANCEL_WAIT seconds ago and the turn has not ended yet."""
        since = self.signalled_at
        return since is not None and time.monotonic() - since > CANCEL_WAIT


def _connect(target: Target, timeout: float) -> Any:
    """A connected socket: a raw one to this home's loopback server (the C module's), or to
    a team's server (socket.py: names resolved; TLS for https)."""
    if not target.team:
        sock = Socket(AF_INET, SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect((target.host, target.port))
        except OSError:
            sock.close()
            raise
        return sock
    import socket

    plain = socket.create_connection((target.host, target.port), timeout=timeout)
    if not target.tls:
        return plain
    import ssl

    try:
        return ssl.create_default_context().wrap_socket(plain, server_hostname=target.host)
    except OSError:
        plain.close()
        raise


def _refusal(reader: HttpReader) -> Refused:
    """What a team's server said instead of taking the turn (its error and exit code)."""
    body = b"".join(reader.lines())
    try:
        error = json.loads(body)["error"]
        return Refused(str(error["message"]), int(error.get("exit_code") or UNEXPECTED))
    except (ValueError, KeyError, TypeError):
        return Refused(f"the team's server answered HTTP {reader.status}", UNEXPECTED)


def _stop_signals() -> list[int]:
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return [getattr(signal, name) for name in names if hasattr(signal, name)]


def _write(stream: object, text: object) -> None:
    try:
        stream.write(str(text))  # type: ignore[attr-defined]
        stream.flush()  # type: ignore[attr-defined]
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): go on quietly, as the CLI edge does.
        if stream is sys.stdout:
            output_closed()
        else:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())  # type: ignore[attr-defined]
    except OSError:
        pass  # the terminal was closed: the turn goes on to be saved


class HttpReader:
    """The response on a socket: status and headers, then the body's lines (chunked or not).

    The socket is read in slices of POLL seconds, so that `give_up` (asked after each
    silent slice) can end a wait for a server that no longer answers."""

    def __init__(self, sock: Socket, give_up: Callable[[], bool]) -> None:
        self._sock = sock
        self._give_up = give_up
        self._buffer = b""
        sock.settimeout(POLL)
        parts = self._read_line().split()
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        self.headers: dict[str, str] = {}
        while line := self._read_line():
            name, _, value = line.decode("latin-1").partition(":")
            self.headers[name.strip().lower()] = value.strip()

    def lines(self) -> Iterator[bytes]:
        """The body's non-empty lines, each as soon as it is whole."""
        pending = b""
        for piece in self._body():
            pending += piece
            *whole, pending = pending.split(b"\n")
            yield from (line for line in whole if line.strip())
        if pending.strip():
            yield pending

    def _body(self) -> Iterator[bytes]:
        if "chunked" not in self.headers.get("transfer-encoding", "").lower():
            while data := self._take():
                yield data
            return
        while size_line := self._read_line():
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                return
            while len(self._buffer) < size + 2 and (data := self._recv()):
                self._buffer += data
            chunk, self._buffer = self._buffer[:size], self._buffer[size + 2 :]
            yield chunk

    def _read_line(self) -> bytes:
        while b"\r\n" not in self._buffer:
            data = self._recv()
            if not data:
                line, self._buffer = self._buffer, b""
                return line
            self._buffer += data
        line, _, self._buffer = self._buffer.partition(b"\r\n")
        return line

    def _take(self) -> bytes:
        data, self._buffer = self._buffer or self._recv(), b""
        return data

    def _recv(self) -> bytes:
        """The next bytes; b"" at the end, or when the wait is given up."""
        while True:
            try:
                return self._sock.recv(65536)
            except TimeoutError:
                if self._give_up():
                    return b""
            except OSError:
                return b""
