"""Projects by talking: create, switch, list, delete and rename, and the replies they wait for.

A typed name goes through the one fuzzy lookup (memory/lookup.py): an exact
name switches at once, a guess asks "did you mean ...?" first. Deleting always
asks, showing the counts it will remove; the "yes" deletes only if the
project still has those counts (memory.delete_project checks them).
"""

from __future__ import annotations

import re

from design_agent.actions.base import ActionContext, ActionResult, action, answers
from design_agent.actions.decisions import out_of_range
from design_agent.actions.interview import first_question, is_request
from design_agent.actions.summaries import project_summary
from design_agent.core.errors import NotFoundError, UsageError
from design_agent.core.events import ActionDone
from design_agent.core.input_history import forget_project
from design_agent.core.text import fold, words
from design_agent.memory.models import Project
from design_agent.memory.text import slugify
from design_agent.understanding.conversation import (
    NO_PROJECT,
    ConfirmDelete,
    ConfirmSwitch,
    Interview,
    ProjectChoice,
    ProjectNameNeeded,
)
from design_agent.understanding.inputs import (
    CreateProject,
    DeleteProject,
    NoInput,
    ProjectName,
    RenameProject,
)
from design_agent.understanding.language import STOP_WORDS_EN, STOP_WORDS_ES
from design_agent.understanding.replies import Reply, named_option, read_reply

MAX_NAME_WORDS = 8
# A name this long that reads as a request ("plan a usability test") is not a name.
REQUEST_WORDS = 4
MAX_DERIVED_WORDS = 5
ARTICLES = frozenset({"a", "an", "the", "our", "my", "un", "una", "el", "la", "los", "las", "mi"})
QUOTES = "\"'“”‘’«»`"
# "call it Ledgerly", "se llama Ledgerly": the name is what follows.
NAME_LEAD = re.compile(
    r"^(?:(?:let'?s |lets )?call it|name it|it'?s called|it is called|it will be called|"
    r"it'll be called|the name is|its name is|ll[aá]malo|ll[aá]male|p[oó]nle|se llama|"
    r"se llamar[aá]|se va a llamar|va a llamarse|el nombre es|su nombre es|lo llamaremos)"
    r"\s+",
    re.IGNORECASE,
)
# After the name, what it is: "Brote, es una app de huertos urbanos", "Atlas - a CRM".
NAME_AND_DESCRIPTION = re.compile(
    r"^(?P<name>[^,;:()\n]{1,80}?)\s*(?:,|;|:|\s[-–—]\s|\()\s*"
    r"(?:(?:it'?s|it is|which is|es|que es|será|sera)\s+)?(?P<description>.+?)\)?$",
    re.IGNORECASE,
)
# A reply that says what the project is for, not what it is called.
DESCRIPTION_START = re.compile(
    r"^(?:for|para|about|sobre|an? (?:app|site|website|tool|platform|service|product)|"
    r"una? (?:app|aplicaci[oó]n|web|herramienta|plataforma|servicio|producto|tienda)|"
    r"it'?s (?:an? |for )|es (?:una? |para ))",
    re.IGNORECASE,
)


# -- create --------------------------------------------------------------------------------


@action("projects", "create", CreateProject)
def create(data: CreateProject, ctx: ActionContext) -> ActionResult:
    """Create the project and start its interview; without a name, ask for one (once)."""
    if not data.name:
        done = ctx.done("projects.create", "ask_name")
        pending = ProjectNameNeeded(language=ctx.pending_language, description=data.description)
        return ActionResult(done.model_copy(update={"asks": done.message}), pending)
    return create_named(data.name, data.description, ctx)


def create_named(name: str, description: str | None, ctx: ActionContext) -> ActionResult:
    """Create project `name`, switch to it and ask the first interview question."""
    memory = ctx.services.memory
    try:
        created = memory.switch_project(memory.create_project(name).id)
    except UsageError as e:
        existing = memory.lookup_project(name).exact
        if existing is None or slugify(existing.name) != slugify(name):
            raise  # not a clash: the name itself is unusable, and the error says why
        raise UsageError(ctx.say("project_exists", name=existing.name)) from e
    if description:
        memory.set_metadata(created.id, "description", description)
    question = first_question(created, ctx.language)
    message = f"{ctx.say('created', name=created.name)} {question}"
    done = ActionDone(
        action="projects.create",
        message=message,
        data={"project": created.id, "name": created.name},
        asks=question,
    )
    interview = Interview(language=ctx.pending_language, project_id=created.id, index=0)
    return ActionResult(done, interview, project_id=created.id)


