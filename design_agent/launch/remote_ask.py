"""`design-agent ask` through a running server: the fast path, standard library only.

A fresh process that imports pydantic, rich, click and rapidfuzz pays
~250 ms before the first token. When `design-agent serve` runs for this home,
`ask` instead sends the turn to it and writes what comes back: the server runs
the same validation and pipeline and renders the events with the same
TurnView, for this terminal's width, tty-ness and colours (see
design_agent/server/ask_route.py), so stdout, stderr and the exit code are
what the in-process `ask` gives.

The fast path is taken only for the `ask` forms parsed here, and only when
server.json in the home is fresh: same version, same environment fingerprint
(design_agent.core.server_env), a live pid and a port that accepts a connection
within 0.2 s. Anything else returns None and the normal command runs, without
a word. Nothing here may import beyond the standard library (a test checks).

Every millisecond here is the user's: HTTP is spoken over the C socket module
(http.client costs ~50 ms to import, socket.py ~10 ms for its enums and
selectors), and the fingerprint's sha256 comes from the built-in one, not
OpenSSL's (server_env).
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
import time
from _socket import AF_INET, SOCK_STREAM
from _socket import socket as Socket
from collections.abc import Callable, Iterator

from design_agent import __version__
from design_agent.core.server_env import environment_fingerprint
from design_agent.core.stdio import (
    PIPE_CLOSED_EXIT,
    input_text,
    output_closed,
    was_output_closed,
    write_nowhere,
)

ASK_PATH = "/api/v1/ask"
CONNECT_TIMEOUT = 0.2
CANCEL_TIMEOUT = 2.0  # the cancel request itself
CANCEL_WAIT = 10.0  # after a cancel, how long a silent server may keep us
POLL = 0.5  # the stream is read in slices this long, to notice a cancel that went unanswered
LOOPBACK = ("127.0.0.1", "localhost", "0.0.0.0")
# What rich reads from the environment to decide colours, width and tty-ness.
TERMINAL_ENV = (
    *("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"),
    *("COLUMNS", "LINES"),
)
VALUE_OPTIONS = {
    "--project": "project",
    "-p": "project",
    "--provider": "provider",
    "--tier": "tier",
    "--from": "from_turn",
    "--branch": "branch",
}
FLAGS = {
    "--json": "as_json",
    "--events": "events",
    "--continue": "continuing",
    "--over-budget": "over_budget",
}
TIERS = (None, "fast", "deep")
UNEXPECTED = 1  # design_agent.core.errors.ExitCode.UNEXPECTED (that module is not imported here)


class Fallback(Exception):
    """The server cannot take this turn (nothing was shown yet): run it in-process."""


def main(argv: list[str]) -> int | None:
    """The exit code of `ask` run through a server, or None to run the normal command."""
    parsed = parse_argv(argv)
    if parsed is None:
        return None
    flag = parsed.pop("home")
    home = resolve_home(flag if isinstance(flag, str) else None)
    server = fresh_server(home) if home else None
    if server is None:
        return None
    message = parsed["message"]
    if message in (None, "-"):
        if sys.stdin is None or sys.stdin.isatty():
            return None  # the normal command says how to give a message (or that fd 0 is closed)
        parsed["message"] = text = input_text(sys.stdin.read())
        sys.stdin = io.StringIO(text)  # for the normal command, if it runs after all
    elif isinstance(message, str):
        parsed["message"] = input_text(message)
    try:
        return RemoteAsk(server).run(parsed)
    except Fallback:
        return None


def parse_argv(argv: list[str]) -> dict[str, object] | None:
    """`[--home H] ask [MESSAGE|-] [options]` as a dict; None for any other form."""
    home: str | None = None
    index = 0
    while index < len(argv) and argv[index] != "ask":
        token = argv[index]
        if token == "--home" and index + 1 < len(argv):
            home, index = argv[index + 1], index + 2
        elif token.startswith("--home="):
            home, index = token[len("--home=") :], index + 1
        else:
            return None
    if index >= len(argv) or home == "":
        return None
    parsed = _parse_ask(argv[index + 1 :])
    if parsed is not None:
        parsed["home"] = home
    return parsed


def _parse_ask(args: list[str]) -> dict[str, object] | None:
    parsed: dict[str, object] = {flag: False for flag in FLAGS.values()}
    positional: list[str] = []
    rest = iter(args)
    for token in rest:
        name, equals, value = token.partition("=") if token.startswith("--") else (token, "", "")
        if token == "--":
            positional += list(rest)
        elif name in FLAGS and not equals:
            parsed[FLAGS[name]] = True
        elif name in VALUE_OPTIONS:
            value = value if equals else next(rest, "-")
            if value.startswith("-"):
                return None  # a missing value, or one click might read otherwise
            parsed[VALUE_OPTIONS[name]] = value
        elif token.startswith("-p") and not token.startswith("--"):
            parsed["project"] = token[2:]
        elif token.startswith("-") and token != "-":
            return None  # --file, --show-prompt, --help, --no-server, anything unknown
        else:
            positional.append(token)
    if len(positional) > 1 or parsed.get("tier") not in TIERS:
        return None
    parsed["message"] = positional[0] if positional else None
    return parsed


def resolve_home(flag: str | None) -> str | None:
    """design_agent.core.paths.resolve_home without platformdirs (None when unsure)."""
    chosen = flag or os.environ.get("DESIGN_AGENT_HOME")
    if chosen:
        return os.path.realpath(os.path.expanduser(chosen))
    if sys.platform != "linux":
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "design-agent")
    home = os.environ.get("HOME", "")
    if not home.startswith("/"):
        return None  # platformdirs asks the password database: the normal path knows
    return os.path.join(home.rstrip("/") + "/.config", "design-agent")


def fresh_server(home: str) -> dict[str, object] | None:
    """The server in server.json, if it is this version's, in this environment, alive."""
    from design_agent.core.home_trust import open_trusted

    try:
        # One another user planted would send the turn to their port: the normal command
        # then refuses the home, naming the file (HomeLayout.verify).
        server = json.loads(open_trusted(os.path.join(home, "server.json"), home))
    except (OSError, ValueError):
        return None
    except Exception as e:
        from design_agent.core.errors import UntrustedPathError  # imported only when one is raised

        if isinstance(e, UntrustedPathError):
            return None
        raise
    if not isinstance(server, dict):
        return None
    pid, port, token = server.get("pid"), server.get("port"), server.get("token")
    if not (isinstance(pid, int) and isinstance(port, int) and isinstance(token, str)):
        return None
    if server.get("version") != __version__ or server.get("host", "127.0.0.1") not in LOOPBACK:
        return None
    if server.get("env") != environment_fingerprint():
        return None  # started in another environment: another provider set-up
    return server if _alive(pid) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:  # gone, or another user's
        return False
    return True


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

    def __init__(self, server: dict[str, object]) -> None:
        self.port = int(server["port"])  # type: ignore[call-overload]
        self.token = str(server["token"])
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
        except Fallback:
            if not self.received:
                raise
            _write(sys.stderr, "Cancelled.\n")  # as the CLI edge says it before a turn
            return 128 + (self._signum() or signal.SIGINT)
        finally:
            ending = bool(self.received)  # ask ends after this turn: a late signal changes nothing
            for sig, handler in previous.items():
                signal.signal(sig, signal.SIG_IGN if ending else handler)

    def _post(self, path: str, body: dict[str, object], timeout: float) -> Socket:
        data = json.dumps(body).encode("utf-8")
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
        )
        sock = Socket(AF_INET, SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(("127.0.0.1", self.port))
            sock.settimeout(None)  # the answer may take minutes: the pipeline decides
            sock.sendall(head.encode("latin-1") + data)
        except OSError as e:
            sock.close()
            raise Fallback from e
        return sock

    def _stream(self, reader: HttpReader) -> int:
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
        except Fallback:
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
