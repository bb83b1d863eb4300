"""Step 6's streaming: provider events in, display text and whitelisted tags out.

The model may write `<decision>` and `<ask_user>` tags; they are parsed as the
text streams and become events, never actions: a decision is only a proposal
until the user confirms it. Ctrl-C while streaming cancels the provider's
process group; the partial text stays available.

Only a model's text is scanned. The offline provider is not a model: its
answer is our own sentences around quotes of the user's message, the
project's metadata and its decisions, so a tag in it was never proposed by
anyone. It is shown exactly as written and never scanned (rather than
escaping the quotes, which would show `&lt;` to the user).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from design_agent.core.errors import ProviderError
from design_agent.core.events import DecisionProposed, PipelineEvent, QuestionAsked
from design_agent.knowledge.tags import AskUserTag, DecisionTag, TagParser, TextSegment
from design_agent.providers.events import Done, ProviderFailure, TextDelta, TierChosen, Usage
from design_agent.providers.run import ProviderRun
from design_agent.providers.runner import cancel_on_ctrl_c

StreamEvent = PipelineEvent | TextDelta | TierChosen | Usage | ProviderFailure


class AnswerStream:
    """One provider run, read to the end: text, proposed decisions, usage, status."""

    def __init__(self, run: ProviderRun, scan_tags: bool = True) -> None:
        self.run = run
        self.parser: TagParser | None = TagParser() if scan_tags else None
        self.decisions: list[DecisionTag] = []
        self.usage: Usage | None = None
        self.error: ProviderError | None = None
        self.done: Done | None = None
        self.model: str | None = getattr(run, "model", None)
        self.first_token_seconds: float | None = None
        self.truncated = False  # the provider's answer was cut at its size limit
        self._shown: list[str] = []

    @property
    def text(self) -> str:
        """The answer as the user saw it: whitelisted tags taken out, never the raw stream."""
        return "".join(self._shown)

    @property
    def status(self) -> str:
        if self.done is not None and self.done.status == "cancelled":
            return "cancelled"
        if self.error is not None or (self.done is not None and self.done.status == "failed"):
            return "failed"
        return "complete"

    @property
    def provider(self) -> str:
        return str(getattr(self.run, "provider", ""))

    def events(self) -> Iterator[StreamEvent]:
        with cancel_on_ctrl_c(self.run):
            try:
                for event in self.run:
                    yield from self._handle(event)
            except ProviderError as e:
                self.error = e
        if self.parser is not None:
            yield from self._segments(self.parser.close())

    def _handle(self, event: Any) -> Iterator[Any]:
        if isinstance(event, TextDelta):
            parsed = self.parser.feed(event.text) if self.parser else [TextSegment(event.text)]
            yield from self._segments(parsed)
        elif isinstance(event, Done):
            self.done = event
            self.model = event.model or self.model
            self.first_token_seconds = event.first_token_seconds
            self.truncated = event.truncated
            self.usage = event.usage or self.usage
        else:
            if isinstance(event, Usage):
                self.usage = event
            yield event

    def _segments(self, segments: list[Any]) -> Iterator[Any]:
        for segment in segments:
            if isinstance(segment, TextSegment):
                self._shown.append(segment.text)
                yield TextDelta(text=segment.text)
            elif isinstance(segment, DecisionTag):
                self.decisions.append(segment)
                yield DecisionProposed(decision=segment.decision, rationale=segment.rationale)
            elif isinstance(segment, AskUserTag):
                yield QuestionAsked(question=segment.question)
