"""A designer whose provider cannot answer: the turn moves along `providers.fallback`.

Each story runs real turns in-process (Pipeline on the temp home: real SQLite,
the real catalogue) with fake Claude / Gemini / Codex CLIs (real executables,
tests/fixtures/fake_cli.py) that print what the real ones print when logged
out, rate-limited (429) or out of quota. What the person sees is the events
(the one fallback line, the footer) and what is stored is the answer's turn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import claude_run, install_fake, pids_in, recording

from design_agent.cli.context import AppContext
from design_agent.cli.turn_view import footer
from design_agent.core.errors import (
    CancelledError,
    DesignAgentError,
    ExitCode,
    ProviderCrashedError,
    ProviderQuotaExhaustedError,
    ProviderRateLimitedError,
)
from design_agent.core.events import ProviderFallback, TaskMatched, TurnFinished, TurnSaved
from design_agent.core.settings import set_setting
from design_agent.knowledge.registry import Catalogue
from design_agent.providers.events import ProviderFailure, TextDelta, TierChosen
from design_agent.turn.pipeline import Pipeline, TurnRequest
from design_agent.turn.session import Services

REQUEST = "We need a usability test plan for the new checkout"
PEDIDO = "Necesitamos un plan de prueba de usabilidad para el nuevo checkout"
CLAUDE_ANSWER = "Claude here: test the checkout with five users."
CHAIN = "claude,gemini,codex,offline"


@dataclass
class Turn:
    """One turn as the person saw it, and the answer's turn as stored."""

    events: list[Any]
    error: DesignAgentError | None
    stored: Any = None
    moves: list[ProviderFallback] = field(default_factory=list)

    @property
    def finished(self) -> TurnFinished:
        return next(e for e in self.events if isinstance(e, TurnFinished))

    @property
    def footer(self) -> str:
        matched = next((e for e in self.events if isinstance(e, TaskMatched)), None)
        return footer(self.finished, matched)


class Desk:
    """A design-agent home with fake AI CLIs on hand (none installed until asked)."""

    def __init__(
        self, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalogue: Catalogue
    ) -> None:
        empty = tmp_path / "empty-bin"
        empty.mkdir()
        self.tmp_path, self.monkeypatch = tmp_path, monkeypatch
        # No review's graded pass: these tests count the fake CLIs' runs of the answer.
        self.environ: dict[str, str] = {"PATH": str(empty), "DESIGN_AGENT_MODEL_REVIEW": "off"}
        self.app = AppContext(str(home))
        self.services = Services(
            self.app.home, catalogue, self.app.memory, {}, environ=self.environ
        )
        self.pipeline = Pipeline(self.services)
        self.pids = tmp_path / "pids"
        monkeypatch.setenv("FAKE_PIDS", str(self.pids))
        monkeypatch.setenv("HOME", str(tmp_path / "user"))  # gemini's settings live here
        monkeypatch.delenv("GEMINI_API_KEY", raising=False)
        monkeypatch.delenv("GOOGLE_API_KEY", raising=False)

    def install(self, name: str, record: str | Path, **fake: str) -> None:
        binary = install_fake(self.tmp_path / "bin", name)
        self.environ[f"DESIGN_AGENT_{name.upper()}_BIN"] = str(binary)
        self.monkeypatch.setenv(f"FAKE_RECORDING_{name.upper()}", str(record))
        for key, value in fake.items():
            self.monkeypatch.setenv(f"FAKE_{key.upper()}", value)
        if name == "gemini":  # gemini has no status command: a key in its environment
            self.monkeypatch.setenv("GEMINI_API_KEY", "fake-key")

    def setting(self, key: str, value: str) -> None:
        set_setting(self.services.home, key, value)

    def turn(self, message: str = REQUEST, cancel_on: type | None = None) -> Turn:
        events: list[Any] = []
        error: DesignAgentError | None = None
        try:
            for event in self.pipeline.run(TurnRequest(message)):
                events.append(event)
                if cancel_on is not None and isinstance(event, cancel_on):
                    self.pipeline.cancel()  # Ctrl-C
        except DesignAgentError as e:
            error = e
        saved = next((e for e in events if isinstance(e, TurnSaved)), None)
        stored = self.services.memory.get_turn(saved.agent_turn_id) if saved else None
        moves = [e for e in events if isinstance(e, ProviderFallback)]
        return Turn(events, error, stored, moves)

    def spawned(self) -> int:
        """How many fake CLI processes have started so far (runs and login probes)."""
        return len(pids_in(self.pids))


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    """The bundled catalogue, loaded once (every test home has the same one)."""
    return AppContext(str(tmp_path_factory.mktemp("catalogue") / "home")).catalogue


@pytest.fixture
def desk(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, catalogue: Catalogue
) -> Iterator[Desk]:
    d = Desk(home, tmp_path, monkeypatch, catalogue)
    yield d
    d.app.close()


