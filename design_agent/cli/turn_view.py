"""How a turn's events look in the terminal, for `ask` and the shell alike.

Three modes: `text` streams the answer as markdown and ends with a footer
line; `events` prints every event as a JSON line as it happens; `json` prints
one object at the end. In text mode every string is cleaned of terminal
escapes first (`clean_text`): the answer, its questions and proposed
decisions, and names and snippets in action messages all came from a model,
a file or an import; and a wait on a model's side call (`Working`) is a
one-line status on a terminal, erased by the next event.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from design_agent.cli.output import Screen, console
from design_agent.cli.render import MarkdownStream
from design_agent.core.events import (
    ActionDone,
    ChoiceNeeded,
    EvidenceChecked,
    PreferencesLoaded,
    ProviderFallback,
    QuestionAsked,
    TaskMatched,
    TurnFinished,
    Validated,
    Working,
)
from design_agent.core.messages import say
from design_agent.core.stdio import output_closed
from design_agent.core.text import clean_text
from design_agent.providers.events import TextDelta

if TYPE_CHECKING:
    from rich.console import Console

    from design_agent.cli.status_line import StatusLine

Mode = Literal["text", "events", "json", "gone"]


class TurnView:
    """Renders one turn's events; `close()` once the turn has ended."""

    def __init__(self, mode: Mode = "text", screen: Screen | None = None) -> None:
        self.mode = mode
        self.screen = screen or _own_screen()  # this process's, or a server client's
        self.stream: MarkdownStream | None = None
        self.status: StatusLine | None = None  # a wait announced by `Working`
        self.after: list[str] = []
        self.finished: TurnFinished | None = None
        self.matched: TaskMatched | None = None
        self.language = "en"

    def show(self, event: Any) -> None:
        if isinstance(event, TurnFinished):
            self.finished = event
        if isinstance(event, TaskMatched):
            self.matched = event
        if isinstance(event, PreferencesLoaded | TurnFinished):
            self.language = event.language
        _unless_gone(self, lambda: self._output(event))

    def _output(self, event: Any) -> None:
        if self.mode == "events":
            self.screen.line(event.model_dump_json())
        elif self.mode == "text":
            self._stop_status()  # any event ends the wait: WorkDone, or whatever came next
            self._show_text(event)

    def close(self) -> None:
        self._stop_status()  # even when the output is gone: its redraw thread must end
        _unless_gone(self, self._close)

    def _close(self) -> None:
        if self.mode == "json" and self.finished is not None:
            data = self.finished.model_dump(mode="json")
            self.screen.line(json.dumps(data, ensure_ascii=False, indent=2))
        elif self.mode == "text":
            self._end_stream()
            for line in self.after:
                self._print(line)
            self.after = []
            if self.finished is not None and self.finished.task:
                self._print(footer(self.finished, self.matched), style="dim")

    def _show_text(self, event: Any) -> None:
        if isinstance(event, TextDelta):
            if self.stream is None:
                self.stream = self.screen.markdown_stream()
            self.stream.feed(clean_text(event.text))
        elif isinstance(event, TaskMatched) and event.band == "MEDIUM" and event.alternates:
            names = ", ".join(o.name for o in event.alternates[:3])
            self._print(say("using_medium", self.language, name=event.name, names=names), "dim")
        elif isinstance(event, QuestionAsked):
            self.after.append(say("question_mark", self.language, question=event.question))
        elif isinstance(event, ActionDone):
            self._end_stream()
            if event.action == "conversation.compare" and event.data.get("texts"):
                show_compared(event.data, self.screen)
            elif event.action == "tree.show" and event.data.get("tree"):
                show_tree(event.message.splitlines()[0], event.data, self.screen)
            else:
                self._print(event.message)
        elif isinstance(event, ChoiceNeeded):
            lines = [event.question, *(f"  {o.number}. {o.name}" for o in event.options)]
            self._print("\n".join(lines))
        elif isinstance(event, EvidenceChecked):  # a research answer's quotes, checked
            self._end_stream()
            check = self.screen.markdown_stream()
            check.feed("\n\n" + "\n".join(event.lines) + "\n")
            check.finish()
        elif isinstance(event, Validated) and event.validation.failed:  # under the answer
            self._end_stream()
            self._print("\n".join(event.validation.failed_lines()), style="yellow")
        elif isinstance(event, ProviderFallback):  # the fallback chain moved on (fallback.py)
            self._print(event.message, style="dim")
        elif isinstance(event, Working):
            self._end_stream()
            self.status = self.screen.status_line(event.label, say("work_hint", self.language))

    def _print(self, text: str, style: str | None = None) -> None:
        _print(text, style, self.screen)

    def _stop_status(self) -> None:
        status, self.status = self.status, None
        if status is not None:
            status.stop()

    def _end_stream(self) -> None:
        if self.stream is not None:
            self.stream.finish()
            self.stream = None


