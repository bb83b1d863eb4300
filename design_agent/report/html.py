"""The report as one self-contained HTML file: the Markdown report rendered safely.

The Markdown (markdown.py) is rendered by markdown-it with raw HTML disabled,
so every character of model and user text arrives escaped; GFM tables render as
tables whose cells wrap between words, never inside one. The page has one `main`
landmark. Printed, every page carries the project and the date at its top and its
number at its foot (CSS page-margin boxes, which Chromium prints), and an answer's
last block, references and checklist stay together, so that no page holds only a
checklist. The Markdown keeps
only http, https and mailto links (and the contents' own #anchors) and images
from the report's own folder (links.py); the renderer checks links again, and
an image becomes a link to its file, so opening the page requests nothing. Inline CSS only,
with print styles: each answer starts a new page. A Content-Security-Policy
forbids any load the page might still attempt.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from design_agent.core.messages import say
from design_agent.report.data import ReportData
from design_agent.report.links import local_image, safe_link
from design_agent.report.markdown import to_markdown
from design_agent.report.outline import slug, title

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
# The report's own headings (h1-h3) get the ids its table of contents links to.
ANCHORED = ("h1", "h2", "h3")

CSS = """
:root { color-scheme: light; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1d232a; background: #fff; max-width: 52rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 2rem; margin-bottom: .25rem; }
h2 { border-bottom: 2px solid #d9dee4; padding-bottom: .25rem; margin-top: 2.5rem; }
h3 { color: #0b4f6c; margin-top: 2.5rem; border-top: 1px solid #d9dee4; padding-top: 1rem; }
h2 + h3 { border-top: none; padding-top: 0; margin-top: 1.5rem; }
h4, h5, h6 { margin-bottom: .35rem; }
h4 { font-size: 1.15rem; } h5 { font-size: 1.05rem; } h6 { font-size: 1rem; }
a { color: #0b57d0; }
blockquote { margin: 1rem 0; padding: .5rem 1rem; background: #f4f6f8;
  border-left: 4px solid #9aa7b4; }
pre { background: #f4f6f8; padding: .75rem; overflow-x: auto; white-space: pre-wrap; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
li { margin: .15rem 0; }
table { border-collapse: collapse; margin: 1rem 0; width: 100%; font-size: .95em; }
th, td { border: 1px solid #c9d1d9; padding: .35rem .5rem; text-align: left;
  vertical-align: top; overflow-wrap: normal; word-break: normal; hyphens: manual; }
th { background: #f4f6f8; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h3 { break-before: page; page-break-before: always; border-top: none; }
  /* The answers' heading opens the first answer's page rather than a page of its own. */
  h2:has(+ h3) { break-before: page; page-break-before: always; }
  h2 + h3 { break-before: avoid; page-break-before: avoid; }
  h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
  pre, blockquote, li, .answer-end { break-inside: avoid; page-break-inside: avoid; }
  a { color: inherit; }
}
"""
# Printed: the project and the date at the top of every page, its number at the foot.
PAGE_CSS = """
@page { margin: 20mm 16mm 18mm;
  @top-left { content: %(header)s; font: 9pt system-ui, sans-serif; color: #57606a; }
  @bottom-right { content: %(footer)s; font: 9pt system-ui, sans-serif; color: #57606a; }
}
"""


def to_html(data: ReportData, link_images: bool = True) -> str:
    """The whole report as one HTML document that loads nothing from anywhere.

    `link_images`: an image from the report's folder becomes a link to its file; a PDF,
    which travels alone (and is printed from a scratch folder), shows its alt text."""
    parser = _renderer(link_images)
    tokens = _keep_ends_together(parser.parse(to_markdown(data)))
    body = parser.renderer.render(tokens, parser.options, {})
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{data.language}">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title(data).text)}</title>\n<style>{CSS}{_page_css(data)}</style>\n"
        f"</head>\n<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    )


def _page_css(data: ReportData) -> str:
    """The running header (project, date) and the page numbers of the printed report."""
    date = data.generated_at.date().isoformat()
    header = css_string(f"{data.project.name} · {date}")
    # Private-use characters hold the counters' places: css_string keeps them as they are.
    marks = {"page": "\ue000", "pages": "\ue001"}
    footer = css_string(say("report_page", data.language, **marks))
    footer = footer.replace("\ue000", '" counter(page) "').replace("\ue001", '" counter(pages) "')
    return PAGE_CSS % {"header": header, "footer": footer}


def css_string(text: str) -> str:
    """`text` as a CSS string literal that cannot end the string or the <style> element."""
    out = []
    for char in " ".join(text.split()):
        if char in "\\\"<>&'" or ord(char) < 32 or ord(char) == 127:
            out.append(f"\\{ord(char):x} ")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _keep_ends_together(tokens: list[Token]) -> list[Token]:
    """Each answer's last block, references and checklist in one `div.answer-end`, which
    print keeps on one page: a checklist never opens a page alone."""
    starts = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag in ("h2", "h3")]
    for start, end in reversed(list(zip(starts, [*starts[1:], len(tokens)], strict=True))):
        if tokens[start].tag != "h3":
            continue
        h4s = [
            i
            for i in range(start, end)
            if tokens[i].type == "heading_open" and tokens[i].tag == "h4"
        ]
        if len(h4s) < 2:
            continue
        blocks = [
            i for i in range(start, h4s[-2]) if tokens[i].level == 0 and tokens[i].nesting >= 0
        ]
        first = blocks[-1] if blocks else h4s[-2]
        tokens[end:end] = [_html("</div>\n")]
        tokens[first:first] = [_html('<div class="answer-end">\n')]
    return tokens


def _html(content: str) -> Token:
    """A block of the report's own markup (never model or user text)."""
    return Token("html_block", "", 0, content=content)


def _renderer(link_images: bool) -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    # Checked for links and images alike: the Markdown has made every link other than
    # these text (links.py), so a relative address can only be an image's.
    parser.validateLink = _linkable  # type: ignore[method-assign]
    parser.add_render_rule("heading_open", _heading_open)
    parser.add_render_rule("image", _image if link_images else _alt_text)
    return parser


def _linkable(url: str) -> bool:
    return safe_link(url) or local_image(url)


def _heading_open(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    if token.tag in ANCHORED and idx + 1 < len(tokens):
        token.attrSet("id", slug(_plain(tokens[idx + 1])))
    return str(renderer.renderToken(tokens, idx, options, env))


def _image(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """An image from the report's folder as a link to it (its alt text as the label):
    nothing is fetched; any other image as its alt text."""
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    label = escape(_plain(token) or src)
    if not local_image(src):
        return label
    return f'<a href="{escape(src)}">{label}</a>'


def _alt_text(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    return escape(_plain(token) or str(token.attrGet("src") or ""))


def _plain(token: Token) -> str:
    """The text of an inline token, escapes resolved ("1\\. Plan" -> "1. Plan")."""
    return "".join(
        child.content for child in token.children or [] if child.type in ("text", "code_inline")
    )
