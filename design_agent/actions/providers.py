"""Changing the AI CLI by talking: "use Gemini from now on".

The provider is checked before anything is written: one that is not installed
is refused with its install command, and the current provider stays (the
error converts to exit 4 in `ask`; the shell prints it and carries on). The
built-in offline provider is always ready.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from design_agent.actions.base import ActionContext, ActionResult, action
from design_agent.core.errors import ProviderNotInstalledError, UsageError
from design_agent.core.settings import set_setting
from design_agent.providers.resolve import bin_variable, check_provider_name
from design_agent.understanding.inputs import ProviderName

if TYPE_CHECKING:
    from design_agent.turn.session import Services

ENV_VARIABLE = "DESIGN_AGENT_PROVIDER"


@action("providers", "use", ProviderName)
def use(data: ProviderName, ctx: ActionContext) -> ActionResult:
    """Make `data.name` the provider for this and later sessions, if it is ready."""
    services = ctx.services
    name = require_ready(data.name, ctx)
    spec = services.adapters[name]
    set_setting(services.home, "provider", name)
    services.setting_flags["provider"] = name  # wins over flags for the rest of this session
    done = ctx.done(
        "providers.use",
        "provider_set",
        {"provider": name},
        display=spec.display_name,
        warning=_environment_warning(services, name, ctx),
    )
    return ActionResult(done)


def require_ready(name: str, ctx: ActionContext) -> str:
    """The adapter name `name` means, if that provider is installed; a one-line error
    naming how to install it (and what stays in use) otherwise."""
    services = ctx.services
    name = _known(name.strip().lower(), services, ctx)
    lookup = services.resolve(name).lookup
    if not lookup.found:
        raise _not_ready(services, name, lookup.configured, ctx)
    return name


def _known(name: str, services: Services, ctx: ActionContext) -> str:
    try:
        return check_provider_name(name, services.adapters, allow_auto=False)
    except UsageError as e:
        choices = ", ".join(sorted(services.adapters))
        raise UsageError(ctx.say("provider_unknown", name=name, choices=choices)) from e


def _not_ready(
    services: Services, name: str, configured: str | None, ctx: ActionContext
) -> ProviderNotInstalledError:
    """'Gemini CLI is not installed (npm install -g ...); still using Claude Code.'"""
    spec = services.adapters[name]
    current = services.resolve().spec.display_name
    if configured:
        message = ctx.say(
            "provider_bad_path",
            display=spec.display_name,
            path=configured,
            variable=bin_variable(name),
            current=current,
        )
    else:
        message = ctx.say(
            "provider_not_installed",
            display=spec.display_name,
            hint=spec.install_hint,
            current=current,
        )
    return ProviderNotInstalledError(message, provider=name)


def _environment_warning(services: Services, name: str, ctx: ActionContext) -> str:
    environ = os.environ if services.environ is None else services.environ
    value = environ.get(ENV_VARIABLE, name)
    return "" if value == name else ctx.say("provider_env", value=value)
