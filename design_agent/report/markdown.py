"""The report as plain CommonMark, with every answer kept inside its own section.

An answer is the model's Markdown, included as it is except for what could
break the report around it (see `contain`): its headings move three levels
down (its "#" becomes "####", below the answer's own "###"), a setext heading
becomes an ATX one, a code fence left open is closed, raw HTML is
backslash-escaped so that `<script>` stays text in any Markdown viewer, and
only web and mail links and images from the report's own folder are kept
(links.py). Text from the user and the project (names, decisions, excerpts)
is escaped whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it import MarkdownIt
from markdown_it.token import Token

from design_agent.core.evidence import QuoteCheck, ThemeCount
from design_agent.core.messages import say
from design_agent.evidence.verify import coverage_line
from design_agent.report.checked import checked_note
from design_agent.report.data import ReportAnswer, ReportData
from design_agent.report.links import keep_safe_links
from design_agent.report.outline import (
    SECTIONS,
    Heading,
    answer_heading,
    contents,
    section,
    sections,
    title,
)

# An answer's "#" becomes "####": below the title, the section and the answer's heading.
SHIFT = 3
_PARSER = MarkdownIt("commonmark")
# A line that may be under a setext heading ("Title" over "===", in a quote or a list too)
# ends with "=" or "-"; an ATX heading needs a "#".
_SETEXT_UNDERLINE = re.compile(r"[=-][ \t]*$", re.MULTILINE)
_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~&!])")
# Blockquote markers and list markers before a heading's "#" (a heading inside them).
_PREFIX = r"^((?:[ \t]*>)*[ \t]*(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*)"
_ATX = re.compile(_PREFIX + r"(#{1,6})(?=[ \t]|$)")
_CONTAINER = re.compile(_PREFIX)
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
_UNESCAPED_LT = re.compile(r"(?<!\\)((?:\\\\)*)<")
_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^\s<>]*>", re.IGNORECASE)


def to_markdown(data: ReportData) -> str:
    """The whole report as one CommonMark document."""
    blocks = [_heading(title(data)), _dated(data), *_contents(data)]
    blocks += [_heading(section(SECTIONS[0], data)), *_context(data)]
    blocks += [_heading(section(SECTIONS[1], data)), *_decisions(data)]
    blocks += [_heading(section(SECTIONS[2], data)), *_answers(data)]
    blocks += [_heading(section(SECTIONS[3], data)), _sources(data)]
    if "report_evidence" in sections(data):
        blocks += [_heading(section("report_evidence", data)), *_evidence(data)]
    return "\n\n".join(blocks).rstrip() + "\n"


def inline(text: str) -> str:
    """User or project text as literal inline Markdown: one line, every special character
    backslash-escaped (so "# x", "<b>" and "[x](y)" read as typed)."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _heading(found: Heading) -> str:
    return f"{'#' * found.level} {inline(found.text)}"


def _dated(data: ReportData) -> str:
    return say("report_date", data.language, date=data.generated_at.date().isoformat())


def _link(found: Heading) -> str:
    return f"[{inline(found.text)}](#{found.slug})"


def _contents(data: ReportData) -> list[str]:
    lines = []
    for key in sections(data):
        lines.append(f"- {_link(section(key, data))}")
        if key == "report_answers":
            lines += [
                f"  - {_link(answer_heading(a, i, data))}" for i, a in enumerate(data.answers, 1)
            ]
    return [_heading(contents(data)), "\n".join(lines)]


def _context(data: ReportData) -> list[str]:
    lang = data.language
    facts = [f"- **{say('report_' + c.key, lang)}:** {inline(c.value)}" for c in data.context]
    blocks = ["\n".join(facts) if facts else say("report_no_context", lang)]
    blocks.append(f"**{say('report_briefs', lang)}**")
    briefs = [
        f"- **{inline(b.filename)}** ({say('report_type_' + b.file_type, lang)}): "
        f"{inline(b.excerpt)}"
        for b in data.briefs
    ]
    blocks.append("\n".join(briefs) if briefs else say("report_no_briefs", lang))
    return blocks


def _decisions(data: ReportData) -> list[str]:
    lang = data.language
    if not data.decisions:
        return [say("report_no_decisions", lang)]
    items = []
    for n, d in enumerate(data.decisions, 1):
        where = f"; {inline(d.branch)}" if d.branch else ""
        by = inline(say("by_person", lang, name=d.author)) if d.author else ""
        item = f"{n}. **{inline(d.decision)}** ({d.timestamp.date().isoformat()}{by}{where})"
        if d.rationale:
            item += f"  \n   *{say('report_why', lang)}:* {inline(d.rationale)}"
        if d.replaces:
            item += f"  \n   *{say('report_replaces', lang)}:* {inline(d.replaces)}"
        items.append(item)
    return ["\n".join(items)]


