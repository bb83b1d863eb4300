"""A designer hands the stakeholders a report of the project, in English or Spanish.

The project is built for real through the pipeline with the offline provider
(an interview, a brief, three methods, four decisions), so its answers carry
real citations and checklists. The Markdown is read back with a CommonMark
parser (markdown-it), the HTML with html.parser and, when Chromium is
installed, opened in it (a screenshot) and printed to PDF. An answer written by
a fake Claude holds a script tag, an image with onerror, a javascript: link and
an unclosed code fence: all of it stays text and the report keeps its outline.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from fixtures.fakes import claude_run, install_fake
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from design_agent.cli.context import AppContext
from design_agent.cli.shell import Shell
from design_agent.core.errors import ExitCode
from design_agent.core.events import ActionDone
from design_agent.memory.models import Project
from design_agent.report import (
    ReportData,
    find_chromium,
    gather,
    to_html,
    to_markdown,
    write_report,
)
from design_agent.report.markdown import contain
from design_agent.report.outline import outline
from design_agent.report.pdf import screenshot
from design_agent.turn.pipeline import Pipeline, TurnRequest
from design_agent.turn.session import Services
from design_agent.understanding.envelope import ActionEnvelope
from design_agent.understanding.intents import detect_action

# Read before the autouse home fixture clears every DESIGN_AGENT_* variable.
SCREENSHOTS = os.environ.get("DESIGN_AGENT_SCREENSHOTS")
CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium, chromium-browser or google-chrome on PATH"
)
COMMONMARK = MarkdownIt("commonmark")

STORY = {
    "en": [
        "create a project called Ledgerly",
        "small accountants who chase unpaid invoices",
        "invoices get paid late",
        "two months, web only",
        "here is the brief: {brief}",
        "plan a usability test for the invoice screen",
        "we decided to use moderated testing because we need to probe hesitation",
        "write personas for our accountants",
        "we decided to focus on solo accountants because they are our early adopters",
        "create a journey map for invoice chasing",
        "we decided to start with email reminders because accountants live in their inbox",
        "we decided to ship web first because mobile is costly",
    ],
    "es": [
        "crea un proyecto llamado Cobros",
        "contables autónomos que persiguen facturas impagadas",
        "las facturas se cobran tarde",
        "dos meses, solo web",
        "aquí está el brief: {brief}",
        "planifica una prueba de usabilidad de la pantalla de facturas",
        "decidimos hacer pruebas moderadas porque necesitamos entender las dudas",
        "crea personas para nuestros contables",
        "decidimos centrarnos en contables autónomos porque son los primeros en adoptar",
        "haz un mapa de viaje del cliente para el cobro de facturas",
        "decidimos empezar con recordatorios por email porque viven en su bandeja de entrada",
        "decidimos lanzar primero la web porque el móvil es caro",
    ],
}
BRIEF = "# Brief\nAccountants <b>chase</b> 40 invoices a month; half are paid late.\n"
METHODS = ["usability_test_plan", "personas", "journey_mapping"]


# -- three projects built by talking, in one home shared by the module ------------------------

HOSTILE = (
    "# Plan\n<script>alert(1)</script>\n\nSee <img src=x onerror=alert(1)> and "
    "[click](javascript:alert(1)) or [the source](https://example.org/study).\n\n"
    "Big title\n===\n\nConfidence: medium. Limitations: few users [test_plan.md > Procedure]\n\n"
    "```python\nprint('a fence left open')\n"
)


class Story:
    """A home where Ledgerly (English) and Cobros (Spanish) were built through the pipeline
    offline, and Xss got one answer from a fake Claude: HOSTILE."""

    def __init__(self, root: Path) -> None:
        brief = root / "brief ledgerly.md"
        brief.write_text(BRIEF, encoding="utf-8")
        self.app = AppContext(str(root / "home"))
        self.services = self.services_for("offline", {})
        self.pipeline = Pipeline(self.services)
        self.projects: dict[str, Project] = {}
        for language, lines in STORY.items():
            for message in lines:
                self.say(message.format(brief=brief))
            self.projects[language] = self.active()
        self.projects["xss"] = self.hostile(root)

    def services_for(self, provider: str, environ: dict[str, str]) -> Services:
        app = self.app
        return Services(app.home, app.catalogue, app.memory, {"provider": provider}, environ)

    def hostile(self, root: Path) -> Project:
        binary = install_fake(root / "bin", "claude")
        environ = {"PATH": os.environ.get("PATH", ""), "DESIGN_AGENT_CLAUDE_BIN": str(binary)}
        pipeline = Pipeline(self.services_for("claude", environ))
        with pytest.MonkeyPatch.context() as patch:  # the CLI's environment comes from ours
            patch.setenv("DESIGN_AGENT_ENV_PASSTHROUGH", "FAKE_*")
            patch.setenv("FAKE_RECORDING", str(claude_run(root / "run.json", HOSTILE)))
            for message in ("create a project called Xss", "skip", "skip", "skip"):
                list(pipeline.run(TurnRequest(message)))
            list(pipeline.run(TurnRequest("plan a usability test for the checkout")))
        return self.active()

    def active(self) -> Project:
        project = self.app.memory.active_project()
        assert project is not None
        return project

    def use(self, key: str) -> Project:
        """Make the project `key` (en, es, xss) the active one, as a user switching to it."""
        return self.app.memory.switch_project(self.projects[key].id)

    def say(self, message: str) -> list[Any]:
        return list(self.pipeline.run(TurnRequest(message)))

    def report(self, key: str, turns: list[int] | None = None) -> ReportData:
        language = "es" if key == "es" else "en"
        memory, catalogue = self.app.memory, self.app.catalogue
        return gather(memory, catalogue, self.projects[key], language, None, turns)


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Story]:
    built = Story(tmp_path_factory.mktemp("story"))
    yield built
    built.app.close()


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, plain text) of every heading a CommonMark parser finds, in order."""
    tokens = COMMONMARK.parse(markdown)
    return [
        (int(tok.tag[1]), plain(tokens[i + 1]))
        for i, tok in enumerate(tokens)
        if tok.type == "heading_open"
    ]


