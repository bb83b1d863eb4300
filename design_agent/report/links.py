"""Which links and images a report keeps: web and mail links, images from its own folder.

An answer is the model's Markdown, and a model can be talked into writing a
`javascript:`, `data:` or `file:` link, or a remote image that tells a tracker
when the report is opened. The report keeps a link only to http, https or
mailto (and an anchor within it) and an image only from its own folder (a
relative path that never climbs out); any other becomes its text, an image
its alt text. What counts is the address as a Markdown viewer reads it, after
entities and escapes are resolved and the scheme's case is folded, so
`JaVaScRiPt:`, `&#106;avascript:`, `<javascript:...>` and a reference
definition `[1]: javascript:...` are all caught.

`keep_safe_links` rewrites only the paragraphs and headings that hold such a
link, from the parser's tokens, and blanks the reference definitions that point
anywhere else (the report joins the answers into one document, where another
answer's `[x][1]` would use the definition).
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+.\-]*):")
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~&!])")
# What would start a list, a break or a setext line at the start of a rewritten line.
_BLOCK_START = re.compile(r"^(\d{1,9})([.)])|^([-+=])")
_PREFIX = re.compile(r"^((?:[ \t]*>)*[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*)")
_NOT_BARE = re.compile(r"[\s()<>\\]|[\x00-\x1f\x7f]")
_ATX = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*#{1,6}[ \t]+")
# At most this many rewrites: each removes every link it found; one more finds none.
PASSES = 4


def safe_link(url: str) -> bool:
    """Whether a link may point at `url`: a web or mail address, or an anchor in the report."""
    url = url.strip()
    if url.startswith("#"):
        return True
    scheme = _SCHEME.match(url)
    return scheme is not None and scheme.group(1).lower() in SAFE_SCHEMES


def local_image(src: str) -> bool:
    """Whether `src` is a file in the report's own folder or below it (`chart.png`,
    `img/flow.png`): no scheme, no absolute path, no `..`, even percent-encoded."""
    path = unquote(src.strip()).split("#", 1)[0].split("?", 1)[0]
    if not path or path.startswith(("/", "\\")) or _SCHEME.match(path):
        return False
    if any(ord(c) < 32 or c == "\x7f" for c in path):
        return False
    return ".." not in re.split(r"[/\\]", path)


def _analyser() -> MarkdownIt:
    """A CommonMark parser that sees every link as one (whatever its scheme) and reports
    reference definitions as tokens, with their lines."""
    parser = MarkdownIt("commonmark", {"inline_definitions": True})
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    return parser


_PARSER = _analyser()


def keep_safe_links(text: str) -> str:
    """`text` (Markdown) with every other link as its text and every other image as its
    alt text; the rest of it as it is."""
    for _ in range(PASSES):
        if "[" not in text and "<" not in text:
            return text  # no link, image or definition without one of them
        rewritten = _rewrite(text)
        if rewritten == text:
            return text
        text = rewritten
    return _SPECIAL.sub(r"\\\1", text)  # never reached in practice: everything as text


def _rewrite(text: str) -> str:
    lines: list[str | None] = list(text.split("\n"))
    tokens = _PARSER.parse(text)
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        start, end = token.map
        if token.type == "definition" and not safe_link(str(token.meta.get("url", ""))):
            _blank(lines, start, end)
        elif token.type == "inline" and _has_unsafe(token.children or []):
            heading = index > 0 and tokens[index - 1].type == "heading_open"
            _replace(lines, start, end, token, heading)
    return "\n".join(line for line in lines if line is not None)


def _has_unsafe(children: list[Token]) -> bool:
    for child in children:
        if child.type == "link_open" and not safe_link(str(child.attrGet("href") or "")):
            return True
        if child.type == "image":
            if not local_image(str(child.attrGet("src") or "")):
                return True
            if _has_unsafe(child.children or []):
                return True
    return False


def _blank(lines: list[str | None], start: int, end: int) -> None:
    """A definition's lines emptied: its first keeps the quote or list marker it is in."""
    first = lines[start] or ""
    found = _PREFIX.match(first)
    lines[start] = found.group(1).rstrip() if found else ""
    for n in range(start + 1, min(end, len(lines))):
        lines[n] = None


def _replace(lines: list[str | None], start: int, end: int, token: Token, heading: bool) -> None:
    """A paragraph or heading written again, on its first line, after the same prefix."""
    first = lines[start] or ""
    body = " ".join(_inline(token.children or []).split())
    if not heading:
        body = _BLOCK_START.sub(_escape_start, body, count=1)
    lines[start] = _prefix(first, token.content, heading) + body
    for n in range(start + 1, min(end, len(lines))):
        lines[n] = None


def _prefix(line: str, content: str, heading: bool) -> str:
    """What comes before the text on its first line: quote and list markers, a heading's
    hashes, the indentation."""
    if heading:
        found = _ATX.match(line)
        return found.group(0) if found else ""
    head = content.split("\n", 1)[0].rstrip()
    kept = line.rstrip()
    if head and kept.endswith(head):
        return kept[: len(kept) - len(head)]
    found = _PREFIX.match(line)
    return found.group(1) if found else ""


def _escape_start(match: re.Match[str]) -> str:
    if match.group(3):
        return "\\" + match.group(3)
    return f"{match.group(1)}\\{match.group(2)}"


def _inline(children: list[Token]) -> str:
    """Inline tokens as Markdown again: text escaped, safe links and local images kept."""
    out: list[str] = []
    links: list[Token | None] = []  # the open links: None for one dropped (its text kept)
    for child in children:
        kind = child.type
        if kind == "link_open":
            kept = safe_link(str(child.attrGet("href") or ""))
            links.append(child if kept else None)
            out.append("[" if kept else "")
        elif kind == "link_close":
            opening = links.pop() if links else None
            out.append(f"]({_destination(opening)})" if opening is not None else "")
        elif kind == "image":
            out.append(_image(child))
        else:
            out.append(_piece(child))
    return "".join(out)


def _destination(token: Token) -> str:
    href = str(token.attrGet("href") or token.attrGet("src") or "")
    title = str(token.attrGet("title") or "")
    quoted = ' "' + re.sub(r'(["\\])', r"\\\1", " ".join(title.split())) + '"' if title else ""
    bare = href and not _NOT_BARE.search(href)  # the usual form, where it reads the same
    return f"{href if bare else f'<{href}>'}{quoted}"


def _image(token: Token) -> str:
    alt = _escape(_text(token.children or []))
    if local_image(str(token.attrGet("src") or "")):
        return f"![{alt}]({_destination(token)})"
    return alt


def _text(children: list[Token]) -> str:
    """The plain text of inline tokens (an image's alt text)."""
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "image":
            parts.append(_text(child.children or []))
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _piece(token: Token) -> str:
    kind = token.type
    if kind in ("softbreak", "hardbreak"):
        return " "
    if kind == "code_inline":
        content = token.content
        pad = " " if content[:1] in ("`", " ") or content[-1:] in ("`", " ") else ""
        return f"{token.markup}{pad}{content}{pad}{token.markup}"
    if kind.endswith(("_open", "_close")):  # emphasis: its own marker again
        return token.markup
    return _escape(token.content)


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)
