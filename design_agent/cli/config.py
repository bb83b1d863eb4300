"""`design-agent config`: show the effective settings and change them."""

from __future__ import annotations

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import print_json, print_table


@click.group()
def config() -> None:
    """Show and change settings (stored in settings.yaml in the home).

    Precedence: command-line flag > environment (DESIGN_AGENT_PROVIDER,
    DESIGN_AGENT_LANGUAGE, DESIGN_AGENT_TIER, DESIGN_AGENT_VERBOSITY,
    DESIGN_AGENT_MODEL, DESIGN_AGENT_<NAME>_BIN, DESIGN_AGENT_DATABASE_URL) >
    settings.yaml > defaults.

    \b
    Examples:
      design-agent config show
      design-agent config set language es
    """


@config.command("show")
@json_option
@click.pass_context
def config_show(ctx: click.Context, as_json: bool) -> None:
    """Print every effective setting and where its value came from.

    \b
    Example:
      design-agent config show --json
    """
    app = app_of(ctx)
    items = app.settings.items()
    if as_json:
        print_json(
            {
                "home": str(app.home.root),
                "settings_file": str(app.home.settings_file),
                "settings": {i.key: {"value": i.value, "source": i.source} for i in items},
            }
        )
        return
    rows = [[i.key, _show(i.value), i.source] for i in items]
    rows.append(["home", str(app.home.root), "flag/env/default"])
    print_table(None, ["setting", "value", "source"], rows)


@config.command("set")
@click.argument("key")
@click.argument("value")
@click.pass_context
def config_set(ctx: click.Context, key: str, value: str) -> None:
    """Validate KEY = VALUE and save it to settings.yaml.

    Keys: provider, model, tier (auto|fast|deep), language (auto|en|es),
    verbosity (brief|normal|detailed), bins.NAME (path of a provider binary),
    providers.fallback (e.g. claude,gemini,offline: who answers when one cannot),
    budget.monthly_usd (each project's monthly spend on providers that report cost;
    "none" removes it), database.url (the memory's database: sqlite:///PATH or
    postgresql://USER@HOST/DB; "none": the home's file).

    \b
    Examples:
      design-agent config set provider gemini
      design-agent config set providers.fallback claude,gemini,codex,offline
      design-agent config set budget.monthly_usd 20
      design-agent config set bins.claude /opt/claude/bin/claude
    """
    from design_agent.core.settings import set_setting

    app = app_of(ctx)
    if key == "provider":
        from design_agent.providers.resolve import check_provider_name

        check_provider_name(value, {"offline", *app.raw_catalogue.adapter_files})
    if key == "providers.fallback":  # the chain: adapter names only (design_agent/fallback.py)
        from design_agent.providers.resolve import check_provider_name

        for name in filter(None, (n.strip().lower() for n in value.split(","))):
            if name not in {"none", "null", "-"}:
                known = {"offline", *app.raw_catalogue.adapter_files}
                check_provider_name(name, known, allow_auto=False)
    stored = set_setting(app.home, key, value)
    click.echo(f"{key} = {_show(stored)}  (saved to {app.home.settings_file})")


def _show(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "-"
    return "-" if value is None else str(value)
