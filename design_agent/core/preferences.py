"""A project's own preferences (its metadata key "preferences") and where they rank.

Precedence, highest first:

    flag (an `ask` option; "use X from now on" for the rest of the session)
    > environment (DESIGN_AGENT_*) > settings.yaml > the project's preferences
    > the defaults

So a project only fills what the user left unset (`config show` says
"default" for it): an imported project can never pick a provider the user
chose against, and so never sends the briefs somewhere the user did not say.

Bad values never stop a turn. An import drops them with a warning
(memory/export.py); a value stored earlier is checked again on every read and
ignored with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from design_agent.core.settings import EffectiveSettings, Settings

PREFERENCE_KEYS = ("provider", "tier", "verbosity", "language")
RESOLVED_KEYS = ("provider", "tier", "verbosity")  # language follows each message instead
PROVIDER_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


@dataclass(frozen=True)
class ResolvedPreferences:
    """The value of each resolved key, where it came from, and the stored values ignored."""

    values: dict[str, str]
    sources: dict[str, str]
    ignored: list[str] = field(default_factory=list)


def clean_preferences(
    raw: object, providers: Collection[str] | None = None
) -> tuple[dict[str, str], list[str]]:
    """The valid preferences in `raw`, and one message per value left out.

    `providers` are the adapter names of this home; None checks only the form."""
    if raw is None:
        return {}, []
    if not isinstance(raw, dict):
        return {}, [f"preferences: expected key: value pairs, not {type(raw).__name__}"]
    kept: dict[str, str] = {}
    problems: list[str] = []
    for key, value in raw.items():
        problem = _problem(str(key), value, providers)
        if problem is None:
            kept[str(key)] = value
        else:
            problems.append(f"preferences.{key}: {problem}")
    return kept, problems


def _problem(key: str, value: Any, providers: Collection[str] | None) -> str | None:
    if key not in PREFERENCE_KEYS:
        return f"unknown key (valid keys: {', '.join(PREFERENCE_KEYS)})"
    if not isinstance(value, str):
        return f"{value!r} is not a name"
    if key == "provider":
        known = value == "auto" or (value in providers if providers is not None else True)
        if not PROVIDER_NAME.fullmatch(value) or not known:
            choices = f" (choose one of: auto, {', '.join(sorted(providers))})" if providers else ""
            return f"no provider is called '{value}'{choices}"
        return None
    allowed: tuple[str, ...] = get_args(Settings.model_fields[key].annotation)
    if value not in allowed:
        return f"'{value}' is not one of {', '.join(allowed)}"
    return None


def resolve_preferences(
    settings: EffectiveSettings,
    stored: object,
    providers: Collection[str] | None = None,
    flags: Mapping[str, str | None] | None = None,
) -> ResolvedPreferences:
    """Provider, tier and verbosity for one turn: `flags` > the settings the user set
    (flag, env, file) > the project's `stored` preferences > the defaults."""
    kept, problems = clean_preferences(stored, providers)
    values: dict[str, str] = {}
    sources: dict[str, str] = {}
    for key in RESOLVED_KEYS:
        flag = (flags or {}).get(key)
        if flag:
            values[key], sources[key] = flag, "flag"
        elif settings.sources[key] != "default" or key not in kept:
            values[key], sources[key] = str(getattr(settings.values, key)), settings.sources[key]
        else:
            values[key], sources[key] = kept[key], "project"
    unset = [k for k in RESOLVED_KEYS if sources[k] == "default"]
    ignored = [p for p in problems if _concerns(p, unset)]
    return ResolvedPreferences(values, sources, ignored)


def _concerns(problem: str, unset: list[str]) -> bool:
    """Whether a problem is about a value the user left unset (others never matter)."""
    key = problem.split(":", 1)[0].removeprefix("preferences").lstrip(".")
    return key in unset or key == ""
