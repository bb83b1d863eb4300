"""A streaming parser for the two tags a model may use: <decision> and <ask_user>.

The model's output is untrusted text. Only `<decision rationale="...">...</decision>`
and `<ask_user>...</ask_user>` are recognised, even when split across chunks;
anything else, nested or malformed ones included, is passed through as plain
text and never acted on. Only the model's own text is parsed: whatever is quoted
to it or to the user (the user's message, project metadata, briefs, stored
decisions) goes through `inert` first, so it can never open or close a tag.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

TAG_NAMES = ("decision", "ask_user")
MAX_TAG_CHARS = 8000  # a longer "tag" is not one the prompt asked for: show it as text
_OPEN = re.compile(r"<(decision|ask_user)((?:\s+[a-z_]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*)\s*>")
_ATTR = re.compile(r"([a-z_]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
ALLOWED_ATTRS = {"decision": {"rationale"}, "ask_user": set()}
# The "<" of anything that could open or close a whitelisted tag, in any case.
# The answer's tags, and the prompt's own frame tags (a brief must not close `<project>`).
FRAME_TAG_NAMES = (
    "guide",
    "section",
    "example",
    "material",
    "project",
    "decisions",
    "conversation",
    "earlier",
    "instructions",
    "request",
)
_TAG_ALTERNATIVES = "|".join(("decision", "ask_user", *FRAME_TAG_NAMES))
_QUOTED_TAG = re.compile(rf"<(?=\s*/?\s*(?:{_TAG_ALTERNATIVES})\b)", re.IGNORECASE)


@dataclass(frozen=True)
class TextSegment:
    text: str


@dataclass(frozen=True)
class DecisionTag:
    decision: str
    rationale: str


@dataclass(frozen=True)
class AskUserTag:
    question: str


Segment = TextSegment | DecisionTag | AskUserTag


class TagParser:
    """Feed chunks as they stream; get text and whitelisted tags back in order."""

    def __init__(self) -> None:
        self._buffer = ""
        self._open: re.Match[str] | None = None

    def feed(self, chunk: str) -> list[Segment]:
        self._buffer += chunk
        out: list[Segment] = []
        while self._step(out):
            pass
        return out

    def close(self) -> list[Segment]:
        """End of stream: whatever is still pending was not a complete tag."""
        pending = (self._open.group(0) if self._open else "") + self._buffer
        self._open, self._buffer = None, ""
        return [TextSegment(pending)] if pending else []

    def _step(self, out: list[Segment]) -> bool:
        """Consume what can be decided now; False when more input is needed."""
        if self._open is not None:
            return self._inside(out)
        start = self._buffer.find("<")
        if start < 0:
            _emit(out, self._buffer)
            self._buffer = ""
            return False
        _emit(out, self._buffer[:start])
        self._buffer = self._buffer[start:]
        match = _OPEN.match(self._buffer)
        if match and _attrs_allowed(match):
            self._open, self._buffer = match, self._buffer[match.end() :]
            return True
        if _may_become_tag(self._buffer):
            return False
        _emit(out, "<")
        self._buffer = self._buffer[1:]
        return True

    def _inside(self, out: list[Segment]) -> bool:
        assert self._open is not None
        name = self._open.group(1)
        close = self._buffer.find(f"</{name}>")
        nested = min((i for i in map(self._buffer.find, _openers()) if i >= 0), default=-1)
        if close >= 0 and not (0 <= nested < close):
            out.append(_tag(self._open, self._buffer[:close]))
            self._open, self._buffer = None, self._buffer[close + len(name) + 3 :]
            return True
        if (nested >= 0 and close >= 0) or len(self._buffer) > MAX_TAG_CHARS:
            # Nested or runaway: show the raw text up to the outer close, act on nothing.
            end = close + len(name) + 3 if close >= 0 else len(self._buffer)
            _emit(out, self._open.group(0) + self._buffer[:end])
            self._open, self._buffer = None, self._buffer[end:]
            return True
        return False


def parse_all(text: str) -> list[Segment]:
    """Parse a complete text at once (same rules as streaming)."""
    parser = TagParser()
    return _merge([*parser.feed(text), *parser.close()])


def inert(text: str) -> str:
    """Quoted text made unable to open or close a tag: `<decision` becomes `&lt;decision`
    (the form a model reads as a literal "<"). Applied to every input, never to output."""
    return _QUOTED_TAG.sub("&lt;", text)


def _openers() -> tuple[str, ...]:
    return tuple(f"<{name}" for name in TAG_NAMES)


def _may_become_tag(buffer: str) -> bool:
    if ">" in buffer or len(buffer) > 400:
        return False
    return any(o.startswith(buffer) or buffer.startswith(o) for o in _openers())


def _attrs_allowed(match: re.Match[str]) -> bool:
    names = {m.group(1) for m in _ATTR.finditer(match.group(2))}
    return names <= ALLOWED_ATTRS[match.group(1)]


def _tag(match: re.Match[str], body: str) -> Segment:
    attrs = {m.group(1): m.group(2) or m.group(3) or "" for m in _ATTR.finditer(match.group(2))}
    if match.group(1) == "decision":
        return DecisionTag(html.unescape(body.strip()), html.unescape(attrs.get("rationale", "")))
    return AskUserTag(html.unescape(body.strip()))


def _emit(out: list[Segment], text: str) -> None:
    if text:
        out.append(TextSegment(text))


def _merge(segments: list[Segment]) -> list[Segment]:
    merged: list[Segment] = []
    for segment in segments:
        last = merged[-1] if merged else None
        if isinstance(segment, TextSegment) and isinstance(last, TextSegment):
            merged[-1] = TextSegment(last.text + segment.text)
        else:
            merged.append(segment)
    return merged


def frame_tag(name: str, body: str, /, **attributes: str) -> str:
    """One of the prompt's own blocks, `<name attr="...">body</name>`: each attribute value
    escaped so it cannot end the attribute or the tag."""
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in attributes.items())
    return f"<{name}{attrs}>\n{body.strip()}\n</{name}>"
