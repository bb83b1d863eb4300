"""Effective settings and where each value came from.

Precedence: command-line flag > environment (DESIGN_AGENT_*) > settings.yaml
in the home > defaults. `config show` prints every value with its source.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_serializer,
    field_validator,
)

from design_agent.core.errors import ConfigError, UsageError
from design_agent.core.fsutil import write_private_text
from design_agent.core.paths import HomeLayout
from design_agent.core.text import hide_password

ENV_PREFIX = "DESIGN_AGENT_"
Source = Literal["flag", "env", "file", "default"]


class ProviderChoice(BaseModel):
    """`providers.*`: the fallback chain a turn follows when its provider cannot answer
    (not installed, logged out, rate-limited, out of quota); see design_agent/fallback.py."""

    model_config = ConfigDict(extra="forbid")

    fallback: list[str] = Field(
        default_factory=list, description="providers to try in order, e.g. claude,gemini,offline"
    )

    @field_validator("fallback")
    @classmethod
    def _distinct(cls, names: list[str]) -> list[str]:
        seen = [name for i, name in enumerate(names) if name in names[:i]]
        if seen:
            raise ValueError(f"'{seen[0]}' is listed twice")
        return names

    def __str__(self) -> str:
        return f"fallback={','.join(self.fallback) or '-'}"


class BudgetSetting(BaseModel):
    """`budget.*`: a monthly cost budget, in US dollars, that applies to each project's spend
    in the current calendar month (UTC) as the providers report it (see budget.py)."""

    model_config = ConfigDict(extra="forbid")

    monthly_usd: float | None = Field(
        default=None,
        gt=0,
        le=1_000_000,
        allow_inf_nan=False,
        description="e.g. budget.monthly_usd 20",
    )

    def __str__(self) -> str:
        return f"monthly_usd={self.monthly_usd:g}" if self.monthly_usd else "monthly_usd=-"


DATABASE_ENV = ENV_PREFIX + "DATABASE_URL"
DATABASE_SCHEMES = ("sqlite:///", "postgresql://", "postgres://")


class DatabaseSetting(BaseModel):
    """`database.*`: where the memory lives (design_agent/memory/url.py). None: the home's
    own SQLite file; a team's server is postgresql://USER@HOST/DATABASE. Shown without its
    password, always."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(
        default=None,
        description="sqlite:///PATH or postgresql://USER@HOST/DB (none: the home's file)",
    )

    @field_validator("url")
    @classmethod
    def _known(cls, url: str | None) -> str | None:
        if url is None or not url.strip():
            return None
        if not url.strip().lower().startswith(DATABASE_SCHEMES):
            raise ValueError("give sqlite:///PATH or postgresql://USER@HOST/DATABASE")
        return url.strip()

    @field_serializer("url")
    def _shown(self, url: str | None) -> str | None:
        return None if url is None else hide_password(url)

    def __str__(self) -> str:
        return f"url={hide_password(self.url)}" if self.url else "url=- (the home's file)"


class EvidenceSetting(BaseModel):
    """`evidence.*`: how research evidence reaches a provider (design_agent/evidence/)."""

    model_config = ConfigDict(extra="forbid")

    anonymise: bool = Field(
        default=False,
        description="replace people's names by participant ids (P3) in what is sent",
    )

    def __str__(self) -> str:
        return f"anonymise={'on' if self.anonymise else 'off'}"