def _answers(data: ReportData) -> list[str]:
    if not data.answers:
        return [say("report_no_answers", data.language)]
    blocks: list[str] = []
    for index, answer in enumerate(data.answers, 1):
        blocks += _answer(answer, index, data)
    return blocks


def _answer(answer: ReportAnswer, index: int, data: ReportData) -> list[str]:
    lang = data.language
    facts = [
        f"- **{say('report_persona', lang)}:** {inline(answer.persona)}",
        *_team_method(answer, lang),
        f"- **{say('report_turn', lang)}:** {answer.number}, {answer.timestamp.date().isoformat()}",
    ]
    if answer.request:
        facts.append(f"- **{say('report_request', lang)}:** {inline(answer.request)}")
    blocks = [_heading(answer_heading(answer, index, data)), "\n".join(facts)]
    blocks += [contain(answer.text, _shift_for(answer.text)) or say("report_empty_answer", lang)]
    blocks += [f"{'#' * (SHIFT + 1)} {say('report_references', lang)}", _references(answer, lang)]
    blocks += [f"{'#' * (SHIFT + 1)} {say('report_checklist', lang)}", _checklist(answer, lang)]
    return blocks


def _team_method(answer: ReportAnswer, lang: str) -> list[str]:
    """A fact line for an answer given with one of the team's own methods."""
    if not answer.team_method:
        return []
    method = say("report_team_method", lang, method=inline(answer.method))
    return [f"- **{say('report_method', lang)}:** {method}"]


def _shift_for(text: str) -> int:
    """How far an answer's headings move down so that its top one is a level 4 (under the
    answer's own level 3): its `#` or, when it starts at `##`, its `##`."""
    if "#" not in text and not _SETEXT_UNDERLINE.search(text):
        return SHIFT
    levels = [int(t.tag[1]) for t in _PARSER.parse(text) if t.type == "heading_open"]
    return SHIFT + 1 - min(levels) if levels else SHIFT


def _references(answer: ReportAnswer, lang: str) -> str:
    cited = answer.references or answer.citations
    if not cited:
        return say("report_no_references", lang)
    return "\n".join(f"{n}. {_citation(c)}" for n, c in enumerate(cited, 1))


def _sources(data: ReportData) -> str:
    """Each cited guide's own bibliography: its title, then its entries."""
    if not data.sources:
        return say("report_no_sources", data.language)
    items = []
    for source in data.sources:
        entries = [f"  - {' '.join(contain(e, 0).split())}" for e in source.entries]
        items.append("\n".join([f"- **{inline(source.title)}**", *entries]))
    return "\n".join(items)


def _citation(text: str) -> str:
    """A web address as a link (autolink), anything else ("[guide.md > Steps]") as text."""
    if re.fullmatch(r"https?://[^\s<>]+", text.strip(), re.IGNORECASE):
        return f"<{text.strip()}>"
    return inline(text)


def _evidence(data: ReportData) -> list[str]:
    """Per research answer: each theme's count and its verified quotes (the source's words,
    who, when, which segment), what was removed, the coverage line."""
    lang, blocks = data.language, []
    for answer in data.answers:
        report = answer.evidence
        if report is None or not report.quotes:
            continue
        title = say("report_evidence_answer", lang, method=answer.method, turn=answer.number)
        blocks.append(f"**{inline(title)}**")
        lines = [_theme_line(t, lang) for t in report.themes] or []
        for theme in report.themes:
            at = lines.index(_theme_line(theme, lang))
            quotes = [q for q in report.quotes if q.theme == theme.theme and q.status in
                      ("verified", "misattributed")]  # fmt: skip
            lines[at + 1 : at + 1] = [f"  - {_quote(q)}" for q in quotes]
        unthemed = [q for q in report.quotes if not q.theme and q.status == "verified"]
        lines += [f"- {_quote(q)}" for q in unthemed]
        if report.removed:
            lines.append(f"- {say('report_evidence_removed', lang, count=report.removed)}")
        if report.coverage is not None:
            lines.append(f"- {inline(coverage_line(report, lang))}")
        blocks.append("\n".join(lines))
    return blocks


def _theme_line(theme: ThemeCount, lang: str) -> str:
    key = "report_evidence_interpretation" if theme.interpretation else "report_evidence_theme"
    text = say(key, lang, theme=theme.theme, count=theme.count, total=theme.total)
    people = f" ({', '.join(theme.participants)})" if theme.participants else ""
    return f"- {inline(text + people)}"


def _quote(q: QuoteCheck) -> str:
    who = ", ".join(p for p in (q.participant, q.when, q.segment) if p)
    return f"“{inline(q.text)}” ({inline(who)})"


