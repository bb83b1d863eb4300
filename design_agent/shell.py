"""The conversational shell: `design-agent` with no arguments.

Pure conversation: projects, providers, files and past decisions are managed
by saying so; slash commands are shortcuts. Input comes from prompt_toolkit
on a terminal (history file 0600, tab completion, multi-line paste) or one
message per line when stdin is not a terminal, so the shell can be scripted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from design_agent import __version__
from design_agent.actions import ActionEnvelope
from design_agent.cli.output import console
from design_agent.cli.turn_view import TurnView
from design_agent.errors import CancelledError, DesignAgentError, UsageError
from design_agent.executor import ActionExecutor, safe_execute
from design_agent.fsutil import touch_private
from design_agent.pipeline import Pipeline, TurnRequest
from design_agent.providers.resolve import check_provider_name, missing_notice
from design_agent.session import Services

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

EXIT_WORDS = {"exit", "quit", "salir", "adios", "adiós", "bye"}


class Shell:
    """One interactive (or scripted) session over a home's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.pipeline = Pipeline(services)
        self.commands = SlashCommands(self)
        self.running = True

    # -- start-up ------------------------------------------------------------------------------

    def banner(self) -> str:
        memory = self.services.memory
        lines = [f"design-agent {__version__}: your product design team in the terminal."]
        project = memory.active_project()
        if project is None:
            lines.append(
                "No project yet. Tell me about it, e.g. \"I'm starting a new project for a "
                'mobile checkout redesign" (or "empiezo un proyecto nuevo para ...").'
            )
        else:
            last = ActionExecutor(self.services, "en").last_conversation(project)
            summary = f"Last conversation: {last}." if last else "No conversation yet."
            lines.append(f"Project: {project.name}. {summary}")
        lines.append(self._provider_line())
        lines.append("Type your request in English or Spanish; /help for shortcuts, exit to leave.")
        return "\n".join(lines)

    def _provider_line(self) -> str:
        resolution = self.services.resolve()
        notice = missing_notice(resolution)
        memory = self.services.memory
        if notice and not memory.get_state("offline_notice_shown"):
            memory.set_state("offline_notice_shown", True)  # said once, not at every start
            return notice
        state = (
            "ready" if resolution.lookup.found else "not installed: " + resolution.spec.install_hint
        )
        return f"Provider: {resolution.spec.display_name} ({state})."

    # -- the loop ------------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """One line from the user: exit word, slash command or message to the pipeline."""
        text = line.strip()
        if not text:
            return
        if text.lower().strip(".!") in EXIT_WORDS:
            self.running = False
            return
        if text.startswith("/"):
            self.commands.run(text)
            return
        self.turn(text)

    def turn(self, text: str) -> None:
        view = TurnView("text")
        try:
            for event in self.pipeline.run(TurnRequest(text)):
                view.show(event)
        except CancelledError as e:
            view.close()
            console().print(f"Cancelled: {e.message}.", style="yellow", markup=False)
            return
        except DesignAgentError as e:
            view.close()
            console().print(f"Error: {e.message}", style="red", markup=False)
            return
        view.close()

    def execute(self, envelope: ActionEnvelope) -> None:
        """Run an action directly (slash commands), in the language of the last turn."""
        language = str(self.services.memory.get_state("last_language") or "en")
        executor = ActionExecutor(self.services, language)
        done = safe_execute(executor, envelope, self.services.memory.active_project())
        console().print(done.message, markup=False, highlight=False)

    def run_scripted(self, lines: Iterator[str]) -> None:
        console().print(self.banner(), markup=False, highlight=False)
        for line in lines:
            self.handle(line)
            if not self.running:
                break

    def run_interactive(self) -> None:
        session = self._prompt_session()
        console().print(self.banner(), markup=False, highlight=False)
        while self.running:
            try:
                line = session.prompt(self._prompt_text())
            except KeyboardInterrupt:
                continue  # Ctrl-C at the prompt clears the line
            except EOFError:
                break
            self.handle(line)
        console().print("Bye. Everything is saved; run design-agent to resume.", markup=False)

    def _prompt_text(self) -> str:
        project = self.services.memory.active_project()
        return f"{project.name if project else 'design-agent'} › "

    def _prompt_session(self) -> PromptSession[str]:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter
        from prompt_toolkit.history import FileHistory

        history = touch_private(self.services.home.history_file)
        words = [f"/{name}" for name in self.commands.names()]
        completer = WordCompleter(words, sentence=True, match_middle=False)
        return PromptSession(history=FileHistory(str(history)), completer=completer)


