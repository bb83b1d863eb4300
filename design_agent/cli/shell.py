"""The conversational shell: `design-agent` with no arguments.

Pure conversation: projects, providers, files and past decisions are managed
by saying so; slash commands are shortcuts. Input comes from prompt_toolkit
on a terminal (history file 0600, tab completion, multi-line paste) or one
message per line when stdin is not a terminal, so the shell can be scripted.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from design_agent import __version__
from design_agent.actions import ActionEnvelope
from design_agent.actions.summaries import last_conversation
from design_agent.cli.output import console
from design_agent.cli.signals import cancelling_signals
from design_agent.cli.turn_view import TurnView
from design_agent.core.errors import CancelledError, DesignAgentError, UsageError
from design_agent.core.fsutil import touch_private
from design_agent.core.messages import say
from design_agent.core.numbers import parse_whole, turn_number
from design_agent.core.stdio import input_text, output_closed
from design_agent.core.text import clean_text, fold
from design_agent.providers.resolve import check_provider_name, missing_notice
from design_agent.turn.pipeline import Pipeline, TurnRequest
from design_agent.turn.session import Services

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

EXIT_WORDS = frozenset({"exit", "quit", "salir", "adios", "bye"})


class Shell:
    """One interactive (or scripted) session over a home's services."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.pipeline = Pipeline(services)
        self.commands = SlashCommands(self)
        self.running = True
        self.announce = False  # --continue: the banner says where the conversation goes on
        self.exit_code = 0  # 128 + the signal that ended the session (SIGTERM, SIGHUP)

    @property
    def language(self) -> str:
        """The language of the conversation so far (the setting, before anything is said)."""
        said = self.services.memory.get_state("last_language")
        setting = self.services.settings.values.language
        return str(said or (setting if setting != "auto" else "en"))

    # -- start-up ------------------------------------------------------------------------------

    def banner(self) -> str:
        language = self.language
        lines = [say("banner", language, version=__version__)]
        project = self.services.memory.active_project()
        if project is None:
            lines.append(say("banner_no_project", language))
        else:
            last = last_conversation(self.services, project, language)
            summary = (
                say("banner_last", language, last=last)
                if last
                else say("banner_no_turns", language)
            )
            lines.append(say("banner_project", language, name=project.name, summary=summary))
            where = self.pipeline.resumed_at()
            if self.announce:
                lines.append(self.pipeline.continue_point())
            elif where is not None:  # /goto or /fork left it off the latest turn
                lines.append(say("banner_resume", language, number=where))
        lines.append(self._provider_line())
        lines += self.services.catalogue.left_out_lines(language)  # the home's broken entries
        lines.append(say("banner_hint", language))
        question = self.pipeline.open_question()
        if question:  # left open when the last session ended: put it again, on screen
            lines.append(say("banner_pending", language, question=question))
        return clean_text("\n".join(lines))  # project names and the question are data

    def _provider_line(self) -> str:
        resolution = self.services.resolve()
        language = self.language
        notice = missing_notice(resolution, language)
        memory = self.services.memory
        if notice and not memory.get_state("offline_notice_shown"):
            memory.set_state("offline_notice_shown", True)  # said once, not at every start
            return notice
        spec = resolution.spec
        if resolution.lookup.found:
            return say("provider_ready", language, display=spec.display_name)
        return say("provider_absent", language, display=spec.display_name, hint=spec.install_hint)

    # -- the loop ------------------------------------------------------------------------------

    def handle(self, line: str) -> None:
        """One line from the user: exit word, slash command or message to the pipeline."""
        text = line.strip()
        if not text:
            return
        if fold(text).strip(".!") in EXIT_WORDS:
            self.running = False
            return
        if text.startswith("/"):
            self.commands.run(text)
            return
        self.show(self.pipeline.run(TurnRequest(text)))

    def turn(self, text: str) -> None:
        """Send one message through the pipeline and show the turn."""
        self.show(self.pipeline.run(TurnRequest(text)))

    def execute(self, envelope: ActionEnvelope) -> None:
        """Run an action directly (slash commands), with the conversation state kept."""
        self.show(self.pipeline.act(envelope))

    def show(self, events: Iterator[Any]) -> None:
        """Render a turn's events; Ctrl-C, SIGTERM and SIGHUP cancel it (partial answer
        kept), and the last two then end the session."""
        with cancelling_signals(self.pipeline.cancel, last=False) as signals:
            self._show(events)
        if signals.ending:
            self.running = False
            self.exit_code = int(signals.exit_code)

    def _show(self, events: Iterator[Any]) -> None:
        """Render a turn's events; an error is one line and the session carries on."""
        view = TurnView("text")
        try:
            for event in events:
                view.show(event)
        except CancelledError as e:
            view.close()
            said = say("cancelled", self.language, message=e.message)
            console().print(clean_text(said), style="yellow", markup=False)
            return
        except DesignAgentError as e:
            view.close()
            said = say("error", self.language, message=e.message)
            console().print(clean_text(said), style="red", markup=False)
            return
        view.close()

    def run_scripted(self, lines: Iterator[str]) -> None:
        """One message per line. When the reader of the output goes away (`| head`), every
        line is still answered and saved, unseen; the exit code then says so (141)."""
        _unless_closed(lambda: console().print(self.banner(), markup=False, highlight=False))
        for line in lines:
            _unless_closed(lambda line=line: self.handle(line))  # type: ignore[misc]
            if not self.running:
                break

    def run_interactive(self) -> None:
        session = self._prompt_session()
        console().print(self.banner(), markup=False, highlight=False)
        while self.running:
            try:
                self.handle(session.prompt(self._prompt_text()))
            except KeyboardInterrupt:
                # At the prompt it clears the line; between prompts it must not end the
                # session (an answer being streamed handles Ctrl-C itself).
                continue
            except EOFError:
                break
        console().print(say("bye", self.language), markup=False)

    def _prompt_text(self) -> str:
        project = self.services.memory.active_project()
        return f"{clean_text(project.name, one_line=True) if project else 'design-agent'} › "

    def _prompt_session(self) -> PromptSession[str]:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import WordCompleter

        from design_agent.core.input_history import project_history

        home = self.services.home
        path = touch_private(home.trusted(home.history_file))
        history = project_history(path, self._active_project_id)
        words = [f"/{name.replace('_', '-')}" for name in self.commands.names()]
        completer = WordCompleter(words, sentence=True, match_middle=False)
        return PromptSession(history=history, completer=completer)

    def _active_project_id(self) -> str | None:
        project = self.services.memory.active_project()
        return project.id if project else None