@answers("project_name")
def answer_name(
    message: str, reply: Reply | None, pending: ProjectNameNeeded, ctx: ActionContext
) -> ActionResult | None:
    """The reply is the new project's name, unless it is clearly something else.

    "skip" names it after what the user said it is for, when they said it."""
    if len(message.split()) >= REQUEST_WORDS and is_request(message, ctx):
        return None
    if reply is not None and reply.kind in ("no", "cancel"):
        return ActionResult(ctx.done("projects.create", "create_dropped"))
    if reply is None and DESCRIPTION_START.match(message.strip()):
        return _described(message.strip(" ."), pending, ctx)
    named = None if reply is not None else name_and_description(message)
    name, description = named if named is not None else (None, None)
    if name is None and reply is not None and reply.kind == "skip" and pending.description:
        name = name_from(pending.description)
    if name is None:
        return None
    return create_named(name, description or pending.description, ctx)


def _described(description: str, pending: ProjectNameNeeded, ctx: ActionContext) -> ActionResult:
    """What the project is for, given where its name was asked: kept, and the name asked."""
    question = ctx.say("ask_name_again")
    done = ActionDone(action="projects.create", message=question, asks=question)
    kept = pending.model_copy(update={"description": description, "question": question})
    return ActionResult(done, kept)


def _names(text: str) -> bool:
    """Whether `text` can be a name: not a sentence ("I am not sure yet": all small words)."""
    said = words(text)
    small = [w for w in said if w in STOP_WORDS_EN or w in STOP_WORDS_ES]
    return bool(said) and len(small) * 2 <= len(said)


def name_and_description(reply: str) -> tuple[str, str | None] | None:
    """The name a reply gives, and what the project is, when it says so after the name
    ("se llamará Brote, es una app de huertos urbanos"); None when it gives no name."""
    text = NAME_LEAD.sub("", reply.strip()).strip()
    split = NAME_AND_DESCRIPTION.match(text)
    if split is not None and len(split.group("description").split()) >= 2:
        name = name_in(split.group("name")) if _names(split.group("name")) else None
        if name is not None:
            return name, split.group("description").strip(" .")
    name = name_in(text)
    return (name, None) if name is not None else None


def name_from(description: str) -> str | None:
    """A short name from a description: "a mobile checkout redesign" -> "Mobile checkout
    redesign"; None when nothing usable is left."""
    words = description.split()
    while words and fold(words[0]) in ARTICLES:
        words = words[1:]
    text = " ".join(words[:MAX_DERIVED_WORDS]).strip(" .,;:!")
    return text[:1].upper() + text[1:] if slugify(text) else None


def name_in(reply: str) -> str | None:
    """The project name a reply gives ('"Ledgerly"', 'call it Ledgerly'), or None for a
    question, a long sentence, or a no / cancel / skip word."""
    text = reply.strip()
    if not text or text.endswith("?") or text.startswith("¿"):
        return None
    text = NAME_LEAD.sub("", text).strip().rstrip(".!").strip().strip(QUOTES).strip()
    if not text or len(text.split()) > MAX_NAME_WORDS or read_reply(text) is not None:
        return None
    return text


# -- switch --------------------------------------------------------------------------------


