"""The web page of `design-agent serve`, driven in a real (Debian) chromium.

A newcomer starts the server, opens the printed URL and works as in the shell:
creates a project, asks, watches the answer stream in, reads the footer, opens a
cited guide, cancels a turn, reloads in the middle of one, switches project,
searches, adds a brief by the file input and by dropping it, switches provider, and
reads the page in Spanish on a 390 px phone. The answers come from a fake Claude CLI
(a real executable replaying tests/fixtures/recorded/web_claude_hostile.json, one
line every FAKE_DELAY seconds) whose text holds a <script> and an <img onerror>: they
must show as text and never run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser import screenshot_dir
from fixtures.fakes import install_fake, recording

from design_agent.core.cache import CACHE_ENV
from design_agent.core.paths import HomeLayout
from design_agent.core.settings import set_setting
from web.a11y import check_axe, new_page

URL = re.compile(r"http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]+")
ASK = "Write user stories for saved payment cards"
STEP = 15_000  # ms: the longest any one step may take before the test fails


@dataclass
class Server:
    url: str
    base: str
    home: Path
    process: subprocess.Popen[str]


@contextmanager
def serving(
    root: Path, cache: Path, extra: dict[str, str] | None = None, cwd: Path | None = None
) -> Iterator[Server]:
    """A server (start_server) for the block, stopped after it: SIGTERM, then SIGKILL."""
    running = start_server(root, cache, extra, cwd)
    try:
        yield running
    finally:
        running.process.terminate()
        try:
            running.process.wait(10)
        except subprocess.TimeoutExpired:
            running.process.kill()
            running.process.wait(5)


def start_server(
    root: Path, cache: Path, extra: dict[str, str] | None = None, cwd: Path | None = None
) -> Server:
    """`design-agent serve` on a free port, with the fake claude as its provider (and the
    run's shared catalogue cache, as every home of the suite has it); `extra` adds to the
    server's environment (FAKE_SEQUENCE: the fake's runs in turn); `cwd` is the folder it
    runs in (default: a fresh one under `root`, never the checkout)."""
    home = root / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DESIGN_AGENT_", "FAKE_"))}
    env.update(
        DESIGN_AGENT_HOME=str(home),
        DESIGN_AGENT_CLAUDE_BIN=str(install_fake(root / "bin", "claude")),
        DESIGN_AGENT_ENV_PASSTHROUGH="FAKE_*",
        FAKE_RECORDING=recording("web_claude_hostile"),
        FAKE_DELAY="0.06",
        # The fake replays one recording per run: no review's graded pass after the answer.
        DESIGN_AGENT_MODEL_REVIEW="off",
    )
    env.update(extra or {})
    env[CACHE_ENV] = str(cache)
    set_setting(HomeLayout(home), "provider", "claude")  # as `config set provider claude`
    folder = cwd or root / "cwd"
    folder.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "serve", "--port", "0"],
        env=env,
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = first_url(process, within=20.0)
    return Server(url, url.split("/?")[0], home, process)


def first_url(process: subprocess.Popen[str], within: float) -> str:
    """The token URL `serve` prints, read on a thread so a silent server cannot hang us."""
    found: list[str] = []
    seen: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            seen.append(line)
            match = URL.search(line)
            if match:
                found.append(match.group(0))
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(within)
    if not found:
        process.kill()
        pytest.fail("`design-agent serve` printed no URL:\n" + "".join(seen))
    return found[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("web"), shared_cache) as running:
        yield running


def open_page(chromium: Any, server: Server, width: int = 1366, height: int = 900) -> Any:
    """A fresh browser context (axe ready in it, its console watched: `page.console`) that
    opens the token URL (which sets the cookie)."""
    page, console = new_page(chromium, {"width": width, "height": height})
    page.context.set_default_timeout(STEP)
    page.console = console
    page.add_init_script("window.__pwned = null;")
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='true']")
    return page


def ask(page: Any, message: str) -> Any:
    page.fill("#message", message)
    page.press("#message", "Enter")
    return page.locator(".msg.agent").last


def test_a_newcomer_works_in_the_browser_as_in_the_shell(
    chromium: Any, server: Server, tmp_path: Path
) -> None:
    page = open_page(chromium, server)
    assert page.url.rstrip("/") == server.base  # the token left the address bar

    create_project(page, "Checkout")
    watch_an_answer_stream(page)
    record_a_decision(page)
    open_a_citation(page)
    save_screenshot(page, tmp_path)
    cancel_a_turn(page)
    reload_during_a_turn(page)
    switch_project_and_back(page)
    search_everywhere(page)
    upload_briefs(page, tmp_path)
    switch_provider(page)
    rename_and_delete_a_project(page)
    assert page.evaluate("() => window.__pwned") is None
    page.console.check()
    page.context.close()


def create_project(page: Any, name: str) -> None:
    page.fill("#new-project-name", name)
    page.press("#new-project-name", "Enter")
    current = page.locator(".project-name[aria-current='true']")
    current.filter(has_text=name).wait_for()
    assert page.inner_text("#project-title") == name


def watch_an_answer_stream(page: Any) -> None:
    """The answer grows while the fake streams it, then the footer appears."""
    # Note the answer's length at every change of the log while the turn runs.
    page.evaluate(
        """() => { window.__lengths = [];
        new MutationObserver(() => {
          const running = document.querySelector('.msg.agent.running .markdown');
          if (running) window.__lengths.push(running.textContent.length);
        }).observe(document.getElementById('log'), {childList: true, subtree: true}); }"""
    )
    answer = ask(page, ASK)
    page.locator(".msg.agent.done .footer-line").wait_for()
    parts = footer_parts(page)
    assert parts["method"] == "User stories"
    assert parts["persona"] == "Requirements Analyst"
    assert parts["confidence"] in ("method: sure", "method: fairly sure", "method: a guess")
    assert parts["provider"].startswith("by claude")
    assert parts["tokens"] == "2220 tokens $0.0123"
    assert re.fullmatch(r"checklist: \d+ of \d+ met", parts["checklist"])
    check_axe(page, "a streamed answer")
    # Untrusted text: the tags are visible characters; nothing ran, nothing was created.
    text = answer.locator(".markdown").inner_text()
    assert "<script>window.__pwned = 'script'</script>" in text
    assert "<img src=x onerror=" in text
    unsafe = "script, img, iframe, [onerror], [onclick], a[href^='javascript']"
    assert answer.locator(f".markdown :is({unsafe})").count() == 0
    assert answer.locator(".markdown table td").count() == 4
    assert page.evaluate("() => window.__pwned") is None
    final = len(answer.locator(".markdown").text_content() or "")
    growing = sorted(set(page.evaluate("() => window.__lengths")) - {0})
    assert len([n for n in growing if n < final]) >= 3, growing  # seen part-way, several times


def footer_parts(page: Any) -> dict[str, str]:
    page.locator(".msg.agent.done .footer-line [data-part='confidence']").last.wait_for()
    spans = page.locator(".msg.agent.done .footer-line").last.locator("[data-part]")
    return {s.get_attribute("data-part"): s.inner_text() for s in spans.all()}


def open_a_citation(page: Any) -> None:
    page.locator(".msg.agent.done button.cite").first.click()
    section = page.locator("#guide .guide-section.highlight")
    section.wait_for()
    assert section.locator("h3").inner_text() == "Procedure"
    assert page.locator("#panel-guide").is_visible()


def record_a_decision(page: Any) -> None:
    page.click("#tab-decisions")
    page.fill("#decision-text", "Save cards only with consent")
    page.fill("#decision-rationale", "Payment rules and trust")
    page.click("#new-decision button[type='submit']")
    item = page.locator("#decision-list .decision").filter(has_text="Save cards only with consent")
    item.wait_for()
    assert "Payment rules and trust" in item.inner_text()


def save_screenshot(page: Any, tmp_path: Path) -> None:
    """The README's picture of a citation: the answer with its footer, the cited guide
    section beside it (web-guide.png; see test_chat_page.py for the others)."""
    page.evaluate("() => { document.getElementById('toast').hidden = true; }")
    page.locator(".msg.agent.done .footer").first.scroll_into_view_if_needed()
    path = screenshot_dir(tmp_path / "screenshots") / "web-guide.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


def cancel_a_turn(page: Any) -> None:
    answer = ask(page, "Write user stories for the saved cards settings page")
    page.locator("#cancel").wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('.msg.agent:last-child .markdown')?.textContent.length > 0"
    )
    page.click("#cancel")
    page.locator(".msg.agent[data-status='cancelled']").wait_for()
    page.locator(".msg.agent[data-status='cancelled'] .note.cancelled").wait_for()
    assert answer.locator(".note.cancelled").count() == 1
    assert page.locator("#cancel").is_hidden()
    assert page.locator("#send").is_enabled()


def reload_during_a_turn(page: Any) -> None:
    """A reload mid-answer reattaches: the turn's events replay and it completes."""
    ask(page, ASK + " for business accounts")
    page.wait_for_function(
        "() => document.querySelector('.msg.agent:last-child .markdown')?.textContent.length > 0"
    )
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    resumed = page.locator(".msg.agent[data-turn-id]").last
    resumed.wait_for()
    asked = ASK + " for business accounts"
    assert page.locator(".msg.user .msg-text", has_text=asked).count() == 1, "shown once"
    # The turn ends; the record is drawn again, the answer in it, the request still once.
    page.wait_for_function("() => DAApp.state.turn === null && DAApp.state.ended > 0")
    answer = page.locator(".msg.agent").last
    assert "User stories for saved payment cards" in answer.locator(".markdown").inner_text()
    assert answer.locator(".footer-line [data-part='method']").inner_text() == "User stories"
    assert page.locator(".msg.user .msg-text", has_text=asked).count() == 1


