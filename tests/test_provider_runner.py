"""Driving real (fake) CLI processes: answers stream, failures are typed, nothing is left behind.

Every fake CLI here is a real executable written into tmp_path that replays
a stream recorded from the real CLI, or misbehaves on purpose.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from fixtures.fakes import (
    alive,
    bundled_adapters,
    install_fake,
    pids_in,
    recording,
    wait_group_gone,
)

from design_agent.core.errors import (
    ExitCode,
    ProviderCrashedError,
    ProviderError,
    ProviderNotAuthenticatedError,
    ProviderNotInstalledError,
    ProviderOutputError,
    ProviderRateLimitedError,
    ProviderTimeoutError,
)
from design_agent.core.settings import Settings
from design_agent.providers.events import Done, ProviderFailure, TextDelta, TierChosen, Usage
from design_agent.providers.request import ProviderRequest
from design_agent.providers.run import ANSWER_LIMIT_BYTES
from design_agent.providers.runner import start
from design_agent.providers.spec import AdapterSpec, Timeouts

ANSWER = "Hello from fake server. <decision>use cards</decision>"
REQUEST = ProviderRequest(system_prompt="You are a design assistant.", prompt="hello")


@pytest.fixture
def adapters() -> dict[str, AdapterSpec]:
    return bundled_adapters()


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Install a fake CLI and configure what it does; returns Settings pointing at it."""

    def make(name: str, recorded: str | None, mode: str = "replay", **env: object) -> Settings:
        path = install_fake(tmp_path / "bin", name)
        if recorded:
            monkeypatch.setenv("FAKE_RECORDING", recording(recorded))
        monkeypatch.setenv("FAKE_MODE", mode)
        monkeypatch.setenv("FAKE_LOG", str(tmp_path / "fake-log.json"))
        for key, value in env.items():
            monkeypatch.setenv(f"FAKE_{key.upper()}", str(value))
        return Settings(bins={name: str(path)})

    return make


def collect(run) -> list:  # type: ignore[no-untyped-def]
    return list(run)


def failing(run, error: type[ProviderError]) -> tuple[list, ProviderError]:  # type: ignore[no-untyped-def]
    events: list = []
    with pytest.raises(error) as caught:
        for event in run:
            events.append(event)
    return events, caught.value


def quick(spec: AdapterSpec, **limits: float) -> AdapterSpec:
    """The same adapter with short timeouts, so hangs end fast in tests."""
    values = {"first_output": 0.5, "idle": 0.5, "total": 5.0, **limits}
    return spec.model_copy(update={"timeouts": Timeouts(**values)})


# -- answers stream --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "recorded", "deltas"),
    [
        ("claude", "run_claude_partial", 5),
        ("claude", "run_claude_stream_stdin", 1),
        ("gemini", "run_gemini_stream", 5),
        ("codex", "run_codex_stdin", 1),
    ],
)
def test_each_cli_answer_streams_and_ends_done(adapters, fake, name, recorded, deltas):
    settings = fake(name, recorded, delay=0.01)
    run = start(adapters[name], REQUEST, settings)
    events = collect(run)
    assert isinstance(events[0], TierChosen) and events[0].provider == name
    texts = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(texts) == deltas and "".join(texts) == ANSWER
    done = events[-1]
    assert isinstance(done, Done) and done.status == "ok" and done.text == ANSWER
    assert done.usage is not None and done.usage.output_tokens == 17
    assert done.first_token_seconds is not None and done.first_token_seconds <= done.seconds
    assert wait_group_gone(run.pgid) == []


def test_text_arrives_while_the_cli_is_still_writing(adapters, fake):
    settings = fake("claude", "run_claude_partial", delay=0.05)
    arrivals = []
    begun = time.monotonic()
    for event in start(adapters["claude"], REQUEST, settings):
        if isinstance(event, TextDelta):
            arrivals.append(time.monotonic() - begun)
    # Five deltas 0.05 s apart: the first is read long before the last is written.
    assert arrivals[-1] - arrivals[0] > 0.15


