"""`design-agent serve` and `design-agent server status|stop|logs`.

The server itself is design_agent.server; fastapi and uvicorn are imported
only when `serve` runs, never for `--help`, `--version` or `ask`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import click

from design_agent.cli.options import WholeNumber, app_of
from design_agent.core.errors import ExitCode, UsageError
from design_agent.core.text import clean_text

DETACH_WAIT_SECONDS = 10.0  # usually under 1.5 s; a loaded machine needs more
FOLLOW_POLL_SECONDS = 0.25


def _language(ctx: click.Context) -> str:
    try:
        language = str(app_of(ctx).settings.values.language)
    except Exception:  # a broken settings file must not stop `server stop`
        return "en"
    return "es" if language == "es" else "en"


def _running(ctx: click.Context, info: dict[str, Any] | None, language: str) -> dict[str, Any]:
    """The server's record; with none running, say so and exit 6."""
    if info is None:
        from design_agent.core.messages import say

        click.echo(say("server_not_running", language))
        ctx.exit(int(ExitCode.NOT_FOUND))
    assert info is not None
    return info


@click.command()
@click.option(
    "--port",
    type=WholeNumber(0, 65535),
    default=0,
    show_default=True,
    help="Port to listen on; 0 picks any free port.",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. Anything but 127.0.0.1, localhost or ::1 lets other "
    "computers reach the server (the token still guards it); a warning is printed.",
)
@click.option(
    "--detach",
    is_flag=True,
    help="Run in the background (output to <home>/logs/server.log); print the URL and return.",
)
@click.option(
    "--team",
    is_flag=True,
    help="A team's server: people sign in (design-agent users add NAME), each project has "
    "owners, editors and viewers; several processes may serve one database.",
)
@click.option(
    "--public-url",
    metavar="URL",
    help="With --team: the address people open (https://... behind a TLS proxy makes the "
    "session cookie Secure); invite links use it. Default: http://HOST:PORT.",
)
@click.pass_context
def serve(
    ctx: click.Context,
    port: int,
    host: str,
    detach: bool,
    team: bool,
    public_url: str | None,
) -> None:
    """Run the web page and HTTP API for this home until Ctrl-C (or `server stop`).

    Prints one URL with a fresh token (http://127.0.0.1:PORT/?token=...): open
    it in a browser. The same pipeline, memory and providers as the shell;
    the API is described at /api/docs and in docs/server-api.md. Exit codes:
    0 stopped cleanly, 2 cannot listen or a server already runs for this home.

    With --team there is no token: each person signs in with the password they
    set from their invite link (users add), and sees the projects shared with
    them. Run it on the team's database (DESIGN_AGENT_DATABASE_URL); start as
    many processes as you like on it, each on its own port, behind one proxy.

    \b
    Examples:
      design-agent serve
      design-agent serve --port 8765 --detach
      design-agent serve --team --host 0.0.0.0 --port 8801 --public-url https://design.example.com
    """
    from design_agent.core.messages import say
    from design_agent.server.serve import check_host, run_server

    app = app_of(ctx)
    explicit = ctx.get_parameter_source("host") is not click.core.ParameterSource.DEFAULT
    remote = check_host(host, explicit)
    language = _language(ctx)
    if public_url is not None and not team:
        raise UsageError("--public-url is a team server's: add --team")
    if team:
        if remote and not (public_url or "").startswith("https://"):
            click.echo(
                f"Warning: listening on {host} without TLS: passwords and sessions cross the "
                "network in clear; serve it behind an https proxy and pass --public-url "
                "https://...",
                err=True,
            )
        _serve_team(ctx, port, host, detach, public_url)
        return
    if remote:
        click.echo(say("server_remote_warning", language, host=host), err=True)
    if detach:
        _detach(app.home.root, app.home.server_log_file, port, host, language)
        return

    def lines(url: str) -> list[str]:
        return [url, say("server_stop_hint", language)]

    ctx.exit(run_server(app.home, host, port, lambda line: click.echo(line), lines, app.database))


def _serve_team(
    ctx: click.Context, port: int, host: str, detach: bool, public_url: str | None
) -> None:
    """`serve --team`: in the foreground (a team's server runs under a service manager)."""
    from design_agent.server.context import TeamSettings
    from design_agent.server.serve import run_server

    if detach:
        raise UsageError(
            "--team runs in the foreground: start it from your service manager (systemd, "
            "a container) or a terminal; several may run on one database"
        )
    if public_url is not None and not public_url.startswith(("http://", "https://")):
        raise UsageError(f"--public-url {public_url}: give http://HOST[:PORT] or https://HOST")
    app = app_of(ctx)
    team = TeamSettings((public_url or "").rstrip("/"))
    say_line = lambda line: click.echo(line)  # noqa: E731
    ctx.exit(run_server(app.home, host, port, say_line, None, app.database, team))