@action("projects", "switch", ProjectName)
def switch(data: ProjectName, ctx: ActionContext) -> ActionResult:
    """Switch to the project named, or to the one whose name holds what was said ("admin");
    several such projects are a numbered choice; a guess at a typo asks first."""
    found = ctx.services.memory.lookup_project(data.name)
    if found.exact is not None:
        return switch_to(found.exact, ctx)
    if found.candidates:
        return _which_project(data.name, found.candidates, ctx)
    if found.suggestion is not None and found.by_part:
        return switch_to(found.suggestion, ctx)  # "cambia a admin": one name holds it
    if found.suggestion is None:
        raise not_found(data.name, found.names, ctx)
    target = found.suggestion
    done = ctx.done(
        "projects.switch",
        "did_you_mean",
        {"project": target.id, "name": target.name},
        asked=data.name,
        name=target.name,
    )
    done = done.model_copy(update={"needs_confirmation": True, "asks": done.message})
    pending = ConfirmSwitch(language=ctx.pending_language, project_id=target.id, name=target.name)
    return ActionResult(done, pending)


def _which_project(asked: str, candidates: list[Project], ctx: ActionContext) -> ActionResult:
    """ "switch to acme" when several projects fit: a numbered choice, never a guess."""
    lines = "\n".join(f"  {i}. {p.name}" for i, p in enumerate(candidates, 1))
    question = ctx.say("which_project", asked=asked, lines=lines)
    names = [p.name for p in candidates]
    data = {"candidates": [p.id for p in candidates], "names": names}
    done = ActionDone(
        action="projects.switch",
        message=question,
        data=data,
        asks=question,
        needs_confirmation=True,
    )
    pending = ProjectChoice(
        language=ctx.pending_language,
        question=question,
        project_ids=[p.id for p in candidates],
        names=names,
    )
    return ActionResult(done, pending)


@answers("project_choice")
def answer_project_choice(
    message: str, reply: Reply | None, pending: ProjectChoice, ctx: ActionContext
) -> ActionResult | None:
    """ "the second one", "2", "the mobile one", "Acme Mobile": switch to it; "no": stay."""
    if reply is not None and reply.kind in ("no", "none", "cancel"):
        if ctx.project is None:
            return ActionResult(ctx.done("projects.switch", "not_switched_none"))
        return ActionResult(ctx.done("projects.switch", "not_switched", name=ctx.project.name))
    if reply is not None and reply.out_of_range and not reply.picks:
        return out_of_range(reply, pending, ctx)
    picked = reply.picks[0] if reply is not None and len(reply.picks) == 1 else None
    picked = picked or named_option(message, pending.names)
    if picked is None:
        return None
    return switch_to(ctx.services.memory.get_project(pending.project_ids[picked - 1]), ctx)


def switch_to(target: Project, ctx: ActionContext) -> ActionResult:
    """Make `target` active and say where the user left off in it."""
    key = "already_in" if ctx.project and ctx.project.id == target.id else "switched"
    target = ctx.services.memory.switch_project(target.id)
    summary = project_summary(ctx.services, target, ctx.language)
    data = {"project": target.id, "name": target.name}
    done = ctx.done("projects.switch", key, data, name=target.name, summary=summary)
    return ActionResult(done, None, project_id=target.id)


@answers("confirm_switch")
def answer_switch(
    message: str, reply: Reply | None, pending: ConfirmSwitch, ctx: ActionContext
) -> ActionResult | None:
    """ "yes" switches to the project guessed; "no" stays; anything else is not an answer."""
    kind = reply.kind if reply is not None else None
    if kind == "yes":
        return switch_to(ctx.services.memory.get_project(pending.project_id), ctx)
    if kind in ("no", "cancel"):
        if ctx.project is None:
            return ActionResult(ctx.done("projects.switch", "not_switched_none"))
        return ActionResult(ctx.done("projects.switch", "not_switched", name=ctx.project.name))
    return None


def not_found(asked: str, names: list[str], ctx: ActionContext) -> NotFoundError:
    """The error for a name that matches no project, listing the projects there are."""
    if not names:
        return NotFoundError(ctx.say("no_projects"))
    return NotFoundError(ctx.say("no_such_project", asked=asked, names=", ".join(names)))


# -- list ----------------------------------------------------------------------------------