def plain(token: Token) -> str:
    """An inline token's text as a reader sees it (escapes resolved, breaks as newlines)."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("hardbreak", "softbreak"):
            parts.append("\n")
    return "".join(parts)


def items_after(markdown: str, heading: str) -> list[str]:
    """The text of each list item under every heading `heading`, up to the next heading."""
    tokens = COMMONMARK.parse(markdown)
    found: list[str] = []
    inside = False
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            inside = plain(tokens[i + 1]) == heading
        elif inside and tok.type == "inline" and tokens[i - 2].type == "list_item_open":
            found.append(plain(tok))
    return found


def sections(markdown: str) -> list[list[tuple[int, str]]]:
    """The headings of each answer section (from its ### to the next ###)."""
    out: list[list[tuple[int, str]]] = []
    for level, text in headings(markdown):
        if level == 3:
            out.append([])
        elif out and level > 3:
            out[-1].append((level, text))
    return out


def check_outline(markdown: str, data: Any) -> None:
    """The report's own headings are exactly its outline; each answer's headings sit
    below level 3 and end with its references and checklist."""
    found = headings(markdown)
    expected = [(h.level, h.text) for h in outline(data)]
    assert [h for h in found if h[0] <= 3] == expected
    language = data.language
    tail = [(4, "References"), (4, "Checked")]
    if language == "es":
        tail = [(4, "Referencias"), (4, "Comprobado")]
    for section in sections(markdown):
        assert all(level >= 4 for level, _ in section)
        assert section[-2:] == tail


# -- the Markdown -------------------------------------------------------------------------------


def test_the_english_report_has_context_decisions_and_the_latest_answer_of_each_method(story):
    data = story.report("en")
    markdown = to_markdown(data)
    check_outline(markdown, data)
    assert [a.task_id for a in data.answers] == METHODS
    titles = [text for level, text in headings(markdown) if level == 3]
    # Turns 1-10: creating Ledgerly, its three questions and the brief (exchanges).
    assert titles == [
        "1. Usability test plan (turn 12)",
        "2. Personas (turn 16)",
        "3. Customer journey map (turn 20)",
    ]
    facts = items_after(markdown, "Project context")
    assert "Users: small accountants who chase unpaid invoices" in facts
    assert "Problem: invoices get paid late" in facts
    assert "Constraints: two months, web only" in facts
    brief = next(f for f in facts if f.startswith("brief ledgerly.md"))
    assert "(brief): # Brief Accountants <b>chase</b> 40 invoices" in brief  # as typed: text
    decisions = items_after(markdown, "Decisions")
    today = data.generated_at.date().isoformat()
    assert decisions[0] == f"use moderated testing ({today})\nWhy: we need to probe hesitation"
    assert len(decisions) == 4 and decisions[3].startswith("ship web first")


def test_each_answer_carries_its_persona_stored_citations_and_checklist(story):
    markdown = to_markdown(story.report("en"))
    turns = story.app.memory.recent_turns(story.projects["en"].id, 50)
    stored = [t for t in turns if t.role == "agent" and t.task_id]
    citations = [c for turn in stored for c in turn.validation["citations"]]
    references = items_after(markdown, "References")
    assert citations and len(references) == len(citations)
    assert "Usability test plan guide, section Procedure" in references
    assert not any(".md" in r for r in references), "read as words, not file names"
    bibliography = items_after(markdown, "Bibliography")
    assert "Usability test plan" in bibliography and any("Rubin" in b for b in bibliography)
    # Each answer's review is a short note, what was verified and what needs a person,
    # never the review's internal items.
    notes = re.findall(r"#### Checked\n\n(.*?)(?=\n#{2,4} |\Z)", markdown, re.DOTALL)
    assert len(notes) == len(stored)
    for note, turn in zip(notes, stored, strict=True):
        assert note.startswith(("Verified: ", "Needs a person: "))
        assert "passed" not in note and "failed" not in note and "✗" not in note
        for item in turn.validation["items"]:
            assert (item["detail"] or "-") not in note, "an item's internal detail"
    first = items_after(markdown, "1. Usability test plan (turn 12)")
    assert "Specialist: User Research Analyst" in first


def test_the_spanish_report_is_spanish_throughout(story):
    data = story.report("es")
    markdown = to_markdown(data)
    check_outline(markdown, data)
    found = [text for _, text in headings(markdown)]
    assert found[:5] == [
        "Informe del proyecto: Cobros",
        "Índice",
        "Contexto del proyecto",
        "Decisiones",
        "Respuestas",
    ]
    assert [a.task_id for a in data.answers] == METHODS
    assert found[5].endswith("(turno 12)") and data.answers[0].method in found[5]
    assert "Usuarios: contables autónomos que persiguen facturas impagadas" in items_after(
        markdown, "Contexto del proyecto"
    )
    assert "#### Comprobado\n\nVerificado: " in markdown and "Necesita una persona: " in markdown
    assert "Por qué: necesitamos entender las dudas" in items_after(markdown, "Decisiones")[0]


def test_turns_choose_the_answers_and_a_users_turn_stands_for_its_answer(
    story, run_cli, monkeypatch
):
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(story.app.home.root))
    chosen = run_cli("projects", "report", "ledgerly", "--turns", "19,12", "-o", "-")
    assert chosen.exit_code == 0, chosen.output
    titles = [text for level, text in headings(chosen.output) if level == 3]
    assert titles == ["1. Usability test plan (turn 12)", "2. Customer journey map (turn 20)"]
    reply = run_cli("projects", "report", "Ledgerly", "--turns", "2")  # "Who are the users?"
    assert reply.exit_code == ExitCode.USAGE and "no answer" in reply.output
    wrong = run_cli("projects", "report", "Ledgerly", "--turns", "2,x")
    assert wrong.exit_code == ExitCode.USAGE and "history --tree" in wrong.output
    missing = run_cli("projects", "report", "Ledgerly", "--turns", "99")
    assert missing.exit_code == ExitCode.NOT_FOUND and "no turn 99" in missing.output