@pytest.fixture
def claude_first(desk: Desk, tmp_path: Path) -> Desk:
    """Claude is the provider, Gemini and Codex are installed and logged in, chain set."""
    desk.install("claude", claude_run(tmp_path / "claude.json", CLAUDE_ANSWER))
    desk.install("gemini", recording("run_gemini_stream"))
    desk.install("codex", recording("run_codex_stdin"))
    desk.setting("provider", "claude")
    desk.setting("providers.fallback", CHAIN)
    return desk


def test_a_logged_out_claude_hands_the_turn_to_gemini_and_says_so(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_LOGGED_OUT_CLAUDE", "1")
    turn = claude_first.turn()
    assert turn.error is None
    [move] = turn.moves
    assert (move.from_provider, move.to_provider, move.reason) == ("claude", "gemini",
                                                                   "not_logged_in")  # fmt: skip
    assert move.message == (
        "claude is not logged in: answering with gemini instead (providers.fallback)."
    )
    assert "loggedIn: false" in move.detail
    assert turn.finished.provider == "gemini" and "Hello from fake server" in turn.finished.text
    assert "gemini/" in turn.footer and "claude" not in turn.footer
    assert turn.stored.provider == "gemini" and turn.stored.status == "complete"
    assert claude_first.spawned() == 2  # claude's login probe, then gemini's run: no claude run


def test_the_line_is_in_the_persons_language(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_LOGGED_OUT_CLAUDE", "1")
    [move] = claude_first.turn(PEDIDO).moves
    assert move.message == (
        "claude no tiene la sesión iniciada: respondo con gemini en su lugar (providers.fallback)."
    )


def test_a_429_before_any_text_moves_on(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "http_429")
    turn = claude_first.turn()
    assert turn.error is None
    [move] = turn.moves
    assert (move.from_provider, move.to_provider, move.reason) == ("claude", "gemini",
                                                                   "rate_limited")  # fmt: skip
    assert "429" in move.detail
    # claude's failure is replaced by the line: no failure event reaches the views
    assert not [e for e in turn.events if isinstance(e, ProviderFailure)]
    assert turn.stored.provider == "gemini" and turn.finished.status == "complete"


def test_a_used_up_quota_moves_on_and_a_logged_out_next_one_is_skipped(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "quota")
    monkeypatch.delenv("GEMINI_API_KEY")  # gemini: no key, no settings -> logged out
    turn = claude_first.turn()
    assert turn.error is None
    [move] = turn.moves
    assert (move.from_provider, move.to_provider, move.reason) == ("claude", "codex",
                                                                   "quota_exhausted")  # fmt: skip
    assert "usage limit reached" in move.detail.lower()
    assert turn.stored.provider == "codex" and "Hello from fake server" in turn.stored.message


def test_gemini_with_an_auth_method_in_its_settings_is_ready(claude_first, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "quota")
    monkeypatch.delenv("GEMINI_API_KEY")
    settings = tmp_path / "user" / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "oauth-personal"}}}))
    assert claude_first.turn().stored.provider == "gemini"


def test_after_the_first_token_there_is_no_fallback_and_the_partial_answer_stays(
    claude_first, tmp_path
):
    cut = claude_run(tmp_path / "cut.json", "Claude here: ", "test the checkout ", "with five")
    record = json.loads(cut.read_text())
    record["stdout"] = "".join(record["stdout"].splitlines(keepends=True)[:2])  # no result
    record.update(stderr="Error: 429 Too Many Requests: rate limit exceeded\n", rc=1)
    cut.write_text(json.dumps(record))
    claude_first.monkeypatch.setenv("FAKE_RECORDING_CLAUDE", str(cut))
    turn = claude_first.turn()
    assert isinstance(turn.error, ProviderRateLimitedError)
    assert turn.error.exit_code == ExitCode.PROVIDER_FAILED
    assert turn.moves == []
    assert [e.error for e in turn.events if isinstance(e, ProviderFailure)] == ["rate_limited"]
    assert turn.stored.provider == "claude" and turn.stored.status == "failed"
    assert turn.stored.message == "Claude here: test the checkout "
    assert claude_first.spawned() == 2  # claude's probe and its run; gemini never started


def test_ctrl_c_before_any_text_is_not_a_reason_to_fall_back(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "hang_before")
    turn = claude_first.turn(cancel_on=TierChosen)  # the run is starting: Ctrl-C
    assert isinstance(turn.error, CancelledError)
    assert turn.moves == []
    assert turn.stored.provider == "claude" and turn.stored.status == "cancelled"
    assert not [e for e in turn.events if isinstance(e, TextDelta)]


def test_a_provider_that_is_not_installed_is_skipped_before_the_turn(desk):
    desk.install("gemini", recording("run_gemini_stream"))
    desk.setting("provider", "claude")
    desk.setting("providers.fallback", "claude,gemini")
    turn = desk.turn()
    [move] = turn.moves
    assert (move.from_provider, move.to_provider, move.reason) == ("claude", "gemini",
                                                                   "not_installed")  # fmt: skip
    assert move.message.startswith("claude is not installed: answering with gemini")
    assert turn.stored.provider == "gemini"
    prompt = next(e for e in turn.events if getattr(e, "kind", "") == "prompt")
    assert prompt.provider == "gemini"  # the prompt was built for the one that answers