@action("projects", "list", NoInput)
def list_projects(data: NoInput, ctx: ActionContext) -> ActionResult:
    """Every project, most recently used first, the active one starred."""
    projects = ctx.services.memory.list_projects()
    if not projects:
        return ActionResult(ctx.done("projects.list", "no_projects"))
    lines = "\n".join(
        ctx.say(
            "project_line",
            mark="*" if p.active else "-",
            name=p.name,
            turns=p.turns,
            decisions=p.decisions,
        )
        for p in projects
    )
    data_out = {"projects": [p.model_dump(mode="json") for p in projects]}
    return ActionResult(ctx.done("projects.list", "projects", data_out, lines=lines))


# -- delete --------------------------------------------------------------------------------


@action("projects", "delete", DeleteProject)
def delete(data: DeleteProject, ctx: ActionContext) -> ActionResult:
    """Ask to confirm deleting the project (the active one when no name is given),
    showing what it removes; a guessed name is named in the question itself."""
    target = ctx.require_project() if data.name is None else _named(data.name, ctx, guess=True)
    report = ctx.services.memory.deletion_report(target.id)
    counts = {"turns": report.turns, "files": report.files, "decisions": report.decisions}
    pending = ConfirmDelete(
        language=ctx.pending_language,
        project_id=target.id,
        name=target.name,
        turns=report.turns,
        files=report.files,
        decisions=report.decisions,
    )
    done = ctx.done(
        "projects.delete",
        "confirm_delete",
        {"project": target.id, **counts},
        name=target.name,
        **counts,
    )
    return ActionResult(
        done.model_copy(update={"needs_confirmation": True, "asks": done.message}), pending
    )


@answers("confirm_delete")
def answer_delete(
    message: str, reply: Reply | None, pending: ConfirmDelete, ctx: ActionContext
) -> ActionResult | None:
    """ "yes" deletes, if the project still has the counts shown; "no" keeps it."""
    kind = reply.kind if reply is not None else None
    if kind in ("no", "cancel", "none"):
        return ActionResult(ctx.done("projects.delete", "kept"))
    if kind != "yes":
        return None
    memory = ctx.services.memory
    active = memory.active_project()
    current = memory.deletion_report(pending.project_id)
    # The metadata count was not shown, so only the counts the user saw are held to.
    shown = current.model_copy(
        update={"turns": pending.turns, "files": pending.files, "decisions": pending.decisions}
    )
    try:
        deleted = memory.delete_project(shown)
    except UsageError as e:
        counts = {"turns": current.turns, "files": current.files, "decisions": current.decisions}
        raise UsageError(ctx.say("delete_changed", name=pending.name, **counts)) from e
    forget_project(ctx.services.home, pending.project_id)  # its input, old log lines
    counts = {"turns": deleted.turns, "files": deleted.files, "decisions": deleted.decisions}
    done = ctx.done(
        "projects.delete",
        "deleted",
        {"project": pending.project_id, **counts},
        name=deleted.project.name,
        **counts,
    )
    # The user was in the project that is gone: the turn ends in no project at all.
    was_active = active is not None and active.id == pending.project_id
    return ActionResult(done, None, project_id=NO_PROJECT if was_active else None)


# -- rename --------------------------------------------------------------------------------


@action("projects", "rename", RenameProject)
def rename(data: RenameProject, ctx: ActionContext) -> ActionResult:
    """Rename the project named (the active one when no old name is given)."""
    target = ctx.require_project() if data.old is None else _named(data.old, ctx, guess=False)
    renamed = ctx.services.memory.rename_project(target.id, data.new)
    done = ctx.done(
        "projects.rename", "renamed", {"project": renamed.id}, old=target.name, new=renamed.name
    )
    return ActionResult(done)


def _named(name: str, ctx: ActionContext, guess: bool) -> Project:
    """The project `name` finds; with `guess`, a fuzzy hit too (the caller confirms it)."""
    found = ctx.services.memory.lookup_project(name)
    if found.exact is not None:
        return found.exact
    if found.candidates:
        names = ", ".join(p.name for p in found.candidates)
        raise UsageError(ctx.say("several_projects", asked=name, names=names))
    if found.suggestion is not None:
        if guess:
            return found.suggestion
        raise NotFoundError(
            ctx.say("no_such_project_guess", asked=name, name=found.suggestion.name)
        )
    raise not_found(name, found.names, ctx)