def test_claude_reports_tokens_and_cost(adapters, fake):
    events = collect(start(adapters["claude"], REQUEST, fake("claude", "run_claude_partial")))
    usage = next(e for e in events if isinstance(e, Usage))
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (11, 17, 0.000288)


def test_prompt_goes_to_stdin_and_system_prompt_to_a_private_file(adapters, fake, tmp_path):
    secret = "my; rm -rf / $(whoami) `id` 'quoted'"
    request = ProviderRequest(system_prompt="SYSTEM RULES", prompt=secret)
    collect(start(adapters["claude"], request, fake("claude", "run_claude_partial")))
    log = json.loads((tmp_path / "fake-log.json").read_text(encoding="utf-8"))
    assert log["stdin"] == secret
    assert not any(secret in arg or "SYSTEM RULES" in arg for arg in log["argv"])
    assert log["system_prompt"] == "SYSTEM RULES"
    prompt_file = Path(log["argv"][log["argv"].index("--system-prompt-file") + 1])
    assert not prompt_file.exists(), "the temporary system prompt file is removed after the run"
    assert not Path(log["cwd"]).exists(), "the CLI ran in a private scratch folder"


def test_gemini_gets_its_system_prompt_through_the_environment(adapters, fake, tmp_path):
    collect(start(adapters["gemini"], REQUEST, fake("gemini", "run_gemini_stream")))
    log = json.loads((tmp_path / "fake-log.json").read_text(encoding="utf-8"))
    assert log["system_prompt"] == REQUEST.system_prompt
    assert log["stdin"] == "hello"


def test_codex_gets_its_system_prompt_prepended_to_stdin(adapters, fake, tmp_path):
    collect(start(adapters["codex"], REQUEST, fake("codex", "run_codex_stdin")))
    log = json.loads((tmp_path / "fake-log.json").read_text(encoding="utf-8"))
    assert log["stdin"].startswith(REQUEST.system_prompt) and log["stdin"].endswith("hello")
    assert log["argv"][-1] == "-"


def test_a_plain_text_cli_streams_chunks_not_lines(adapters, fake):
    settings = fake("ollama", None, mode="text", delay=0.05)
    events = collect(start(adapters["ollama"], REQUEST, settings))
    texts = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(texts) >= 4 and "".join(texts) == "Hello from plain text ñandú\n"
    assert events[-1].status == "ok"


def test_a_plain_text_cli_that_exits_non_zero_fails_with_its_code(adapters, fake):
    settings = fake("llm", None, mode="text", rc=2)
    events, error = failing(start(adapters["llm"], REQUEST, settings), ProviderCrashedError)
    assert "exited with code 2" in error.message
    assert events[-1].text.startswith("Hello from plain text")


def test_a_prompt_larger_than_the_pipe_buffer_is_written_whole(adapters, fake, tmp_path):
    big = "ñ" * 400_000 + " end"  # 800 KB: many times the 64 KB pipe buffer
    request = ProviderRequest(prompt=big)
    collect(start(adapters["codex"], request, fake("codex", "run_codex_stdin")))
    assert json.loads((tmp_path / "fake-log.json").read_text(encoding="utf-8"))["stdin"] == big


def test_without_pidfd_the_runner_polls_and_still_cleans_up(adapters, fake, monkeypatch):
    # Kernels before 5.3 (and other Unixes) have no pidfd: the loop polls for the exit.
    monkeypatch.setattr("design_agent.providers.process._pidfd", lambda pid: None)
    settings = fake("claude", "run_claude_partial", mode="helper_holds_pipes")
    run = start(adapters["claude"], REQUEST, settings)
    assert collect(run)[-1].text == ANSWER
    assert wait_group_gone(run.pgid) == []


# -- robustness of the stream ----------------------------------------------------


def test_noise_blank_lines_and_unknown_events_are_ignored(adapters, fake):
    events = collect(
        start(adapters["claude"], REQUEST, fake("claude", "run_claude_partial", mode="noise"))
    )
    assert events[-1].status == "ok" and events[-1].text == ANSWER


def test_utf8_and_json_split_across_reads(adapters, fake):
    events = collect(start(adapters["claude"], REQUEST, fake("claude", None, mode="split_utf8")))
    assert events[-1].text == "café — ñandú 日本 🎨"


