"""What `providers list` and `providers doctor` report: install state, version, a login probe.

The probe is a real, minimal request through the runner ("reply OK"), so
"ready" means the CLI answered, not merely that a binary exists. Versions are
read concurrently because `gemini --version` alone takes about 3 s.

Only what the user asked for runs: `providers list` and `providers doctor`
run a bundled adapter's declared `version_args` (and doctor its test
request), but a user's adapter (any file in the home, even one named like a
bundled CLI) runs only under `providers doctor NAME`, and only when it
declares `version_args`; otherwise it is "installed (not probed)". A file
dropped in the home must never make `providers list` run `binary: rm`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Literal

from design_agent.core.errors import (
    DesignAgentError,
    ProviderError,
    ProviderNotAuthenticatedError,
    ProviderNotInstalledError,
    ProviderRateLimitedError,
    ProviderTimeoutError,
)
from design_agent.core.settings import Settings
from design_agent.providers.environment import child_environment
from design_agent.providers.login import LoginState, check_login
from design_agent.providers.process import run_quick
from design_agent.providers.request import ProviderRequest
from design_agent.providers.resolve import BinaryLookup, find_binary, resolve_provider
from design_agent.providers.runner import start
from design_agent.providers.spec import AdapterSpec, Timeouts

if TYPE_CHECKING:
    from design_agent.core.paths import HomeLayout

Verdict = Literal["ready", "not installed", "not logged in", "broken", "not probed"]
VERSION_TIMEOUT = 15.0
PROBE = ProviderRequest(
    system_prompt="You are a health check. Reply with exactly: OK",
    prompt="Reply with exactly: OK",
    tier="fast",
    tier_reason="health check",
)


@dataclass(frozen=True)
class ProviderInfo:
    """One row of `providers list`."""

    name: str
    display_name: str
    installed: bool
    binary: str | None
    version: str | None
    active: bool
    install_hint: str
    probed: bool = False  # whether its version command ran (a user's adapter never does here)
    login: LoginState | None = None  # its login probe (providers/login.py), cached; None: not run

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def may_run(spec: AdapterSpec, named: bool = False) -> bool:
    """Whether list/doctor may run `spec`'s binary: it declares `version_args`, and it is
    bundled or the user named it (`providers doctor NAME`)."""
    return spec.version_args is not None and (spec.bundled or named)


def version_of(spec: AdapterSpec, lookup: BinaryLookup) -> tuple[str | None, str | None]:
    """(version, problem): the first line `version_args` prints, or why it failed.

    The caller decides whether it may run (`may_run`); nothing runs without
    declared `version_args`, and the child gets the provider's environment only.
    """
    if spec.is_offline:
        return "built in", None
    if lookup.path is None or spec.version_args is None:
        return None, None
    command = " ".join([spec.binary or spec.name, *spec.version_args])
    env = child_environment(spec, os.environ)
    try:
        result = run_quick([lookup.path, *spec.version_args], VERSION_TIMEOUT, env)
    except OSError as e:
        return None, f"'{command}' could not run: {e}"
    if result.timed_out:
        return None, f"'{command}' did not answer within {VERSION_TIMEOUT:g} s"
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    if result.returncode != 0 or not lines:
        said = [line.strip() for line in result.stderr.splitlines() if line.strip()][-1:]
        return None, f"'{command}' exited with code {result.returncode}: {' '.join(said)}"
    return lines[0][:80], None


def list_providers(
    adapters: Mapping[str, AdapterSpec],
    settings: Settings,
    environ: Mapping[str, str] | None = None,
    home: HomeLayout | None = None,
) -> list[ProviderInfo]:
    """Every adapter: installed or not, its version, its login (cached), the active one."""
    try:
        active: str | None = resolve_provider(adapters, settings, environ).name
    except DesignAgentError:  # an unknown provider in settings: nothing is active
        active = None
    specs = [adapters[name] for name in sorted(adapters)]
    lookups = [find_binary(spec, settings, environ) for spec in specs]
    pairs = zip(specs, lookups, strict=True)
    probed = [spec.is_offline or (bool(look.path) and may_run(spec)) for spec, look in pairs]
    with ThreadPoolExecutor(max_workers=max(1, 2 * len(specs))) as pool:
        logins_later = pool.map(lambda s, k, a: _login_if(s, k, a, home), specs, lookups, probed)
        versions = list(pool.map(_version_if, specs, lookups, probed))
        logins = list(logins_later)
    return [
        ProviderInfo(
            name=spec.name,
            display_name=spec.display_name,
            installed=lookup.found,
            binary=lookup.path,
            version=version,
            active=spec.name == active,
            install_hint=spec.install_hint,
            probed=ran,
            login=login,
        )
        for spec, lookup, version, ran, login in zip(
            specs, lookups, versions, probed, logins, strict=True
        )
    ]


def _version_if(spec: AdapterSpec, lookup: BinaryLookup, allowed: bool) -> str | None:
    return version_of(spec, lookup)[0] if allowed else None


def _login_if(
    spec: AdapterSpec, lookup: BinaryLookup, allowed: bool, home: HomeLayout | None
) -> LoginState | None:
    """The cached login state, for an adapter list may run (see `may_run`) that has a probe."""
    if not allowed or spec.is_offline or spec.login is None:
        return None
    return check_login(spec, lookup.path, home).state


@dataclass(frozen=True)
class Diagnosis:
    """The verdict on one provider, with what to do about it."""

    name: str
    display_name: str
    verdict: Verdict
    detail: str
    fix: str | None = None
    version: str | None = None
    binary: str | None = None
    used: str | None = None  # "used: N turns, X tokens, $Y (this month)" (usage_view.py)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def diagnose(
    spec: AdapterSpec,
    settings: Settings,
    timeout: float = 60.0,
    environ: Mapping[str, str] | None = None,
    named: bool = False,
    home: HomeLayout | None = None,
) -> Diagnosis:
    """Installed? `--version` works? Logged in? A minimal request answers? Each failure
    with its fix.

    A user's adapter is probed only when `named` (see `may_run`). The login
    probe is asked afresh (and cached); when it says "logged out" the test
    request is not sent: it could only fail the same way (or, for codex, hang
    retrying). Otherwise the real test request still decides "ready".
    """
    base = {"name": spec.name, "display_name": spec.display_name}
    if spec.is_offline:
        detail = "built in: answers from the method guides, without an AI model"
        return Diagnosis(**base, verdict="ready", detail=detail, version="built in")
    lookup = find_binary(spec, settings, environ)
    if lookup.path is None:
        return _not_installed(spec, lookup)
    if not may_run(spec, named):
        return _not_probed(spec, lookup.path)
    version, problem = version_of(spec, lookup)
    if problem is not None:
        reinstall = f"reinstall or update it: {spec.install_hint}"
        return Diagnosis(**base, verdict="broken", detail=problem, fix=reinstall,
                         binary=lookup.path)  # fmt: skip
    login = check_login(spec, lookup.path, home, fresh=True)
    if login.logged_out:
        hint = spec.login_hint or "log in to it"
        return Diagnosis(**base, verdict="not logged in", detail=login.detail, fix=hint,
                         version=version, binary=lookup.path)  # fmt: skip
    verdict, detail, fix = _probe(spec, settings, timeout, environ)
    return Diagnosis(**base, verdict=verdict, detail=detail, fix=fix, version=version,
                     binary=lookup.path)  # fmt: skip


def _not_installed(spec: AdapterSpec, lookup: BinaryLookup) -> Diagnosis:
    fix = spec.install_hint
    if lookup.configured:  # a bins setting or DESIGN_AGENT_<NAME>_BIN points nowhere
        fix = f"point it at the real binary: design-agent config set bins.{spec.name} PATH"
    return Diagnosis(
        name=spec.name,
        display_name=spec.display_name,
        verdict="not installed",
        detail=f"'{lookup.configured or spec.binary}' not found",
        fix=fix,
    )


def _not_probed(spec: AdapterSpec, binary: str) -> Diagnosis:
    """A user's adapter that doctor did not run, and how to let it."""
    if spec.version_args is None:
        fix = (
            "add its version flag to its adapter file (e.g. 'version_args: [--version]'), "
            f"then run 'design-agent providers doctor {spec.name}'"
        )
    else:
        fix = f"run 'design-agent providers doctor {spec.name}' to try it"
    detail = "installed; your own adapter runs only when you ask for it by name"
    return Diagnosis(name=spec.name, display_name=spec.display_name, verdict="not probed",
                     detail=detail, fix=fix, binary=binary)  # fmt: skip


