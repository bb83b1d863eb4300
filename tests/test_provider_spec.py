"""Adapters are data: a strict model validates every adapter file, with file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures.fakes import bundled_adapters

from design_agent.core.errors import ConfigError
from design_agent.providers.spec import adapter_problems, load_adapter_files

GOOD = """\
display_name: My CLI
binary: mycli
args: [ask, --plain]
model_args: [--model, "{model}"]
output: text
models: {fast: small, deep: large}
context_limit: 16000
install_hint: pipx install mycli
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_for(tmp_path: Path, text: str, name: str = "mycli") -> list[str]:
    path = write(tmp_path / "adapters", name, text)
    return [str(p) for p in adapter_problems({name: path})]


def test_the_bundled_adapters_are_valid():
    adapters = bundled_adapters()
    assert sorted(adapters) == ["claude", "codex", "gemini", "llm", "offline", "ollama"]
    assert {a.output for a in adapters.values()} == {
        "claude-stream-json",
        "gemini-stream-json",
        "codex-json",
        "text",
        "offline",
    }
    for spec in adapters.values():
        assert spec.prompt == "stdin" and spec.install_hint
        assert spec.context_limit > 0 and spec.timeouts.first_output > 0


def test_a_new_cli_is_one_yaml_file(tmp_path):
    assert problems_for(tmp_path, GOOD) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("binary: mycli", "binray: mycli"), ":2: adapter 'mycli': binray: unknown field"),
        (("output: text", "output: xml"), ":5: adapter 'mycli': output: Input should be"),
        (("context_limit: 16000", "context_limit: 0"), ":7: adapter 'mycli': context_limit:"),
        (("args: [ask, --plain]", "args: [ask, '{prompt}']"),
         "the prompt always goes to stdin, never on the command line"),
        (("args: [ask, --plain]", "args: [ask, '{system_prompt}']"),
         "the prompt always goes to stdin"),
        (("args: [ask, --plain]", "args: [ask, '{model}']"), "unknown placeholder '{model}'"),
        (("model_args: [--model, \"{model}\"]", "model_args: [--model]"),
         "model_args: needs a '{model}' placeholder"),
        (("binary: mycli\n", ""), "binary: required for every provider except the offline one"),
    ],
)  # fmt: skip
def test_problems_say_file_line_and_what_is_wrong(tmp_path, change, expected):
    found = problems_for(tmp_path, GOOD.replace(*change))
    assert len(found) == 1 and expected in found[0], found
    assert found[0].startswith(str(tmp_path / "adapters" / "mycli.yaml"))


def test_system_prompt_mechanism_must_be_complete(tmp_path):
    text = GOOD + "system_prompt:\n  via: args\n  args: [--system]\n"
    assert "needs a '{system_prompt_file}' placeholder" in problems_for(tmp_path, text)[0]
    text = GOOD + "system_prompt:\n  via: env\n  env: {MY_SYSTEM: '{system_prompt_file}'}\n"
    assert problems_for(tmp_path, text) == []


def test_name_must_match_the_file(tmp_path):
    found = problems_for(tmp_path, "name: other\n" + GOOD)
    assert found and ":1: name: 'other' must match the file name 'mycli'" in found[0]


def test_not_yaml_or_not_a_mapping(tmp_path):
    assert "invalid YAML" in problems_for(tmp_path, "display_name: [\n")[0]
    assert "must be a mapping" in problems_for(tmp_path, "- a\n- b\n")[0]


def test_loading_raises_config_error_with_every_problem(tmp_path):
    bad = write(tmp_path, "bad", GOOD.replace("binary", "binry").replace("output", "outptu"))
    good = write(tmp_path, "good", GOOD)
    with pytest.raises(ConfigError) as caught:
        load_adapter_files({"bad": bad, "good": good})
    assert caught.value.exit_code == 3 and len(caught.value.problems) >= 2
    assert "run 'design-agent check'" in caught.value.message


def test_check_reports_a_broken_overlay_adapter(run_cli, home):
    write(home / "adapters", "claude", GOOD.replace("context_limit: 16000", "context_limit: -1"))
    result = run_cli("check", "--json")
    report = json.loads(result.output)
    assert result.exit_code == 3
    mine = [p for p in report["problems"] if "adapters/claude.yaml" in p]
    assert mine and ":7: adapter 'claude': context_limit:" in mine[0]


def test_check_accepts_the_bundled_adapters(run_cli):
    report = json.loads(run_cli("check", "--json").output)
    assert not [p for p in report["problems"] if "adapters" in p]
    assert report["counts"]["adapters"] == 6
