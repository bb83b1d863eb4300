"""POST /api/v1/ask: the `ask` command's fast path (the client is design_agent.launch.remote_ask).

The route runs what `design-agent ask` runs in-process: the same checks
(cli/ask.py, same messages and exit codes), the turn through the TurnManager,
and its events rendered by the same TurnView onto a screen built for the
client's terminal (its width, tty-ness, colour variables), so the bytes it
sends are those the terminal would have got in-process.

The answer is newline-delimited JSON, one object a line:

    {"turn_id": "..."}                        once the turn has started
    {"out": "..."} / {"err": "..."}           text for stdout / stderr, in order
    {"end": {"exit": N, "error": "..." | null, "cancelled": bool}}   last

A check that fails before the turn starts is answered the same way (200 and
only `end`), so the client ends exactly as `ask` would. A busy project is 409:
the client then runs the turn in-process, as it would without a server.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from design_agent.cli.output import Screen
from design_agent.cli.render import MarkdownStream
from design_agent.core.errors import DesignAgentError, ExitCode, NotAllowedError, NotFoundError
from design_agent.core.text import clean_text
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import context_of, person_of
from design_agent.server.turns import ProjectBusy, TurnRecord

if TYPE_CHECKING:
    from rich.console import Console
    from rich.live import Live

    from design_agent.cli.turn_view import TurnView
    from design_agent.memory.models import Person
    from design_agent.server.context import ServerContext

router = APIRouter(prefix="/api/v1", tags=["ask"])

MAX_MESSAGE_CHARS = 1_000_000  # what a pipe into `ask` may bring; the pipeline decides more
# How often a quiet turn's screen is looked at: the streamed answer's redraw timer may
# have written meanwhile (render.py draws at most 12 times a second).
TICK_SECONDS = 0.05
LATE_CANCEL = "cancelled"  # TurnManager's error for a turn that ended after its cancel


class Terminal(BaseModel):
    """What rich would see of the client's terminal in-process."""

    isatty: bool = False
    size: tuple[int, int] | None = None  # the first of stdin/stdout/stderr that is a tty
    encoding: str = Field(default="utf-8", max_length=40)
    env: dict[str, str] = Field(default_factory=dict)  # TERM, COLORTERM, NO_COLOR, COLUMNS...


class AskBody(BaseModel):
    """`ask`'s arguments as the client parsed them (MESSAGE already read from stdin)."""

    message: str = Field(max_length=MAX_MESSAGE_CHARS)
    project: str | None = Field(default=None, max_length=200)
    provider: str | None = Field(default=None, max_length=100)
    tier: Literal["fast", "deep"] | None = None
    from_turn: str | None = Field(default=None, max_length=200)
    branch: str | None = Field(default=None, max_length=200)
    continuing: bool = False
    over_budget: bool = False
    as_json: bool = False
    events: bool = False
    # Where `ask` ran: informative only (a relative path in the message is not resolved).
    cwd: str | None = Field(default=None, max_length=4096)
    terminal: Terminal = Field(default_factory=Terminal)


@router.post("/ask", response_model=None)
def ask(body: AskBody, request: Request) -> StreamingResponse | JSONResponse:
    """Run one `ask` turn and stream what the command prints (see the module's docstring)."""
    context = context_of(request)
    try:
        record, notes = _start(context, body, person_of(request))
    except ProjectBusy as e:
        error = ApiError(409, "project_busy", f"project {e.project_id} is busy", ExitCode.USAGE)
        return JSONResponse(error.body() | {"running_turn_id": e.running_turn_id}, 409)
    except DesignAgentError as e:
        if context.team is not None and isinstance(e, (NotFoundError, NotAllowedError)):
            raise  # a team's: a project that is not theirs is 404, a role too small 403
        frames: Iterator[str] = iter([_frame(end=_ending(int(e.exit_code), e.message, False))])
    else:
        frames = _frames(record, body, notes)
    return StreamingResponse(frames, media_type="application/x-ndjson")


def _start(
    context: ServerContext, body: AskBody, person: Person | None = None
) -> tuple[TurnRecord, list[str]]:
    """The checks of `ask`, in its order, then the turn started (as `person`, on a team's
    server: an editor of the project, or of none yet); with the lines `ask` prints on
    stderr before the turn (the --continue line)."""
    from design_agent.cli.ask import check_names, check_start, continue_line, message_text
    from design_agent.turn.types import TurnRequest

    text = message_text(body.message)
    check_start(body.from_turn, body.branch, body.continuing)
    services = context.services(person)
    try:
        check_names(services, body.provider, body.project)
        notes = _left_out(services)
        notes += [continue_line(services, body.project)] if body.continuing else []
        project_id = _lock_key(services, body.project)
        if services.memory.project_exists(project_id):
            services.memory.require(project_id, "editor")
    finally:
        services.memory.close()
    start = body.from_turn or body.branch
    request = TurnRequest(text, body.project, body.provider, body.tier, start, body.over_budget)
    return context.turns.start(request, project_id, person), notes