def test_an_unknown_project_exits_6_with_one_line(run_cli):
    run_cli("projects", "create", "Atlas")
    result = run_cli("projects", "report", "Nowhere")
    assert result.exit_code == ExitCode.NOT_FOUND
    assert len(result.output.strip().splitlines()) == 1 and "Nowhere" in result.output


# -- the HTML -----------------------------------------------------------------------------------


class Page(HTMLParser):
    """Every tag with its attributes, the ids, and the visible text of a page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def attribute(self, name: str) -> list[str]:
        return [str(attrs[name]) for _, attrs in self.tags if name in attrs]


def check_page(html: str, citations: set[str]) -> Page:
    """Nothing in it loads or runs anything; its contents' links all land."""
    page = Page(html)
    names = {tag for tag, _ in page.tags}
    assert not names & {"script", "img", "iframe", "link", "object", "embed", "video", "audio"}
    assert page.attribute("src") == []
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)
    hrefs = page.attribute("href")
    web = {h for h in hrefs if h.lower().startswith(("http:", "https:"))}
    assert web <= citations
    assert all(h.startswith(("#", "http:", "https:", "mailto:")) for h in hrefs)
    ids = set(page.attribute("id"))
    assert {unquote(h[1:]) for h in hrefs if h.startswith("#")} <= ids  # "#bibliograf%C3%ADa"
    assert "@import" not in html and "url(" not in html
    assert "@media print" in html and "break-before: page" in html
    return page


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_html_is_one_self_contained_page(story, language, tmp_path):
    data = story.report(language)
    html = to_html(data)
    page = check_page(html, set())
    assert f'<html lang="{language}">' in html
    text = "".join(page.text)
    assert "<b>chase</b>" in text  # the brief's markup, shown as typed
    assert len(page.attribute("id")) == len(outline(data))
    if CHROMIUM is not None and language == "en":  # one browser run is enough: it is slow
        shot = shoot(html, tmp_path, "report-en.png")
        assert shot.stat().st_size > 10_000