def switch_project_and_back(page: Any) -> None:
    create_project(page, "Onboarding")
    page.locator("#log .welcome").wait_for()  # an empty conversation: what to try
    assert page.locator(".msg").count() == 0
    choose_a_method_by_number(page)
    ask(page, "switch to project Checkout")  # said, as in the shell
    page.locator(".project-name[aria-current='true']", has_text="Checkout").wait_for()
    page.locator(".msg.agent .markdown", has_text="saved payment cards").first.wait_for()
    assert page.locator(".msg.user").count() >= 3  # the history of Checkout came back


def choose_a_method_by_number(page: Any) -> None:
    """A vague request the model cannot place: numbered methods; a click sends the number."""
    ask(page, "hello, can you help me?")
    options = page.locator(".choice button.choice-option")
    options.first.wait_for()
    assert options.count() >= 3
    assert re.fullmatch(r"2\. .+", options.nth(1).inner_text())
    method = options.nth(1).inner_text().split(". ", 1)[1]
    options.nth(1).click()
    page.locator(".msg.user .msg-text", has_text=re.compile(r"^2$")).wait_for()
    footer = page.locator(".msg.agent.done .footer-line [data-part='method']").last
    footer.wait_for()
    assert footer.inner_text() == method
    assert options.nth(0).is_disabled()