def test_a_50_mb_line_is_read_whole_and_the_answer_kept_is_cut(adapters, fake):
    begun = time.monotonic()
    run = start(adapters["claude"], REQUEST, fake("claude", None, mode="bigline", big_mb=50))
    events = collect(run)
    assert events[-1].status == "ok" and events[-1].truncated
    assert events[-1].text.startswith("ab€ab€") and events[-1].text.endswith("[answer cut at 2 MB]")
    assert len(events[-1].text.encode("utf-8")) <= ANSWER_LIMIT_BYTES + 100
    assert time.monotonic() - begun < 10
    assert wait_group_gone(run.pgid) == []


def test_a_50_mb_line_of_noise_is_skipped(adapters, fake):
    settings = fake("claude", "run_claude_partial", mode="bigline_noise", big_mb=50)
    events = collect(start(adapters["claude"], REQUEST, settings))
    assert events[-1].status == "ok" and events[-1].text == ANSWER


# -- failures are typed, keep the partial text, and leave no process -------------


@pytest.mark.parametrize(
    ("name", "recorded"),
    [("claude", "noauth_claude_stream"), ("gemini", "noauth_gemini_stream"),
     ("codex", "run_codex_nokey")],
)  # fmt: skip
def test_not_logged_in_is_recognised_from_the_recorded_signatures(adapters, fake, name, recorded):
    run = start(adapters[name], REQUEST, fake(name, recorded))
    events, error = failing(run, ProviderNotAuthenticatedError)
    assert error.exit_code == ExitCode.PROVIDER_UNAVAILABLE == 4
    assert "not logged in" in error.message
    assert adapters[name].login_hint.casefold() in error.message.casefold()
    failure = next(e for e in events if isinstance(e, ProviderFailure))
    assert failure.error == "not_authenticated" and failure.exit_code == 4
    assert events[-1].status == "failed"
    # The logged-out notice is an error, never shown as if it were the answer.
    assert "Not logged in" not in events[-1].text
    assert wait_group_gone(run.pgid) == []


def test_crash_mid_stream_keeps_the_partial_text_and_stderr(adapters, fake):
    run = start(
        adapters["claude"], REQUEST, fake("claude", "run_claude_partial", mode="crash", after=6)
    )
    events, error = failing(run, ProviderCrashedError)
    assert error.exit_code == 5 and "exited with code 3" in error.message
    assert "fatal: cannot continue" in error.message and error.stderr_tail
    assert events[-1].text == "Hello from fake server"
    assert wait_group_gone(run.pgid) == []


def test_a_whole_answer_followed_by_a_crash_is_still_a_crash(adapters, fake):
    settings = fake("claude", "run_claude_stream_stdin", mode="crash", after=3)
    events, error = failing(start(adapters["claude"], REQUEST, settings), ProviderCrashedError)
    assert "exited with code 3" in error.message and events[-1].text == ANSWER


def test_killed_by_a_signal(adapters, fake):
    settings = fake("claude", "run_claude_partial", mode="crash_signal", after=6)
    _, error = failing(start(adapters["claude"], REQUEST, settings), ProviderCrashedError)
    assert "killed by SIGKILL" in error.message


def test_stream_without_its_final_result_is_a_failure_with_partial_text(adapters, fake):
    run = start(adapters["gemini"], REQUEST, fake("gemini", "run_gemini_stream", mode="no_result"))
    events, error = failing(run, ProviderCrashedError)
    assert "before its final result" in error.message
    assert events[-1].text == ANSWER and events[-1].status == "failed"


def test_garbage_output_is_unreadable(adapters, fake):
    run = start(adapters["codex"], REQUEST, fake("codex", None, mode="garbage"))
    _, error = failing(run, ProviderOutputError)
    assert "not codex-json output" in error.message and error.exit_code == 5


def test_rate_limit(adapters, fake):
    _, error = failing(
        start(adapters["gemini"], REQUEST, fake("gemini", None, mode="rate_limit")),
        ProviderRateLimitedError,
    )
    assert "rate limited" in error.message and "providers use" in error.message