def test_when_every_provider_fails_the_last_error_names_them_all(claude_first, monkeypatch):
    claude_first.setting("providers.fallback", "claude,codex")
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "http_429")
    monkeypatch.setenv("FAKE_MODE_CODEX", "quota")
    turn = claude_first.turn()
    assert [(m.from_provider, m.to_provider) for m in turn.moves] == [("claude", "codex")]
    assert isinstance(turn.error, ProviderQuotaExhaustedError)
    assert turn.error.exit_code == ExitCode.PROVIDER_FAILED
    assert turn.error.message.startswith(
        "No provider of the fallback chain could answer (claude: is rate-limited, codex: is out "
        "of quota). The last error: Codex has used up its quota or plan limit"
    )
    assert turn.stored.provider == "codex" and turn.stored.status == "failed"


def test_without_a_chain_the_error_ends_the_turn_as_before(claude_first, monkeypatch):
    claude_first.setting("providers.fallback", "none")
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "http_429")
    turn = claude_first.turn()
    assert isinstance(turn.error, ProviderRateLimitedError) and turn.moves == []
    assert "No provider of the fallback chain" not in turn.error.message
    assert claude_first.spawned() == 1  # only claude's run: no login probe without a chain


def test_a_run_that_finds_claude_logged_out_is_remembered_for_the_next_turn(
    claude_first, monkeypatch
):
    # The probe says logged in, but the run says "Not logged in" (an expired token).
    monkeypatch.setenv("FAKE_RECORDING_CLAUDE", recording("noauth_claude_stream"))
    first = claude_first.turn()
    assert [m.reason for m in first.moves] == ["not_logged_in"]
    assert claude_first.spawned() == 3  # probe, claude's run, gemini's run
    second = claude_first.turn()
    assert [m.reason for m in second.moves] == ["not_logged_in"]
    assert claude_first.spawned() == 4  # only gemini's run: claude is known to be logged out


def test_the_chain_is_validated_when_set(run_cli):
    assert run_cli("config", "set", "providers.fallback", CHAIN).exit_code == 0
    shown = run_cli("config", "show", "--json").output
    assert json.loads(shown)["settings"]["providers"]["value"] == {
        "fallback": ["claude", "gemini", "codex", "offline"]
    }
    twice = run_cli("config", "set", "providers.fallback", "claude,gemini,claude")
    assert twice.exit_code == 2 and "'claude' is listed twice" in twice.stderr
    unknown = run_cli("config", "set", "providers.fallback", "claude,gpt9")
    assert unknown.exit_code == 2 and "unknown provider 'gpt9'" in unknown.stderr
    wrong_key = run_cli("config", "set", "providers.chain", "claude")
    assert wrong_key.exit_code == 2 and "providers.fallback" in wrong_key.stderr


def test_crash_before_text_is_not_a_reason_to_fall_back(claude_first, monkeypatch):
    monkeypatch.setenv("FAKE_MODE_CLAUDE", "crash")
    monkeypatch.setenv("FAKE_AFTER", "0")
    turn = claude_first.turn()
    assert isinstance(turn.error, ProviderCrashedError) and turn.moves == []


def test_ask_shows_the_line_and_a_footer_naming_gemini(run_cli, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("GEMINI_API_KEY", "fake-key")
    monkeypatch.setenv("FAKE_LOGGED_OUT_CLAUDE", "1")
    for name, record in (("claude", "run_claude_partial"), ("gemini", "run_gemini_stream")):
        binary = install_fake(tmp_path / "bin", name)
        monkeypatch.setenv(f"DESIGN_AGENT_{name.upper()}_BIN", str(binary))
        monkeypatch.setenv(f"FAKE_RECORDING_{name.upper()}", recording(record))
    assert run_cli("providers", "use", "claude").exit_code == 0
    assert run_cli("config", "set", "providers.fallback", "claude,gemini").exit_code == 0
    result = run_cli("ask", REQUEST)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    line = "claude is not logged in: answering with gemini instead (providers.fallback)."
    assert line in lines
    assert "Hello from fake server" in result.output
    assert " gemini/" in lines[-1] and lines[-1].startswith("──")


def test_with_nobody_ready_the_provider_itself_runs_and_its_error_names_the_chain(
    desk, monkeypatch
):
    desk.install("claude", recording("noauth_claude_stream"))
    monkeypatch.setenv("FAKE_LOGGED_OUT_CLAUDE", "1")
    desk.setting("provider", "claude")
    desk.setting("providers.fallback", "claude,gemini")  # gemini is not installed
    turn = desk.turn()
    assert turn.moves == []
    assert turn.error is not None and turn.error.exit_code == ExitCode.PROVIDER_UNAVAILABLE
    assert turn.error.message.startswith(
        "No provider of the fallback chain could answer (claude: is not logged in, gemini: is "
        "not installed). The last error: Claude Code is not logged in"
    )
    assert "Run 'claude' once and type /login" in turn.error.message
