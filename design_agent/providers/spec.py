"""AdapterSpec: one `adapters/NAME.yaml` file, validated strictly.

An adapter is data, not code: which binary, which arguments, which stream
parser reads its output, which models per tier, timeouts and the hints shown
when it is missing or logged out. The prompt always goes to stdin; argument
templates may only use the `{model}` and `{system_prompt_file}` placeholders,
so nothing the user types can ever reach the command line.

`binary` is a bare command name (looked up on PATH) or an absolute path,
never a shell command line. `env_passthrough` names, as glob patterns, the
variables of the user's environment the CLI needs (providers/environment.py).
`version_args` is the one command `providers list` may run to read the
version, and only for the bundled adapters: a user's adapter runs only when
the user asks for it (`providers doctor NAME`, `providers test`, a turn).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    ValidationError,
    field_validator,
    model_validator,
)

from design_agent.core.errors import ConfigError
from design_agent.core.paths import DataLayout, bundled_root
from design_agent.core.yamlfile import LocatedYaml, Problem, YamlFileError, load_located
from design_agent.providers.events import Tier

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout
    from design_agent.knowledge.registry import Catalogue

OutputFormat = Literal["claude-stream-json", "gemini-stream-json", "codex-json", "text", "offline"]
AdapterName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]*$", max_length=40)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
# A variable name with glob wildcards; at least one letter, so `*` alone (everything) is refused.
EnvPattern = Annotated[
    str, StringConstraints(pattern=r"^[A-Za-z_*?]*[A-Za-z_][A-Za-z0-9_*?]*$", max_length=100)
]
# A command name on PATH, or an absolute path: no shell syntax, no option, no relative folder.
_BARE_COMMAND = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._+-]*$")
_ABSOLUTE_PATH = re.compile(r"^(/[A-Za-z0-9._+@-]+)+$")

MODEL_FIELD = "model"
FILE_FIELD = "system_prompt_file"
DEFAULT_RATE_LIMIT_SIGNATURES = [
    "rate limit",
    "rate_limit",
    "ratelimit",
    "too many requests",
    "quota exceeded",
    "usage limit",
    "resource_exhausted",
    "resource exhausted",
]
# Limits that last hours or need a plan change (subscription windows, credits, daily
# quotas): checked before the rate-limit ones, whose wording often overlaps.
DEFAULT_QUOTA_SIGNATURES = [
    "usage limit",
    "insufficient_quota",
    "exceeded your current quota",
    "check your plan and billing",
    "daily quota",
    "credit balance is too low",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Models(_Strict):
    """The model for each tier; null leaves the choice to the CLI's own default."""

    fast: str | None = None
    deep: str | None = None


class Timeouts(_Strict):
    """Seconds until the first answer text, between output lines after it, and in all."""

    first_output: float = Field(default=90.0, gt=0)
    idle: float = Field(default=60.0, gt=0)
    total: float = Field(default=600.0, gt=0)


class SystemPrompt(_Strict):
    """How the system prompt reaches the CLI: a file named in argv or env, or stdin.

    `stdin` prepends it to the prompt, for CLIs that take a system prompt only
    as text on the command line (which design-agent never does).
    """

    via: Literal["args", "env", "stdin"] = "stdin"
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _mechanism_is_complete(self) -> SystemPrompt:
        used = {"args": self.args, "env": list(self.env.values()), "stdin": []}[self.via]
        if self.via != "stdin" and not any(FILE_FIELD in _fields(item) for item in used):
            raise ValueError(f"via {self.via} needs a '{{{FILE_FIELD}}}' placeholder in {self.via}")
        if (self.via != "args" and self.args) or (self.via != "env" and self.env):
            raise ValueError(f"with via: {self.via}, only '{self.via}' may be set")
        return self