def test_hang_before_any_output_times_out(adapters, fake):
    run = start(quick(adapters["claude"]), REQUEST, fake("claude", None, mode="hang_before"))
    begun = time.monotonic()
    events, error = failing(run, ProviderTimeoutError)
    assert time.monotonic() - begun < 2.5
    assert "gave no answer within 0.5 s" in error.message
    assert "timeouts.first_output" in error.message
    assert events[-1].text == ""
    assert wait_group_gone(run.pgid) == []


def test_hang_during_output_times_out_and_keeps_the_partial_text(adapters, fake):
    settings = fake("claude", "run_claude_partial", mode="hang_during", after=6)
    run = start(quick(adapters["claude"]), REQUEST, settings)
    events, error = failing(run, ProviderTimeoutError)
    assert "stopped writing for 0.5 s" in error.message
    assert "partial answer was kept" in error.message
    assert events[-1].text == "Hello from fake server"
    assert wait_group_gone(run.pgid) == []


def test_codex_waiting_for_the_network_fails_at_once_not_at_the_timeout(adapters, fake):
    # Recorded: codex without network retries forever, "Reconnecting... waiting for network".
    settings = fake("codex", "noauth_codex_json", mode="hang_during", after=20, delay=0.01)
    begun = time.monotonic()
    run = start(adapters["codex"], REQUEST, settings)  # its first_output timeout is 300 s
    _, error = failing(run, ProviderTimeoutError)
    assert time.monotonic() - begun < 2.5
    assert "Codex cannot reach its service ('Reconnecting... waiting for network" in error.message
    assert wait_group_gone(run.pgid) == []


def test_a_retrying_cli_without_a_stall_signature_ends_at_our_timeout(adapters, fake):
    spec = quick(adapters["codex"]).model_copy(update={"stall_signatures": []})
    settings = fake("codex", "noauth_codex_json", mode="hang_during", after=20)
    _, error = failing(start(spec, REQUEST, settings), ProviderTimeoutError)
    assert "gave no answer within 0.5 s (its last message: 'Reconnecting..." in error.message


def test_total_timeout(adapters, fake):
    settings = fake("gemini", "run_gemini_stream", delay=0.2)
    spec = quick(adapters["gemini"], first_output=5, idle=5, total=0.5)
    _, error = failing(start(spec, REQUEST, settings), ProviderTimeoutError)
    assert "did not finish within 0.5 s" in error.message