def _unless_closed(work: Callable[[], None]) -> None:
    """Run `work`; a closed standard output ends only what it was printing."""
    try:
        work()
    except BrokenPipeError:
        output_closed()


class SlashCommands:
    """Shortcuts for people who prefer them; plain language always works too.

    One method per command (`cmd_NAME`), its docstring is its help, and any
    unique prefix works (`/sw` is `/switch`). Each one is an action envelope
    carried out by the same handlers as the sentence it abbreviates.
    """

    def __init__(self, shell: Shell) -> None:
        self.shell = shell

    def names(self) -> list[str]:
        return sorted(name[4:] for name in dir(self) if name.startswith("cmd_"))

    def run(self, text: str) -> None:
        word, _, argument = text[1:].partition(" ")
        word = word.replace("-", "_")  # /rename-branch
        matches = [n for n in self.names() if n.startswith(word.lower())]
        exact = [n for n in matches if n == word.lower()]
        if len(exact) == 1 or len(matches) == 1:
            handler: Callable[[str], None] = getattr(self, f"cmd_{(exact or matches)[0]}")
            try:
                handler(argument.strip())
            except UsageError as e:  # e.g. a turn number far too large: said, and on we go
                self._say("error", message=e.message)
        elif matches:
            self._say("slash_ambiguous", word=word, names=", ".join("/" + m for m in matches))
        else:
            self._say("slash_unknown", word=word)

    def _print(self, text: str) -> None:
        console().print(clean_text(text), markup=False, highlight=False)

    def _say(self, key: str, **values: object) -> None:
        self._print(say(key, self.shell.language, **values))

    def _act(self, module: str, method: str, **data: object) -> None:
        """Carry out the action through the pipeline, which keeps what it leaves pending
        (a "did you mean ...?" from /switch is answered by the next message)."""
        try:
            envelope = ActionEnvelope.model_validate(
                {"module": module, "method": method, "input": data}
            )
        except ValidationError as e:
            self._say("slash_invalid", reason=e.errors()[0]["msg"])
            return
        self.shell.execute(envelope)

    def cmd_help(self, argument: str) -> None:
        """List the slash commands."""
        for name in self.names():
            doc = (getattr(self, f"cmd_{name}").__doc__ or "").strip().splitlines()[0]
            self._print(f"/{name.replace('_', '-'):<14} {doc}")
        self._say("slash_say_it")

    def cmd_projects(self, argument: str) -> None:
        """List your projects (the active one is starred)."""
        self._act("projects", "list")

    def cmd_switch(self, argument: str) -> None:
        """Switch project: /switch NAME (part of the name or a typo asks 'did you mean')."""
        if not argument:
            self._say("slash_usage", usage="/switch NAME")
            return
        self._act("projects", "switch", name=_unquoted(argument))

    def cmd_provider(self, argument: str) -> None:
        """Show the provider, or change it: /provider gemini."""
        if not argument:
            self._print(self.shell._provider_line())
            return
        try:
            check_provider_name(argument, self.shell.services.adapters, allow_auto=False)
        except UsageError as e:
            self._print(e.message)
            return
        self._act("providers", "use", name=argument)

    def cmd_search(self, argument: str) -> None:
        """Search this project's history: /search QUERY (--all: every project, this one too)."""
        words = argument.split()
        query = " ".join(w for w in words if w != "--all")
        if not query:
            self._say("slash_usage", usage="/search QUERY [--all]")
            return
        self._act("memory", "search", query=query, all_projects="--all" in words)

    def cmd_upload(self, argument: str) -> None:
        """Add a file to the project: /upload PATH [--type research] (quote paths with spaces)."""
        path, file_type = _upload_arguments(argument)
        if not path:
            self._say("slash_usage", usage='/upload "PATH" [--type brief|research|design|other]')
            return
        self._act("files", "add", path=path, file_type=file_type)

    def cmd_history(self, argument: str) -> None:
        """Show the latest turns of this project: /history [N]."""
        count = parse_whole(argument, "/history") if argument else None
        if argument and count is None:
            self._say("slash_usage", usage="/history [N]")
            return
        self._act("history", "show", **({"count": count} if count is not None else {}))

    def cmd_tree(self, argument: str) -> None:
        """Show this project's conversation as a tree (turn numbers, branches, where you are)."""
        self._act("tree", "show")

    def cmd_goto(self, argument: str) -> None:
        """Continue from an earlier turn or a branch: /goto 12, /goto unmoderated."""
        if not argument:
            self._say("slash_usage", usage="/goto TURN|BRANCH")
            return
        self._act("tree", "goto", target=_unquoted(argument))

    def cmd_fork(self, argument: str) -> None:
        """Start a branch here, or at a turn: /fork, /fork 12, /fork 12 unmoderated."""
        number, _, name = _unquoted(argument).partition(" ")
        turn = turn_number(number) if number else None
        if turn is None:
            name = _unquoted(argument)
        data: dict[str, object] = {"turn": turn} if turn is not None else {}
        if name.strip():
            data["name"] = name.strip()
        self._act("tree", "fork", **data)

    def cmd_rename_branch(self, argument: str) -> None:
        """Name or rename a branch: /rename-branch OLD-NAME|TURN NEW-NAME."""
        target, _, name = _unquoted(argument).partition(" ")
        if not target or not name.strip():
            self._say("slash_usage", usage="/rename-branch BRANCH|TURN NEW-NAME")
            return
        self._act("tree", "rename", target=target, name=_unquoted(name))

    def cmd_compare(self, argument: str) -> None:
        """Answer your last request with two providers at once: /compare claude gemini."""
        names = argument.split()
        if not 1 <= len(names) <= 2:
            self._say("slash_usage", usage="/compare PROVIDER [PROVIDER]")
            return
        self._act("conversation", "compare", providers=names)

    def cmd_branches(self, argument: str) -> None:
        """List this project's branches and the turn each has reached."""
        self._act("tree", "branches")

    def cmd_decisions(self, argument: str) -> None:
        """List the decisions on this branch: /decisions [all] (all: every branch's)."""
        if argument.strip().lower() not in ("", "all", "todas"):
            self._say("slash_usage", usage="/decisions [all]")
            return
        self._act("decisions", "list", all_branches=bool(argument.strip()))

    def cmd_methods(self, argument: str) -> None:
        """List the design methods I know; /methods new adds one of your team's own."""
        if argument.strip().lower() in ("new", "nuevo", "add"):
            self._act("catalogue", "new_method")
            return
        self._act("catalogue", "methods")

    def cmd_prompt(self, argument: str) -> None:
        """Show what would be sent for a request (or your last one), without sending it."""
        from design_agent.cli.prompt_view import render_preview

        message = argument or self.shell.pipeline.last_request()
        if not message:
            self._say("slash_usage", usage="/prompt MESSAGE")
            return
        try:
            preview = self.shell.pipeline.preview(TurnRequest(message))
        except DesignAgentError as e:
            self._print(e.message)
            return
        self._print(render_preview(preview))

    def cmd_report(self, argument: str) -> None:
        """Write this project's report for stakeholders here: /report [md|html|pdf]."""
        fmt = argument.strip().lower().lstrip(".") or "md"
        if fmt not in ("md", "html", "pdf"):
            self._say("slash_usage", usage="/report [md|html|pdf]")
            return
        self._act("projects", "report", format=fmt)

    def cmd_usage(self, argument: str) -> None:
        """Tokens, cost and time of the answers: /usage [day|provider|model|project] [--all]."""
        words = argument.lower().split()
        groups = ("day", "provider", "model", "project")
        if any(w not in (*groups, "--all") for w in words):
            self._say("slash_usage", usage="/usage [day|provider|model|project] [--all]")
            return
        by = next((w for w in words if w in groups), "provider")
        self._act("usage", "show", by=by, all_projects="--all" in words)

    def cmd_exit(self, argument: str) -> None:
        """Leave the session (Ctrl-D, 'exit' and 'salir' work too)."""
        self.shell.running = False


