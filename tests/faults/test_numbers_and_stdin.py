"""Numbers too large to mean anything, and a closed standard input: one line, exit 2.

A user who leans on a key types `--from 99999999999999999999999`, `history -n 9999…`,
"vuelve al turno 99999999999999999999" or `/goto 9999…`; a script runs
`design-agent ask - <&-` with its standard input closed. Each gets one clean line and
exit 2 (the shell says it and goes on), never "unexpected OverflowError" or
"'NoneType' object has no attribute 'isatty'".

Every number option of every command takes the one bounded type, checked by walking
the commands; the closed stdin is a real one, closed by a real shell (`<&-`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from design_agent.cli import cli
from design_agent.cli.context import AppContext
from design_agent.cli.options import Seconds, WholeNumber
from design_agent.core.errors import ExitCode

HUGE = "99999999999999999999999"
ENORMOUS = "9" * 5000  # past int()'s own limit of 4,300 digits


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    assert "unexpected" not in result.stderr and "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture
def atlas(home: Path) -> str:
    """A project with three turns."""
    app = AppContext(str(home))
    project = app.memory.create_project("Atlas")
    app.memory.switch_project(project.id)
    for role, text in (("user", "plan a usability test"), ("agent", "a plan"), ("user", "ok")):
        app.memory.add_turn(project.id, role, text)
    app.close()
    return "Atlas"


# -- every number a command takes is bounded -------------------------------------------------


def all_commands() -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []

    def walk(prefix: str, command: click.Command) -> None:
        found.append((prefix, command))
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(f"{prefix} {name}", sub)

    walk("design-agent", cli)
    return found


def test_every_number_option_and_argument_takes_the_bounded_type():
    numeric = (click.types.IntParamType, click.types.FloatParamType)
    loose = [
        f"{name} {param.name}"
        for name, command in all_commands()
        for param in command.params
        if isinstance(param.type, numeric) and not isinstance(param.type, WholeNumber | Seconds)
    ]
    assert loose == []


@pytest.mark.parametrize(
    "args",
    [
        ("history", "-n", HUGE),
        ("history", "-n", ENORMOUS),
        ("decisions", "list", "-n", HUGE),
        ("decisions", "add", "moderated testing", "--turn", HUGE),
        ("search", "usability", "-n", HUGE),
        ("match", "-n", HUGE, "plan a usability test"),
        ("server", "logs", "-n", HUGE),
        ("providers", "doctor", "offline", "--timeout", "1e300"),
        ("providers", "doctor", "offline", "--timeout", "nan"),
        ("ask", "--from", HUGE, "plan a usability test"),
        ("ask", "--from", ENORMOUS, "plan a usability test"),
        ("ask", "--branch", HUGE, "plan a usability test"),
        ("ask", "vuelve al turno 99999999999999999999"),
        ("ask", "go back to turn #99999999999999999999"),
        ("projects", "report", "Atlas", "--turns", f"2,{HUGE}", "-o", "-"),
    ],
    ids=lambda args: " ".join(a[:12] for a in args),
)
def test_a_huge_number_is_one_clean_line_and_exit_2(run_cli, atlas, args):
    result = run_cli("--home", os.environ["DESIGN_AGENT_HOME"], *args)
    assert result.exit_code == ExitCode.USAGE, result.output
    line = one_error_line(result)
    assert len(line) < 400  # the number is shortened, not echoed 5,000 digits long
    assert "large" in line or "range" in line or "finite" in line, line


def test_a_real_turn_number_still_works_and_a_missing_one_is_not_found(run_cli, atlas):
    assert run_cli("history", "-n", "1000000000").exit_code == 0
    missing = run_cli("ask", "--from", "99", "plan a usability test")
    assert missing.exit_code == ExitCode.NOT_FOUND
    assert "its turns are 1 to 3" in one_error_line(missing)


def test_the_shell_says_a_huge_turn_number_is_too_large_and_goes_on(run_cli, atlas):
    lines = [
        f"/goto {HUGE}",
        f"/fork {HUGE}",
        f"/history {ENORMOUS}",
        "vuelve al turno 99999999999999999999",
        "/goto 2",
    ]
    result = run_cli(input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    assert "unexpected" not in result.output and "Traceback" not in result.output
    assert result.output.count("too large") == 4, result.output
    # and the session went on, in Spanish since "vuelve al turno"
    assert "Ahora estás en el turno 2 de 'Atlas'" in result.output


# -- a closed standard input -----------------------------------------------------------------


def closed_stdin(home: Path, command: str) -> subprocess.CompletedProcess[str]:
    """`design-agent COMMAND <&-` in a real shell: fd 0 is closed, not empty."""
    env = {**os.environ, "DESIGN_AGENT_HOME": str(home)}
    script = f'"$0" -m design_agent {command} <&-'
    return subprocess.run(
        ["sh", "-c", script, sys.executable], capture_output=True, text=True, env=env, timeout=60
    )


@pytest.mark.parametrize(
    "command",
    ["ask -", "ask", "match -", "providers test offline -", "", "projects delete Atlas"],
    ids=lambda c: c or "the shell",
)
def test_a_closed_stdin_is_one_clean_line_and_exit_2(atlas, home, command):
    done = closed_stdin(home, command)
    assert done.returncode == ExitCode.USAGE, done.stderr
    line = one_error_line(done)
    assert "standard input is closed" in line, line
    assert AppContext(str(home)).memory.find_project("Atlas")  # nothing was deleted


def test_a_closed_stdin_does_not_stop_a_message_given_as_an_argument(atlas, home):
    done = closed_stdin(home, "ask --provider offline 'plan a usability test'")
    assert done.returncode == 0, done.stderr
    assert "Usability" in done.stdout or "usability" in done.stdout
