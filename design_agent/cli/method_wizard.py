"""`methods new`, asked on a terminal: the questions, in the user's language, then the report.

What a flag gives is not asked. Required (asked even with --yes on a terminal): the
English name, the description, the persona (a numbered list, the one whose methods are
closest to the description suggested) and the deliverable's parts. Optional (skipped
with --yes): the Spanish name, the length, more keywords, the Spanish guide. Not on a
terminal, nothing is asked: the flags must say what is required.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from design_agent.cli.output import echo, print_json
from design_agent.cli.stdin import interactive
from design_agent.core.errors import UsageError
from design_agent.core.messages import say
from design_agent.core.text import fold
from design_agent.knowledge.authoring import MethodDraft, guide_summary, guide_title
from design_agent.knowledge.plain import did_you_mean

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
    from design_agent.knowledge.authoring import Written

YES_WORDS = frozenset({"", "y", "yes", "s", "si", "vale", "ok"})
NO_WORDS = frozenset({"n", "no"})
LENGTH_WORDS = {
    "1": "short",
    "short": "short",
    "corto": "short",
    "2": "medium",
    "medium": "medium",
    "medio": "medium",
    "3": "long",
    "long": "long",
    "largo": "long",
}


@dataclass(frozen=True)
class Given:
    """What the flags of `methods new` said (None: not given)."""

    name: str | None = None
    name_es: str | None = None
    description: str | None = None
    description_es: str | None = None
    agent: str | None = None
    outputs: str | None = None
    outputs_es: str | None = None
    length: str | None = None
    keywords: str | None = None
    keywords_es: str | None = None
    from_guide: Path | None = None
    spanish: bool | None = None
    method_id: str | None = None
    yes: bool = False

    @classmethod
    def of(cls, flags: dict[str, Any]) -> Given:
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in flags.items() if key in known})


def split(text: str | None) -> tuple[str, ...]:
    """ "Findings, Fixes" -> ("Findings", "Fixes")."""
    return tuple(part.strip() for part in (text or "").split(",") if part.strip())


def gather(app: AppContext, given: Given) -> MethodDraft:
    """The draft: from the flags, and from questions on a terminal."""
    guide = given.from_guide.read_text(encoding="utf-8") if given.from_guide else None
    if not interactive():
        return _from_flags(given, guide)
    ask = Asker(app, optional=not given.yes)
    echo(say("method_intro", ask.language, path=app.home.tasks_file))
    name = given.name or ask.text("method_q_name", guide_title(guide or ""))
    name_es = given.name_es if given.name_es is not None else ask.optional("method_q_name_es_cli")
    description = given.description or ask.text("method_q_description", guide_summary(guide or ""))
    agent = given.agent or ask.agent(description)
    outputs = split(given.outputs) or split(ask.text("method_q_outputs"))
    length = given.length or ask.length()
    keywords = given.keywords if given.keywords is not None else ask.optional("method_q_keywords")
    draft = MethodDraft(
        name=name,
        name_es=name_es or None,
        description=description,
        agent=agent,
        outputs=outputs,
        length=length,
        keywords=split(keywords),
        keywords_es=split(given.keywords_es),
        guide_text=guide,
        guide_source=given.from_guide,
        method_id=given.method_id or "",
    )
    draft = _spanish(ask, given, draft, app)
    if given.yes or ask.yes_no(say("method_q_confirm", ask.language, id=draft.id)):
        return draft
    echo(say("method_nothing_written", ask.language))
    raise click.exceptions.Exit(1)


def _from_flags(given: Given, guide: str | None) -> MethodDraft:
    name = given.name or guide_title(guide or "")
    description = given.description or guide_summary(guide or "")
    wanted = {"--name": name, "--description": description, "--agent": given.agent}
    missing = [flag for flag, value in wanted.items() if not value]
    missing += [] if split(given.outputs) else ["--outputs"]
    if missing:
        raise UsageError(
            f"give {', '.join(missing)} (standard input is not a terminal, so design-agent "
            "cannot ask; in a terminal, design-agent methods new asks for them)"
        )
    return MethodDraft(
        name=str(name),
        name_es=given.name_es or None,
        description=str(description),
        description_es=given.description_es or None,
        agent=str(given.agent),
        outputs=split(given.outputs),
        outputs_es=split(given.outputs_es),
        length=given.length or "medium",
        keywords=split(given.keywords),
        keywords_es=split(given.keywords_es),
        spanish_guide=bool(given.spanish),
        guide_text=guide,
        guide_source=given.from_guide,
        method_id=given.method_id or "",
    )


def _spanish(ask: Asker, given: Given, draft: MethodDraft, app: AppContext) -> MethodDraft:
    """The Spanish guide, asked when there is a Spanish name; its description and parts."""
    wanted = given.spanish
    if wanted is None:
        path = app.home.guides_dir / "es" / f"{draft.id}.md"
        wanted = bool(draft.name_es) and ask.optional_confirm("method_q_spanish", path=path)
    description_es = given.description_es
    outputs_es = split(given.outputs_es)
    if wanted and description_es is None:
        description_es = ask.optional("method_q_description_es")
    if wanted and not outputs_es:
        outputs_es = split(ask.optional("method_q_outputs_es"))
    from dataclasses import replace

    return replace(
        draft,
        spanish_guide=wanted,
        description_es=description_es or None,
        outputs_es=outputs_es,
        keywords_es=draft.keywords_es,
    )


class Asker:
    """The questions, in the user's language; `optional` ones are skipped with --yes."""

    def __init__(self, app: AppContext, optional: bool) -> None:
        self.app = app
        self.language = app.language
        self.asks_optional = optional

    def text(self, key: str, default: str | None = None) -> str:
        answer = click.prompt(say(key, self.language), default=default or None)
        return str(answer).strip()

    def optional(self, key: str) -> str:
        if not self.asks_optional:
            return ""
        return str(click.prompt(say(key, self.language), default="", show_default=False)).strip()

    def optional_confirm(self, key: str, **values: Any) -> bool:
        if not self.asks_optional:
            return False
        question = say(key, self.language, **values).removesuffix(" (yes/no)")
        return self.yes_no(question.removesuffix(" (sí/no)"))

    def yes_no(self, question: str) -> bool:
        """Yes (the default, Enter) or no, in English or Spanish: y, yes, s, sí, n, no."""
        hint = "[S/n]" if self.language == "es" else "[Y/n]"
        while True:
            answer = click.prompt(f"{question} {hint}", default="", show_default=False)
            word = fold(str(answer)).strip(" .!")
            if word in YES_WORDS or word in NO_WORDS:
                return word in YES_WORDS
            echo(say("method_yes_no", self.language))

    def length(self) -> str:
        if not self.asks_optional:
            return "medium"
        while True:
            answer = click.prompt(say("method_q_length", self.language), default="2")
            found = LENGTH_WORDS.get(str(answer).strip().lower())
            if found:
                return found
            echo(say("method_bad_length", self.language))

    def agent(self, description: str) -> str:
        """The persona, by number or id, from the numbered list."""
        catalogue = self.app.catalogue
        agents = sorted(catalogue.agents.values(), key=lambda a: a.role.get(self.language))
        options = "\n".join(
            f"  {n}. {a.role.get(self.language)} ({a.id})" for n, a in enumerate(agents, 1)
        )
        best = self._suggested(description, [a.id for a in agents])
        suggested = say("method_suggested", self.language, number=best) if best else ""
        question = say("method_q_agent", self.language, options=options, suggested=suggested)
        while True:
            answer = str(click.prompt(question, default=str(best) if best else None)).strip()
            found = _agent_of(answer, [a.id for a in agents], [a.role.en for a in agents])
            if found:
                return found
            echo(say("method_bad_agent", self.language, answer=answer, count=len(agents)))

    def _suggested(self, description: str, ids: list[str]) -> int | None:
        """The number of the persona whose methods are closest to the description."""
        from design_agent.understanding.overlap import matcher_of

        catalogue = self.app.catalogue
        best = matcher_of(self.app.verified_home, catalogue).match(description).best
        agent = catalogue.tasks[best.task_id].agent if best is not None else None
        return ids.index(agent) + 1 if agent in ids else None


