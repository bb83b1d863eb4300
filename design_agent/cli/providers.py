"""`design-agent providers`: list, check, choose and try the AI CLI providers."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import click

from design_agent.cli.options import Seconds, app_of, json_option
from design_agent.cli.output import print_json, print_table
from design_agent.cli.stdin import read_stdin
from design_agent.core.errors import ExitCode, NotFoundError
from design_agent.core.text import clean_text

if TYPE_CHECKING:
    from design_agent.cli.context import AppContext
    from design_agent.providers.doctor import Diagnosis
    from design_agent.providers.events import Done, TierChosen
    from design_agent.providers.run import ProviderRun
    from design_agent.providers.spec import AdapterSpec

DOCTOR_EXIT = {"ready": 0, "not installed": 4, "not logged in": 4, "broken": 5, "not probed": 0}
LOGIN_MARK = {"logged_in": "yes", "logged_out": "no", "unknown": "?"}  # no probe: "-"


@click.group()
def providers() -> None:
    """List, check, choose and try the AI CLI providers.

    design-agent never calls an AI API itself: it drives the AI CLI you
    already have (Claude Code, Gemini CLI, Codex, or any CLI described by an
    adapters/NAME.yaml file), and falls back to its built-in offline provider.

    \b
    Examples:
      design-agent providers list
      design-agent providers doctor claude
      design-agent providers use gemini
      design-agent providers test claude "Name three usability heuristics"
    """


def _adapters(app: AppContext) -> dict[str, AdapterSpec]:
    from design_agent.providers.spec import home_adapter_files, load_adapter_files

    return load_adapter_files(home_adapter_files(app.home))


def _adapter(adapters: dict[str, AdapterSpec], name: str) -> AdapterSpec:
    if name not in adapters:
        known = ", ".join(sorted(adapters))
        raise NotFoundError(f"no provider '{name}'; known providers: {known}")
    return adapters[name]


@providers.command("list")
@json_option
@click.pass_context
def providers_list(ctx: click.Context, as_json: bool) -> None:
    """List every provider: installed or not, its version, its login, the active one (*).

    Runs only the bundled CLIs' version flags and login checks (`claude auth
    status`, `codex login status`; gemini's settings are read), the login
    answer cached for 5 minutes; your own adapters are shown as "not probed"
    (try one with `providers doctor NAME`).

    \b
    Example:
      design-agent providers list --json
    """
    from design_agent.providers.doctor import list_providers

    app = app_of(ctx)
    adapters = _adapters(app)
    infos = list_providers(adapters, app.settings.values, home=app.home)
    if as_json:
        print_json([info.as_json() for info in infos])
        return
    rows = [
        [
            "*" if i.active else "",
            i.name,
            i.display_name,
            "yes" if i.installed else "no",
            i.version or ("not probed" if i.installed and not i.probed else "-"),
            (i.binary or "built in") if i.installed else "-",
            LOGIN_MARK.get(i.login or "", "-"),
        ]
        for i in infos
    ]
    columns = ["", "name", "provider", "installed", "version", "binary", "login"]
    print_table(None, columns, rows)
    missing = [i for i in infos if not i.installed]
    if missing:
        click.echo("\nTo install:")
        for info in missing:
            click.echo(f"  {info.name}: {info.install_hint}")
    logged_out = [i for i in infos if i.login == "logged_out"]
    if logged_out:
        click.echo("\nTo log in:")
        for info in logged_out:
            click.echo(f"  {info.name}: {adapters[info.name].login_hint or 'log in to it'}")


@providers.command("doctor")
@click.argument("name", required=False)
@click.option(
    "--timeout", type=Seconds(), default=60.0, show_default=True,
    help="Seconds each provider gets to answer the test request.",
)  # fmt: skip
@json_option
@click.pass_context
def providers_doctor(ctx: click.Context, name: str | None, timeout: float, as_json: bool) -> None:
    """Check providers: installed, `--version` works, logged in, a tiny request is answered.

    Prints a verdict per provider (ready / not installed / not logged in /
    broken / not probed) with the fix. With NAME, exits 4 or 5 when it is not
    ready; without, when the active provider is not ready. Your own adapters
    (files in the home) run only when named, and only if they declare
    `version_args`; otherwise they are "not probed".

    \b
    Examples:
      design-agent providers doctor
      design-agent providers doctor gemini --timeout 30
    """
    from design_agent.actions.usage_view import with_usage
    from design_agent.providers.doctor import diagnose
    from design_agent.providers.resolve import resolve_provider

    app = app_of(ctx)
    adapters, settings = _adapters(app), app.settings.values
    names = [_adapter(adapters, name).name] if name else sorted(adapters)
    results = []
    # Probes run side by side; verdicts print in order as soon as each is known.
    # Usage is read only from a database that exists: doctor never creates one.
    usage_db = app.memory.db if app.has_database else None
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        named = name is not None
        diagnoses = pool.map(
            lambda n: diagnose(adapters[n], settings, timeout, named=named, home=app.home), names
        )
        for diagnosis in diagnoses:
            diagnosis = with_usage(diagnosis, usage_db)  # this month's, per provider
            results.append(diagnosis)
            if not as_json:
                _print_diagnosis(diagnosis)
    if as_json:
        print_json([r.as_json() for r in results])
    focus = name or resolve_provider(adapters, settings).name
    verdict = next((r.verdict for r in results if r.name == focus), "ready")
    if DOCTOR_EXIT[verdict]:
        ctx.exit(DOCTOR_EXIT[verdict])


def _print_diagnosis(diagnosis: Diagnosis) -> None:
    mark = "ok" if diagnosis.verdict == "ready" else "!!"
    version = f" [{diagnosis.version}]" if diagnosis.version else ""
    click.echo(f"{mark} {diagnosis.name}: {diagnosis.verdict}{version} - {diagnosis.detail}")
    if diagnosis.fix:
        click.echo(f"   fix: {diagnosis.fix}")
    if diagnosis.used:
        click.echo(f"   {diagnosis.used}")


@providers.command("use")
@click.argument("name")
@click.pass_context
def providers_use(ctx: click.Context, name: str) -> None:
    """Make NAME the active provider (saved to settings.yaml); `auto` picks one.

    auto means the first installed of claude, gemini and codex, else offline.
    A provider that is not installed or not logged in is still made active,
    with a note saying how to install it or log in.

    \b
    Examples:
      design-agent providers use claude
      design-agent providers use auto
    """
    from design_agent.core.settings import set_setting
    from design_agent.providers.resolve import find_binary

    app = app_of(ctx)
    adapters = _adapters(app)
    if name != "auto":
        spec = _adapter(adapters, name)
        if not find_binary(spec, app.settings.values).found:
            click.echo(
                f"note: {spec.display_name} is not installed yet: {spec.install_hint}", err=True
            )
        else:
            _warn_logged_out(app, spec)
    set_setting(app.home, "provider", name)
    click.echo(f"provider = {name}  (saved to {app.home.settings_file})")
    if os.environ.get("DESIGN_AGENT_PROVIDER", name) != name:
        click.echo(
            "note: DESIGN_AGENT_PROVIDER is set in your environment and overrides this", err=True
        )


def _warn_logged_out(app: AppContext, spec: AdapterSpec) -> None:
    """A logged-out provider is still made active (the user may log in next), with a note."""
    from design_agent.core.messages import say
    from design_agent.providers.login import provider_ready

    ready, login = provider_ready(spec, app.settings.values, None, app.home)
    if not ready and login is not None:
        language = app.settings.values.language
        hint = spec.login_hint or "log in to it"
        message = say("login_use_warning", language, name=spec.display_name, detail=login.detail,
                      hint=hint)  # fmt: skip
        click.echo(message, err=True)


@providers.command("test")
@click.argument("name")
@click.argument("prompt")
@click.option(
    "--tier",
    type=click.Choice(["auto", "fast", "deep"]),
    help="Model tier (default: the tier setting; auto routes by the prompt).",
)
@click.option("--model", help="Model to use instead of the adapter's model for the tier.")
@click.option("--system", "system_prompt", default="", help="A system prompt to send with it.")
@json_option
@click.pass_context
def providers_test(
    ctx: click.Context, name: str, prompt: str, tier: str | None, model: str | None,
    system_prompt: str, as_json: bool,
) -> None:  # fmt: skip
    """Send PROMPT to provider NAME through the runner and stream the answer.

    Then prints tokens, cost, time to first token and total time. PROMPT `-`
    reads the prompt from stdin. Ctrl-C stops the CLI and keeps the partial
    answer.

    \b
    Examples:
      design-agent providers test claude "Say hello in five words"
      echo "Compare card sorting and tree testing" | design-agent providers test gemini -
    """
    from design_agent.providers.request import ProviderRequest
    from design_agent.providers.routing import choose_tier
    from design_agent.providers.runner import start

    app = app_of(ctx)
    spec = _adapter(_adapters(app), name)
    settings = app.settings.values
    text = _prompt_text(prompt, name)
    chosen, reason = choose_tier(text, tier or settings.tier)
    # The model setting belongs to the active provider; another one keeps its own.
    if model is None and settings.provider == name:
        model = settings.model
    request = ProviderRequest(
        system_prompt=system_prompt, prompt=text, tier=chosen, tier_reason=reason, model=model
    )
    done = _stream(start(spec, request, settings), quiet=as_json)
    if as_json:
        print_json(done)
    if done.status == "cancelled":
        click.echo("Cancelled; the partial answer is above.", err=True)
        ctx.exit(int(ExitCode.CANCELLED))


def _stream(run: ProviderRun, quiet: bool) -> Done:
    """Print the answer as it arrives (unless quiet), then the figures on stderr."""
    from design_agent.providers.events import Done, TextDelta, TierChosen
    from design_agent.providers.runner import cancel_on_ctrl_c

    tier: TierChosen | None = None
    done: Done | None = None
    try:
        with cancel_on_ctrl_c(run):
            for event in run:
                if isinstance(event, TierChosen):
                    tier = event
                elif isinstance(event, TextDelta) and not quiet:
                    click.echo(clean_text(event.text), nl=False)  # model text: no escapes
                    sys.stdout.flush()
                elif isinstance(event, Done):
                    done = event
    finally:
        # End the streamed line, so figures or an error start on a line of their own.
        if not quiet and run.partial_text and not run.partial_text.endswith("\n"):
            click.echo()
    assert done is not None
    if not quiet:
        click.echo(_figures(done, tier), err=True)
    return done


def _figures(done: Done, tier: TierChosen | None) -> str:
    usage = done.usage
    tokens = (
        f"tokens {_n(usage.input_tokens)} in / {_n(usage.output_tokens)} out"
        if usage else "tokens not reported"
    )  # fmt: skip
    cost = f"cost ${usage.cost_usd:.5f}" if usage and usage.cost_usd is not None else "cost -"
    first = "-" if done.first_token_seconds is None else f"{done.first_token_seconds:.2f} s"
    model = clean_text(done.model or "", one_line=True) or (
        "built in" if done.provider == "offline" else "default model"
    )
    routed = f" ({tier.tier}: {tier.reason})" if tier else ""
    return (
        f"-- {done.provider} · {model}{routed} · {tokens} · {cost} · "
        f"first token {first} · total {done.seconds:.2f} s"
    )


def _n(value: int | None) -> str:
    return "?" if value is None else str(value)


def _prompt_text(prompt: str, name: str) -> str:
    """The prompt to try: as given, or standard input for '-' (one line if it is closed)."""
    if prompt != "-":
        return prompt
    example = f'design-agent providers test {name} "hi"'
    return read_stdin(f"give the prompt as an argument, e.g. {example}")
