"""The argv built from each adapter is one the real CLI accepts, and never carries user text.

Acceptance is checked against each CLI's `--help`, recorded from claude-code
2.1.197, gemini-cli 0.61.0 and codex 0.169.0 (copies in tests/fixtures/recorded/).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fixtures.fakes import RECORDED, bundled_adapters

from design_agent.core.errors import UsageError
from design_agent.providers.argv import build_invocation
from design_agent.providers.request import ProviderRequest

SYSTEM = "You are the research analyst. Project brief: ..."
USER = "Plan interviews; rm -rf ~ && echo $(id)"
WORKDIR = Path("/tmp/design-agent-run-x")
_DEF_LINE = re.compile(r"^ {2,6}(-{1,2}[A-Za-z][\w-]*)")
_FLAG = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")
_SUFFIX = re.compile(r"(--[A-Za-z][\w-]*)\[(-[\w-]+)\]")  # `--system-prompt[-file]`
_CHOICES = re.compile(r"(?:choices|possible values):\s*([^)\]]+)[)\]]")


@dataclass
class Help:
    """The options a recorded --help text accepts: flag -> (takes a value, allowed values)."""

    options: dict[str, tuple[bool, list[str]]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Help:
        found = cls()
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if _DEF_LINE.match(line):
                found._add(line, _block(lines, index))
        for base, suffix in _SUFFIX.findall(text):
            found.options.setdefault(base + suffix, found.options.get(base, (True, [])))
        return found

    def _add(self, line: str, block: str) -> None:
        definition = re.split(r"\s{2,}", line.strip())[0]
        takes = bool(re.search(r"<[^>]+>|\[[^\]]+\]", definition)) or bool(
            re.search(r"\[(string|array|number)\]", line)
        )
        choices = _CHOICES.search(" ".join(block.split()))
        allowed = [c.strip(' "') for c in choices.group(1).split(",")] if choices else []
        for flag in _FLAG.findall(definition):
            self.options[flag] = (takes, allowed)


def _block(lines: list[str], index: int) -> str:
    """A definition line and its description lines, up to the next definition or section."""
    end = index + 1
    while end < len(lines) and not _DEF_LINE.match(lines[end]):
        if lines[end].strip() and not lines[end].startswith(" "):
            break  # a section heading such as "Commands:"
        end += 1
    return "\n".join(lines[index:end])


def helps(*names: str) -> list[Help]:
    return [Help.parse((RECORDED / f"{n}_help.txt").read_text(encoding="utf-8")) for n in names]


def accepted(argv: list[str], help_pages: list[Help], positionals: list[str]) -> list[str]:
    """Problems with `argv[1:]` under the help pages (a subcommand switches page)."""
    problems, page, expected = [], help_pages[0], list(positionals)
    tokens = iter(argv[1:])
    for token in tokens:
        if token.startswith("-") and token != "-":
            flag, _, inline = token.partition("=")
            if flag not in page.options:
                problems.append(f"unknown option {flag}")
                continue
            takes, allowed = page.options[flag]
            value = inline or (next(tokens, None) if takes else None)
            if allowed and value not in allowed:
                problems.append(f"{flag} {value!r} not in {allowed}")
        elif not expected or token != expected.pop(0):
            problems.append(f"unexpected positional argument {token!r}")
        elif len(help_pages) > 1 and page is help_pages[0]:
            page = help_pages[1]  # `codex exec ...`
    return problems


CLIS = {
    "claude": (helps("claude"), []),
    "gemini": (helps("gemini"), []),
    "codex": (helps("codex", "codex_exec"), ["exec", "-"]),
}


@pytest.mark.parametrize("name", sorted(CLIS))
@pytest.mark.parametrize("tier", ["fast", "deep"])
@pytest.mark.parametrize("model", [None, "some-model-1.5"])
def test_argv_is_accepted_by_the_recorded_help(name, tier, model):
    spec = bundled_adapters()[name]
    request = ProviderRequest(system_prompt=SYSTEM, prompt=USER, tier=tier, model=model)
    invocation = build_invocation(spec, request, name, WORKDIR)
    help_pages, positionals = CLIS[name]
    assert accepted(invocation.argv, help_pages, positionals) == []
    assert not any(USER in arg or SYSTEM in arg for arg in invocation.argv)
    assert USER in invocation.stdin.decode()
    if model:
        assert model in invocation.argv


def test_the_help_parser_rejects_what_the_cli_would_reject():
    claude_help, _ = CLIS["claude"]
    assert accepted(["claude", "--no-such"], claude_help, []) == ["unknown option --no-such"]
    assert accepted(["claude", "--output-format", "yaml"], claude_help, [])
    assert accepted(["claude", "hi"], claude_help, []) == ["unexpected positional argument 'hi'"]


def test_the_commands_that_work_in_the_recorded_readme():
    spec = bundled_adapters()
    claude = build_invocation(spec["claude"], ProviderRequest(prompt="x"), "claude", WORKDIR).argv
    assert claude[:6] == ["claude", "-p", "--output-format", "stream-json", "--verbose",
                          "--include-partial-messages"]  # fmt: skip
    assert "--no-session-persistence" in claude
    gemini = build_invocation(spec["gemini"], ProviderRequest(prompt="x"), "gemini", WORKDIR)
    assert {"--skip-trust", "stream-json", "--model"} <= set(gemini.argv)
    codex = build_invocation(spec["codex"], ProviderRequest(prompt="x"), "codex", WORKDIR).argv
    assert codex[:4] == ["codex", "exec", "--json", "--skip-git-repo-check"]
    assert "--ephemeral" in codex and codex[-1] == "-"


def test_system_prompt_mechanisms():
    adapters = bundled_adapters()
    request = ProviderRequest(system_prompt=SYSTEM, prompt=USER)
    claude = build_invocation(adapters["claude"], request, "claude", WORKDIR)
    assert claude.files == {WORKDIR / "system_prompt.md": SYSTEM}
    assert claude.argv[-2:] == ["--system-prompt-file", str(WORKDIR / "system_prompt.md")]
    gemini = build_invocation(adapters["gemini"], request, "gemini", WORKDIR)
    assert gemini.env == {"GEMINI_SYSTEM_MD": str(WORKDIR / "system_prompt.md")}
    codex = build_invocation(adapters["codex"], request, "codex", WORKDIR)
    assert codex.files == {} and codex.stdin.decode().startswith(SYSTEM)


def test_no_system_prompt_means_no_file_and_no_flag():
    claude = build_invocation(
        bundled_adapters()["claude"], ProviderRequest(prompt=USER), "c", WORKDIR
    )
    assert claude.files == {} and "--system-prompt-file" not in claude.argv


def test_tiers_choose_models_and_effort():
    adapters = bundled_adapters()
    deep = build_invocation(
        adapters["claude"], ProviderRequest(prompt="x", tier="deep"), "c", WORKDIR
    )
    assert deep.model == "opus" and deep.argv[deep.argv.index("--model") + 1] == "opus"
    codex = build_invocation(
        adapters["codex"], ProviderRequest(prompt="x", tier="deep"), "c", WORKDIR
    )
    assert codex.model is None and "--model" not in codex.argv
    assert 'model_reasoning_effort="high"' in codex.argv


@pytest.mark.parametrize("model", ["--dangerously-skip-permissions", "a b", "-x", ""])
def test_a_model_name_cannot_smuggle_an_option(model):
    request = ProviderRequest(prompt="x", model=model or None)
    if not model:
        build_invocation(bundled_adapters()["claude"], request, "c", WORKDIR)
        return
    with pytest.raises(UsageError, match="invalid model name"):
        build_invocation(bundled_adapters()["claude"], request, "c", WORKDIR)
