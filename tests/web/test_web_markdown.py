"""The web page's markdown renderer, run in a real chromium: a model's answer is untrusted,
so whatever HTML or script it holds must come out as text, and links only for
http, https and mailto.

Each test renders into a page with no Content-Security-Policy, so it is the renderer
itself, not the page's CSP, that keeps a script from running.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser import STATIC

HOSTILE = "\n\n".join(
    [
        "<script>window.__pwned = 'script'</script>",
        "<img src=x onerror=\"window.__pwned = 'img'\">",
        "[click me](javascript:window.__pwned='link')",
        "[data](data:text/html,<script>window.__pwned='data'</script>)",
        "[spaced](  JaVaScRiPt:window.__pwned='case')",
        '<div onclick="window.__pwned=1"><iframe src="javascript:1"></iframe></div>',
        "<svg onload=\"window.__pwned='svg'\"><circle r=5></circle></svg>",
        '[title](https://example.com "x\\" onmouseover=\\"window.__pwned=\'title\'")',
        "**bold <img src=y onerror=window.__pwned='bold'>** and `<b>code</b>`",
        "| a | <script>window.__pwned='cell'</script> |\n|---|---|\n| <img src=z> | b |",
        "> <style>body{display:none}</style> quoted",
        "```html\n<script>window.__pwned='fence'</script>\n```",
        "<https://example.org/?q=<script>>",
        "- item <a href=javascript:alert(1)>x</a>",
    ]
)


@pytest.fixture(scope="module")
def page(chromium: Any) -> Iterator[Any]:
    tab = chromium.new_page()
    tab.set_content("<!doctype html><html><body><div id='out'></div></body></html>")
    tab.add_script_tag(content=(STATIC / "markdown.js").read_text(encoding="utf-8"))
    yield tab
    tab.close()


def render(page: Any, source: str) -> str:
    """Render `source` into #out; returns the resulting HTML."""
    return str(
        page.evaluate(
            "src => { const out = document.getElementById('out');"
            " DAMarkdown.renderInto(out, src); return out.innerHTML; }",
            source,
        )
    )


def test_hostile_html_in_an_answer_renders_as_text_and_runs_nothing(page: Any) -> None:
    page.evaluate("() => { window.__pwned = null; }")
    html = render(page, HOSTILE)
    page.wait_for_timeout(150)  # an <img onerror> would have fired by now
    assert page.evaluate("() => window.__pwned") is None
    found = page.evaluate(
        """() => {
        const all = [...document.querySelectorAll('#out *')];
        return {
          tags: [...new Set(all.map(e => e.tagName.toLowerCase()))].sort(),
          handlers: all.filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
          hrefs: [...document.querySelectorAll('#out a')].map(a => a.getAttribute('href')),
          text: document.getElementById('out').textContent,
        };
    }"""
    )
    assert found["handlers"] == 0
    forbidden = {"script", "img", "iframe", "svg", "style", "b", "circle"}
    assert not forbidden & set(found["tags"]), found["tags"]
    assert page.evaluate("() => document.querySelectorAll('#out div:not(.table-wrap)').length") == 0
    assert found["hrefs"] == ["https://example.com/"], found["hrefs"]
    # The tags are still there, as characters the reader can see.
    assert "<script>window.__pwned = 'script'</script>" in found["text"]
    assert "<img src=x onerror=" in found["text"]
    assert "<b>code</b>" in found["text"]
    assert "&lt;script&gt;" in html


def test_an_attribute_breaking_title_stays_inside_the_title(page: Any) -> None:
    render(page, '[docs](https://example.com/a "say \\" onmouseover=alert(1) x=\\"")')
    link = page.evaluate(
        """() => { const a = document.querySelector('#out a');
        return a && {href: a.getAttribute('href'), rel: a.getAttribute('rel'),
                     names: [...a.attributes].map(x => x.name).sort()}; }"""
    )
    # Either the link is dropped to text or it keeps only the attributes the renderer sets.
    if link is not None:
        assert set(link["names"]) <= {"href", "rel", "target", "title"}
        assert link["rel"] == "noopener noreferrer"


def test_the_subset_models_write_renders_as_markdown(page: Any) -> None:
    source = "\n".join(
        [
            "# Plan",
            "Some *emphasis*, **strong**, ~~gone~~ and `code`.",
            "",
            "- one",
            "  - nested",
            "- two",
            "",
            "3. third",
            "4. fourth",
            "",
            "| Task | Metric |",
            "|:-----|-------:|",
            "| Find | 80% |",
            "",
            "> quoted",
            "",
            "---",
            "```",
            "raw *not emphasis*",
            "```",
            "[site](https://example.com) [mail](mailto:a@b.c) [test_plan.md > Procedure]",
        ]
    )
    render(page, source)
    shape = page.evaluate(
        """() => {
        const q = s => document.querySelectorAll('#out ' + s).length;
        const one = s => document.querySelector('#out ' + s);
        return {h1: q('h1'), em: q('p em'), strong: q('strong'), del: q('del'),
          code: q('p code'), nested: q('ul > li > ul > li'), ol: one('ol').getAttribute('start'),
          cells: q('table td'), right: q('td.align-right'), quote: q('blockquote p'),
          hr: q('hr'), pre: one('pre code').textContent,
          links: q('a[rel="noopener noreferrer"]'),
          cite: [...document.querySelectorAll('#out button.cite')]
            .map(b => [b.dataset.guide, b.dataset.section])};
    }"""
    )
    assert shape == {
        "h1": 1,
        "em": 1,
        "strong": 1,
        "del": 1,
        "code": 1,
        "nested": 1,
        "ol": "3",
        "cells": 2,
        "right": 1,
        "quote": 1,
        "hr": 1,
        "pre": "raw *not emphasis*",
        "links": 2,
        "cite": [["test_plan", "Procedure"]],
    }


def test_a_half_streamed_answer_renders_without_losing_text(page: Any) -> None:
    html = render(page, "Intro **bold\n\n```python\nprint('x')")
    text = page.evaluate("() => document.getElementById('out').textContent")
    assert "**bold" in text and "print('x')" in text
    assert "<pre>" in html


def test_underscores_inside_words_stay_as_written(page: Any) -> None:
    render(page, "a window.__pwned = 1 and window.__pwned, snake__case__name, __strong__, _em_")
    out = page.evaluate(
        "() => [document.getElementById('out').textContent,"
        " [...document.querySelectorAll('#out strong, #out em')].map(e => e.textContent)]"
    )
    expected = "a window.__pwned = 1 and window.__pwned, snake__case__name, strong, em"
    assert out == [expected, ["strong", "em"]]
