"""The CLI explains itself: every command has help with an example, and a fast --version."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from design_agent import __version__
from design_agent.cli import COMMANDS, cli


def all_commands() -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []

    def walk(prefix: str, command: click.Command) -> None:
        found.append((prefix, command))
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None, f"{prefix} {name} is listed but cannot be loaded"
                walk(f"{prefix} {name}", sub)

    walk("design-agent", cli)
    return found


@pytest.mark.parametrize(("name", "command"), all_commands(), ids=lambda v: str(v))
def test_every_command_has_help_with_an_example(name, command):
    assert command.help and command.help.strip(), f"{name} has no help"
    if not isinstance(command, click.Group) or name == "design-agent":
        assert "example" in command.help.lower(), f"{name} help has no example"
    for param in command.params:
        if isinstance(param, click.Option) and param.name not in {"help", "version"}:
            assert param.help, f"{name} option {param.opts} has no help text"


def test_table_help_lines_match_the_commands():
    """`--help` lists each command with the table's line (so it imports nothing): that line
    must be the first line of the command's own help, or the two drift apart."""
    for name, (_target, line) in COMMANDS.items():
        command = cli.get_command(click.Context(cli), name)
        assert command is not None and command.name == name
        assert command.help is not None
        assert line == command.help.strip().splitlines()[0], name


def test_dash_h_is_an_alias_for_help(run_cli):
    assert run_cli("-h").output == run_cli("--help").output


def test_version(run_cli):
    assert __version__ in run_cli("--version").output


def test_version_and_help_import_no_heavy_library():
    code = (
        "import sys\n"
        "from design_agent.cli import cli\n"
        "for args in (['--version'], ['--help']):\n"
        "    try:\n"
        "        cli.main(args, prog_name='design-agent')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = {'pydantic', 'rich', 'prompt_toolkit', 'sqlite3', 'yaml', 'rapidfuzz'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_usage_error_exits_2(run_cli):
    result = run_cli("tasks", "list", "--no-such-option")
    assert result.exit_code == 2


def test_unexpected_errors_are_one_line_and_debug_shows_the_traceback(run_cli, home):
    home.mkdir(parents=True)
    (home / "settings.yaml").write_text("tier: [\n", encoding="utf-8")
    quiet = run_cli("config", "show")
    assert quiet.exit_code == 3
    assert quiet.stderr.count("\n") == 1 and "settings.yaml:2" in quiet.stderr
    loud = run_cli("--debug", "config", "show")
    assert "Traceback" in loud.stderr
