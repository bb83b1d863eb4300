"""The web page as a record people trust: a whole session in the page, on a desktop and on
a phone, reloaded at every step, finds the same conversation.

A newcomer opens the page (a welcome with example requests), creates a project by
talking and answers its questions, asks for a method (the fake Claude answers with a
table, a wide code block and two proposed decisions), keeps the proposed decisions with
one click (offered once; a later "yes" stores nothing twice), records a decision by
talking, asks what was decided, picks a method from a numbered choice, and asks for the
stakeholder report, offered as a download (the server writes nothing in its folder). After
each step the page is reloaded and shows the same turns, each request once; axe finds no
serious or critical violation in any state, and the page logs no error.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from browser import screenshot_dir
from fixtures.fakes import claude_run

from web.a11y import VIEWPORTS, Console, check_axe, new_page
from web.test_browser import STEP, Server, serving

TABLE = [
    "## Journey stages\n\n",
    "| Stage | Number of participants | Descubrir | Notes |\n",
    "|---|---:|---|---|\n",
    "| Discover | 5 | Buscan en Google | Extraordinarily careful shoppers compare |\n",
    "| Pay | 3 | Pagan con tarjeta | Short |\n\n",
]
CODE = [
    "```text\n",
    "participants = " + ", ".join(f"participant_{n:02d}" for n in range(40)) + "\n",
    "```\n\n",
]
STEPS = [f"- Step {n}: watch a shopper try the checkout, note each hesitation\n" for n in range(30)]
TAIL = [
    '\n<decision rationale="the budget covers five sessions">recruit 5 shoppers</decision>\n',
    "<decision>test on phones first</decision>\n\n",
    "**Confidence: medium.** **Limitations:** no sessions yet. [user_stories.md > Procedure]\n",
]
ANSWER = [*TABLE, *CODE, *STEPS, *TAIL]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, shared_cache: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("web-record")
    extra = {"FAKE_RECORDING": str(claude_run(root / "answer.json", *ANSWER)), "FAKE_DELAY": "0.02"}
    with serving(root, shared_cache, extra, cwd=root / "server-cwd") as running:
        yield running


def open_page(chromium: Any, server: Server, viewport: str, **options: Any) -> tuple[Any, Console]:
    page, console = new_page(chromium, VIEWPORTS[viewport], **options)
    page.context.set_default_timeout(STEP)
    page.goto(server.url)
    page.wait_for_selector("body[data-ready='true']")
    watch_toasts(page)
    return page, console


def watch_toasts(page: Any) -> None:
    """Keep every error toast the page shows (none is expected in a session that works)."""
    page.evaluate(
        """() => { window.__errors = []; const box = document.getElementById('toast');
        new MutationObserver(() => { if (!box.hidden && box.classList.contains('error'))
          window.__errors.push(box.textContent); })
        .observe(box, {attributes: true, childList: true}); }"""
    )


def error_toasts(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__errors || []"))


def say(page: Any, message: str) -> Any:
    """Type and send a message; wait until its turn ended and the record is drawn again."""
    before = drawn(page)
    page.fill("#message", message)
    page.press("#message", "Enter")
    return settle(page, before)


def drawn(page: Any) -> int:
    """How many turns ended (and the record was drawn again after them) so far."""
    return int(page.evaluate("() => DAApp.state.ended"))


def settle(page: Any, ended_before: int) -> Any:
    """Until the turn ended and the page drew the record again from the server."""
    page.wait_for_function(
        "n => DAApp.state.ended > n && DAApp.state.turn === null", arg=ended_before
    )
    return page.locator(".msg.agent").last


def requests(page: Any) -> list[str]:
    return [text.strip() for text in page.locator(".msg.user .msg-text").all_inner_texts()]


def reload_keeps(page: Any, state: str) -> list[str]:
    """A reload shows the same requests in the same order, each once; axe is clean."""
    shown = requests(page)
    page.reload()
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => DAApp.state.drawn > 0")
    again = requests(page)
    assert again == shown, f"after a reload ({state}): {again} != {shown}"
    check_axe(page, state)
    return again


def server_files(server: Server) -> list[str]:
    folder = server.home.parent / "server-cwd"
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_a_whole_session_in_the_page_survives_every_reload(
    chromium: Any, server: Server, viewport: str
) -> None:
    page, console = open_page(chromium, server, viewport)
    welcome_and_project_by_talking(page, viewport)
    a_design_answer_with_a_proposal_offered_once(page, server)
    decisions_by_talking(page)
    a_choice_asked_once(page)
    a_report_is_a_download(page, server, viewport)
    switch_away_and_back(page)
    assert error_toasts(page) == []
    console.check()
    page.context.close()


def welcome_and_project_by_talking(page: Any, viewport: str) -> None:
    name = f"Checkout {viewport}"
    if page.locator(".welcome").count():
        check_axe(page, "the welcome screen")
        examples = page.locator(".welcome button.example").all_inner_texts()
        assert "Plan a usability test for our checkout" in examples
    say(page, f"create a project called {name}")
    page.locator(".project-name[aria-current='true']", has_text=name).wait_for(state="attached")
    assert "Who are the users" in page.locator(".msg.agent").last.inner_text()
    say(page, "shoppers who pay on their phones")
    say(page, "skip")
    say(page, "skip")
    shown = reload_keeps(page, "after the interview")
    assert shown == [
        f"create a project called {name}",
        "shoppers who pay on their phones",
        "skip",
        "skip",
    ]
    assert page.locator(".msg.agent.exchange").count() == 4  # each question and its reply


def a_design_answer_with_a_proposal_offered_once(page: Any, server: Server) -> None:
    answer = say(page, "plan a usability test for the checkout")
    answer.locator(".footer-line").wait_for()
    table = answer.locator(".markdown table")
    assert table.locator("th").all_inner_texts()[:3] == [
        "Stage",
        "Number of participants",
        "Descubrir",
    ]
    # A header cell wraps between words, never inside one ("Numb/er").
    assert page.evaluate(
        """() => [...document.querySelectorAll('.msg.agent:last-of-type th')].every(th => {
            const s = getComputedStyle(th);
            return s.wordBreak === 'normal' && s.overflowWrap === 'normal'; })"""
    )
    proposals = page.locator(".proposal")
    assert proposals.count() == 1, "the proposed decisions are offered once"
    assert page.locator(".msg.agent").last.inner_text().count("recruit 5 shoppers") == 1
    check_axe(page, "an answer with a proposal")
    before = drawn(page)
    proposals.locator("button", has_text="Keep all").click()
    settle(page, before)
    assert decisions(page) == ["test on phones first", "recruit 5 shoppers"]
    say(page, "yes")  # typed after the click: nothing is open, nothing is stored twice
    assert decisions(page) == ["test on phones first", "recruit 5 shoppers"]
    reload_keeps(page, "after keeping the proposed decisions")
    assert page.locator(".proposal button:enabled").count() == 0


def decisions(page: Any) -> list[str]:
    return [
        str(d["decision"])
        for d in page.evaluate(
            """async () => (await (await fetch('/api/v1/projects/' + DAApp.state.projectId
                + '/decisions')).json()).decisions"""
        )
    ]


def decisions_by_talking(page: Any) -> None:
    said = say(page, "we decided to pay by card only because wallets are rare")
    assert "Recorded" in said.inner_text()
    listing = say(page, "what have we decided?")
    assert "pay by card only" in listing.inner_text()
    shown = reload_keeps(page, "after decisions by talking")
    assert shown[-2:] == [
        "we decided to pay by card only because wallets are rare",
        "what have we decided?",
    ]
    assert "pay by card only" in page.locator(".msg.agent.exchange").last.inner_text()


def a_choice_asked_once(page: Any) -> None:
    choice = say(page, "help me with the thing")
    options = choice.locator("button.choice-option")
    assert options.count() >= 3
    question = choice.locator(".choice-question").inner_text()
    assert choice.inner_text().count(question) == 1, "the choice question is printed once"
    check_axe(page, "a numbered choice")
    before = drawn(page)
    options.nth(1).click()
    settle(page, before)
    reload_keeps(page, "after a choice")
    assert requests(page)[-2:] == ["help me with the thing", "2"]


def a_report_is_a_download(page: Any, server: Server, viewport: str) -> None:
    before = server_files(server)
    reply = say(page, "make a report of this project for the stakeholders as pdf")
    link = reply.locator("a.download")
    assert link.get_attribute("download", timeout=STEP) is not None
    with page.expect_download(timeout=60_000) as waited:
        link.click()
    download = waited.value
    assert download.suggested_filename.endswith("-report.pdf")
    path = Path(download.path())
    assert path.read_bytes().startswith(b"%PDF")
    assert server_files(server) == before, "nothing written in the server's folder"
    if shutil.which("pdftotext"):
        text = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert re.search(r"Stage\s+Number of\s+Descubrir", text), "the answer's table, as a table"
        assert re.search(r"Page 1 of \d+", text)
    reload_keeps(page, "after the report")
    assert page.locator(".msg.agent.exchange a.download").count() >= 1
    the_html_report_passes_axe(page)
    if viewport == "desktop":
        report_picture(page, path)


def the_html_report_passes_axe(page: Any) -> None:
    """The HTML report, opened in a browser: one `main`, headings in order, tables as tables,
    no serious or critical axe violation."""
    html = page.evaluate(
        """async () => (await fetch('/api/v1/projects/' + DAApp.state.projectId
            + '/report?format=html')).text()"""
    )
    report = page.context.new_page()
    report.set_content(html)
    assert report.locator("main").count() == 1
    assert report.locator("main table th", has_text="Descubrir").count() >= 1
    levels = [
        int(tag[1])
        for tag in report.evaluate(
            "() => [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => h.tagName)"
        )
    ]
    assert all(b - a <= 1 for a, b in pairwise(levels)), levels
    check_axe(report, "the HTML report")
    report.close()


def report_picture(page: Any, pdf: Path) -> None:
    """The README's picture of a report: its second page, as printed."""
    if not shutil.which("pdftoppm"):
        return
    out = screenshot_dir(pdf.parent / "shots")
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "70",
            "-f",
            "2",
            "-l",
            "2",
            "-singlefile",
            str(pdf),
            str(out / "report"),
        ],
        check=True,
    )
    assert (out / "report.png").stat().st_size > 10_000


