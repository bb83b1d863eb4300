"""The input model of every action: what `{module, method, input}` may carry, strictly.

intents.py fills these from what the user said; each handler module registers
the one it takes beside its handler (`@action("projects", "delete", DeleteProject)`).
Every model is strict (no coercion: a count is an int, not "5"), rejects unknown
fields and bounds its strings, so an envelope read back from a log or typed by
hand cannot smuggle anything else in. The empty ones use `base.NoInput`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from design_agent.memory.usage import GroupBy

__all__ = [
    "AddFile",
    "CreateProject",
    "DeleteProject",
    "HistoryCount",
    "ListDecisions",
    "NewMethod",
    "NoInput",
    "ProjectName",
    "ProviderName",
    "Recall",
    "RecordDecision",
    "RenameProject",
    "ReplaceDecision",
    "Rerender",
    "RetireDecision",
    "Search",
    "SmallTalk",
]


class ActionInput(BaseModel):
    """Base of every action's input model: strict, nothing extra. Each is built when first
    used, not at import: a process runs few actions, often none."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class NoInput(ActionInput):
    pass


NAME_MAX = 120
QUERY_MAX = 2000
TEXT_MAX = 1000
PATH_MAX = 4096
HISTORY_MAX = 200


class _Strict(ActionInput):
    model_config = ConfigDict(strict=True)


class CreateProject(_Strict):
    """projects.create: a None name means the handler asks for one (once)."""

    name: str | None = Field(None, min_length=1, max_length=NAME_MAX)
    description: str | None = Field(None, min_length=1, max_length=500)


class ProjectName(_Strict):
    """projects.switch."""

    name: str = Field(min_length=1, max_length=NAME_MAX)


class DeleteProject(_Strict):
    """projects.delete: a None name means the active project."""

    name: str | None = Field(None, min_length=1, max_length=NAME_MAX)


class RenameProject(_Strict):
    """projects.rename: a None `old` means the active project."""

    old: str | None = Field(None, min_length=1, max_length=NAME_MAX)
    new: str = Field(min_length=1, max_length=NAME_MAX)


class ProviderName(_Strict):
    """providers.use: an adapter name, such as "gemini" or "offline"."""

    name: str = Field(min_length=1, max_length=40)


class Recall(_Strict):
    """memory.recall: a question about a past decision, as asked."""

    query: str = Field(min_length=1, max_length=QUERY_MAX)


class Search(_Strict):
    """memory.search: words to look for, in this project or all of them."""

    query: str = Field(min_length=1, max_length=QUERY_MAX)
    all_projects: bool = False


class AddFile(_Strict):
    """files.add: the path as the user typed it (it may not exist or be a folder)."""

    path: str = Field(min_length=1, max_length=PATH_MAX)
    file_type: Literal["brief", "research", "design", "other"] = "brief"


class RecordDecision(_Strict):
    """decisions.record: what was decided and why ("" when no reason was given)."""

    decision: str = Field(min_length=1, max_length=TEXT_MAX)
    rationale: str = Field("", max_length=TEXT_MAX)


class ListDecisions(_Strict):
    """decisions.list: this branch's current decisions, or (`all_branches`) every branch's."""

    all_branches: bool = False


class ReplaceDecision(_Strict):
    """decisions.supersede: the new version and why; the decision it replaces is named by
    some of its words (`target`), is the latest one (`last`), or (neither) is found by the
    words it shares with the new version."""

    decision: str = Field(min_length=1, max_length=TEXT_MAX)
    rationale: str = Field("", max_length=TEXT_MAX)
    target: str | None = Field(None, min_length=1, max_length=TEXT_MAX)
    last: bool = False


class RetireDecision(_Strict):
    """decisions.retire: the decision no longer current, named by some of its words
    (`target`) or the latest one (`last`), and why ("" when no reason was given)."""

    target: str | None = Field(None, min_length=1, max_length=TEXT_MAX)
    last: bool = False
    rationale: str = Field("", max_length=TEXT_MAX)

    @model_validator(mode="after")
    def _names_one(self) -> RetireDecision:
        if self.target is None and not self.last:
            raise ValueError("retiring a decision needs some of its words, or the last one")
        return self


