"""Standard input: reading it, whether the user can be asked on it, and asking before a
file is replaced.

A question is put only on a terminal. Elsewhere (a pipe, a script, a closed stdin) a
command that needs a yes refuses with one line saying which flag gives it. A closed
stdin (`design-agent ask - <&-`: fd 0 closed, which Python shows as `sys.stdin` None)
is one line and exit 2 wherever something would be read from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from design_agent.core.errors import UsageError
from design_agent.core.text import clean_text
from design_agent.core.user_files import TargetExistsError, existing_file


def require_stdin(what_to_do: str) -> None:
    """UsageError when standard input is closed; `what_to_do` says how to go without it."""
    if sys.stdin is None:
        raise UsageError(f"standard input is closed, so nothing can be read from it; {what_to_do}")


def read_stdin(what_to_do: str) -> str:
    """All of standard input; UsageError when it is closed (see `require_stdin`)."""
    require_stdin(what_to_do)
    return sys.stdin.read()


def interactive() -> bool:
    """Whether standard input is a terminal a question can be put on (a closed stdin, fd 0
    closed with `<&-`, is None in Python)."""
    return sys.stdin is not None and sys.stdin.isatty()


def confirm_replace(path: Path, force: bool, err: bool = False) -> bool:
    """Whether `path` may be replaced: False when nothing is there yet; True with --force or
    once the user says yes on a terminal (no: click's Abort). UsageError for what is not a
    regular file, and TargetExistsError when nobody can be asked."""
    if not existing_file(path):
        return False
    if force:
        return True
    if not interactive():
        raise TargetExistsError(
            f"{path} already exists; pass --force to replace it (standard input is not a "
            "terminal, so design-agent cannot ask)"
        )
    question = clean_text(f"{path} already exists. Replace it?", one_line=True)
    click.confirm(question, default=False, abort=True, err=err)
    return True
