"""Carries out meta-requests: the memory and provider layers act, never the model.

An ActionEnvelope comes in; an ActionDone event goes out with a message in the
user's language. Destructive or uncertain actions (delete, a fuzzy project
name) leave a pending confirmation in agent state, answered by the next
message ("yes" / "sí"). Creating a project asks for its users, problem and
constraints, one at a time, and stores the answers as project metadata.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from design_agent.actions import ActionEnvelope
from design_agent.errors import DesignAgentError, NotFoundError
from design_agent.events import ActionDone
from design_agent.language import fold
from design_agent.memory.models import Project
from design_agent.messages import ago, say
from design_agent.session import Services
from design_agent.settings import set_setting

PENDING = "pending"
QUESTIONS = ("users", "problem", "constraints")
YES = {
    "yes",
    "y",
    "yeah",
    "yep",
    "sure",
    "ok",
    "okay",
    "confirm",
    "si",
    "s",
    "vale",
    "claro",
    "confirmo",
    "de acuerdo",
    "yes please",
    "si por favor",
    "do it",
    "hazlo",
    "adelante",
}
NO = {"no", "n", "nope", "cancel", "cancelar", "nah", "no gracias", "mejor no", "dejalo"}
SKIP = {
    "skip",
    "saltar",
    "omitir",
    "later",
    "luego",
    "pass",
    "paso",
    "no se",
    "i don't know",
    "dont know",
    "n/a",
    "none",
    "ninguna",
    "nada",
}


def normalized_reply(message: str) -> str:
    return fold(message).strip(" .!¡¿?").strip()


class ActionExecutor:
    """Executes envelopes and resumes pending confirmations for one turn."""

    def __init__(self, services: Services, language: str) -> None:
        self.services = services
        self.memory = services.memory
        self.language = language

    def done(
        self, action: str, key: str, data: dict[str, Any] | None = None, **kw: Any
    ) -> ActionDone:
        return ActionDone(action=action, message=say(key, self.language, **kw), data=data or {})

    def execute(self, envelope: ActionEnvelope, project: Project | None) -> ActionDone:
        handler = getattr(self, f"_{envelope.module}_{envelope.method}")
        return handler(envelope.typed_input(), project)  # type: ignore[no-any-return]

    # -- pending state -------------------------------------------------------------------------

    def pending(self) -> dict[str, Any] | None:
        value = self.memory.get_state(PENDING)
        return value if isinstance(value, dict) else None

    def set_pending(self, value: dict[str, Any] | None) -> None:
        # The question was asked in this language; its answer is read in the same one.
        self.memory.set_state(PENDING, {**value, "language": self.language} if value else None)

    def resume(self, message: str, pending: dict[str, Any]) -> ActionDone | None:
        """Answer a pending question with `message`; None if the message is not an answer."""
        kind = pending.get("kind")
        reply = normalized_reply(message)
        if kind in {"confirm_delete", "confirm_switch"}:
            if reply not in YES | NO:
                self.set_pending(None)  # the user moved on: the question lapses, nothing happens
                return None
            self.set_pending(None)
            if kind == "confirm_delete":
                return self._confirmed_delete(pending, reply in YES)
            return self._confirmed_switch(pending, reply in YES)
        if kind == "project_name":
            return self._create(message.strip().strip("\"'"), pending.get("description"))
        if kind == "project_questions":
            return self._answer_question(pending, message, reply)
        return None

    # -- projects ------------------------------------------------------------------------------

    def _projects_create(self, data: Any, project: Project | None) -> ActionDone:
        if not data.name:
            self.set_pending({"kind": "project_name", "description": data.description})
            done = self.done("projects.create", "ask_name")
            return done.model_copy(update={"asks": done.message})
        return self._create(data.name, data.description)

    def _create(self, name: str, description: str | None) -> ActionDone:
        created = self.memory.create_project(name)
        self.memory.switch_project(created.id)
        if description:
            self.memory.set_metadata(created.id, "description", description)
        self.set_pending({"kind": "project_questions", "project_id": created.id, "index": 0})
        question = say("q_users", self.language, name=created.name)
        message = f"{say('created', self.language, name=created.name)} {question}"
        data = {"project": created.id, "name": created.name}
        return ActionDone(action="projects.create", message=message, data=data, asks=question)

    def _answer_question(self, pending: dict[str, Any], message: str, reply: str) -> ActionDone:
        index = int(pending.get("index", 0))
        project_id = str(pending["project_id"])
        if reply not in SKIP:
            self.memory.set_metadata(project_id, QUESTIONS[index], message.strip())
        index += 1
        if index >= len(QUESTIONS):
            self.set_pending(None)
            return self.done("projects.context", "context_saved", {"project": project_id})
        self.set_pending({**pending, "index": index})
        question = say(f"q_{QUESTIONS[index]}", self.language, name="")
        return ActionDone(
            action="projects.context",
            message=question,
            asks=question,
            data={"project": project_id, "saved": QUESTIONS[index - 1]},
        )

    def _projects_switch(self, data: Any, project: Project | None) -> ActionDone:
        try:
            target = self.memory.find_project(data.name)
        except NotFoundError:
            return self._fuzzy_switch(data.name)
        return self._switch_to(target)

    def _fuzzy_switch(self, asked: str) -> ActionDone:
        projects = self.memory.list_projects()
        if not projects:
            return self.done("projects.switch", "no_projects")
        names = {p.id: p.name for p in projects}
        best = process.extractOne(
            fold(asked), {k: fold(v) for k, v in names.items()}, scorer=fuzz.WRatio
        )
        if best is None or best[1] < 70:
            return self.done(
                "projects.switch", "no_such_project", asked=asked, names=", ".join(names.values())
            )
        self.set_pending({"kind": "confirm_switch", "project_id": best[2]})
        done = self.done("projects.switch", "did_you_mean", asked=asked, name=names[best[2]])
        return done.model_copy(update={"needs_confirmation": True})

    def _confirmed_switch(self, pending: dict[str, Any], yes: bool) -> ActionDone:
        if yes:
            return self._switch_to(self.memory.get_project(str(pending["project_id"])))
        current = self.memory.active_project()
        return self.done("projects.switch", "not_switched", name=current.name if current else "-")

    def _switch_to(self, target: Project) -> ActionDone:
        self.memory.switch_project(target.id)
        data = {"project": target.id, "name": target.name}
        return self.done(
            "projects.switch",
            "switched",
            data,
            name=target.name,
            summary=self.project_summary(target),
        )

    def last_conversation(self, project: Project) -> str | None:
        """'2 days ago, about customer journey map', or None before the first turn."""
        last = self.memory.last_turn(project.id)
        if last is None:
            return None
        when = ago((datetime.now(UTC) - last.timestamp).total_seconds(), self.language)
        task = self.services.catalogue.tasks.get(last.task_id or "")
        if task is None:
            return when
        word = "sobre" if self.language == "es" else "about"
        return f"{when}, {word} {task.name.get(self.language).lower()}"

    def project_summary(self, project: Project) -> str:
        """'Last conversation 2 days ago, about journey mapping; 3 decision(s) recorded.'"""
        last = self.last_conversation(project)
        if last is None:
            return say("summary_empty", self.language)
        decisions = len(self.memory.list_decisions(project.id))
        return say("summary", self.language, last=last, decisions=decisions)

    def _projects_list(self, data: Any, project: Project | None) -> ActionDone:
        projects = self.memory.list_projects()
        if not projects:
            return self.done("projects.list", "no_projects")
        lines = "\n".join(
            say(
                "project_line",
                self.language,
                mark="*" if p.active else "-",
                name=p.name,
                turns=p.turns,
                decisions=p.decisions,
            )
            for p in projects
        )
        data = {"projects": [p.model_dump(mode="json") for p in projects]}
        return self.done("projects.list", "projects", data, lines=lines)

    def _projects_delete(self, data: Any, project: Project | None) -> ActionDone:
        target = self._find_or_fail(data.name)
        report = self.memory.deletion_report(target.id)
        counts = {"turns": report.turns, "files": report.files, "decisions": report.decisions}
        self.set_pending({"kind": "confirm_delete", "project_id": target.id, **counts})
        done = self.done(
            "projects.delete",
            "confirm_delete",
            {"project": target.id, **counts},
            name=target.name,
            **counts,
        )
        return done.model_copy(update={"needs_confirmation": True, "asks": done.message})

    def _confirmed_delete(self, pending: dict[str, Any], yes: bool) -> ActionDone:
        if not yes:
            return self.done("projects.delete", "kept")
        report = self.memory.deletion_report(str(pending["project_id"]))
        deleted = self.memory.delete_project(report)
        counts = {"turns": deleted.turns, "files": deleted.files, "decisions": deleted.decisions}
        return self.done(
            "projects.delete",
            "deleted",
            {"project": deleted.project.id, **counts},
            name=deleted.project.name,
            **counts,
        )

    def _projects_rename(self, data: Any, project: Project | None) -> ActionDone:
        target = self._find_or_fail(data.old) if data.old else self.memory.resolve_project()
        renamed = self.memory.rename_project(target.id, data.new)
        return self.done(
            "projects.rename", "renamed", {"project": renamed.id}, old=target.name, new=renamed.name
        )

    def _find_or_fail(self, name: str) -> Project:
        try:
            return self.memory.find_project(name)
        except NotFoundError:
            names = ", ".join(p.name for p in self.memory.list_projects()) or "-"
            raise NotFoundError(
                say("no_such_project", self.language, asked=name, names=names)
            ) from None

    # -- providers, files, memory --------------------------------------------------------------

    def _providers_use(self, data: Any, project: Project | None) -> ActionDone:
        spec = self.services.adapters[data.name]
        set_setting(self.services.home, "provider", spec.name)
        self.services.setting_flags["provider"] = spec.name  # wins for the rest of this session
        resolution = self.services.resolve(spec.name)
        warning = ""
        if not resolution.lookup.found:
            warning = say(
                "provider_missing", self.language, display=spec.display_name, hint=spec.install_hint
            )
        if os.environ.get("DESIGN_AGENT_PROVIDER", spec.name) != spec.name:
            warning += say("provider_env", self.language, value=os.environ["DESIGN_AGENT_PROVIDER"])
        return self.done(
            "providers.use",
            "provider_set",
            {"provider": spec.name},
            display=spec.display_name,
            warning=warning,
        )

    def _files_add(self, data: Any, project: Project | None) -> ActionDone:
        target = project or self.memory.resolve_project()
        added = self.memory.add_file(target.id, Path(data.path).expanduser(), data.file_type)
        info = added.file
        if added.duplicate:
            return self.done(
                "files.add", "file_duplicate", {"file": info.id}, filename=info.filename
            )
        content = self.memory.get_file(info.id).content
        first = next(
            (line.strip("# ").strip() for line in content.splitlines() if line.strip()), ""
        )
        preview = f"\n> {first[:200]}" if first else ""
        return self.done(
            "files.add",
            "file_added",
            {"file": info.id, "chars": info.chars},
            filename=info.filename,
            file_type=info.file_type,
            chars=info.chars,
            preview=preview,
        )

    def _memory_recall(self, data: Any, project: Project | None) -> ActionDone:
        target = project or self.memory.resolve_project()
        found = self.memory.search_decisions(target.id, data.query, limit=5)
        if not found:
            return self.done("memory.recall", "recall_none", name=target.name)
        lines = "\n".join(
            say(
                "recall_line",
                self.language,
                date=hit.item.timestamp.date().isoformat(),
                turn=_turn_label(hit.item.conversation_id, self.language),
                decision=hit.item.decision,
                rationale=hit.item.rationale or "-",
            )
            for hit in found
        )
        data_out = {"decisions": [hit.item.model_dump(mode="json") for hit in found]}
        return self.done("memory.recall", "recall", data_out, name=target.name, lines=lines)

    def _memory_search(self, data: Any, project: Project | None) -> ActionDone:
        query = data.query
        scope = None if data.all_projects else (project or self.memory.resolve_project()).id
        results = self.memory.search(query, scope, all_projects=data.all_projects, limit=10)
        if not results.total and project is not None:
            query = self._topic_of(project)  # "something similar" means: like this project
            results = self.memory.search(query, scope, all_projects=data.all_projects, limit=10)
        if data.all_projects and project is not None:
            groups = [g for g in results.groups if g.project.id != project.id]
        else:
            groups = list(results.groups)
        if not groups:
            return self.done("memory.search", "search_none", query=data.query)
        lines = "\n".join(
            f"{g.project.name}:\n"
            + "\n".join(f"  - [{h.kind}] {h.title}: {h.snippet}" for h in g.hits[:3])
            for g in groups
        )
        where = say("all_projects", self.language) if data.all_projects else groups[0].project.name
        out = {"groups": [g.model_dump(mode="json") for g in groups]}
        return self.done("memory.search", "search", out, where=where, lines=lines)

    def _topic_of(self, project: Project) -> str:
        meta = self.memory.metadata(project.id)
        tasks = [t.task_id for t in self.memory.recent_turns(project.id, 10) if t.task_id]
        names = [
            self.services.catalogue.tasks[t].name.en
            for t in tasks
            if t in self.services.catalogue.tasks
        ]
        return " ".join([*names, str(meta.get("problem", "")), str(meta.get("description", ""))])


def _turn_label(turn_id: int | None, language: str) -> str:
    if turn_id is None:
        return ""
    return f" ({'turno' if language == 'es' else 'turn'} #{turn_id})"


def safe_execute(
    executor: ActionExecutor, envelope: ActionEnvelope, project: Project | None
) -> ActionDone:
    """Execute, turning a domain error into a message for the user (the shell carries on)."""
    try:
        return executor.execute(envelope, project)
    except DesignAgentError as e:
        return ActionDone(action=envelope.name, message=e.message, data={"error": type(e).__name__})
