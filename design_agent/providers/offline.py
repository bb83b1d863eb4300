"""The built-in offline provider: an honest, structured answer without any AI CLI.

It answers from what the pipeline matched (task, guide sections, project
context, decisions) with a filled skeleton of the deliverable
(offline_answer.py), says plainly that it was produced offline, and names the
guide sections it used. It streams block by block through the same run
interface as the CLI providers.
"""

from __future__ import annotations

from collections.abc import Iterator

from design_agent.providers.events import RunEvent, TextDelta
from design_agent.providers.offline_answer import compose_answer
from design_agent.providers.request import ProviderRequest
from design_agent.providers.run import BaseRun
from design_agent.providers.spec import AdapterSpec


class OfflineRun(BaseRun):
    """A request answered by the built-in offline provider."""

    def __init__(self, spec: AdapterSpec, request: ProviderRequest) -> None:
        super().__init__(spec, request, model=None)

    def cancel(self) -> None:
        self._cancelled = True

    def _events(self) -> Iterator[RunEvent]:
        yield self._tier_event()
        for block in compose_answer(self.request):
            if self._cancelled:
                yield self._done("cancelled")
                return
            yield from self._text(TextDelta(text=block))
        yield self._done("ok")
