"""Finding a project from what the user typed: the one lookup the shell, the CLI and talk share.

Three tiers, first hit wins:

1. exact: the name ignoring case, accents and punctuation, or the id
   ("mobile checkout", "Mobile-Checkout", "mobile-checkout");
2. a part of the name: the folded name starts with what was typed ("acme"
   -> "Acme Admin Portal"), or contains it as whole words ("B2B" -> "B2B
   invoicing", "portal" -> "Acme Admin Portal");
3. a typo: rapidfuzz over the whole name and over each run of words as long
   as what was typed ("chekout" -> "Mobile Checkout"), with a threshold high
   enough that "ledgerly" never suggests "General". On PostgreSQL only the names
   pg_trgm finds alike (indexed trigrams) are scored, so a team's thousand projects
   are not.

Tiers 2 and 3 give a suggestion, never a match: the caller asks "did you mean ...?". When
what was typed is a part of several names ("acme" -> "Acme Admin Portal", "Acme Mobile"),
they are all `candidates` (by name), and the caller offers them as a numbered choice.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from rapidfuzz import fuzz

from design_agent.core.errors import NotFoundError
from design_agent.memory import projects
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.models import Person, Project, ProjectSummary
from design_agent.memory.text import words

FUZZY_THRESHOLD = 80.0  # "chekout"~"checkout" is 93, "ledgerly"~"general" 53
MIN_PREFIX = 3  # "ge" is too little to guess from
FILLER = frozenset({"the", "my", "our", "project", "el", "la", "mi", "proyecto", "de"})


class ProjectLookup(BaseModel):
    """What a typed project name found: the project itself, or a guess, and every name."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # on first use

    asked: str
    exact: Project | None = None
    suggestion: Project | None = None
    # The suggestion is the one project whose name holds what was typed as whole words
    # ("admin": Acme Admin Portal), not only its start ("acm") or a typo of it.
    by_part: bool = False
    candidates: list[Project] = []
    names: list[str]


def lookup(db: Connection, asked: str, person: Person | None = None) -> ProjectLookup:
    """Find the project `asked` names (see the module docstring for the tiers), among
    those `person` may see."""
    listed = projects.summaries(db, person)
    names = [p.name for p in listed]
    exact = _exact(db, asked, person)
    if exact is not None:
        return ProjectLookup(asked=asked, exact=exact, names=names)
    typed = _meaningful(asked)
    partial = _partials(typed, listed) if typed else []
    if len(partial) > 1:
        candidates = sorted((_project(p) for p in partial), key=lambda p: p.name.casefold())
        return ProjectLookup(asked=asked, candidates=candidates, names=names)
    guess = (partial[0] if partial else _fuzzy(typed, _alike(db, typed, listed))) if typed else None
    suggestion = None if guess is None else _project(guess)
    by_part = bool(partial) and _contains_run(words(partial[0].name), typed)
    return ProjectLookup(asked=asked, suggestion=suggestion, by_part=by_part, names=names)


def _exact(db: Connection, asked: str, person: Person | None) -> Project | None:
    # "the Acme project" names "Acme" exactly: try the words without the filler too.
    for candidate in dict.fromkeys([asked, " ".join(_meaningful(asked))]):
        if not candidate.strip():
            continue
        try:
            return projects.find(db, candidate, person)
        except NotFoundError:
            continue
    return None


def _meaningful(asked: str) -> list[str]:
    typed = words(asked)
    return [w for w in typed if w not in FILLER] or typed


def _partials(typed: list[str], listed: list[ProjectSummary]) -> list[ProjectSummary]:
    """The projects whose names start with, or contain, the words typed (last used first)."""
    text = " ".join(typed)
    found = []
    for project in listed:  # most recently used first
        name = words(project.name)
        if (len(text) >= MIN_PREFIX and " ".join(name).startswith(text)) or _contains_run(
            name, typed
        ):
            found.append(project)
    return found


def _contains_run(name: list[str], typed: list[str]) -> bool:
    size = len(typed)
    return any(name[i : i + size] == typed for i in range(len(name) - size + 1))


def _alike(db: Connection, typed: list[str], listed: list[ProjectSummary]) -> list[ProjectSummary]:
    """The projects a typo of a name may mean: all of them on SQLite; on PostgreSQL, those
    whose names share enough trigrams with what was typed (in the same order: last used
    first, so a tie goes the same way on both)."""
    if not is_postgres(db):
        return listed
    from design_agent.memory.postgres.search import similar_projects

    alike = {pid for pid, _ in similar_projects(db, " ".join(typed), 20)}
    return [p for p in listed if p.id in alike]


def _fuzzy(typed: list[str], listed: list[ProjectSummary]) -> ProjectSummary | None:
    """The project whose name is closest to a typo of it, if close enough."""
    if len(" ".join(typed)) < MIN_PREFIX:
        return None
    scored = [(_similarity(typed, words(p.name)), p) for p in listed]
    best = max(scored, key=lambda pair: pair[0], default=None)
    return best[1] if best is not None and best[0] >= FUZZY_THRESHOLD else None


def _similarity(typed: list[str], name: list[str]) -> float:
    """The best of: the whole names compared as word sets, and the typed words against
    every run of as many words of the name (a word-aligned partial ratio)."""
    text = " ".join(typed)
    whole = fuzz.token_set_ratio(text, " ".join(name))
    size = len(typed)
    runs = [" ".join(name[i : i + size]) for i in range(max(1, len(name) - size + 1))]
    return max([whole, *(fuzz.ratio(text, run) for run in runs)])


def _project(summary: ProjectSummary) -> Project:
    return Project(
        id=summary.id,
        name=summary.name,
        created_at=summary.created_at,
        last_accessed=summary.last_accessed,
    )
