"""The action envelope: a meta-request as `{module, method, input}`, strictly validated.

What the user says about projects, providers, files, decisions, the history,
the catalogue or the conversation itself becomes one of these envelopes; a
handler carries it out, never the model. The input is checked against the
model declared for it in inputs.py (`INPUTS`), which its handler registers with.
Unknown modules, methods and input fields are rejected.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Module = Literal[
    "tree",
    "projects",
    "providers",
    "memory",
    "files",
    "decisions",
    "history",
    "catalogue",
    "conversation",
    "usage",
]


class ActionEnvelope(BaseModel):
    """One meta-request, validated against the input model of its (module, method)."""

    # Built when first used: a design request never makes one.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    module: Module
    method: str = Field(min_length=1, max_length=40)
    input: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _input_matches_method(self) -> ActionEnvelope:
        from design_agent.understanding.inputs import INPUTS  # only with a meta-request

        model = INPUTS.get((self.module, self.method))
        if model is None:
            raise ValueError(f"unknown action {self.module}.{self.method}")
        model.model_validate(self.input)
        return self

    @property
    def name(self) -> str:
        """ "module.method", as logged and shown."""
        return f"{self.module}.{self.method}"

    def typed_input(self) -> Any:
        """The input as its declared model (defaults filled in)."""
        from design_agent.understanding.inputs import INPUTS

        return INPUTS[(self.module, self.method)].model_validate(self.input)