class LoginProbe(_Strict):
    """How to tell, without a model call, whether the CLI is logged in (providers/login.py).

    Either a status command (`args`, e.g. `claude auth status`), read by its
    exit code, its text or a boolean JSON field; or, for a CLI without one
    (gemini), its settings file, its environment and its stored credentials.
    `env_any` also turns a command's "logged out" into "unknown" (a key in
    the environment may be enough for a headless run).
    """

    # Built when an adapter file is first read: the cached adapters are unpickled (cache.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    args: list[str] | None = None
    logged_out_exit: list[int] = Field(default_factory=list)
    logged_out_text: list[Text] = Field(default_factory=list)
    json_field: str | None = None
    settings_file: str | None = None
    settings_keys: list[Text] = Field(default_factory=list)
    env_any: list[str] = Field(default_factory=list)
    oauth_files: list[str] = Field(default_factory=list)
    timeout: float = Field(default=3.0, gt=0, le=30)

    @model_validator(mode="after")
    def _one_way(self) -> LoginProbe:
        if self.args is None and not (self.settings_file or self.env_any or self.oauth_files):
            raise ValueError("give a status command (args) or settings_file / env_any")
        if self.args is not None and not (
            self.logged_out_exit or self.logged_out_text or self.json_field
        ):
            raise ValueError("args: needs logged_out_exit, logged_out_text or json_field")
        if self.settings_keys and not self.settings_file:
            raise ValueError("settings_keys: needs settings_file")
        return self


class AdapterSpec(_Strict):
    """One AI CLI provider, as declared in its adapter file."""

    # Built when an adapter file is first read: the cached adapters are unpickled (cache.py).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: AdapterName
    display_name: Text
    binary: str | None = None
    args: list[str] = Field(default_factory=list)
    tier_args: dict[Tier, list[str]] = Field(default_factory=dict)
    model_args: list[str] = Field(default_factory=list)
    tail_args: list[str] = Field(default_factory=list)
    prompt: Literal["stdin"] = "stdin"
    system_prompt: SystemPrompt = SystemPrompt()  # frozen, so one shared default is safe
    output: OutputFormat
    models: Models = Models()
    context_limit: int = Field(gt=0)
    env: dict[str, str] = Field(default_factory=dict)
    env_passthrough: list[EnvPattern] = Field(default_factory=list)
    timeouts: Timeouts = Timeouts()
    version_args: list[str] | None = None  # None: `providers list` never runs the binary
    install_hint: Text
    login_hint: Text | None = None
    auth_signatures: list[Text] = Field(default_factory=list)
    auth_exit_codes: list[int] = Field(default_factory=list)
    rate_limit_signatures: list[Text] = Field(
        default_factory=lambda: list(DEFAULT_RATE_LIMIT_SIGNATURES)
    )
    quota_signatures: list[Text] = Field(default_factory=lambda: list(DEFAULT_QUOTA_SIGNATURES))
    login: LoginProbe | None = None  # None: no cheap login check (a turn finds out)
    # Messages meaning the CLI is stuck retrying: stop at once instead of at a timeout.
    stall_signatures: list[Text] = Field(default_factory=list)
    # Set by the loader, never by the file: whether it is one of design-agent's own adapters.
    _bundled: bool = PrivateAttr(default=False)

    @field_validator("binary")
    @classmethod
    def _plain_binary(cls, value: str | None) -> str | None:
        if value is None or _BARE_COMMAND.match(value) or _ABSOLUTE_PATH.match(value):
            return value
        raise ValueError(
            f"'{value}' is not a command name or an absolute path: write the program only "
            "(e.g. 'mycli' or '/opt/mycli/bin/mycli'), put its arguments in args, and no "
            "shell syntax"
        )

    @model_validator(mode="after")
    def _consistent(self) -> AdapterSpec:
        if self.output == "offline":
            return self
        if not self.binary:
            raise ValueError("binary: required for every provider except the offline one")
        _check_placeholders("args", self.args, set())
        for tier, items in self.tier_args.items():
            _check_placeholders(f"tier_args.{tier}", items, set())
        _check_placeholders("model_args", self.model_args, {MODEL_FIELD})
        _check_placeholders("tail_args", self.tail_args, set())
        _check_placeholders("env", list(self.env.values()), set())
        prompt_file = {FILE_FIELD}
        _check_placeholders("system_prompt.args", self.system_prompt.args, prompt_file)
        _check_placeholders("system_prompt.env", list(self.system_prompt.env.values()), prompt_file)
        if self.model_args and not any(MODEL_FIELD in _fields(a) for a in self.model_args):
            raise ValueError(f"model_args: needs a '{{{MODEL_FIELD}}}' placeholder")
        return self

    @property
    def is_offline(self) -> bool:
        return self.output == "offline"

    @property
    def bundled(self) -> bool:
        """Whether this adapter came with design-agent (not from the user's home)."""
        return self._bundled

    def model_for(self, tier: Tier) -> str | None:
        return self.models.deep if tier == "deep" else self.models.fast