def test_not_installed_says_how_to_install(adapters, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    events, error = failing(
        start(adapters["gemini"], REQUEST, Settings()), ProviderNotInstalledError
    )
    assert error.exit_code == 4 and "npm install -g @google/gemini-cli" in error.message
    assert [type(e) for e in events] == [TierChosen, ProviderFailure, Done]


def test_a_bin_setting_that_points_nowhere_says_which_setting(adapters, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", "/nowhere/claude")
    _, error = failing(start(adapters["claude"], REQUEST), ProviderNotInstalledError)
    assert "DESIGN_AGENT_CLAUDE_BIN points to '/nowhere/claude'" in error.message


# -- cancel ----------------------------------------------------------------------


def test_cancel_stops_a_cli_that_ignores_sigint_and_sigterm_within_2_s(adapters, fake, tmp_path):
    pids = tmp_path / "pids"
    settings = fake("claude", "run_claude_partial", mode="ignore_sigint", after=6, pids=pids)
    run = start(adapters["claude"], REQUEST, settings)
    events, cancelled_at = [], None
    for event in run:
        events.append(event)
        if isinstance(event, TextDelta) and cancelled_at is None and "fake server" in event.text:
            cancelled_at = time.monotonic()
            threading.Thread(target=run.cancel).start()  # from another thread
    assert cancelled_at is not None and time.monotonic() - cancelled_at < 2.0
    assert events[-1] == run.result and run.result.status == "cancelled"
    assert run.partial_text == "Hello from fake server"
    assert wait_group_gone(run.pgid) == []  # the stubborn helper went too
    assert len(pids_in(pids)) == 2 and not any(alive(pid) for pid in pids_in(pids))


def test_cancel_from_a_signal_handler_like_ctrl_c(adapters, fake):
    settings = fake("claude", "run_claude_partial", mode="hang_during", after=6)
    run = start(adapters["claude"], REQUEST, settings)
    previous = signal.signal(signal.SIGINT, lambda *_: run.cancel())
    try:
        for event in run:
            if isinstance(event, TextDelta) and "fake server" in event.text:
                os.kill(os.getpid(), signal.SIGINT)  # what Ctrl-C does to us
    finally:
        signal.signal(signal.SIGINT, previous)
    assert run.result.status == "cancelled" and run.partial_text == "Hello from fake server"
    assert wait_group_gone(run.pgid) == []


def blocked_signals(thread: threading.Thread) -> set[int]:
    """The signals `thread` blocks, as the kernel sees them (its SigBlk mask)."""
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text(encoding="utf-8")
    mask = int(
        next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16
    )
    return {number for number in range(1, 65) if mask >> (number - 1) & 1}


def test_ctrl_c_sigterm_and_sighup_never_land_on_the_reader_thread(adapters, fake):
    """The kernel gives a process's signal to any thread that does not block it; on the
    reader it would only set a flag the main thread, waiting for events, never looks at."""
    settings = fake("claude", "run_claude_partial", mode="hang_during", after=6)
    run = start(adapters["claude"], REQUEST, settings)
    blocked: set[int] = set()
    for event in run:
        if isinstance(event, TextDelta) and not blocked:
            reader = next(t for t in threading.enumerate() if t.name == "provider-reader")
            blocked = blocked_signals(reader)
            run.cancel()
    assert {signal.SIGINT, signal.SIGTERM, signal.SIGHUP} <= blocked
    assert signal.SIGINT not in blocked_signals(threading.current_thread())
    assert run.result.status == "cancelled"


def test_ctrl_c_taken_by_another_thread_still_cancels_within_a_moment(adapters, fake):
    settings = fake("claude", "run_claude_partial", mode="hang_during", after=6)
    run = start(quick(adapters["claude"], idle=5), REQUEST, settings)

    def take_ctrl_c() -> None:
        time.sleep(0.3)  # the fake has said all it will: the main thread waits for events
        # This thread does not block SIGINT, so it takes it (as a timer or a reaper might);
        # only the main thread runs the handler, and only once it runs Python code.
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, lambda *_: run.cancel())
    other = threading.Thread(target=take_ctrl_c)
    try:
        for event in run:
            if isinstance(event, TextDelta) and not other.is_alive() and other.ident is None:
                other.start()
        other.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert run.result.status == "cancelled", run.result  # not the idle timeout, 5 s later
    assert run.partial_text == "Hello from fake server"
    assert wait_group_gone(run.pgid) == []


def test_cancel_before_start_spawns_nothing(adapters, fake):
    run = start(adapters["claude"], REQUEST, fake("claude", "run_claude_partial"))
    run.cancel()
    events = collect(run)
    assert [type(e) for e in events] == [TierChosen, Done] and run.pgid is None


def test_leaving_the_loop_early_kills_the_cli(adapters, fake):
    run = start(
        adapters["claude"],
        REQUEST,
        fake("claude", "run_claude_partial", mode="hang_during", after=6),
    )
    for event in run:
        if isinstance(event, TextDelta):
            break  # the loop drops the run's generator, which closes it
    assert wait_group_gone(run.pgid) == []


# -- helpers the CLI leaves behind -----------------------------------------------


@pytest.mark.parametrize("mode", ["helper_holds_pipes", "helper_detached"])
def test_helpers_left_behind_by_the_cli_are_ended(adapters, fake, mode, tmp_path):
    settings = fake("claude", "run_claude_partial", mode=mode, pids=tmp_path / "pids")
    run = start(adapters["claude"], REQUEST, settings)
    events = collect(run)
    assert events[-1].status == "ok" and events[-1].text == ANSWER
    assert wait_group_gone(run.pgid) == []
    assert len(pids_in(tmp_path / "pids")) == 2
    assert not any(alive(pid) for pid in pids_in(tmp_path / "pids"))