def rename_and_delete_a_project(page: Any) -> None:
    row = page.locator(".project", has_text="Onboarding")
    row.locator("button.rename").click()
    page.fill(".rename-input", "Onboarding v2")
    page.press(".rename-input", "Enter")
    renamed = page.locator(".project", has_text="Onboarding v2")
    renamed.wait_for()
    turns = renamed.locator(".count").inner_text()
    renamed.locator("button.delete").click()
    dialog = page.locator("#delete-dialog")
    dialog.wait_for(state="visible")
    assert "Onboarding v2" in page.inner_text("#delete-title")
    assert int(turns) >= 4  # the choice, and the answer to "2"
    assert re.search(rf"\b{turns} turns\b", page.inner_text("#delete-counts"))
    check_axe(page, "the delete dialog")
    page.click("#delete-confirm")
    page.locator("#toast", has_text="Deleted 'Onboarding v2'").wait_for()
    renamed.wait_for(state="detached")
    assert page.locator(".project", has_text="Onboarding").count() == 0


def search_everywhere(page: Any) -> None:
    page.locator(".project-name", has_text="Onboarding").click()
    page.locator(".project-name[aria-current='true']", has_text="Onboarding").wait_for()
    page.select_option("#search-scope", "project")  # only Checkout spoke of business accounts
    page.fill("#search-input", "business accounts")
    page.press("#search-input", "Enter")
    page.locator("#search-results .hint", has_text="0 results").wait_for()
    check_axe(page, "search results")
    page.select_option("#search-scope", "all")
    page.press("#search-input", "Enter")
    results = page.locator("#search-results .result")
    results.first.wait_for()
    assert "Checkout" in page.inner_text("#search-results")
    # A hit opens its turn, in its project.
    page.locator("#search-results button.open-turn").first.click()
    page.locator(".project-name[aria-current='true']", has_text="Checkout").wait_for()
    found = page.locator("#log .msg.found")
    found.wait_for()
    assert "business accounts" in found.inner_text().lower()