def _unless_gone(view: TurnView, output: Callable[[], None]) -> None:
    """A write that fails because the terminal was closed (EIO, before SIGHUP's handler
    sends output to /dev/null) or the reader went away (EPIPE: `| head -1`) ends the
    showing, never the turn: it goes on to be saved (design_agent.core.stdio)."""
    if view.mode == "gone":
        return
    try:
        output()
    except BrokenPipeError:
        output_closed()
        view.mode = "gone"
    except OSError as e:
        if e.errno != errno.EIO:
            raise
        view.mode = "gone"


# From this width the two answers of /compare sit side by side.
SIDE_BY_SIDE_COLUMNS = 160


def show_compared(data: dict[str, Any], screen: Screen | None = None) -> None:
    """The two answers of /compare as markdown: side by side on a wide terminal, one after
    the other otherwise; each with its provider and footer, then the question."""
    from rich.columns import Columns
    from rich.console import Group
    from rich.markdown import Markdown
    from rich.panel import Panel
    from rich.text import Text

    out = (screen or _own_screen()).console
    checks = data.get("checks") or [""] * len(data["texts"])  # each answer's evidence check
    parts = [
        Group(
            Markdown(clean_text(text)),
            Text(clean_text(check)),
            Text(clean_text(foot, one_line=True), style="dim"),
        )
        for text, check, foot in zip(data["texts"], checks, data["footers"], strict=False)
    ]
    titles = [f"{i}. {clean_text(p, one_line=True)}" for i, p in enumerate(data["providers"], 1)]
    if out.width > SIDE_BY_SIDE_COLUMNS:
        width = out.width // 2 - 2
        panels = [
            Panel(part, title=title, width=width)
            for part, title in zip(parts, titles, strict=False)
        ]
        out.print(Columns(panels))
    else:
        for part, title in zip(parts, titles, strict=False):
            out.print(Text(f"## {title}", style="bold"))
            out.print(part)
    _print(str(data.get("question", "")), None, screen)


def show_tree(title: str, data: dict[str, Any], screen: Screen | None = None) -> None:
    """/tree as a rich Tree: each line of turns under its parent turn, forks as branches."""
    from rich.text import Text
    from rich.tree import Tree

    root = Tree(Text(clean_text(title, one_line=True)), guide_style="dim")
    _add_line(root, data["tree"], data.get("current"), str(data.get("here", "you are here")))
    (screen or _own_screen()).console.print(root)


def _add_line(parent: Any, line: dict[str, Any], here: int | None, label_here: str) -> None:
    from rich.text import Text

    for node in line.get("nodes", []):
        names = f"  ({', '.join(node['branches'])})" if node.get("branches") else ""
        task = f" [{node['task_id']}]" if node.get("task_id") else ""
        mark = f"  ◀ {label_here}" if node["id"] == here else ""
        text = " ".join(str(node.get("text", "")).split())[:60]
        label = f"{node['number']:>3} {node['role']}{task}{names}{mark}: {text}"
        item = parent.add(Text(clean_text(label, one_line=True), style="bold" if mark else ""))
        for fork in node.get("forks", []):
            _add_line(item, fork, here, label_here)


def _print(text: str, style: str | None = None, screen: Screen | None = None) -> None:
    """One message in text mode, cleaned of anything a terminal would act on."""
    (screen or _own_screen()).console.print(
        clean_text(text), style=style, markup=False, highlight=False
    )


class _OwnScreen(Screen):
    """This process's screen. Its console is made on first use (`--json` and `--events`
    never load rich) and looked up in this module (so tests can swap it)."""

    @property
    def console(self) -> Console:
        return console()


def _own_screen() -> Screen:
    return _OwnScreen()


def footer(finished: TurnFinished, matched: TaskMatched | None) -> str:
    """task · persona · confidence · provider/model · tokens/cost · checklist."""
    parts = [finished.task_name or finished.task or "", finished.agent_role or ""]
    if matched is not None:
        parts.append(f"{matched.band} {matched.score:.0f}")
    parts.append("/".join(p for p in (finished.provider, finished.model) if p))
    usage = finished.usage or {}
    tokens = (usage.get("input_tokens") or 0) + (usage.get("output_tokens") or 0)
    language = finished.language
    if tokens:
        cost = usage.get("cost_usd")
        parts.append(
            say("footer_tokens", language, tokens=tokens) + (f" ${cost:.4f}" if cost else "")
        )
    if finished.validation is not None:
        validation = finished.validation
        parts.append(say("footer_checklist", language, score=validation.score))
        skipped = len(validation.items) - validation.assessed
        if skipped:
            parts.append(say("footer_not_assessed", language, count=skipped))
        if validation.model_review == "unavailable":
            parts.append(say("review_model_unavailable", language))
    if finished.status != "complete":
        parts.append(finished.status)
    return "── " + " · ".join(p for p in parts if p)