def _unquoted(text: str) -> str:
    return text.strip().strip("\"'")


def _upload_arguments(argument: str) -> tuple[str, str]:
    """The path and file type of /upload: shell quoting, so "my brief.md" is one path;
    an unquoted path with spaces is taken whole."""
    try:
        words = shlex.split(argument)
    except ValueError:  # an unbalanced quote: take the text as typed
        words = [_unquoted(argument)] if argument.strip() else []
    file_type = "brief"
    if "--type" in words:
        at = words.index("--type")
        file_type = words[at + 1] if at + 1 < len(words) else ""
        words = words[:at] + words[at + 2 :]
    return " ".join(words), file_type


def run_shell(services: Services, announce: bool = False) -> int:
    """Interactive on a terminal, one message per line otherwise; the exit code.
    `announce` (--continue) says where the conversation goes on from."""
    if sys.stdin is None:  # fd 0 closed (`design-agent <&-`): nothing to converse with
        raise UsageError(
            "standard input is closed, so there is no conversation to read; run design-agent "
            'in a terminal, pipe messages into it, or use design-agent ask "..."'
        )
    shell = Shell(services)
    shell.announce = announce
    if sys.stdin.isatty():
        shell.run_interactive()
    else:
        shell.run_scripted(input_text(line.rstrip("\n")) for line in sys.stdin)
    return shell.exit_code