def switch_away_and_back(page: Any) -> None:
    shown = requests(page)
    name = page.inner_text("#project-title")
    other = f"{name} elsewhere"  # a name no other test took in this home
    say(page, f"create a project called {other}")
    page.locator(".project-name[aria-current='true']", has_text=other).wait_for(state="attached")
    toggle = page.locator("#toggle-projects")
    if toggle.is_visible():
        toggle.click()
    before = int(page.evaluate("() => DAApp.state.drawn"))
    page.locator(f".project-name[title='{name}']").click()
    page.locator(f".project-name[aria-current='true'][title='{name}']").wait_for(state="attached")
    page.wait_for_function("n => DAApp.state.drawn > n", arg=before)
    assert requests(page) == shown, "the conversation came back as it was"


# -- the conversation tree: edit and resend, versions, /tree, /goto, /fork, retry, compare ---


def new_project(page: Any, name: str) -> None:
    """A project made with the form (no interview), the page on it."""
    toggle = page.locator("#toggle-projects")
    if toggle.is_visible():
        toggle.click()
    page.fill("#new-project-name", name)
    page.press("#new-project-name", "Enter")
    page.locator(".project-name[aria-current='true']", has_text=name).wait_for(state="attached")
    page.wait_for_function("() => DAApp.state.drawn > 0")
    watch_toasts(page)


