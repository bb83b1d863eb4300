"""/api/v1 providers and settings: list, doctor, use; show and change settings.

The same functions as `providers list|doctor|use` and `config show|set`, so a
change here is the change the CLI would make (settings.yaml in the home).
"""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python

from design_agent.core.errors import DesignAgentError, ExitCode, NotFoundError
from design_agent.server.api_errors import ApiError
from design_agent.server.context import ServerContext
from design_agent.server.deps import context_of, require_admin

router = APIRouter(prefix="/api/v1", tags=["providers", "settings"])

MAX_DOCTOR_SECONDS = 120.0


class UseBody(BaseModel):
    name: str = Field(min_length=1, max_length=100)


@router.get("/providers")
def list_providers(request: Request) -> dict[str, Any]:
    """Every provider: installed or not, its version, and the active one."""
    from design_agent.providers.doctor import list_providers as listed

    context = context_of(request)
    infos = listed(context.adapters(), _settings(context).values)
    return {"providers": [info.as_json() for info in infos]}


@router.get("/providers/{name}/doctor")
def doctor(name: str, request: Request, timeout: float = 60.0) -> dict[str, Any]:
    """Check one provider: installed, `--version` works, a tiny request is answered."""
    from design_agent.providers.doctor import diagnose

    require_admin(request)
    context = context_of(request)
    spec = _adapter(context, name)
    seconds = max(1.0, min(timeout, MAX_DOCTOR_SECONDS))
    return diagnose(spec, _settings(context).values, seconds, named=True).as_json()


@router.post("/providers/use")
def use_provider(body: UseBody, request: Request) -> dict[str, Any]:
    """Make the provider the active one (saved to settings.yaml); 409 if not installed."""
    from design_agent.core.settings import set_setting
    from design_agent.providers.resolve import find_binary

    require_admin(request)
    context = context_of(request)
    note = None
    if body.name != "auto":
        spec = _adapter(context, body.name)
        if not find_binary(spec, _settings(context).values).found:
            message = f"{spec.display_name} is not installed yet: {spec.install_hint}"
            raise ApiError(409, "provider_unavailable", message, ExitCode.PROVIDER_UNAVAILABLE)
    set_setting(context.home, "provider", body.name)
    if os.environ.get("DESIGN_AGENT_PROVIDER", body.name) != body.name:
        note = "DESIGN_AGENT_PROVIDER is set in the server's environment and overrides this"
    return {"provider": body.name, "note": note}


@router.get("/settings")
def show_settings(request: Request) -> dict[str, Any]:
    """Every effective setting and where its value came from (as `config show --json`)."""
    require_admin(request)
    context = context_of(request)
    items = _settings(context).items()
    return {
        "home": str(context.home.root),
        "settings_file": str(context.home.settings_file),
        "settings": {
            i.key: {"value": to_jsonable_python(i.value), "source": i.source} for i in items
        },
    }


@router.patch("/settings")
def change_settings(body: dict[str, Any], request: Request) -> dict[str, Any]:
    """Validate and save each key: value (as `config set`); 422 at the first bad one."""
    from design_agent.core.settings import set_setting
    from design_agent.providers.resolve import check_provider_name

    require_admin(request)
    context = context_of(request)
    if not body:
        raise ApiError(422, "invalid", 'send {key: value}, e.g. {"language": "es"}')
    for key, value in body.items():
        try:
            if key == "provider":
                check_provider_name(str(value), context.adapters())
            set_setting(context.home, str(key), _as_text(value))
        except DesignAgentError as e:
            raise ApiError(422, "invalid", " ".join(e.message.split()), e.exit_code) from e
    return show_settings(request)


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return str(value)


def _settings(context: ServerContext) -> Any:
    from design_agent.core.settings import load_settings

    return load_settings(context.home, {})


def _adapter(context: ServerContext, name: str) -> Any:
    adapters = context.adapters()
    if name not in adapters:
        known = ", ".join(sorted(adapters))
        raise NotFoundError(f"no provider '{name[:80]}'; known providers: {known}")
    return adapters[name]
