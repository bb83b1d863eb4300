"""Where a team's own method stands among the others: the requests it takes and loses.

A method's own words (its names and keywords) are routed through the matcher as if a
person had typed them. When another method wins one of them, or ties with it, the
team's method would lose requests or steal them: `collisions` is the warning `check`
gives, with the three closest methods. `samples` are the three requests `methods new`
routes to show a newcomer how their method is found.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from design_agent.core.text import fold
from design_agent.core.yamlfile import Problem

if TYPE_CHECKING:
    from design_agent.core.models import Task
    from design_agent.core.paths import HomeLayout
    from design_agent.knowledge.registry import Catalogue
    from design_agent.understanding.matching import Matcher

# Another method this close to the team's, on its own words, shares its requests.
TIE_GAP = 5.0
CLOSEST = 3


@dataclass(frozen=True)
class Routed:
    """Where one request went: the winning method (None: none), its score and band."""

    text: str
    task_id: str | None
    score: float
    band: str
    wanted: bool  # it went to the method it was written for


def matcher_of(home: HomeLayout, catalogue: Catalogue) -> Matcher:
    """The catalogue's matcher, from the home's cache when it was built before."""
    from design_agent.core.cache import cached
    from design_agent.understanding.matching import Matcher

    if not catalogue.signature:
        return Matcher.from_catalogue(catalogue)
    return cached(home, "matcher", catalogue.signature, lambda: Matcher.from_catalogue(catalogue))


def own_words(task: Task) -> list[str]:
    """The method's names and keywords, each once."""
    phrases = [task.name.en, task.name.es, *task.keywords.en, *task.keywords.es]
    seen: dict[str, str] = {}
    for phrase in phrases:
        seen.setdefault(fold(phrase).strip(), phrase)
    return list(seen.values())


def route(matcher: Matcher, text: str, wanted: str) -> Routed:
    """Where `text` goes, and whether it is the method `wanted`."""
    best = matcher.match(text, limit=3).best
    if best is None:
        return Routed(text, None, 0.0, "LOW", False)
    return Routed(text, best.task_id, best.score, best.band, best.task_id == wanted)


def closest(matcher: Matcher, task: Task, limit: int = CLOSEST) -> list[tuple[str, float]]:
    """The methods nearest to `task` on its own words, each with its best score there."""
    best: dict[str, float] = {}
    for phrase in own_words(task):
        for candidate in matcher.match(phrase, limit=limit + 1).candidates:
            if candidate.task_id != task.id:
                best[candidate.task_id] = max(best.get(candidate.task_id, 0.0), candidate.score)
    return sorted(best.items(), key=lambda item: -item[1])[:limit]


def collisions(catalogue: Catalogue, matcher: Matcher) -> list[Problem]:
    """A warning for each of the team's methods whose own words another method wins, ties
    with, or shares as a keyword."""
    found: list[Problem] = []
    for task in catalogue.tasks.values():
        if not catalogue.is_team(task.id):
            continue
        said = _clashes(catalogue, matcher, task)
        if said:
            near = ", ".join(f"{tid} ({score:.0f})" for tid, score in closest(matcher, task))
            origin = catalogue.origins[("tasks", task.id)]
            message = (
                f"task '{task.id}': its keywords collide with other methods, so it would "
                f"lose or steal requests: {'; '.join(said)}. The closest methods: {near}. "
                "Use words only your method is about (its deliverable, its subject)"
            )
            found.append(Problem(origin.path, origin.line_of("keywords"), message))
    return found


def _clashes(catalogue: Catalogue, matcher: Matcher, task: Task) -> list[str]:
    said: list[str] = []
    shared = _shared_keywords(catalogue, task)
    for phrase in own_words(task):
        result = matcher.match(phrase, limit=3)
        best = result.best
        if best is None:
            continue
        if best.task_id != task.id:
            said.append(f"'{phrase}' goes to {best.task_id} ({best.score:.0f})")
            continue
        rival = next((c for c in result.candidates if c.task_id != task.id), None)
        if rival is not None and best.score - rival.score < TIE_GAP:
            said.append(f"'{phrase}' is a near tie with {rival.task_id} ({rival.score:.0f})")
    said += [f"'{phrase}' is also a keyword of {other}" for phrase, other in shared]
    return said


def _shared_keywords(catalogue: Catalogue, task: Task) -> list[tuple[str, str]]:
    mine = {fold(k): k for k in [*task.keywords.en, *task.keywords.es]}
    shared: list[tuple[str, str]] = []
    for other in catalogue.tasks.values():
        if other.id == task.id:
            continue
        for keyword in [*other.keywords.en, *other.keywords.es]:
            if fold(keyword) in mine:
                shared.append((mine[fold(keyword)], other.id))
    return shared


def shared_words(keywords: Iterable[str], task: Task) -> list[str]:
    """The message's keywords (MatchResult.keywords) found in the method's names and
    keywords, folded."""
    said = {fold(word) for word in keywords}
    words = " ".join(own_words(task))
    ordered = dict.fromkeys(w for w in fold(words).replace("-", " ").split() if len(w) > 2)
    return [word for word in ordered if word in said]


def samples(task: Task) -> list[str]:
    """Three requests a person might type for `task`: its name, a keyword in a sentence,
    and a Spanish request when it has a Spanish name (else another English one)."""
    name = task.name.en.lower()
    other = next((k for k in task.keywords.en if fold(k) != fold(name)), name)
    found = [name, f"can you help me with {other} for our new app?"]
    if fold(task.name.es) != fold(task.name.en):
        found.append(f"necesito ayuda con {task.name.es.lower()} para nuestra app")
    else:
        found.append(f"I need a {name} for the checkout redesign")
    return found