def _agent_of(answer: str, ids: list[str], roles: list[str]) -> str | None:
    if answer.isdigit() and 1 <= int(answer) <= len(ids):
        return ids[int(answer) - 1]
    if answer in ids:
        return answer
    by_role = {role.lower(): agent for role, agent in zip(roles, ids, strict=True)}
    close = did_you_mean(answer.lower(), [*ids, *by_role])
    return by_role.get(close, close) if close else None


def report(app: AppContext, written: Written, draft: MethodDraft, as_json: bool) -> None:
    """The files written, check's word and the three sample requests (or all of it as JSON)."""
    from design_agent.knowledge.registry import load_catalogue_cached
    from design_agent.understanding.method_review import review, review_lines, written_lines
    from design_agent.understanding.overlap import matcher_of

    home = app.verified_home
    catalogue = load_catalogue_cached(home)
    found = review(catalogue, matcher_of(home, catalogue), written.task.id)
    if as_json:
        print_json(
            {
                "method": written.task,
                "files": [str(written.tasks_file), *(str(p) for p in written.guides)],
                "line": written.line,
                "problems": [str(p) for p in found.problems],
                "warnings": [str(w) for w in found.warnings],
                "routes": [r.__dict__ for r in found.routes],
            }
        )
        return
    own = draft.guide_text is not None
    for line in [*written_lines(written, app.language, own), *review_lines(found, app.language)]:
        echo(line)
