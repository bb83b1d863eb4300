"""A long answer streams at the pace the provider writes it.

Each redraw renders only the live window, never the whole answer; finished
blocks are printed once and read exactly as a render of the whole answer
would (code fences with blank lines, loose lists, tables); and however slowly
the terminal shows the answer, the provider is never blocked on a full pipe
nor reported as having "stopped writing". The last test is the user's story:
a 100 KB answer through `design-agent ask` in a pseudo-terminal.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pexpect
import pytest
from fixtures.fakes import alive, bundled_adapters, install_fake, invoke, pids_in
from rich.console import Console

from design_agent.cli import render
from design_agent.cli.render import MarkdownStream, render_markdown
from design_agent.cli.turn_view import TurnView
from design_agent.core.settings import Settings
from design_agent.providers.events import TextDelta
from design_agent.providers.request import ProviderRequest
from design_agent.providers.runner import start
from design_agent.providers.spec import Timeouts

SECTION = """## Step {i}: interview plan

Talk to **five** users about step {i}; ask open questions and note `quotes` verbatim, then \
compare what they say with what they do in the product analytics for that week.

- Recruit from the panel (segment {i})
- Book 45 minutes each
  with a 15-minute buffer

- A loose item after a blank line

1. Warm-up
2. Tasks

```python
def score_{i}(answers):
    total = 0

    for a in answers:
        total += a
    return total
```

| Question | Why | Step |
|---|---|---|
| What did you try first? | learn the mental model | {i} |
| What surprised you? | find friction | {i} |

> Keep notes short.

---

"""
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\]8;[^\x1b]*\x1b\\")


def long_answer(size: int) -> str:
    """A markdown answer of about `size` characters, every kind of block in each section."""
    parts, total, i = [], 0, 0
    while total < size:
        parts.append(SECTION.format(i=i))
        total, i = total + len(parts[-1]), i + 1
    return "".join(parts)


def pieces(text: str, seed: int = 0, most: int = 120) -> list[str]:
    rng, out, at = random.Random(seed), [], 0
    while at < len(text):
        size = rng.randint(1, most)
        out.append(text[at : at + size])
        at += size
    return out


def terminal(width: int = 100) -> Console:
    return Console(file=io.StringIO(), force_terminal=True, width=width, height=40)


def every_update_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that jumps a second at each look: no redraw is ever skipped."""
    now = iter(range(10**9))
    monkeypatch.setattr(render, "time", SimpleNamespace(monotonic=lambda: float(next(now))))


# -- the cost of an update -------------------------------------------------------------------


def test_each_update_renders_at_most_the_live_window(monkeypatch):
    answer = long_answer(15_000)  # 7 times the live window
    bound = render.LIVE_LIMIT + 300  # the tail, one delta and a one-line stand-in
    rendered: list[int] = []
    original = render.render_markdown  # every render goes through it

    def counting(markup: str, width: int) -> list[str]:
        assert len(markup) <= bound, f"rendered {len(markup)} characters in one go"
        rendered.append(len(markup))
        return original(markup, width)

    monkeypatch.setattr(render, "render_markdown", counting)
    screen = terminal()
    monkeypatch.setattr("design_agent.cli.turn_view.console", lambda: screen)
    every_update_draws(monkeypatch)
    view = TurnView("text")
    for piece in pieces(answer, most=200):
        before = sum(rendered)
        view.show(TextDelta(text=piece))
        assert sum(rendered) - before <= 3 * bound  # finished blocks once, then the tail
    view.close()
    # Each character is rendered a bounded number of times, not once per update.
    assert sum(rendered) < 60 * len(answer)


# -- what is printed -------------------------------------------------------------------------


def printed(
    monkeypatch: pytest.MonkeyPatch, text: str, width: int, seed: int, most: int = 40
) -> list[str]:
    """The lines MarkdownStream prints for good, streaming `text` in random pieces."""
    lines: list[str] = []
    monkeypatch.setattr(MarkdownStream, "_print_lines", lambda self, new: lines.extend(new))
    stream = MarkdownStream(terminal(width))
    for piece in pieces(text, seed, most):
        stream.feed(piece)
    stream.finish()
    return lines


def plain(lines: list[str]) -> list[str]:
    return [ANSI.sub("", line).rstrip() for line in lines]


@pytest.mark.parametrize(("width", "seed"), [(40, 0), (100, 1)])  # other cuts at each width
def test_streamed_blocks_print_exactly_as_the_whole_answer_renders(monkeypatch, width, seed):
    every_update_draws(monkeypatch)
    answer = long_answer(6_000)  # fences with blank lines, loose lists, tables, rules
    whole = plain(render_markdown(answer, width))
    assert plain(printed(monkeypatch, answer, width, seed)) == whole