def upload_briefs(page: Any, tmp_path: Path) -> None:
    brief = tmp_path / "checkout-brief.md"
    brief.write_text("# Brief\n\nShoppers abandon at the card form.\n", encoding="utf-8")
    page.set_input_files("#brief-input", str(brief))
    page.locator("#upload-result", has_text="checkout-brief.md").wait_for()
    assert float(page.get_attribute("#upload-progress", "value") or 0) == 100
    # A synthetic drop of a file onto the conversation.
    page.evaluate(
        """() => {
        const data = new DataTransfer();
        data.items.add(new File(['# Dropped brief\\n\\nRecruit returning shoppers.'],
                                'dropped-brief.md', {type: 'text/markdown'}));
        const zone = document.getElementById('conversation');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          zone.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true,
                                                  cancelable: true}));
        }
    }"""
    )
    page.locator("#upload-result", has_text="dropped-brief.md").wait_for()
    files = page.evaluate(
        """async () => {
        const id = DAApp.state.projectId;
        const r = await fetch('/api/v1/projects/' + id + '/files');
        return (await r.json()).files.map(f => JSON.stringify(f));
    }"""
    )
    assert any("checkout-brief.md" in f for f in files)
    assert any("dropped-brief.md" in f for f in files)


def switch_provider(page: Any) -> None:
    options = page.locator("#provider option")
    assert "claude" in options.all_inner_texts()
    page.console.expect(r"status of 409")  # the refusal the next line provokes
    page.select_option("#provider", "gemini")  # not installed: the server says so
    page.locator("#toast.error").wait_for()
    assert "not installed" in page.inner_text("#toast")
    assert page.eval_on_selector("#provider", "s => s.value") == "claude"
    page.select_option("#provider", "offline")
    page.locator("#toast.info", has_text="offline").wait_for()
    page.select_option("#provider", "claude")
    page.locator("#toast.info", has_text="claude").wait_for()


def test_spanish_on_a_390_px_phone(chromium: Any, server: Server) -> None:
    page = open_page(chromium, server, width=390, height=844)
    page.evaluate(
        """async () => {
        const r = await fetch('/api/v1/settings', {method: 'PATCH',
          headers: {'Content-Type': 'application/json'}, body: JSON.stringify({language: 'es'})});
        if (!r.ok) throw new Error(await r.text());
    }"""
    )
    try:
        page.reload()
        page.wait_for_selector("body[data-ready='true']")
        assert page.inner_text("#send") == "Enviar"
        assert page.inner_text("#toggle-projects") == "Proyectos"
        assert page.get_attribute("html", "lang") == "es"
        assert "Pide un método" in (page.get_attribute("#message", "placeholder") or "")
        # Nothing wider than the phone, and the message box is on screen and usable.
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.body.scrollWidth,"
            " window.innerWidth]"
        )
        assert max(widths[:2]) <= widths[2] == 390
        box = page.locator("#message").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844 and box["width"] > 250
        check_axe(page, "Spanish, a phone")
        page.focus("#message")
        page.keyboard.type("hola")
        assert page.input_value("#message") == "hola"
        # The projects drawer opens over the conversation and closes with Escape.
        page.click("#toggle-projects")
        assert page.locator("#projects").is_visible()
        check_axe(page, "the projects drawer on a phone")
        page.keyboard.press("Escape")
        assert page.locator("#projects").is_hidden()
        page.console.check()
    finally:
        page.evaluate(
            """() => fetch('/api/v1/settings', {method: 'PATCH',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({language: 'en'})})"""
        )
        page.context.close()