def _detach(home: Path, log_file: Path, port: int, host: str, language: str) -> None:
    """Start `serve` in the background and print its URL once it answers."""
    from design_agent.core.fsutil import ensure_private_dir, touch_private
    from design_agent.core.messages import say
    from design_agent.core.paths import HomeLayout
    from design_agent.server.lifecycle import live_server, url_of

    layout = HomeLayout(home)
    if live_server(layout) is not None:
        raise UsageError(say("server_already_running", language))
    ensure_private_dir(log_file.parent)
    touch_private(log_file)
    argv = [sys.executable, "-m", "design_agent", "--home", str(home), "serve"]
    argv += ["--port", str(port), "--host", host]
    with log_file.open("ab") as log:
        child = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
        )
    deadline = time.monotonic() + DETACH_WAIT_SECONDS
    while time.monotonic() < deadline and child.poll() is None:
        info = live_server(layout)
        if info is not None and info.get("pid") == child.pid:
            click.echo(url_of(info))
            return
        time.sleep(0.05)
    raise UsageError(say("server_not_started", language, log=log_file))


@click.group()
def server() -> None:
    """Status, stop and logs of the server `design-agent serve` started for this home.

    Exit codes: 0 done; 6 no server runs for this home (or no log yet).

    \b
    Examples:
      design-agent server status
      design-agent server status --show-token
      design-agent server logs -f
      design-agent server stop
    """


@server.command("status")
@click.option(
    "--show-token",
    is_flag=True,
    help="Print the URL with its token (anyone with it can use the server).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the server file as JSON.")
@click.pass_context
def server_status(ctx: click.Context, show_token: bool, as_json: bool) -> None:
    """Say whether a server runs for this home: its pid, port and URL (exit 6 if not).

    The token is left out unless --show-token. A server file left by a server
    that died is removed.

    \b
    Example:
      design-agent server status
    """
    from design_agent.cli.output import print_json
    from design_agent.core.messages import say
    from design_agent.server.lifecycle import live_server, url_of

    language = _language(ctx)
    info = _running(ctx, live_server(app_of(ctx).home), language)
    if as_json:
        print_json(info if show_token else {k: v for k, v in info.items() if k != "token"})
        return
    url = url_of(info, token=show_token)
    click.echo(say("server_running", language, pid=info["pid"], port=info["port"], url=url))


@server.command("stop")
@click.pass_context
def server_stop(ctx: click.Context) -> None:
    """Stop the server (SIGTERM; running turns are saved as cancelled); exit 6 if none.

    \b
    Example:
      design-agent server stop
    """
    from design_agent.core.messages import say
    from design_agent.server.lifecycle import stop_server

    language = _language(ctx)
    info = _running(ctx, stop_server(app_of(ctx).home), language)
    click.echo(say("server_stopped", language, pid=info["pid"]))


@server.command("logs")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines until Ctrl-C.")
@click.option(
    "-n", "lines", type=WholeNumber(), default=50, show_default=True,
    help="How many of the last lines to print first.",
)  # fmt: skip
@click.pass_context
def server_logs(ctx: click.Context, follow: bool, lines: int) -> None:
    """Print the end of the server log (<home>/logs/server.log); -f follows it.

    \b
    Examples:
      design-agent server logs -n 100
      design-agent server logs -f
    """
    from design_agent.core.messages import say

    path = app_of(ctx).home.server_log_file
    if not path.exists():
        click.echo(say("server_no_log", _language(ctx), path=path))
        ctx.exit(int(ExitCode.NOT_FOUND))
    with path.open("r", encoding="utf-8", errors="replace") as handle:
        for line in handle.readlines()[-lines:]:
            click.echo(clean_text(line), nl=False)
        if follow:
            from design_agent.core import startup

            startup.ready()  # following runs until Ctrl-C
            _follow(handle)


def _follow(handle: TextIO) -> None:
    """Print lines as they are appended, until Ctrl-C."""
    try:
        while True:
            line = handle.readline()
            if line:
                click.echo(clean_text(line), nl=False)
            else:
                time.sleep(FOLLOW_POLL_SECONDS)
    except KeyboardInterrupt:
        return