@pytest.mark.parametrize(
    "block",
    [
        "```python\n" + "".join(f"value_{i} = compute({i}, 'a b c')\n" for i in range(200)) + "```",
        " ".join(f"word{i}" for i in range(2000)),  # one paragraph, no line break
        "| row | value |\n|---|---|\n"
        + "".join(f"| r{i} | cell {i} of a longer table row |\n" for i in range(155)),
        "".join(f"- item {i} of a long list\n" for i in range(300)),
    ],
    ids=["code", "paragraph", "table", "list"],
)
def test_a_block_longer_than_the_live_window_is_cut_without_losing_a_word(monkeypatch, block):
    every_update_draws(monkeypatch)
    answer = block + "\n\nThe end.\n"
    assert len(block) > 3 * render.LIVE_LIMIT
    words = " ".join(plain(printed(monkeypatch, answer, 80, seed=1, most=200))).split()
    expected = " ".join(plain(render_markdown(answer, 80))).split()
    if block.startswith("|"):  # a cut table goes on under its header (and rules) again
        again = re.compile(r"row|value|[─━]+")
        words = [w for w in words if not again.fullmatch(w)]
        expected = [w for w in expected if not again.fullmatch(w)]
    assert words == expected


# -- a slow terminal and the provider --------------------------------------------------------


def claude_recording(path: Path, text: str, piece: int = 100) -> Path:
    """A recorded claude stream-json run answering `text` in deltas of `piece` characters."""
    lines = []
    for at in range(0, len(text), piece):
        delta = {"type": "text_delta", "text": text[at : at + piece]}
        event = {"type": "content_block_delta", "delta": delta}
        lines.append(json.dumps({"type": "stream_event", "event": event}))
    result = {"type": "result", "subtype": "success", "is_error": False, "result": text}
    lines.append(json.dumps({**result, "usage": {"input_tokens": 5, "output_tokens": 7}}))
    stdout = "\n".join(lines) + "\n"
    path.write_text(json.dumps({"stdout": stdout, "stderr": "", "rc": 0}), encoding="utf-8")
    return path


def test_a_slow_consumer_never_stalls_the_provider_nor_its_idle_timeout(tmp_path, monkeypatch):
    answer = long_answer(300_000)  # several times a pipe's 64 KB
    monkeypatch.setenv("FAKE_RECORDING", str(claude_recording(tmp_path / "run.json", answer)))
    monkeypatch.setenv("FAKE_PIDS", str(tmp_path / "pids"))
    spec = bundled_adapters()["claude"]
    # idle=0.4 s, not less: with two test workers per CPU, the fake CLI may wait ~0.2 s for one.
    spec = spec.model_copy(update={"timeouts": Timeouts(first_output=5, idle=0.4, total=20)})
    settings = Settings(bins={"claude": str(install_fake(tmp_path / "bin", "claude"))})
    run = start(spec, ProviderRequest(prompt="hello"), settings)
    provider_done_while_we_slept = None
    for event in run:
        if isinstance(event, TextDelta) and provider_done_while_we_slept is None:
            time.sleep(1.0)  # a terminal far slower than the provider (and than idle=0.4 s)
            provider_done_while_we_slept = not alive(pids_in(tmp_path / "pids")[0])
    assert provider_done_while_we_slept, "the provider was blocked on a full pipe"
    assert run.result is not None and run.result.status == "ok"
    assert run.result.text == answer


def test_a_100_kb_answer_through_ask_in_a_terminal_completes_and_is_saved(home, tmp_path):
    answer = long_answer(100_000)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(install_fake(tmp_path / "bin", "claude")),
        "FAKE_RECORDING": str(claude_recording(tmp_path / "run.json", answer)),
        "FAKE_DELAY": "0.001",
        "TMPDIR": str(scratch),
        "TERM": "xterm-256color",
    }
    command = [sys.executable, "-m", "design_agent", "ask", "Plan a usability test for checkout"]
    child = pexpect.spawn(command[0], command[1:], env=env, timeout=30, dimensions=(40, 100))
    child.expect(pexpect.EOF)  # read all the way: a terminal never stops reading
    shown = ANSI.sub("", child.before.decode("utf-8", "replace"))
    child.close()
    assert child.exitstatus == 0, shown[-2000:]
    assert "score_0(answers)" in shown and f"Step {answer.count('## Step') - 1}:" in shown
    assert "── " in shown.splitlines()[-1]  # the footer, after the whole answer
    data = json.loads(invoke(home, "history", "--json", "-n", "2").stdout)  # read in-process
    last = (data["turns"] if isinstance(data, dict) else data)[-1]
    assert last["status"] == "complete" and last["message"] == answer