def _fields(template: str) -> set[str]:
    """The placeholder names in a str.format template (`{{` is a literal brace)."""
    try:
        return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}
    except ValueError as e:
        raise ValueError(f"bad braces in '{template}': {e} (write a literal brace as {{{{)") from e


def _check_placeholders(where: str, items: list[str], allowed: set[str]) -> None:
    for item in items:
        for field in _fields(item) - allowed:
            if field in {"prompt", "system_prompt", "message", "input"}:
                raise ValueError(
                    f"{where}: '{{{field}}}' is not allowed: the prompt always goes to stdin, "
                    "never on the command line"
                )
            names = ", ".join(f"{{{a}}}" for a in sorted(allowed)) or "none"
            raise ValueError(f"{where}: unknown placeholder '{{{field}}}' (allowed here: {names})")


def adapter_file_problems(name: str, path: Path) -> tuple[AdapterSpec | None, list[Problem]]:
    """Read and validate one adapter file; every problem is returned as path:line."""
    try:
        located = load_located(path)
    except YamlFileError as e:
        return None, [e.problem]
    data = located.data
    if not isinstance(data, dict):
        return None, [located.problem((), "an adapter file must be a mapping of fields")]
    if "name" in data and data["name"] != name:
        message = f"name: '{data['name']}' must match the file name '{name}'"
        return None, [located.problem(("name",), message)]
    try:
        spec = AdapterSpec.model_validate({**data, "name": name})
    except ValidationError as e:
        return None, _problems(located, name, e)
    spec._bundled = path.parent == DataLayout(bundled_root()).adapters_dir
    return spec, []


def _problems(located: LocatedYaml, name: str, error: ValidationError) -> list[Problem]:
    problems = []
    for err in error.errors():
        loc = tuple(err["loc"])
        where = ".".join(str(p) for p in loc)
        message = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            message = "unknown field (check its spelling)"
        label = f"adapter '{name}': {where}: " if where else f"adapter '{name}': "
        problems.append(located.problem(loc, label + message))
    return problems


def adapter_problems(files: Mapping[str, Path]) -> list[Problem]:
    """Every problem in the given adapter files (name -> path), for `design-agent check`."""
    problems: list[Problem] = []
    for name, path in sorted(files.items()):
        problems.extend(adapter_file_problems(name, path)[1])
    return problems


def load_adapter_files(files: Mapping[str, Path]) -> dict[str, AdapterSpec]:
    """Validate every adapter file; raise ConfigError listing all problems with path:line."""
    specs: dict[str, AdapterSpec] = {}
    problems: list[Problem] = []
    for name, path in sorted(files.items()):
        spec, found = adapter_file_problems(name, path)
        problems.extend(found)
        if spec is not None:
            specs[name] = spec
    if problems:
        raise ConfigError.listing([str(p) for p in problems])
    return specs


def load_adapters(catalogue: Catalogue) -> dict[str, AdapterSpec]:
    """Every adapter of the catalogue (bundled, then the user's overlay), validated."""
    return load_adapter_files(catalogue.adapter_files)


def home_adapter_files(home: HomeLayout) -> dict[str, Path]:
    """name -> file of every adapter, bundled then overlay, as the catalogue finds them.

    For commands that need only the adapters: loading the whole catalogue
    (tasks, agents, guides) would cost far more than reading six small files.
    The layers are registry.data_layers' (bundled, then overlay), without
    importing the catalogue layer from here.
    """
    files: dict[str, Path] = {}
    for layer in (DataLayout(bundled_root()), home):
        folder = layer.adapters_dir
        if folder.is_dir():
            found = sorted(p for p in folder.iterdir() if p.is_file())
            files.update({p.stem: p for p in found if p.suffix in {".yaml", ".yml"}})
    return files
