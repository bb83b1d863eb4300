"""The shell when this home is logged in to a team's server: each message is a turn there,
as you, streamed as `ask` streams it; a few slash commands read the team's projects.

    Ana @ https://design.example.com · Checkout ›  why did we choose moderated tests?

The conversation goes on where the project's conversation is on the server (its questions,
its branch), so two people take turns in one project as one person takes turns with
themselves. Slash commands: /projects, /switch NAME, /new NAME, /history [N],
/decisions, /search WORDS, /whoami, /help, /quit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

from design_agent.cli.output import console, echo
from design_agent.cli.team import Team
from design_agent.core.errors import DesignAgentError
from design_agent.core.text import clean_text

HELP = """Slash commands (everything else is a message to the team's server):
  /projects          your projects on the team's server, and your role in each
  /switch NAME       make NAME your active project
  /new NAME          create a project (you own it) and switch to it
  /history [N]       the latest N turns of your active project (default 10)
  /decisions         its current decisions, with who recorded them
  /search WORDS      search your active project
  /whoami            who you are, and where
  /quit              end the session (Ctrl-D too)"""


class TeamShell:
    """One person's session with the team's server (see the module docstring)."""

    def __init__(self, team: Team) -> None:
        self.team = team
        self.running = True
        self.commands: dict[str, Callable[[str], None]] = {
            "projects": self.projects,
            "switch": self.switch,
            "new": self.new,
            "history": self.history,
            "decisions": self.decisions,
            "search": self.search,
            "whoami": self.whoami,
            "help": lambda _: echo(HELP),
            "quit": self.quit,
            "exit": self.quit,
        }

    def banner(self) -> str:
        login = self.team.login
        return (
            f"design-agent · {login.person} on the team's server {login.url}\n"
            "Tell it what you need; /help lists the commands; Ctrl-D ends."
        )

    def prompt(self) -> str:
        try:
            active = self.team.call("GET", "/status").get("active_project")
        except DesignAgentError:
            active = None
        where = clean_text(active["name"], one_line=True) if active else "no project yet"
        return f"{self.team.login.person} · {where} › "

    def handle(self, line: str) -> None:
        text = line.strip()
        if not text:
            return
        try:
            if text.startswith("/"):
                name, _, argument = text[1:].partition(" ")
                command = self._command(name)
                if command is None:
                    echo(f"No command /{name}: /help lists them.")
                    return
                command(argument.strip())
            else:
                self.turn(text)
        except DesignAgentError as e:
            echo(f"Error: {e.message}", err=True)

    def _command(self, name: str) -> Callable[[str], None] | None:
        found = [key for key in self.commands if key.startswith(name.lower())] if name else []
        return self.commands[found[0]] if len(found) == 1 or name in found else None

    def turn(self, text: str) -> None:
        """One message, answered by the team's server and streamed here."""
        from design_agent.cli.team import ask_team

        parsed: dict[str, Any] = {
            "message": text, "project": None, "provider": None, "tier": None,
            "from_turn": None, "branch": None, "continuing": False, "over_budget": False,
            "as_json": False, "events": False,
        }  # fmt: skip
        ask_team(self.team, parsed, ())

    def projects(self, _: str) -> None:
        from design_agent.cli import team_commands

        team_commands.projects_list(self.team, False)

    def switch(self, argument: str) -> None:
        from design_agent.cli import team_commands

        if not argument:
            echo("Switch to which project? /switch NAME (/projects lists yours)")
            return
        team_commands.projects_switch(self.team, argument, True, False)

    def new(self, argument: str) -> None:
        from design_agent.cli import team_commands

        if not argument:
            echo("Name the new project: /new NAME")
            return
        team_commands.projects_create(self.team, argument, False)

    def history(self, argument: str) -> None:
        from design_agent.cli import team_commands

        count = int(argument) if argument.isdigit() else 10
        team_commands.history(self.team, None, max(1, min(count, 500)), False, False)

    def decisions(self, _: str) -> None:
        from design_agent.cli import team_commands

        team_commands.decisions_list(self.team, None, None, False, False, False)

    def search(self, argument: str) -> None:
        from design_agent.cli import team_commands

        if not argument:
            echo("Search for what? /search WORDS")
            return
        team_commands.search(self.team, argument, False, 20, None, False)

    def whoami(self, _: str) -> None:
        person = self.team.call("GET", "/me")["person"]
        role = "an admin" if person.get("is_admin") else "a member"
        echo(f"{person['name']}, {role} of the team at {self.team.url}")

    def quit(self, _: str) -> None:
        self.running = False


def run_team_shell(team: Team) -> int:
    """The session: a prompt on a terminal, else one message per line of standard input."""
    shell = TeamShell(team)
    console().print(shell.banner(), markup=False, highlight=False)
    for line in _lines(shell):
        shell.handle(line)
        if not shell.running:
            break
    console().print("Bye.", markup=False)
    return 0


def _lines(shell: TeamShell) -> Iterator[str]:
    if sys.stdin is None or not sys.stdin.isatty():
        yield from (line.rstrip("\n") for line in sys.stdin or [])
        return
    from prompt_toolkit import PromptSession

    session: PromptSession[str] = PromptSession()
    while shell.running:
        try:
            yield session.prompt(shell.prompt())
        except KeyboardInterrupt:
            continue  # at the prompt it clears the line; a streamed answer handles its own
        except EOFError:
            return
