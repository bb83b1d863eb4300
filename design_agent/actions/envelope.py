"""The action envelope: a meta-request as `{module, method, input}`, strictly validated.

What the user says about projects, providers, files and past decisions becomes
one of these envelopes; the memory or provider layer executes it, never the
model. Unknown modules, methods or input fields are rejected.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NoInput(_Input):
    pass


class ProjectName(_Input):
    name: str = Field(min_length=1, max_length=120)


class CreateProject(_Input):
    name: str | None = Field(None, max_length=120)
    description: str | None = None


class RenameProject(_Input):
    old: str | None = None
    new: str = Field(min_length=1, max_length=120)


class ProviderName(_Input):
    name: str = Field(min_length=1, max_length=40)


class Recall(_Input):
    query: str = Field(min_length=1)


class Search(_Input):
    query: str = Field(min_length=1)
    all_projects: bool = False


class AddFile(_Input):
    path: str = Field(min_length=1)
    file_type: Literal["brief", "research", "design", "other"] = "brief"


INPUTS: dict[tuple[str, str], type[_Input]] = {
    ("projects", "create"): CreateProject,
    ("projects", "switch"): ProjectName,
    ("projects", "list"): NoInput,
    ("projects", "delete"): ProjectName,
    ("projects", "rename"): RenameProject,
    ("providers", "use"): ProviderName,
    ("memory", "recall"): Recall,
    ("memory", "search"): Search,
    ("files", "add"): AddFile,
}


class ActionEnvelope(BaseModel):
    """One meta-request, validated against the input model of its (module, method)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    module: Literal["projects", "providers", "memory", "files"]
    method: str
    input: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _input_matches_method(self) -> ActionEnvelope:
        model = INPUTS.get((self.module, self.method))
        if model is None:
            raise ValueError(f"unknown action {self.module}.{self.method}")
        model.model_validate(self.input)
        return self

    @property
    def name(self) -> str:
        return f"{self.module}.{self.method}"

    def typed_input(self) -> Any:
        return INPUTS[(self.module, self.method)].model_validate(self.input)
