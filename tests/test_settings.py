"""Settings come from flags, then the environment, then settings.yaml, then defaults."""

from __future__ import annotations

import json
import stat

import pytest

from design_agent.core.errors import ConfigError
from design_agent.core.paths import HomeLayout
from design_agent.core.settings import load_settings


def effective(run_cli) -> dict[str, dict[str, object]]:
    return json.loads(run_cli("config", "show", "--json").output)["settings"]


def test_defaults_when_nothing_is_set(run_cli):
    settings = effective(run_cli)
    assert settings["provider"] == {"value": "auto", "source": "default"}
    assert settings["language"] == {"value": "auto", "source": "default"}


def test_file_then_environment_then_flag(run_cli, home, monkeypatch):
    assert run_cli("config", "set", "language", "es").exit_code == 0
    assert effective(run_cli)["language"] == {"value": "es", "source": "file"}
    monkeypatch.setenv("DESIGN_AGENT_LANGUAGE", "en")
    assert effective(run_cli)["language"] == {"value": "en", "source": "env"}
    flagged = load_settings(HomeLayout(home), flags={"language": "es"})
    assert flagged.values.language == "es" and flagged.sources["language"] == "flag"


def test_provider_binary_from_environment(run_cli, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", "/opt/fake/claude")
    assert effective(run_cli)["bins"]["value"] == {"claude": "/opt/fake/claude"}


def test_config_set_validates_before_writing(run_cli, home):
    bad = run_cli("config", "set", "language", "fr")
    assert bad.exit_code == 2 and "language" in bad.stderr
    assert not (home / "settings.yaml").exists()
    unknown = run_cli("config", "set", "colour", "blue")
    assert unknown.exit_code == 2 and "valid keys" in unknown.stderr
    provider = run_cli("config", "set", "provider", "chatgpt-web")
    assert provider.exit_code == 2 and "offline" in provider.stderr


def test_config_set_provider_and_binary(run_cli):
    assert run_cli("config", "set", "provider", "offline").exit_code == 0
    assert run_cli("config", "set", "bins.gemini", "/usr/local/bin/gemini").exit_code == 0
    settings = effective(run_cli)
    assert settings["provider"]["value"] == "offline"
    assert settings["bins"]["value"] == {"gemini": "/usr/local/bin/gemini"}


def test_bad_environment_value_names_the_variable(home, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_TIER", "turbo")
    with pytest.raises(ConfigError, match="DESIGN_AGENT_TIER"):
        load_settings(HomeLayout(home))


def test_settings_file_and_home_are_private(run_cli, home):
    run_cli("config", "set", "verbosity", "brief")
    assert stat.S_IMODE((home / "settings.yaml").stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) == 0o700


def test_unknown_key_in_settings_file_names_its_line(run_cli, home):
    home.mkdir(parents=True)
    (home / "settings.yaml").write_text("language: es\ncolour: blue\n", encoding="utf-8")
    result = run_cli("config", "show")
    assert result.exit_code == 3
    assert f"{home / 'settings.yaml'}:2:" in result.stderr
