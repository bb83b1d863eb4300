"""What people expect of a chat page, on a desktop and on a phone: dark mode (the system's,
and a toggle), a message box that grows, Escape that stops an answer, a view that follows
the stream until the reader scrolls up (then a "jump to latest" button), 200 % text, code
blocks reachable by keyboard, copying an answer, readable project names, the project's
files, an upload bar that goes away, plural-aware counts, search hits that open their
turn, footers in plain words, and an interface that stays in the user's language whatever
language a message is in. axe runs on each state; the console stays clean. The test also
keeps the README's pictures of the page (light and dark).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser import screenshot_dir

from web import test_record
from web.a11y import check_axe
from web.test_browser import Server
from web.test_record import drawn, error_toasts, new_project, open_page, open_side, say, settle

server = test_record.server  # the same server fixture, one for this module

LONG_NAME = "Invoicing and payments redesign for small accountants across Europe"


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_what_people_expect_of_a_chat_page(
    chromium: Any, server: Server, viewport: str, tmp_path: Path
) -> None:
    page, console = open_page(chromium, server, viewport, color_scheme="dark")
    new_project(page, LONG_NAME if viewport == "desktop" else f"Phone {viewport}")
    dark_mode_follows_the_system_and_toggles(page)
    answer = say(page, "plan a usability test for the checkout")
    footers_in_plain_words(answer)
    code_and_tables_reachable_by_keyboard(page)
    copy_an_answer(page, answer)
    the_input_grows_and_escape_stops_an_answer(page)
    following_the_stream_until_the_reader_scrolls_up(page)
    the_language_is_the_users(page)
    files_uploads_and_counts(page, tmp_path)
    a_search_hit_opens_its_turn(page)
    readable_project_names(page, viewport)
    twice_the_text_size(page, viewport)
    if viewport == "desktop":
        pictures(page, tmp_path)
    assert error_toasts(page) == []
    console.check()
    page.context.close()


def background(page: Any) -> float:
    """The page's background luminance, 0 (black) to 255 (white)."""
    rgb = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def dark_mode_follows_the_system_and_toggles(page: Any) -> None:
    assert background(page) < 60, "the system asks for dark: the page is dark"
    toggle = page.locator("#toggle-theme")
    assert toggle.get_attribute("aria-pressed") == "true"
    check_axe(page, "dark, an empty project")
    toggle.click()
    assert background(page) > 200 and toggle.get_attribute("aria-pressed") == "false"
    check_axe(page, "light, an empty project")
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    assert background(page) > 200, "the choice is kept"
    page.locator("#toggle-theme").click()
    assert background(page) < 60


def footers_in_plain_words(answer: Any) -> None:
    answer.locator(".footer-line").wait_for()
    footer = answer.locator(".footer-line").inner_text()
    assert "HIGH" not in footer and "MEDIUM" not in footer
    assert "by claude" in footer
    assert "checklist:" in footer and " of " in footer


def code_and_tables_reachable_by_keyboard(page: Any) -> None:
    code = page.locator(".msg.agent").last.locator("pre").first
    assert code.get_attribute("tabindex") == "0"
    code.focus()
    assert page.evaluate("() => document.activeElement.tagName") == "PRE"
    wide = page.evaluate(
        "() => { const p = document.activeElement; return p.scrollWidth > p.clientWidth; }"
    )
    if wide:
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        # Scrolled by the keys (the browser may animate it).
        page.wait_for_function("() => document.activeElement.scrollLeft > 0", timeout=3000)
    check_axe(page, "an answer with a table and a code block")


def copy_an_answer(page: Any, answer: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    answer.locator("button.copy").click()
    page.locator("#toast", has_text="Copied").wait_for()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "| Stage | Number of participants |" in copied, "the Markdown, as written"


def the_input_grows_and_escape_stops_an_answer(page: Any) -> None:
    box = page.locator("#message")
    low = box.bounding_box()["height"]
    box.fill("one\ntwo\nthree\nfour\nfive")
    box.dispatch_event("input")
    assert box.bounding_box()["height"] > low * 1.8, "the box grows with its text"
    box.fill("write personas for shoppers")
    before = drawn(page)
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.msg.agent.running .markdown')?.textContent.length > 0"
    )
    page.keyboard.press("Escape")
    settle(page, before)
    assert page.locator(".msg.agent").last.get_attribute("data-status") == "cancelled"
    assert box.bounding_box()["height"] <= low + 2, "an empty box shrinks back"


