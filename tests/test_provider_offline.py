"""A fresh machine works: with no AI CLI installed, the offline provider answers, and says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.fakes import bundled_adapters, install_fake

from design_agent.core.errors import UsageError
from design_agent.core.settings import Settings
from design_agent.providers.events import Done, TextDelta, TierChosen
from design_agent.providers.request import Grounding, GuideSection, ProviderRequest
from design_agent.providers.resolve import missing_notice, resolve_provider
from design_agent.providers.runner import start

GROUNDING = Grounding(
    task_id="journey_mapping",
    task_name="Journey mapping",
    expected_output=["Journey stages", "Pain points per stage"],
    persona_role="UX Researcher",
    persona_goal="Turn evidence into decisions.",
    sections=[
        GuideSection(guide="journey_mapping.md", heading="Steps", text="1. Pick a persona."),
        GuideSection(guide="journey_mapping.md", heading="Pitfalls", text="- Do not invent data."),
    ],
    project_name="Commuter app",
    project_context={"audience": "daily train commuters"},
    decisions=["Use cards for the timetable"],
)


@pytest.fixture
def no_clis(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH with no AI CLI on it (fakes can be added to it)."""
    bin_dir = tmp_path / "path-bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    return bin_dir


def test_a_fresh_machine_resolves_to_offline_and_says_what_to_install(no_clis):
    resolution = resolve_provider(bundled_adapters(), Settings())
    assert resolution.name == "offline" and resolution.reason == "auto: no AI CLI installed"
    notice = missing_notice(resolution)
    assert notice is not None and "No AI CLI found (claude, gemini, codex)" in notice
    assert "npm install -g @anthropic-ai/claude-code" in notice
    assert "npm install -g @google/gemini-cli" in notice
    assert "instala uno" in (missing_notice(resolution, "es") or "")


def test_auto_picks_the_first_installed_cli(no_clis):
    install_fake(no_clis, "gemini")
    resolution = resolve_provider(bundled_adapters(), Settings())
    assert resolution.name == "gemini" and resolution.lookup.path == str(no_clis / "gemini")
    assert [s.name for s in resolution.missing] == ["claude"]
    assert missing_notice(resolution) is None
    install_fake(no_clis, "claude")
    assert resolve_provider(bundled_adapters(), Settings()).name == "claude"


def test_a_bin_variable_counts_as_installed(no_clis, tmp_path, monkeypatch):
    fake = install_fake(tmp_path / "elsewhere", "codex-nightly")
    monkeypatch.setenv("DESIGN_AGENT_CODEX_BIN", str(fake))
    assert resolve_provider(bundled_adapters(), Settings()).name == "codex"


def test_an_explicit_provider_is_kept_even_when_missing(no_clis):
    resolution = resolve_provider(bundled_adapters(), Settings(provider="claude"))
    assert resolution.name == "claude" and resolution.lookup.path is None


def test_an_unknown_provider_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown provider 'gpt'; choose one of: auto, claude"):
        resolve_provider(bundled_adapters(), Settings(provider="gpt"))


def test_the_offline_answer_is_grounded_honest_and_streamed():
    request = ProviderRequest(prompt="Map the commute journey", grounding=GROUNDING)
    run = start(bundled_adapters()["offline"], request)
    events = list(run)
    assert isinstance(events[0], TierChosen) and events[0].provider == "offline"
    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 5, "it streams block by block like the others"
    done = events[-1]
    assert isinstance(done, Done) and done.status == "ok" and done.text == run.partial_text
    text = done.text
    assert text.startswith("> **Offline answer.**") and "without an AI model" in text
    for expected in ["# Journey mapping: Commuter app", "## 1. Journey stages",
                     "## 2. Pain points per stage", "**audience:** daily train commuters",
                     "**Decided:** Use cards for the timetable", "  - Pick a persona.",
                     "## Pitfalls\n\n- Do not invent data.", "Confidence", "Limitations",
                     "- [journey_mapping.md > Steps]",
                     "- [journey_mapping.md > Pitfalls]"]:  # fmt: skip
        assert expected in text, expected


def test_the_offline_answer_in_spanish():
    request = ProviderRequest(prompt="Mapa del recorrido", grounding=GROUNDING, language="es")
    text = list(start(bundled_adapters()["offline"], request))[-1].text
    assert "Respuesta offline" in text and "## Fuentes" in text and "Confianza" in text
    assert "Pick a persona" in text, "a guide with no Spanish version is used as it is"


def test_without_grounding_it_says_it_found_no_method():
    text = list(start(bundled_adapters()["offline"], ProviderRequest(prompt="hmm")))[-1].text
    assert "could not match this request to a design method" in text
    assert "none: no guide section matched" in text


def test_cancelling_the_offline_provider_keeps_what_was_said():
    run = start(bundled_adapters()["offline"], ProviderRequest(prompt="x", grounding=GROUNDING))
    for event in run:
        if isinstance(event, TextDelta):
            run.cancel()
    assert run.result is not None and run.result.status == "cancelled"
    assert run.result.text == run.partial_text and run.partial_text.startswith("> **Offline")


def test_a_brief_offline_answer_has_the_merged_parts_the_prompt_asks_for(home):
    from test_ask import ask

    env = {"DESIGN_AGENT_PROVIDER": "offline"}
    assert ask(home, "config", "set", "verbosity", "brief").returncode == 0
    answered = ask(home, "ask", "Plan a usability test for the checkout flow", env=env)
    assert answered.returncode == 0, answered.stderr
    headings = [line for line in answered.stdout.splitlines() if line.startswith("## ")]
    assert headings[:3] == [
        "## 1. Research goals and questions / Participant criteria and recruiting plan",
        "## 2. Tasks and scenarios / Success metrics",
        "## 3. Session format, roles and script outline / Schedule and logistics",
    ]