def open_side(page: Any, tab: str) -> None:
    if not page.locator(f"#tab-{tab}").is_visible():
        page.click("#toggle-decisions")
    page.click(f"#tab-{tab}")


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_tree_in_the_page_edit_retry_and_compare(
    chromium: Any, server: Server, viewport: str
) -> None:
    page, console = open_page(chromium, server, viewport)
    new_project(page, f"Tree {viewport}")
    say(page, "plan a usability test for the checkout")
    say(page, "write personas for shoppers")
    edit_and_resend(page)
    retry_with_another_provider(page)
    compare_and_keep_one(page)
    tree_goto_and_fork(page)
    assert error_toasts(page) == []
    console.check()
    page.context.close()


def edit_and_resend(page: Any) -> None:
    """An edited request is sent from the turn before it: a branch; ‹ › move between them."""
    request = page.locator(".msg.user").last
    request.locator("button.edit").click()
    page.fill(".edit-input", "write personas for first-time buyers")
    before = drawn(page)
    page.click(".edit-box button.primary")
    settle(page, before)
    last = page.locator(".msg.user").last
    assert last.locator(".msg-text").inner_text() == "write personas for first-time buyers"
    assert last.locator(".version-of").inner_text() == "2 of 2"
    check_axe(page, "an edited request, a branch")
    count = int(page.evaluate("() => DAApp.state.drawn"))
    last.locator("button[aria-label='Previous version']").click()
    page.wait_for_function("n => DAApp.state.drawn > n", arg=count)
    last = page.locator(".msg.user").last
    assert last.locator(".msg-text").inner_text() == "write personas for shoppers"
    assert last.locator(".version-of").inner_text() == "1 of 2"
    page.reload()
    page.wait_for_function("() => DAApp.state.drawn > 0")
    assert requests(page)[-1] == "write personas for shoppers", "the branch it is on, kept"
    # Only the latest answer offers a retry and a comparison: they redo the last request.
    assert page.locator("select.retry").count() == 0
    count = int(page.evaluate("() => DAApp.state.drawn"))
    page.locator(".msg.user").last.locator("button[aria-label='Next version']").click()
    page.wait_for_function("n => DAApp.state.drawn > n", arg=count)
    assert page.locator("select.retry").count() == 1