def following_the_stream_until_the_reader_scrolls_up(page: Any) -> None:
    before = drawn(page)
    page.fill("#message", "write a research plan for the checkout")
    page.press("#message", "Enter")
    page.wait_for_function(
        "() => document.querySelector('.msg.agent.running .markdown')?.textContent.length > 200"
    )
    at_end = page.evaluate(
        "() => { const l = document.getElementById('log');"
        " return l.scrollHeight - l.scrollTop - l.clientHeight; }"
    )
    assert at_end < 80, "the view follows the stream"
    page.locator("#log").hover()
    page.mouse.wheel(0, -1500)
    page.locator("#jump").wait_for(state="visible")
    top = page.evaluate("() => document.getElementById('log').scrollTop")
    settle(page, before)
    page.locator("#jump").wait_for(state="visible")
    assert abs(page.evaluate("() => document.getElementById('log').scrollTop") - top) < 5
    page.click("#jump")
    page.locator("#jump").wait_for(state="hidden")
    assert (
        page.evaluate(
            "() => { const l = document.getElementById('log');"
            " return l.scrollHeight - l.scrollTop - l.clientHeight; }"
        )
        < 5
    )


def the_language_is_the_users(page: Any) -> None:
    """A message in Spanish is answered in Spanish; the page's own words stay English."""
    say(page, "planifica un test de usabilidad del pago")
    assert page.inner_text("#send") == "Send"
    assert page.get_attribute("#message", "placeholder").startswith("Ask for a design method")
    assert page.get_attribute("html", "lang") == "en"


def files_uploads_and_counts(page: Any, tmp_path: Path) -> None:
    brief = tmp_path / "checkout-brief.md"
    brief.write_text("# Brief\n\nShoppers abandon at the card form.\n", encoding="utf-8")
    page.set_input_files("#brief-input", str(brief))
    page.locator("#upload-result", has_text="checkout-brief.md").wait_for()
    page.locator("#upload").wait_for(state="hidden", timeout=8000)  # goes away when done
    open_side(page, "files")
    page.locator("#file-list .file-name", has_text="checkout-brief.md").wait_for()
    assert page.inner_text("#tab-files") == "Files (1)"
    check_axe(page, "the files")
    counts = page.evaluate(
        """async () => { const id = DAApp.state.projectId;
        const r = await fetch('/api/v1/projects/' + id + '/delete-preview', {method: 'POST'});
        return (await r.json()).counts; }"""
    )
    assert counts["files"] == 1
    item = page.locator(".project[data-project-id]").filter(
        has=page.locator(".project-name[aria-current='true']")
    )
    if not item.is_visible():
        page.click("#toggle-projects")
    item.locator("button.delete").click()
    page.locator("#delete-dialog").wait_for(state="visible")
    text = page.inner_text("#delete-counts")
    assert "1 file," in text and "1 files" not in text, text
    page.click("#delete-dialog button[value='cancel']")
    page.keyboard.press("Escape")


def a_search_hit_opens_its_turn(page: Any) -> None:
    page.fill("#search-input", "hesitation")
    page.press("#search-input", "Enter")
    hit = page.locator("#search-results button.open-turn").first
    hit.wait_for()
    page.locator("#search-results .hint").wait_for()
    assert page.inner_text("#search-results .hint").split()[1] in ("result", "results")
    hit.click()
    found = page.locator("#log .msg.found")
    found.wait_for()
    assert "hesitation" in found.inner_text()


def readable_project_names(page: Any, viewport: str) -> None:
    if viewport != "desktop":
        return
    name = page.locator(".project-name", has_text=LONG_NAME)
    assert name.get_attribute("title") == LONG_NAME
    cut = page.evaluate("n => n.scrollWidth > n.clientWidth + 1", name.element_handle())
    assert not cut, "the whole name shows (it wraps)"


def twice_the_text_size(page: Any, viewport: str) -> None:
    page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"no sideways scrolling at 200 %: {widths}"
    send = page.locator("#send").bounding_box()
    assert send is not None and send["y"] + send["height"] <= page.viewport_size["height"]
    check_axe(page, f"200 % text, {viewport}")
    page.evaluate("() => { document.documentElement.style.fontSize = ''; }")


def pictures(page: Any, tmp_path: Path) -> None:
    """The README's pictures: the page light and dark, an answer with its table.

    DESIGN_AGENT_SCREENSHOTS=/tmp/shots pytest -n 0 tests/web
    cp /tmp/shots/web.png /tmp/shots/web-dark.png /tmp/shots/report.png docs/images/
    """
    folder = screenshot_dir(tmp_path / "screenshots")
    page.fill("#search-input", "")
    open_side(page, "decisions")
    page.locator(".msg.agent .markdown table").first.evaluate(
        "t => t.closest('.msg').scrollIntoView({block: 'start'})"
    )
    page.evaluate(
        "() => { document.getElementById('toast').hidden = true;"
        " document.getElementById('jump').hidden = true; }"
    )
    for theme in ("light", "dark"):
        page.evaluate("t => document.documentElement.setAttribute('data-theme', t)", theme)
        name = "web.png" if theme == "light" else "web-dark.png"
        page.screenshot(path=str(folder / name))
        assert (folder / name).stat().st_size > 10_000