def shoot(html: str, folder: Path, name: str) -> Path:
    """A screenshot of the page in headless Chromium (kept in $DESIGN_AGENT_SCREENSHOTS)."""
    page = folder / "report.html"
    page.write_text(html, encoding="utf-8")
    out = Path(SCREENSHOTS) if SCREENSHOTS else folder
    out.mkdir(parents=True, exist_ok=True)
    png = out / name
    screenshot(page, png, "en")
    assert png.read_bytes().startswith(b"\x89PNG")
    return png


@needs_chromium
def test_the_pdf_is_printed_by_chromium_with_each_answer_on_its_own_page(story, tmp_path):
    data = story.report("en")
    path = write_report(data, "pdf", tmp_path)
    assert path.name == "ledgerly-report.pdf"
    printed = path.read_bytes()
    assert printed.startswith(b"%PDF")
    from pypdf import PdfReader  # only this test reads a PDF

    pages = [page.extract_text().strip().splitlines() for page in PdfReader(path).pages]
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", printed)) == len(pages) > 3
    running = re.compile(r"^(Ledgerly · \d{4}-\d\d-\d\d|Page \d+ of \d+)$")
    tops = [line for page in pages for line in [x for x in page if not running.match(x)][:2]]
    for index, answer in enumerate(data.answers, 1):
        assert f"{index}. {answer.method} (turn {answer.number})" in tops


TABLE_ANSWER = """Journey stages, scored:

| Stage | Number of participants | Descubrir | Notes |
|---|---:|---|---|
| Discover | 5 | Buscan en Google | Extraordinarily long explanations wrap between words |
| Pay | 3 | Pagan con tarjeta | Short |

Confidence: medium [test_plan.md > Procedure]
"""


def with_table(data: ReportData, copies: int = 1) -> ReportData:
    """The report with its answers' text replaced by one holding a GFM table."""
    answers = [a.model_copy(update={"text": TABLE_ANSWER}) for a in data.answers] * copies
    return data.model_copy(update={"answers": answers})


def test_a_table_in_an_answer_is_a_table_in_the_html(story):
    html = to_html(with_table(story.report("en")))
    page = Page(html)
    names = [tag for tag, _ in page.tags]
    assert names.count("table") == len(story.report("en").answers) and "th" in names
    assert "| Stage |" not in html, "no pipe text left"
    assert names.count("main") == 1
    assert "overflow-wrap: normal; word-break: normal; hyphens: manual" in html


def pdf_pages(path: Path) -> list[list[str]]:
    """Each page's lines as pdftotext (poppler-utils) reads them, blank lines dropped."""
    if shutil.which("pdftotext") is None:
        pytest.skip("no pdftotext: apt-get install poppler-utils (.ci/run does this)")
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return [
        [line.strip() for line in page.splitlines() if line.strip()]
        for page in text.split("\f")[:-1]
    ]