class HistoryCount(_Strict):
    """history.show: how many of the last turns to show."""

    count: int = Field(10, ge=1, le=HISTORY_MAX)


class TreeTarget(_Strict):
    """tree.goto: a turn number ("12", "#12") or a branch name."""

    target: str = Field(min_length=1, max_length=80)


class TreeBack(_Strict):
    """tree.back: where to go back to, by turn number or branch name, or by a decision
    ("before we chose X"); one of the two."""

    target: str | None = Field(None, min_length=1, max_length=80)
    decision: str | None = Field(None, min_length=1, max_length=TEXT_MAX)

    @model_validator(mode="after")
    def _one_of_them(self) -> TreeBack:
        if (self.target is None) == (self.decision is None):
            raise ValueError("going back needs a turn or branch, or a decision")
        return self


class Compare(_Strict):
    """conversation.compare: the providers to answer the last request (one: the current
    provider and that one)."""

    providers: list[str] = Field(min_length=1, max_length=2)


class TreeRename(_Strict):
    """tree.rename: a branch (by name or a turn number on it) and its new name."""

    target: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=80)


class TreeFork(_Strict):
    """tree.fork: the turn to fork from (None: where the conversation is) and a name."""

    turn: int | None = Field(None, ge=1)
    name: str | None = Field(None, min_length=1, max_length=80)


class SmallTalk(_Strict):
    """conversation.small_talk: what kind of pleasantry to answer."""

    kind: Literal["greeting", "thanks", "how_are_you", "bye"]


class Rerender(_Strict):
    """conversation.rerender: the last answer again, shorter/longer and/or in a language."""

    verbosity: Literal["brief", "detailed"] | None = None
    language: Literal["en", "es"] | None = None
    # "try that again with gemini": the same request on another provider, as a sibling.
    provider: str | None = Field(None, min_length=1, max_length=40)

    @model_validator(mode="after")
    def _asks_for_something(self) -> Rerender:
        if self.verbosity is None and self.language is None and self.provider is None:
            raise ValueError("a rerender needs a verbosity, a language or a provider")
        return self


class NewMethod(_Strict):
    """catalogue.new_method: what the team's new method is for, as said ("pricing page
    reviews"), or None."""

    about: str | None = Field(None, min_length=1, max_length=200)


class UsageShow(ActionInput):
    """Group by provider, model, day or project; every project's answers, or the active one's."""

    by: GroupBy = "provider"
    all_projects: bool = False


class MakeReport(ActionInput):
    """projects.report: a None name means the active project."""

    model_config = ConfigDict(strict=True)

    name: str | None = Field(None, min_length=1, max_length=120)
    format: Literal["md", "html", "pdf"] = "md"


# Every action a message may be read as, and what it may carry: the one place both the
# envelope (what a message means) and the handler registered for it (actions/) agree on.
INPUTS: dict[tuple[str, str], type[ActionInput]] = {
    ("catalogue", "methods"): NoInput,
    ("catalogue", "new_method"): NewMethod,
    ("conversation", "cancel"): NoInput,
    ("conversation", "compare"): Compare,
    ("conversation", "help"): NoInput,
    ("conversation", "rerender"): Rerender,
    ("conversation", "small_talk"): SmallTalk,
    ("decisions", "list"): ListDecisions,
    ("decisions", "record"): RecordDecision,
    ("decisions", "retire"): RetireDecision,
    ("decisions", "supersede"): ReplaceDecision,
    ("files", "add"): AddFile,
    ("history", "show"): HistoryCount,
    ("memory", "recall"): Recall,
    ("memory", "search"): Search,
    ("projects", "create"): CreateProject,
    ("projects", "delete"): DeleteProject,
    ("projects", "list"): NoInput,
    ("projects", "rename"): RenameProject,
    ("projects", "report"): MakeReport,
    ("projects", "switch"): ProjectName,
    ("providers", "use"): ProviderName,
    ("tree", "back"): TreeBack,
    ("tree", "branches"): NoInput,
    ("tree", "fork"): TreeFork,
    ("tree", "goto"): TreeTarget,
    ("tree", "rename"): TreeRename,
    ("tree", "show"): NoInput,
    ("usage", "show"): UsageShow,
}