def tree_goto_and_fork(page: Any) -> None:
    open_side(page, "tree")
    tree = page.locator("#tree")
    tree.locator(".tree-goto").first.wait_for()
    assert tree.locator(".tree-line .tree-line").count() >= 1, "a branch beside its turn"
    assert tree.locator(".tree-goto[aria-current]").count() == 1
    check_axe(page, "the tree")
    count = int(page.evaluate("() => DAApp.state.drawn"))
    tree.locator(".tree-goto", has_text=re.compile(r"^2 · ")).click()
    page.wait_for_function("n => DAApp.state.drawn > n", arg=count)
    assert requests(page) == ["plan a usability test for the checkout"]
    tree.locator(".tree-fork[aria-label='Fork from turn 2']").click()
    page.locator("#toast", has_text="Started a branch").wait_for()
    if page.locator("#close-side").is_visible():
        page.click("#close-side")


def retry_with_another_provider(page: Any) -> None:
    """ "Try again with…" offline: a second answer beside the first, as the shell's retry."""
    before = drawn(page)
    page.locator(".msg.agent").last.locator("select.retry").select_option("offline")
    settle(page, before)
    answer = page.locator(".msg.agent").last
    assert "offline" in answer.locator("[data-part='provider']").inner_text()
    assert answer.locator(".version-of").inner_text() == "2 of 2"
    assert requests(page)[-1] == "write personas for first-time buyers", "asked once"


def compare_and_keep_one(page: Any) -> None:
    before = drawn(page)
    page.locator(".msg.agent").last.locator("select.compare").select_option("offline")
    settle(page, before)
    sides = page.locator(".compare-side")
    assert sides.count() == 2, "the two answers side by side"
    check_axe(page, "a comparison")
    sides.nth(1).locator("input.keep-reason").fill("it is shorter")
    before = drawn(page)
    sides.nth(1).locator("button.primary").click()
    settle(page, before)
    assert any(d.startswith("Keep offline's answer") for d in decisions(page))
    assert "Kept offline's answer" in page.locator(".msg.agent.exchange").last.inner_text()