def _probe(
    spec: AdapterSpec, settings: Settings, timeout: float, environ: Mapping[str, str] | None
) -> tuple[Verdict, str, str | None]:
    limits = spec.timeouts
    capped = Timeouts(
        first_output=min(limits.first_output, timeout),
        idle=min(limits.idle, timeout),
        total=min(limits.total, timeout),
    )
    run = start(spec.model_copy(update={"timeouts": capped}), PROBE, settings, environ)
    try:
        for _ in run:
            pass
    except ProviderError as e:
        return _verdict_for(spec, e)
    done = run.result
    seconds = f"{done.seconds:.2f} s" if done else "?"
    model = run.model or "its default model"
    return "ready", f"answered a test request in {seconds} ({model})", None


def _verdict_for(spec: AdapterSpec, error: ProviderError) -> tuple[Verdict, str, str | None]:
    if isinstance(error, ProviderNotInstalledError):
        return "not installed", error.message, spec.install_hint
    if isinstance(error, ProviderNotAuthenticatedError):
        return "not logged in", error.message, spec.login_hint or "log in to it"
    if isinstance(error, ProviderRateLimitedError):
        return "broken", error.message, "wait a few minutes, then run doctor again"
    if isinstance(error, ProviderTimeoutError):
        fix = f"check your network and that '{spec.binary}' answers when run on its own"
        return "broken", error.message, fix
    return "broken", error.message, f"update or reinstall it: {spec.install_hint}"