def _left_out(services: Any) -> list[str]:
    """What of the home's catalogue files was left out, as `ask` says it on stderr."""
    catalogue = services.catalogue
    if not catalogue.left_out:
        return []
    setting = services.settings.values.language
    return list(catalogue.left_out_lines(setting if setting in ("en", "es") else "en"))


def _lock_key(services: Any, project_name: str | None) -> str:
    """The project the turn runs on (one turn per project at a time). With no active
    project the turn creates the default one, and says so: it is not created here."""
    from design_agent.memory.text import slugify
    from design_agent.turn.pipeline import DEFAULT_PROJECT

    memory = services.memory
    project = memory.find_project(project_name) if project_name else memory.active_project()
    return str(project.id) if project is not None else slugify(DEFAULT_PROJECT)


def _frames(record: TurnRecord, body: AskBody, notes: list[str]) -> Iterator[str]:
    """The turn's events as the command prints them, then how it ended."""
    from design_agent.cli.turn_view import TurnView

    writer = ClientWriter(body.terminal.isatty, body.terminal.encoding)
    screen = ClientScreen(client_console(body.terminal, writer), writer)
    view = TurnView("events" if body.events else "json" if body.as_json else "text", screen)
    yield _frame(turn_id=record.turn_id)
    for line in notes:
        yield _frame(err=clean_text(line) + "\n")
    try:
        for _seq, event in record.follow(0, TICK_SECONDS):
            if event is not None:
                view.show(event)
            if text := writer.take():
                yield _frame(out=text)
    finally:
        view.close()  # also when the client went away: stops the redraw timer
    if text := writer.take():
        yield _frame(out=text)
    yield _frame(end=_record_ending(record, view))


def _record_ending(record: TurnRecord, view: TurnView) -> dict[str, Any]:
    from design_agent.turn.budget import held_error

    code = int(record.exit_code if record.exit_code is not None else ExitCode.UNEXPECTED)
    error, cancelled = record.error, record.status == "cancelled"
    held = held_error(view.finished) if record.error is None and not cancelled else None
    if held is not None:  # the spent budget held the request: `ask` exits 7, saying how on
        code, error = int(held.exit_code), held.message
    elif cancelled and error == LATE_CANCEL:
        error = None  # finished before the cancel took: `ask` says which signal stopped it
    elif code == ExitCode.UNEXPECTED and error and error.startswith("unexpected "):
        error += " (rerun with --debug)"  # as the CLI edge words a bug
    return _ending(code, error, cancelled)


def _ending(code: int, error: str | None, cancelled: bool) -> dict[str, Any]:
    """The `end` object; the error as the CLI edge prints it after 'Error: ' (cleaned)."""
    return {"exit": code, "error": clean_text(error) if error else None, "cancelled": cancelled}


def _frame(**value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) + "\n"


class ClientWriter:
    """The client's stdout as a text file: what is written waits here until sent.

    Thread-safe: the streamed answer's redraw timer writes from a thread of its own."""

    def __init__(self, isatty: bool, encoding: str) -> None:
        self._isatty = isatty
        self.encoding = encoding
        self._parts: list[str] = []
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._parts.append(text)
        return len(text)

    def flush(self) -> None:
        """Sent at the next event or tick."""

    def isatty(self) -> bool:
        return self._isatty

    def take(self) -> str:
        """Everything written since the last take."""
        with self._lock:
            text, self._parts = "".join(self._parts), []
        return text


def client_console(terminal: Terminal, writer: ClientWriter) -> Console:
    """A rich console that decides tty-ness, colours and size as one made in-process in
    the client's terminal would: same variables, same file isatty(), same size."""
    from rich.console import Console

    env = terminal.env
    # _environ: rich reads TERM, COLORTERM, NO_COLOR, FORCE_COLOR, COLUMNS... from it.
    out = Console(file=writer, highlight=False, soft_wrap=True, _environ=env)  # type: ignore[arg-type]
    columns, lines = env.get("COLUMNS", ""), env.get("LINES", "")
    if (columns.isdigit() and lines.isdigit()) or out.is_dumb_terminal:
        return out  # rich's size does not ask the terminal then
    width, height = terminal.size or (None, None)
    width = int(columns) if columns.isdigit() else width
    height = int(lines) if lines.isdigit() else height
    out.size = (width or 80, height or 25)  # rich's fallbacks
    return out


class ClientScreen(Screen):
    """A TurnView's screen that is a client's terminal, not this process's."""

    def __init__(self, rich_console: Console, writer: ClientWriter) -> None:
        super().__init__(rich_console, writer)  # type: ignore[arg-type]

    def markdown_stream(self) -> MarkdownStream:
        return _ClientStream(self.console)


class _ClientStream(MarkdownStream):
    """A streamed answer whose live window leaves sys.stdout alone: rich's Live would
    otherwise redirect the whole server's stdout into this client's stream."""

    def _ensure_live(self) -> Live:
        if self._live is None:
            from rich.live import Live

            self._live = Live(
                console=self._console,
                auto_refresh=False,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start()
        return self._live
