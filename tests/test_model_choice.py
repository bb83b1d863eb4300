"""When matching is unsure, the provider's fast model picks among the top candidates.

Every CLI here is the fake CLI (a real executable in tmp_path) replaying a small
claude stream-json recording whose text is the model's JSON reply, or
misbehaving: invalid JSON, an id nobody offered, a hang past the timeout, no
binary at all. Whatever goes wrong, the choice is None and nothing is left
running.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fixtures.fakes import alive, bundled_adapters, claude_run, install_fake, pids_in

from design_agent.core.settings import Settings
from design_agent.knowledge.registry import Catalogue
from design_agent.providers.spec import AdapterSpec
from design_agent.understanding.matching import TaskScore
from design_agent.understanding.model_choice import ModelChoice, choose_with_model, parse_choice

MESSAGE = "what does a patient go through from booking to the follow-up call?"
CANDIDATES = [
    TaskScore(task_id="journey_mapping", score=62.0, band="MEDIUM"),
    TaskScore(task_id="user_flows", score=55.0, band="MEDIUM"),
    TaskScore(task_id="service_blueprint", score=40.0, band="LOW"),
]


@pytest.fixture(scope="module")
def catalogue(bundled_catalogue: Catalogue) -> Catalogue:
    return bundled_catalogue


@pytest.fixture
def claude() -> AdapterSpec:
    return bundled_adapters()["claude"]


@pytest.fixture
def fake_reply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Install a fake claude that answers `text` (or misbehaves per `mode`)."""

    def make(text: str, mode: str = "replay") -> Settings:
        path = install_fake(tmp_path / "bin", "claude")
        recorded = claude_run(tmp_path / "reply.json", text)
        monkeypatch.setenv("FAKE_RECORDING", str(recorded))
        monkeypatch.setenv("FAKE_MODE", mode)
        monkeypatch.setenv("FAKE_LOG", str(tmp_path / "fake-log.json"))
        monkeypatch.setenv("FAKE_PIDS", str(tmp_path / "pids"))
        return Settings(bins={"claude": str(path)})

    return make


def choose(catalogue: Catalogue, spec: AdapterSpec, settings: Settings, **kwargs: object):  # type: ignore[no-untyped-def]
    return choose_with_model(MESSAGE, CANDIDATES, catalogue, spec, settings, None, "en", **kwargs)


def test_the_model_picks_one_of_the_candidates(catalogue, claude, fake_reply, tmp_path):
    settings = fake_reply('{"task": "journey_mapping", "reason": "end-to-end experience"}')
    choice = choose(catalogue, claude, settings)
    assert choice == ModelChoice(task_id="journey_mapping", reason="end-to-end experience")
    sent = json.loads((tmp_path / "fake-log.json").read_text())
    # The fast tier, the message and every candidate with its name reach the CLI.
    assert "sonnet" in sent["argv"]
    assert MESSAGE in sent["stdin"]
    assert all(c.task_id in sent["stdin"] for c in CANDIDATES)
    assert "Customer journey map" in sent["stdin"]
    assert '"task"' in sent["system_prompt"]


def test_a_json_fence_around_the_reply_is_fine(catalogue, claude, fake_reply):
    settings = fake_reply('```json\n{"task": "user_flows", "reason": "steps and screens"}\n```')
    choice = choose(catalogue, claude, settings)
    assert choice is not None and choice.task_id == "user_flows"


def test_the_model_may_say_none_of_them_fits(catalogue, claude, fake_reply):
    settings = fake_reply('{"task": null, "reason": "small talk"}')
    assert choose(catalogue, claude, settings) == ModelChoice(task_id=None, reason="small talk")


@pytest.mark.parametrize(
    "reply",
    [
        "I think it is the journey map.",
        '{"task": "journey_mapping", "reason": ',
        '{"task": 3, "reason": "a number is not an id"}',
        '{"reason": "no task key"}',
    ],
)
def test_a_reply_that_is_not_the_json_object_gives_none(catalogue, claude, fake_reply, reply):
    assert choose(catalogue, claude, fake_reply(reply)) is None


def test_an_id_that_was_not_offered_gives_none(catalogue, claude, fake_reply):
    settings = fake_reply('{"task": "personas", "reason": "not among the candidates"}')
    assert choose(catalogue, claude, settings) is None


def test_a_hanging_cli_is_cancelled_at_the_timeout_and_left_nothing_running(
    catalogue, claude, fake_reply, tmp_path
):
    settings = fake_reply('{"task": "user_flows"}', mode="hang_before")
    started = time.monotonic()
    timeout = 0.5  # the fake never answers: any timeout is reached
    choice = choose(catalogue, claude, settings, timeout=timeout)
    elapsed = time.monotonic() - started
    assert choice is None
    assert elapsed < timeout + 2.0, f"took {elapsed:.1f}s"
    pids = pids_in(tmp_path / "pids")
    assert pids, "the fake CLI never started"
    deadline = time.monotonic() + 1.0
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if alive(pid)]


def test_a_provider_that_is_not_installed_gives_none(catalogue, claude, tmp_path):
    settings = Settings(bins={"claude": str(tmp_path / "no-such-claude")})
    assert choose(catalogue, claude, settings) is None


def test_a_crashing_provider_gives_none(catalogue, claude, fake_reply):
    assert choose(catalogue, claude, fake_reply('{"task": "user_flows"}', mode="crash")) is None


def test_the_offline_provider_is_never_asked(catalogue, tmp_path):
    offline = bundled_adapters()["offline"]
    started = time.monotonic()
    assert choose(catalogue, offline, Settings()) is None
    assert time.monotonic() - started < 0.5


def test_no_candidates_means_nothing_to_choose(catalogue, claude, fake_reply):
    settings = fake_reply('{"task": "user_flows"}')
    assert choose_with_model(MESSAGE, [], catalogue, claude, settings, None, "en") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"task": "user_flows", "reason": "ok"}', "user_flows"),
        ('Sure:\n{"task": "user_flows"}', "user_flows"),
        ('```\n{"task": "user_flows"}\n```', "user_flows"),
        ('{"task": "null"}', None),
    ],
)
def test_parsing_is_strict_about_the_object_and_lenient_about_its_wrapping(text, expected):
    choice = parse_choice(text, ["user_flows", "journey_mapping"])
    assert choice is not None and choice.task_id == expected