class Settings(BaseModel):
    """The settings file (`settings.yaml` in the home); every key is optional there."""

    model_config = ConfigDict(extra="forbid")

    provider: str = Field(
        "auto",
        description="AI CLI to use: auto (first installed AI CLI, else offline) or an adapter name",
    )
    model: str | None = Field(None, description="model override for the active provider")
    tier: Literal["auto", "fast", "deep"] = Field(
        "auto", description="model tier: auto routes each request to fast or deep"
    )
    language: Literal["auto", "en", "es"] = Field(
        "auto", description="answer language: auto follows the language of each message"
    )
    verbosity: Literal["brief", "normal", "detailed"] = Field(
        "normal", description="how long answers should be"
    )
    bins: dict[str, str] = Field(
        default_factory=dict, description="path of a provider's binary, e.g. bins.claude"
    )
    providers: ProviderChoice = Field(
        default_factory=ProviderChoice,
        description="providers.fallback: the chain a turn moves along when its provider fails",
    )
    budget: BudgetSetting = Field(
        default_factory=BudgetSetting,
        description="budget.monthly_usd: each project's monthly cost budget (USD); none: off",
    )
    database: DatabaseSetting = Field(
        default_factory=DatabaseSetting,
        description="database.url: the memory's database (env DESIGN_AGENT_DATABASE_URL)",
    )
    evidence: EvidenceSetting = Field(
        default_factory=EvidenceSetting,
        description="evidence.anonymise: names replaced by participant ids (P3) when sent",
    )
    model_review: bool = Field(
        True,
        description="after a real AI CLI's answer, its fast model grades the review's points "
        "a reader judges, quoting the answer; off: the deterministic checks alone",
    )
    keyframe_every: int = Field(
        50,
        ge=1,
        le=10_000,
        description="conversation tree: a full project-state snapshot every N turns, deltas "
        "between",
    )


SETTING_KEYS = tuple(Settings.model_fields)


@dataclass(frozen=True)
class EffectiveSetting:
    key: str
    value: Any
    source: Source


@dataclass(frozen=True)
class EffectiveSettings:
    """The merged settings plus the source of each top-level key."""

    values: Settings
    sources: dict[str, Source]

    def items(self) -> list[EffectiveSetting]:
        return [EffectiveSetting(k, getattr(self.values, k), self.sources[k]) for k in SETTING_KEYS]


def read_settings_file(home: HomeLayout) -> dict[str, Any]:
    """The raw mapping in settings.yaml, validated; {} when the file does not exist. Read
    again only when the file changed (each turn reads the settings: "use gemini from now
    on" may have changed them)."""
    path = home.trusted(home.settings_file)
    try:
        info = path.stat()
    except FileNotFoundError:
        return {}
    identity = (info.st_ino, info.st_mtime_ns, info.st_size)
    known = _read.get(path)
    if known is not None and known[0] == identity:
        return dict(known[1])
    data = _parse_settings(path)
    _read[path] = (identity, data)
    return dict(data)


# settings.yaml as last read, per path: (inode, mtime, size) and its mapping.
_read: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def _parse_settings(path: Path) -> dict[str, Any]:
    # Loaded only for a file to read: most homes have none, and YAML costs start-up time.
    from design_agent.core.yamlfile import YamlFileError, load_located

    try:
        located = load_located(path)
    except YamlFileError as e:
        raise ConfigError(str(e.problem)) from e
    data = located.data or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}:1: settings must be a mapping of key: value")
    try:
        Settings.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(err["loc"])
        raise ConfigError(f"{path}:{located.line_of(loc) or 1}: {_describe(err)}") from e
    return data