@needs_chromium
def test_the_pdf_prints_tables_page_numbers_a_running_header_and_no_lone_checklist(story, tmp_path):
    data = with_table(story.report("en"), copies=4)
    path = write_report(data, "pdf", tmp_path)
    pages = pdf_pages(path)
    date = data.generated_at.date().isoformat()
    for number, lines in enumerate(pages, 1):
        assert lines[0] == f"Ledgerly · {date}", "the running header"
        assert lines[-1] == f"Page {number} of {len(pages)}", "the page number"
    text = "\n".join("\n".join(lines) for lines in pages)
    header = next(line for line in text.splitlines() if line.startswith("Stage"))
    assert re.match(r"Stage\s+Number of\s+Descubrir\s+Notes", header), "cells side by side"
    assert "| Stage |" not in text and "Numb\n" not in text
    checklist = re.compile(r"^(Checked|(Verified|Needs a person): .+)$")
    for lines in pages:
        body = lines[1:-1]
        assert body, "an empty page"
        assert not all(checklist.match(line) for line in body), f"a lone checklist: {body}"
        assert not checklist.match(body[0]), f"a page opens with a checklist: {body[:3]}"


def test_without_chromium_a_pdf_exits_4_naming_what_to_install(
    story, run_cli, tmp_path, monkeypatch
):
    empty = tmp_path / "no-browsers"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(story.app.home.root))
    monkeypatch.chdir(tmp_path)
    result = run_cli("projects", "report", "Ledgerly", "--format", "pdf")
    assert result.exit_code == ExitCode.PROVIDER_UNAVAILABLE == 4
    assert "apt install chromium" in result.output and "--format html" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert list(tmp_path.glob("*.pdf")) == []


# -- an answer that tries to break out --------------------------------------------------------


def test_script_tags_and_handlers_in_an_answer_stay_text(story):
    data = story.report("xss")
    assert data.answers[0].text == HOSTILE
    markdown = to_markdown(data)
    check_outline(markdown, data)
    tokens = COMMONMARK.parse(markdown)  # html enabled: raw HTML would show as html tokens
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_block", "html_inline"}
    shown = "".join(c.content for t in tokens for c in t.children or [] if c.type == "text")
    assert "<script>alert(1)</script>" in shown and "<img src=x onerror=alert(1)>" in shown
    answer = [text for level, text in headings(markdown) if level >= 4]
    assert answer[:2] == ["Plan", "Big title"]
    html = to_html(data)
    page = check_page(html, {"https://example.org/study"})
    text = "".join(page.text)
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(1)>" in text
    assert "javascript:" not in " ".join(page.attribute("href"))
    assert "print('a fence left open')" in text


FRAGMENTS = [
    "# a",
    "## b",
    "###### c",
    "text",
    "",
    "```",
    "~~~~",
    "````md",
    "===",
    "---",
    "> # q",
    "> ```",
    "- # l",
    "1. ## n",
    "    indented",
    "<div>",
    "</div>",
    "<!--",
    "-->",
    "<script>alert(1)</script>",
    "`<b>` and <i>x</i>",
    "[x]: https://example.org",
    "\\",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12))
def test_no_answer_breaks_the_sections_around_it(lines):
    answer = contain("\n".join(lines))
    document = f"### The answer\n\n{answer}\n\n#### References\n\n- one\n\n### Next\n"
    found = headings(document)
    assert found[0] == (3, "The answer") and found[-1] == (3, "Next")
    assert found[-2] == (4, "References")
    assert all(level >= 4 for level, _ in found[1:-1])
    tokens = COMMONMARK.parse(document)
    assert not {c.type for t in tokens for c in t.children or []} & {"html_inline"}
    assert "html_block" not in {t.type for t in tokens}


# -- by talking -------------------------------------------------------------------------------


def said(events: list[Any]) -> ActionDone:
    return next(e for e in events if isinstance(e, ActionDone))


