"""The shortcuts of render.py show exactly what rich itself would show.

`render_markdown` parses with one shared parser instead of rich's `Markdown`
building one each time, and `AnsiLines` shows rendered lines without decoding
and wrapping them again as `Text.from_ansi` does: both are compared here with
what rich does, on a terminal as wide as the render and on a narrower one (a
terminal resized meanwhile), and in a live display.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from rich.live import Live
from rich.markdown import Markdown
from rich.text import Text

from design_agent.cli.render import AnsiLines, render_markdown

SAMPLE = """## Plan

Talk to **five** users, note `quotes`, ~~guess~~ *ask*; a deliberately long line that wraps.

- one
  - nested

1. first
2. second

```python
def score(answers):
    return sum(answers)
```

| Question | Why |
|:--|--:|
| What did you try first? | the mental model |

> Keep notes short.

---
"""
WITH_LINK = "See [the guide](https://example.com/guide) first, then **plan**.\n"
LINK_ID = re.compile(r"id=\d+;")


def shown(renderable: object, width: int, soft_wrap: bool, justify: str | None = None) -> str:
    console = Console(file=io.StringIO(), force_terminal=True, width=width, soft_wrap=soft_wrap)
    console.print(renderable, justify=justify)  # type: ignore[arg-type]
    return LINK_ID.sub("id=0;", console.file.getvalue())  # link ids are a running count


def test_render_markdown_renders_as_rich_markdown():
    console = Console(file=io.StringIO(), width=70, force_terminal=True, color_system="truecolor")
    console.print(Markdown(SAMPLE + WITH_LINK))
    expected = LINK_ID.sub("id=0;", console.file.getvalue()).splitlines()
    assert [LINK_ID.sub("id=0;", line) for line in render_markdown(SAMPLE + WITH_LINK, 70)] == (
        expected
    )


@pytest.mark.parametrize("soft_wrap", [False, True])
@pytest.mark.parametrize("width", [70, 50])  # as rendered; narrower, so rich wraps the lines
def test_lines_are_printed_as_text_from_ansi_prints_them(width, soft_wrap):
    lines = render_markdown(SAMPLE, 70)
    for some in (lines, lines[4:12], [], ["a\tb", "tab"]):
        expected = shown(Text.from_ansi("\n".join(some)), width, soft_wrap)
        assert shown(AnsiLines(some), width, soft_wrap) == expected


@pytest.mark.parametrize("justify", ["left", "center"])
def test_a_justified_print_pads_lines_as_text_from_ansi_does(justify):
    lines = render_markdown("Short lines.\n\n- one\n- two\n", 70)
    expected = shown(Text.from_ansi("\n".join(lines)), 70, False, justify)
    assert shown(AnsiLines(lines), 70, False, justify) == expected


def test_a_link_left_open_by_a_line_is_carried_to_the_next_as_text_from_ansi_does():
    lines = render_markdown(WITH_LINK * 3, 30)
    expected = shown(Text.from_ansi("\n".join(lines)), 30, False)
    assert shown(AnsiLines(lines), 30, False) == expected


def test_lines_that_fit_are_shown_without_decoding_them_all_again(monkeypatch):
    lines = render_markdown(SAMPLE, 70)
    expected = shown(Text.from_ansi("\n".join(lines)), 70, False)
    monkeypatch.setattr(Text, "from_ansi", None)  # the shortcut must not need it
    assert shown(AnsiLines(lines), 70, False) == expected


def test_the_live_window_shows_lines_as_text_from_ansi_shows_them():
    lines = render_markdown(SAMPLE, 70)

    def live_output(renderable: object) -> str:
        console = Console(file=io.StringIO(), force_terminal=True, width=70, height=12)
        with Live(console=console, auto_refresh=False, transient=True) as live:
            live.update(renderable, refresh=True)
            console.print(renderable)  # printed above the window, which is drawn again
        return console.file.getvalue()

    assert live_output(AnsiLines(lines)) == live_output(Text.from_ansi("\n".join(lines)))