class SlashCommands:
    """Shortcuts for people who prefer them; plain language always works too.

    One method per command (`cmd_NAME`), its docstring is its help, and any
    unique prefix works (`/sw` is `/switch`).
    """

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def names(self) -> list[str]:
        return sorted(name[4:] for name in dir(self) if name.startswith("cmd_"))

    def run(self, text: str) -> None:
        word, _, argument = text[1:].partition(" ")
        matches = [n for n in self.names() if n.startswith(word.lower())]
        exact = [n for n in matches if n == word.lower()]
        if len(exact) == 1 or len(matches) == 1:
            handler: Callable[[str], None] = getattr(self, f"cmd_{(exact or matches)[0]}")
            handler(argument.strip())
        elif matches:
            self._say(f"/{word} is ambiguous: {', '.join('/' + m for m in matches)}")
        else:
            self._say(f"Unknown command /{word}; /help lists them.")

    def _say(self, text: str) -> None:
        console().print(text, markup=False, highlight=False)

    def _act(self, module: str, method: str, **data: object) -> None:
        envelope = {"module": module, "method": method, "input": data}
        self.shell.execute(ActionEnvelope.model_validate(envelope))

    def cmd_help(self, argument: str) -> None:
        """List the slash commands."""
        for name in self.names():
            doc = (getattr(self, f"cmd_{name}").__doc__ or "").strip().splitlines()[0]
            self._say(f"/{name:<9} {doc}")
        self._say("Or just say it: 'switch to Checkout', 'use gemini', 'why did we ...?'")

    def cmd_projects(self, argument: str) -> None:
        """List your projects (the active one is starred)."""
        self._act("projects", "list")

    def cmd_switch(self, argument: str) -> None:
        """Switch project: /switch NAME."""
        if not argument:
            self._say("Usage: /switch NAME")
            return
        self._act("projects", "switch", name=argument)

    def cmd_provider(self, argument: str) -> None:
        """Show the provider, or change it: /provider gemini."""
        if not argument:
            self._say(self.shell._provider_line())
            return
        try:
            check_provider_name(argument, self.shell.services.adapters, allow_auto=False)
        except UsageError as e:
            self._say(e.message)
            return
        self._act("providers", "use", name=argument)

    def cmd_search(self, argument: str) -> None:
        """Search this project's history: /search QUERY (add --all for every project)."""
        everywhere = "--all" in argument.split()
        query = " ".join(w for w in argument.split() if w != "--all")
        if not query:
            self._say("Usage: /search QUERY [--all]")
            return
        self._act("memory", "search", query=query, all_projects=everywhere)

    def cmd_upload(self, argument: str) -> None:
        """Add a brief to the project: /upload PATH (text, markdown or PDF)."""
        if not argument:
            self._say("Usage: /upload PATH")
            return
        self._act("files", "add", path=argument, file_type="brief")

    def cmd_history(self, argument: str) -> None:
        """Show the latest turns of this project: /history [N]."""
        memory = self.shell.services.memory
        project = memory.active_project()
        if project is None:
            self._say("No project yet.")
            return
        count = int(argument) if argument.isdigit() else 10
        for turn in memory.recent_turns(project.id, count):
            first = turn.message.strip().splitlines()[0] if turn.message.strip() else ""
            status = "" if turn.status == "complete" else f" [{turn.status}]"
            self._say(f"{turn.timestamp:%Y-%m-%d %H:%M} {turn.role}{status}: {first[:100]}")

    def cmd_exit(self, argument: str) -> None:
        """Leave the session (Ctrl-D, 'exit' and 'salir' work too)."""
        self.shell.running = False


def run_shell(services: Services) -> None:
    """Interactive on a terminal, one message per line otherwise."""
    shell = Shell(services)
    if sys.stdin.isatty():
        shell.run_interactive()
    else:
        shell.run_scripted(line.rstrip("\n") for line in sys.stdin)