def test_asking_for_the_report_writes_it_here_and_never_over_another(story, tmp_path, monkeypatch):
    story.use("en")
    monkeypatch.chdir(tmp_path)
    first = said(story.say("make a report of this project for the stakeholders"))
    path = tmp_path / "ledgerly-report.md"
    assert first.action == "projects.report" and str(path) in first.message
    assert "(answers: 3; decisions: 4)" in first.message
    content = path.read_text(encoding="utf-8")
    assert content.startswith("# Project report: Ledgerly\n")
    (tmp_path / "ledgerly-report-2.md").write_text("someone else's", encoding="utf-8")
    again = said(story.say("stakeholder pack as html"))
    assert str(tmp_path / "ledgerly-report.html") in again.message
    third = said(story.say("project report"))
    assert str(tmp_path / "ledgerly-report-3.md") in third.message
    assert path.read_text(encoding="utf-8") == content
    assert (tmp_path / "ledgerly-report-2.md").read_text(encoding="utf-8") == "someone else's"


def test_in_spanish_the_report_is_spanish_and_of_the_active_project(story, tmp_path, monkeypatch):
    story.use("es")  # Ledgerly and Xss exist too
    monkeypatch.chdir(tmp_path)
    done = said(story.say("prepara un informe del proyecto"))
    assert f"Informe de 'Cobros' guardado en {tmp_path / 'cobros-report.md'}" in done.message
    markdown = (tmp_path / "cobros-report.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Informe del proyecto: Cobros\n")
    assert "## Respuestas" in markdown and "Ledgerly" not in markdown
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cobros-report.md"]


def test_the_report_slash_command_writes_html(story, tmp_path, monkeypatch, capsys):
    story.use("en")
    story.say("thanks!")  # a slash command answers in the conversation's language
    monkeypatch.chdir(tmp_path)
    shell = Shell(story.services)
    shell.handle("/report html")
    page = (tmp_path / "ledgerly-report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Project report: Ledgerly" in page
    shell.handle("/report docx")
    assert "/report [md|html|pdf]" in capsys.readouterr().out


def test_the_answers_are_the_latest_of_each_method_on_the_current_branch(story):
    """Asked twice, a method's newer answer replaces the older; from an earlier turn
    (after /goto), the answers are those on the path to it."""
    memory = story.app.memory
    project = story.app.memory.switch_project(memory.create_project("Branches").id)
    for message in ("skip", "plan a usability test", "write personas"):
        story.say(message)  # "skip" answers no question: an exchange, turns 1-2
    story.say("plan a usability test for the invoice screen again")
    latest = gather(memory, story.app.catalogue, project, "en")
    assert [(a.task_id, a.number) for a in latest.answers] == [
        ("personas", 6),
        ("usability_test_plan", 8),
    ]
    back = gather(memory, story.app.catalogue, project, "en", node=memory.turn_at(project.id, 6).id)
    assert [(a.task_id, a.number) for a in back.answers] == [
        ("usability_test_plan", 4),
        ("personas", 6),
    ]


@pytest.mark.parametrize(
    ("message", "fmt"),
    [
        ("make a report of this project for the stakeholders", "md"),
        ("Make me a stakeholder report of this project in PDF", "pdf"),
        ("stakeholder pack", "md"),
        ("export this project as html", "html"),
        ("prepara un informe del proyecto", "md"),
        ("prepárame el informe del proyecto en html, por favor", "html"),
        ("haz un informe para los interesados en pdf", "pdf"),
    ],
)
def test_report_requests_are_read_as_the_report_action(message, fmt):
    envelope = detect_action(message, ["claude", "offline"], ["Ledgerly"])
    assert envelope == ActionEnvelope(
        module="projects", method="report", input={"name": None, "format": fmt}
    )


def test_a_named_project_is_reported_only_when_it_exists():
    envelope = detect_action("make a report of Ledgerly as HTML", [], ["Ledgerly"])
    assert envelope is not None and envelope.typed_input().name == "ledgerly"
    assert detect_action("make a report of Atlantis", [], ["Ledgerly"]) is None


@pytest.mark.parametrize(
    ("message", "method"),
    [
        ("usability test report", "research_report"),
        ("write a research report", "research_report"),
        ("write a usability test report for the stakeholders", "research_report"),
        ("make a report of the usability test", "research_report"),
        ("prepara un informe de usabilidad", "research_report"),
    ],
)
def test_design_requests_about_reports_still_go_to_the_methods(story, message, method):
    assert detect_action(message, ["claude", "offline"], ["Ledgerly"]) is None
    best = story.services.matcher.match(message).best
    assert best is not None and best.task_id == method
