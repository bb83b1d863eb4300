"""Which provider is active, and where each provider's binary is.

Binary lookup: `settings.bins[NAME]` (settings.yaml, or DESIGN_AGENT_<NAME>_BIN
merged in by load_settings) > the DESIGN_AGENT_<NAME>_BIN variable itself >
the adapter's `binary` on PATH. The provider setting "auto" means the first
installed of claude, gemini and codex, else the built-in offline provider,
so a fresh machine still gets a working session.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from design_agent.core.errors import ProviderNotInstalledError, UsageError
from design_agent.core.settings import Settings
from design_agent.providers.spec import AdapterSpec

AUTO_ORDER = ("claude", "gemini", "codex")
OFFLINE = "offline"
Source = Literal["settings", "env", "path", "builtin", "missing"]


@dataclass(frozen=True)
class BinaryLookup:
    """Where a provider's binary was found (or why not)."""

    path: str | None
    source: Source
    configured: str | None = None

    @property
    def found(self) -> bool:
        return self.path is not None or self.source == "builtin"


def bin_variable(name: str) -> str:
    """The environment variable that points at provider `name`'s binary."""
    return f"DESIGN_AGENT_{name.upper().replace('-', '_')}_BIN"


def find_binary(
    spec: AdapterSpec, settings: Settings | None = None, environ: Mapping[str, str] | None = None
) -> BinaryLookup:
    """Locate `spec`'s binary; never raises."""
    if spec.is_offline:
        return BinaryLookup(None, "builtin")
    environ = os.environ if environ is None else environ
    configured = (settings.bins.get(spec.name) if settings else None) or None
    source: Source = "settings"
    if configured is None and environ.get(bin_variable(spec.name)):
        configured, source = environ[bin_variable(spec.name)], "env"
    if configured is None:
        path = shutil.which(spec.binary or "", path=environ.get("PATH"))
        return BinaryLookup(path, "path" if path else "missing")
    return BinaryLookup(_usable(configured, environ), source, configured)


def _usable(configured: str, environ: Mapping[str, str]) -> str | None:
    expanded = os.path.expanduser(configured)
    if os.sep not in expanded:
        return shutil.which(expanded, path=environ.get("PATH"))
    return expanded if os.path.isfile(expanded) and os.access(expanded, os.X_OK) else None


def not_installed_error(spec: AdapterSpec, lookup: BinaryLookup) -> ProviderNotInstalledError:
    """The error for a missing binary, saying how to install it or fix the setting."""
    if lookup.configured:
        where = "settings.yaml (bins)" if lookup.source == "settings" else bin_variable(spec.name)
        message = (
            f"{spec.display_name}: {where} points to '{lookup.configured}', which is not an "
            f"executable file; fix it with 'design-agent config set bins.{spec.name} PATH'"
        )
    else:
        message = (
            f"{spec.display_name} is not installed ('{spec.binary}' is not on PATH). "
            f"Install it: {spec.install_hint}; or set {bin_variable(spec.name)} to its path; "
            "or answer offline: 'design-agent providers use offline'"
        )
    return ProviderNotInstalledError(message, provider=spec.name)


@dataclass(frozen=True)
class Resolution:
    """The active provider, why it was chosen, and the preferred CLIs that are missing."""

    spec: AdapterSpec
    lookup: BinaryLookup
    reason: str
    missing: list[AdapterSpec] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name


def check_provider_name(name: str, names: Iterable[str], allow_auto: bool = True) -> str:
    """`name` if it is one of `names` (or "auto"); UsageError listing the choices otherwise."""
    known = sorted(set(names))
    if name in known or (allow_auto and name == "auto"):
        return name
    choices = ", ".join(["auto", *known] if allow_auto else known)
    raise UsageError(f"unknown provider '{name}'; choose one of: {choices}")


def resolve_provider(
    adapters: Mapping[str, AdapterSpec],
    settings: Settings,
    environ: Mapping[str, str] | None = None,
) -> Resolution:
    """The active provider for `settings.provider` ("auto" or an adapter name)."""
    wanted = settings.provider
    if check_provider_name(wanted, adapters) != "auto":
        spec = adapters[wanted]
        return Resolution(spec, find_binary(spec, settings, environ), "set in settings")
    missing: list[AdapterSpec] = []
    for name in AUTO_ORDER:
        if name not in adapters:
            continue
        lookup = find_binary(adapters[name], settings, environ)
        if lookup.found:
            return Resolution(adapters[name], lookup, f"auto: {name} is installed", missing)
        missing.append(adapters[name])
    if OFFLINE not in adapters:
        raise UsageError("no AI CLI is installed and the offline adapter is missing")
    offline = adapters[OFFLINE]
    return Resolution(offline, find_binary(offline), "auto: no AI CLI installed", missing)


def missing_notice(resolution: Resolution, language: str = "en") -> str | None:
    """What to tell the user when auto fell back to offline: the CLIs not found, how to install."""
    if not resolution.spec.is_offline or not resolution.missing:
        return None
    hints = "\n".join(f"  - {s.display_name}: {s.install_hint}" for s in resolution.missing)
    names = ", ".join(s.binary or s.name for s in resolution.missing)
    if language == "es":
        return (
            f"No se encontró ningún CLI de IA ({names}); respondo en modo offline, desde las "
            f"guías de método. Para respuestas escritas por un modelo, instala uno:\n{hints}"
        )
    return (
        f"No AI CLI found ({names}); answering offline from the method guides. "
        f"For answers written by a model, install one:\n{hints}"
    )