def environment_values(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Settings given as DESIGN_AGENT_<KEY> and DESIGN_AGENT_<NAME>_BIN variables."""
    environ = dict(os.environ if environ is None else environ)
    values: dict[str, Any] = {}
    for key in SETTING_KEYS:
        if key not in ("bins", "database", "evidence") and environ.get(ENV_PREFIX + key.upper()):
            values[key] = environ[ENV_PREFIX + key.upper()]
    if environ.get(DATABASE_ENV):
        values["database"] = {"url": environ[DATABASE_ENV]}
    bins = {
        name[len(ENV_PREFIX) : -len("_BIN")].lower(): value
        for name, value in environ.items()
        if name.startswith(ENV_PREFIX) and name.endswith("_BIN") and value
    }
    if bins:
        values["bins"] = bins
    return values


def load_settings(
    home: HomeLayout,
    flags: dict[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> EffectiveSettings:
    """Merge defaults < settings.yaml < environment < flags, remembering each source."""
    layers: list[tuple[Source, dict[str, Any]]] = [
        ("file", read_settings_file(home)),
        ("env", environment_values(environ)),
        ("flag", {k: v for k, v in (flags or {}).items() if v is not None}),
    ]
    # Each turn reads the settings; the same layers validate to the same settings.
    layers_key = repr(layers)
    known = _effective.get(layers_key)
    if known is not None:
        return known
    merged: dict[str, Any] = {}
    sources: dict[str, Source] = {key: "default" for key in SETTING_KEYS}
    for source, values in layers:
        for key, value in values.items():
            if key == "bins":
                merged["bins"] = {**merged.get("bins", {}), **value}
            else:
                merged[key] = value
            sources[key] = source
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as e:
        err = e.errors()[0]
        key = str(err["loc"][0])
        variable = DATABASE_ENV if key == "database" else f"{ENV_PREFIX}{key.upper()}"
        origin = {"env": f"environment variable {variable}", "flag": "option"}
        where = origin.get(sources.get(key, "default"), str(home.settings_file))
        raise ConfigError(f"{where}: {_describe(err)}") from e
    if len(_effective) >= EFFECTIVE_KEPT:
        _effective.clear()
    _effective[layers_key] = EffectiveSettings(values=settings, sources=sources)
    return _effective[layers_key]


# The settings of the last few distinct layer sets, validated (load_settings).
_effective: dict[str, EffectiveSettings] = {}
EFFECTIVE_KEPT = 16


def set_setting(home: HomeLayout, key: str, value: str) -> Any:
    """Validate `key = value` and write it to settings.yaml; return the stored value."""
    data = read_settings_file(home)
    top, _, sub = key.partition(".")
    if top not in SETTING_KEYS:
        raise UsageError(f"unknown setting '{key}'; valid keys: {', '.join(SETTING_KEYS)}")
    if top == "bins":
        if not sub:
            raise UsageError("set a provider binary as bins.NAME, e.g. bins.claude /usr/bin/claude")
        data["bins"] = {**data.get("bins", {}), sub: value}
    elif top == "providers":
        data["providers"] = {**data.get("providers", {}), **_provider_choice(sub, value)}
    elif top == "budget":
        data["budget"] = {**data.get("budget", {}), **_budget(sub, value)}
    elif top == "evidence":
        if sub != "anonymise":
            raise UsageError("set evidence.anonymise on or off, e.g. evidence.anonymise on")
        data["evidence"] = {"anonymise": value.strip().lower() in {"on", "true", "yes", "1"}}
        if value.strip().lower() not in {"on", "off", "true", "false", "yes", "no", "1", "0"}:
            raise UsageError(f"invalid value for {key}: say on or off, not '{value}'")
    elif top == "database":
        if sub != "url":
            raise UsageError("set the database as database.url, e.g. postgresql://me@host/design")
        data["database"] = {"url": None if value.lower() in {"", "none", "null"} else value}
    elif sub:
        raise UsageError(f"setting '{top}' has no sub-keys")
    else:
        data[top] = None if value.lower() in {"", "none", "null"} and top == "model" else value
    try:
        Settings.model_validate(data)
    except ValidationError as e:
        raise UsageError(f"invalid value for {key}: {_describe(e.errors()[0])}") from e
    import yaml

    write_private_text(home.settings_file, yaml.safe_dump(data, sort_keys=True, allow_unicode=True))
    return data["bins"][sub] if top == "bins" else data[top]


def _provider_choice(sub: str, value: str) -> dict[str, Any]:
    """`providers.fallback claude,gemini,offline` as stored (names are checked at the CLI
    edge against the adapters; duplicates by ProviderChoice)."""
    if sub != "fallback":
        raise UsageError("set the fallback chain as providers.fallback, e.g. claude,gemini,offline")
    names = [n.strip().lower() for n in value.split(",") if n.strip()]
    return {"fallback": [] if value.strip().lower() in {"none", "null", "-"} else names}


def _budget(sub: str, value: str) -> dict[str, Any]:
    """`budget.monthly_usd 20` as stored ("none" or "off" turns the budget off)."""
    if sub != "monthly_usd":
        raise UsageError("set the budget as budget.monthly_usd, e.g. budget.monthly_usd 20")
    text = value.strip().lstrip("$")
    if text.lower() in {"", "none", "null", "off", "-"}:
        return {"monthly_usd": None}
    try:
        return {"monthly_usd": float(text)}  # stored as a number, not as the text typed
    except ValueError:
        return {"monthly_usd": text}  # refused by the validation below, with its reason


def _describe(err: Any) -> str:
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else str(err["msg"])
