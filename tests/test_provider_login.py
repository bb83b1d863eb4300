"""Is each AI CLI logged in? The cheap login probes, their cache, and where they show.

The fake CLIs answer `claude auth status` and `codex login status` as the real
ones do (../shared/providers/README.md, "Login probes"); gemini has no such
command, so its settings file and environment are read, in a temp HOME.
Every process a fake starts writes its pid to FAKE_PIDS: that is how a test
sees whether a probe ran or came from the cache.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest
from fixtures.fakes import bundled_adapters, install_fake, pids_in

from design_agent.core.paths import HomeLayout
from design_agent.core.settings import Settings
from design_agent.knowledge.registry import load_catalogue
from design_agent.providers.login import CACHE_FILE, check_login
from design_agent.understanding.matching import TaskScore
from design_agent.understanding.model_choice import choose_with_model

ADAPTERS = bundled_adapters()


@pytest.fixture
def path_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PATH holds only this folder; fakes record their pids; HOME is a fresh user folder."""
    folder = tmp_path / "path-bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("FAKE_PIDS", str(tmp_path / "pids"))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "CODEX_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return folder


def spawned(tmp_path: Path) -> int:
    return len(pids_in(tmp_path / "pids"))


def test_claude_auth_status_says_logged_in_or_out(path_bin, home, monkeypatch):
    binary = str(install_fake(path_bin, "claude"))
    status = check_login(ADAPTERS["claude"], binary, HomeLayout(home))
    assert status.state == "logged_in"
    assert status.detail == "'claude auth status': loggedIn: true, api_key"
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    status = check_login(ADAPTERS["claude"], binary, HomeLayout(home), fresh=True)
    assert status.state == "logged_out" and status.logged_out
    assert status.detail == "'claude auth status': loggedIn: false, none"


def test_codex_login_status_and_an_api_key_in_the_environment(path_bin, home, monkeypatch):
    binary = str(install_fake(path_bin, "codex"))
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    status = check_login(ADAPTERS["codex"], binary, HomeLayout(home))
    assert (status.state, status.detail) == ("logged_out", "'codex login status': Not logged in")
    # `codex login status` does not count OPENAI_API_KEY, but a headless run may use it.
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    status = check_login(ADAPTERS["codex"], binary, HomeLayout(home), fresh=True)
    assert status.state == "unknown" and "OPENAI_API_KEY is set" in status.detail


def test_gemini_is_logged_in_by_its_settings_its_environment_or_its_oauth_file(
    path_bin, tmp_path, monkeypatch
):
    gemini, user = ADAPTERS["gemini"], tmp_path / "user" / ".gemini"
    status = check_login(gemini, None)
    assert status.state == "logged_out"
    assert "no auth method in ~/.gemini/settings.json" in status.detail
    user.mkdir(parents=True)
    (user / "settings.json").write_text(json.dumps({"security": {"auth": {}}}))
    assert check_login(gemini, None).state == "logged_out"  # no method chosen yet
    (user / "settings.json").write_text(
        json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}})
    )
    status = check_login(gemini, None)
    assert status.state == "logged_in" and "auth method 'gemini-api-key'" in status.detail
    (user / "settings.json").unlink()
    (user / "oauth_creds.json").write_text("{}")
    assert check_login(gemini, None).state == "logged_in"
    (user / "oauth_creds.json").unlink()
    monkeypatch.setenv("GEMINI_API_KEY", "key")
    assert check_login(gemini, None).detail == "GEMINI_API_KEY is set"


def test_the_answer_is_cached_for_a_few_minutes_per_binary(path_bin, home, tmp_path):
    layout = HomeLayout(home)
    binary = install_fake(path_bin, "claude")
    first = check_login(ADAPTERS["claude"], str(binary), layout)
    assert spawned(tmp_path) == 1 and not first.cached
    second = check_login(ADAPTERS["claude"], str(binary), layout)
    assert spawned(tmp_path) == 1 and second.cached and second.state == "logged_in"
    assert check_login(ADAPTERS["claude"], str(binary), layout, fresh=True).state == "logged_in"
    assert spawned(tmp_path) == 2  # doctor asks afresh
    os.utime(binary, (time.time() + 5, time.time() + 5))  # an update: a new mtime
    check_login(ADAPTERS["claude"], str(binary), layout)
    assert spawned(tmp_path) == 3
    cache = home / "cache" / CACHE_FILE
    entries = json.loads(cache.read_text())
    assert oct(cache.stat().st_mode & 0o777) == "0o600"
    for entry in entries.values():
        entry["checked_at"] -= 301  # five minutes later
    cache.write_text(json.dumps(entries))
    check_login(ADAPTERS["claude"], str(binary), layout)
    assert spawned(tmp_path) == 4


