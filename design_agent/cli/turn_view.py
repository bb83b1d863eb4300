"""How a turn's events look in the terminal, for `ask` and the shell alike.

Three modes: `text` streams the answer as markdown and ends with a footer
line; `events` prints every event as a JSON line as it happens; `json` prints
one object at the end.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import click

from design_agent.cli.output import console
from design_agent.events import (
    ActionDone,
    ChoiceNeeded,
    PreferencesLoaded,
    QuestionAsked,
    TaskMatched,
    TurnFinished,
)
from design_agent.messages import say
from design_agent.providers.events import TextDelta
from design_agent.render import MarkdownStream

Mode = Literal["text", "events", "json"]


class TurnView:
    """Renders one turn's events; `close()` once the turn has ended."""

    def __init__(self, mode: Mode = "text") -> None:
        self.mode = mode
        self.text = ""
        self.stream: MarkdownStream | None = None
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
        if self.mode == "events":
            click.echo(event.model_dump_json())
        elif self.mode == "text":
            self._show_text(event)

    def close(self) -> None:
        if self.mode == "json" and self.finished is not None:
            data = self.finished.model_dump(mode="json")
            click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        elif self.mode == "text":
            self._end_stream()
            for line in self.after:
                console().print(line, markup=False, highlight=False)
            self.after = []
            if self.finished is not None and self.finished.task:
                line = footer(self.finished, self.matched)
                console().print(line, style="dim", markup=False)

    def _show_text(self, event: Any) -> None:
        if isinstance(event, TextDelta):
            self.text += event.text
            if self.stream is None:
                self.stream = MarkdownStream(console())
            self.stream.update(self.text)
        elif isinstance(event, TaskMatched) and event.band == "MEDIUM" and event.alternates:
            names = ", ".join(o.name for o in event.alternates[:3])
            line = say("using_medium", self.language, name=event.name, names=names)
            console().print(line, style="dim", markup=False)
        elif isinstance(event, QuestionAsked):
            self.after.append(say("question_mark", self.language, question=event.question))
        elif isinstance(event, ActionDone):
            self._end_stream()
            console().print(event.message, markup=False, highlight=False)
        elif isinstance(event, ChoiceNeeded):
            lines = [event.question, *(f"  {o.number}. {o.name}" for o in event.options)]
            console().print("\n".join(lines), markup=False, highlight=False)

    def _end_stream(self) -> None:
        if self.stream is not None:
            self.stream.finish()
            self.stream = None


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
        parts.append(say("footer_checklist", language, score=finished.validation.score))
    if finished.status != "complete":
        parts.append(finished.status)
    return "── " + " · ".join(p for p in parts if p)
