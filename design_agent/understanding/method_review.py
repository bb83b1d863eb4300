"""A method just written, as design-agent sees it: what `check` says, where requests go.

`methods new` and "I want to add our own method" end the same way: the files written,
check's word on the home's catalogue (its problems, and the warnings about this
method), and three sample requests routed through the matcher, each marked as reaching
the method or not. Said in the person's language, line by line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from design_agent.core.messages import say
from design_agent.understanding.overlap import Routed, collisions, route, samples

if TYPE_CHECKING:
    from design_agent.core.yamlfile import Problem
    from design_agent.knowledge.authoring import Written
    from design_agent.knowledge.registry import Catalogue
    from design_agent.understanding.matching import Matcher


@dataclass(frozen=True)
class Review:
    """Check's word on the home's catalogue and where the sample requests went."""

    task_id: str
    problems: list[Problem] = field(default_factory=list)  # this method's
    warnings: list[Problem] = field(default_factory=list)  # about this method
    routes: list[Routed] = field(default_factory=list)
    elsewhere: int = 0  # problems in the rest of the home's files


def review(catalogue: Catalogue, matcher: Matcher, task_id: str) -> Review:
    """Check and route the method `task_id` of a catalogue read after it was written."""
    task = catalogue.tasks.get(task_id)
    mine = [p for p in catalogue.problems if f"'{task_id}'" in p.message]
    elsewhere = len(catalogue.problems) - len(mine)
    if task is None:  # left out: its problems say why
        return Review(task_id, mine, elsewhere=elsewhere)
    guides = set(task.guides)
    mine = [w for w in catalogue.warnings if f"'{task_id}'" in w.message or w.path.name in guides]
    mine += [w for w in collisions(catalogue, matcher) if f"'{task_id}'" in w.message]
    routes = [route(matcher, text, task_id) for text in samples(task)]
    return Review(task_id, list(catalogue.problems), mine, routes)


def written_lines(written: Written, language: str, own_guide: bool = False) -> list[str]:
    """The files written, each on its line."""
    lines = [say("method_written", language, id=written.task.id)]
    where = f"{written.tasks_file}:{written.line}" if written.line else str(written.tasks_file)
    lines.append(say("method_file_entry", language, where=where))
    for path in written.guides:
        if path.parent.name == "es":
            key = "method_file_companion"
        else:
            key = "method_file_own_guide" if own_guide else "method_file_guide"
        lines.append(say(key, language, where=path))
    if written.replaces_bundled:
        lines.append(say("method_replaces", language))
    return lines


def review_lines(found: Review, language: str) -> list[str]:
    """Check's word, then the sample requests, then what to do next."""
    lines: list[str] = []
    if found.problems:
        lines.append(say("method_check_problems", language, count=len(found.problems)))
        lines += [f"  {problem}" for problem in found.problems]
    else:
        lines.append(say("method_check_ok", language))
    if found.elsewhere:
        lines.append(say("method_check_elsewhere", language, count=found.elsewhere))
    if found.warnings:
        lines.append(say("method_check_warnings", language))
        lines += [f"  {warning}" for warning in found.warnings]
    if found.routes:
        lines.append(say("method_routes", language))
        lines += [_route_line(routed, found.task_id, language) for routed in found.routes]
        sample = found.routes[-1].text if language == "es" else found.routes[1].text
        lines.append(say("method_next", language, id=found.task_id, sample=sample))
    return lines


def _route_line(routed: Routed, task_id: str, language: str) -> str:
    if routed.task_id is None:
        return say("method_route_none", language, text=routed.text, id=task_id)
    key = "method_route_ours" if routed.wanted else "method_route_other"
    return say(
        key,
        language,
        text=routed.text,
        task=routed.task_id,
        score=f"{routed.score:.1f}",
        band=routed.band,
        id=task_id,
    )