def test_a_probe_that_hangs_is_unknown_after_its_timeout(path_bin, home, tmp_path):
    hang = path_bin / "claude"
    hang.write_text(f"#!{sys.executable}\nimport time\ntime.sleep(10)\n")
    hang.chmod(0o755)
    spec = ADAPTERS["claude"]
    quick = spec.model_copy(update={"login": spec.login.model_copy(update={"timeout": 0.3})})
    started = time.monotonic()
    status = check_login(quick, str(hang), HomeLayout(home))
    assert time.monotonic() - started < 2
    assert status.state == "unknown" and "did not answer within 0.3 s" in status.detail


def test_doctor_names_the_login_command_without_sending_a_request(
    run_cli, path_bin, tmp_path, monkeypatch
):
    install_fake(path_bin, "claude")
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "request.json"))
    result = run_cli("providers", "doctor", "claude")
    assert result.exit_code == 4
    assert "!! claude: not logged in [fake-cli 1.0.0] - 'claude auth status': loggedIn: false" in (
        result.output
    )
    assert "fix: run 'claude' once and type /login (or 'claude setup-token'" in result.output
    assert not (tmp_path / "request.json").exists()  # no model request was sent


def test_doctor_codex_logged_out_says_codex_login(run_cli, path_bin, monkeypatch):
    install_fake(path_bin, "codex")
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    result = run_cli("providers", "doctor", "codex", "--json")
    [row] = json.loads(result.output)
    assert result.exit_code == 4
    assert (row["verdict"], row["fix"]) == ("not logged in", "run 'codex login' (or set "
                                            "OPENAI_API_KEY)")  # fmt: skip


def test_list_shows_the_login_and_how_to_log_in(run_cli, path_bin, tmp_path, monkeypatch):
    install_fake(path_bin, "claude")
    install_fake(path_bin, "codex")
    monkeypatch.setenv("FAKE_LOGGED_OUT_CODEX", "1")
    rows = {r["name"]: r for r in json.loads(run_cli("providers", "list", "--json").output)}
    logins = {name: row["login"] for name, row in rows.items()}
    assert logins == {"claude": "logged_in", "codex": "logged_out", "gemini": None,
                      "llm": None, "offline": None, "ollama": None}  # fmt: skip
    assert spawned(tmp_path) == 2  # the two probes (a fake's --version leaves no pid)
    text = run_cli("providers", "list").output
    assert "To log in:\n  codex: run 'codex login'" in text
    assert spawned(tmp_path) == 2  # the second list read both logins from the cache


def test_use_keeps_a_logged_out_provider_with_a_note(run_cli, path_bin, home, monkeypatch):
    install_fake(path_bin, "claude")
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    result = run_cli("providers", "use", "claude")
    assert result.exit_code == 0 and "provider = claude" in result.output
    assert "note: Claude Code is not logged in ('claude auth status': loggedIn: false" in (
        result.stderr
    )
    assert "provider: claude" in (home / "settings.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "args", [["--version"], ["--help"], ["providers", "--help"], ["ask", "--help"]]
)
def test_no_probe_runs_on_the_version_or_help_path(run_cli, path_bin, tmp_path, args):
    install_fake(path_bin, "claude")
    install_fake(path_bin, "codex")
    assert run_cli("config", "set", "providers.fallback", "claude,codex,offline").exit_code == 0
    assert run_cli(*args).exit_code == 0
    assert spawned(tmp_path) == 0


def test_the_models_method_choice_skips_a_logged_out_provider(path_bin, tmp_path, monkeypatch):
    binary = install_fake(path_bin, "claude")
    monkeypatch.setenv("FAKE_LOGGED_OUT", "1")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "request.json"))
    catalogue = load_catalogue(HomeLayout(tmp_path / "catalogue-home")).require_valid()
    candidates = [
        TaskScore(task_id="journey_mapping", score=62.0, band="MEDIUM"),
        TaskScore(task_id="user_flows", score=55.0, band="MEDIUM"),
    ]
    settings = Settings(bins={"claude": str(binary)})
    choice = choose_with_model(
        "map the checkout", candidates, catalogue, ADAPTERS["claude"], settings, None, "en"
    )
    assert choice is None
    assert not (tmp_path / "request.json").exists()  # no model run: skipped at the probe
    assert spawned(tmp_path) == 1