def _checklist(answer: ReportAnswer, lang: str) -> str:
    if not answer.checklist:
        return say("report_no_checklist", lang)
    return checked_note(answer.checklist, lang)


# -- keeping an answer inside its section ---------------------------------------------------


def contain(text: str, shift: int = SHIFT) -> str:
    """`text` (Markdown) made safe to place under a level-`shift` heading: raw HTML
    escaped, an open fence closed, its headings shifted down, links other than web and
    mail and images from elsewhere made text; everything else as it is.

    In that order, each on a fresh parse: escaping `<div>` can turn the lines its HTML
    block held into a heading or a fence, which the next steps then see."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    for _ in range(text.count("<") + 1):  # each pass escapes at least one more "<"
        escaped = _escape_html(text)
        if escaped == text:
            break
        text = escaped
    return keep_safe_links(_shift_headings(_close_fence(text), shift))


def _escape_html(text: str) -> str:
    """Raw HTML (blocks and inline tags) backslash-escaped, so it reads as typed."""
    if "<" not in text:  # no tag without one: spare the parse (a report holds many answers)
        return text
    lines: list[str | None] = list(text.split("\n"))
    for token in _PARSER.parse(text):
        if token.map is None:
            continue
        start, end = token.map
        if token.type == "html_block":
            _each(lines, start, end, _escape_lt)
        elif token.type == "inline" and any(c.type == "html_inline" for c in token.children or []):
            _each(lines, start, end, _escape_tags)
    return "\n".join(line for line in lines if line is not None)


def _shift_headings(text: str, shift: int) -> str:
    if "#" not in text and not _SETEXT_UNDERLINE.search(text):
        return text.strip("\n")  # no heading to shift
    lines: list[str | None] = list(text.split("\n"))
    for token in _PARSER.parse(text):
        if token.type == "heading_open" and token.map is not None:
            _shift(lines, token, token.map[0], token.map[1], shift)
    return "\n".join(line for line in lines if line is not None).strip("\n")


def _each(lines: list[str | None], start: int, end: int, change: Callable[[str], str]) -> None:
    for n in range(start, end):
        line = lines[n]
        if line is not None:  # None: a setext underline already folded into its heading
            lines[n] = change(line)


def _close_fence(text: str) -> str:
    """`text` with its last top-level code fence closed, when the answer left it open (so
    the rest of the report is not swallowed into a code block)."""
    if "```" not in text and "~~~" not in text:
        return text  # no fence can open without three of either
    blocks = [t for t in _PARSER.parse(text) if t.level == 0 and t.map is not None]
    if not blocks or blocks[-1].type != "fence":
        return text
    fence = blocks[-1]
    assert fence.map is not None
    lines = text.split("\n")
    last = lines[fence.map[1] - 1] if fence.map[1] - 1 < len(lines) else ""
    mark = re.escape(fence.markup[0])
    closer = re.fullmatch(rf" {{0,3}}{mark}{{{len(fence.markup)},}}[ \t]*", last)
    if fence.map[1] - 1 > fence.map[0] and closer:
        return text
    return f"{text}\n{fence.markup}"


def _shift(lines: list[str | None], token: Token, start: int, end: int, shift: int) -> None:
    """Move one heading `shift` levels down (at most to level 6); a setext heading
    ("Title" over "===") becomes an ATX one on one line."""
    level = min(6, int(token.tag[1]) + shift)
    first = lines[start] or ""
    if token.markup.startswith("#"):
        lines[start] = _ATX.sub(lambda m: m.group(1) + "#" * level, first, count=1)
        return
    prefix = _CONTAINER.match(first)
    lead = prefix.group(1) if prefix else ""
    words = [_CONTAINER.sub("", line or "").strip() for line in lines[start : end - 1]]
    lines[start] = f"{lead}{'#' * level} {' '.join(w for w in words if w)}"
    for n in range(start + 1, end):
        lines[n] = None


def _escape_tags(line: str) -> str:
    """`<` escaped outside code spans and autolinks, so inline HTML shows as typed."""
    kept = sorted(
        [m.span() for m in _CODE_SPAN.finditer(line)] + [m.span() for m in _AUTOLINK.finditer(line)]
    )
    out, pos = [], 0
    for a, b in kept:
        if a < pos:
            continue  # an autolink inside a code span (or the reverse): kept already
        out += [_escape_lt(line[pos:a]), line[a:b]]
        pos = b
    out.append(_escape_lt(line[pos:]))
    return "".join(out)


def _escape_lt(text: str) -> str:
    """Every `<` not already escaped (after an even number of backslashes) as `\\<`."""
    return _UNESCAPED_LT.sub(r"\1\\<", text)
