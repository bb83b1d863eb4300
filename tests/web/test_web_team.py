"""The team admin's walkthrough of the README, end to end (issue 28, "Done when").

A designer's home (SQLite, a project and a decision) is copied to PostgreSQL with `db copy`;
two `serve --team` processes run on it; the admin invites Olga and Ben from the command
line and shares the project with them. Olga sets her password from her link in the
browser (on the first process), sees the copied project, its members and roles, and
records a decision in the page. Ben sets his password from his link (on the second
process), logs in from his terminal, and asks "why did we ..." there: the answer names
Olga as who decided it. Real processes, a real cluster, Debian's chromium.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fixtures.team_servers import Process

from design_agent.memory import Memory
from web.a11y import check_axe, new_page

STEP = 20_000  # ms: one browser step on a loaded machine


def run(env: dict[str, str], *args: str, input: str | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "design_agent", *args], env=env, input=input,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, f"{args}: {done.stderr}"
    return done.stdout


def test_an_admin_follows_the_readme_and_a_decision_made_in_the_page_is_recalled_with_its_author(
    chromium: Any, tmp_path: Path, postgres_url: str
) -> None:
    laptop = tmp_path / "laptop.db"
    with Memory.open(laptop) as memory:  # a designer's home, before the team
        project = memory.create_project("Checkout").id
        memory.add_decision(project, "Guest checkout stays", "half the buyers use it")
    admin = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(tmp_path / "server-home"),
        "DESIGN_AGENT_DATABASE_URL": postgres_url,
        "DESIGN_AGENT_PROVIDER": "offline",
    }
    assert "conversations" in run(admin, "db", "copy", str(laptop), postgres_url)
    first = Process(admin, tmp_path / "first.log")
    second = Process(admin, tmp_path / "second.log")
    try:
        olga = run(admin, "users", "add", "olga", "--url", first.url).strip().splitlines()[-1]
        ben = run(admin, "users", "add", "ben", "--url", second.url).strip().splitlines()[-1]
        run(admin, "projects", "share", "checkout", "olga", "--role", "owner")
        run(admin, "projects", "share", "checkout", "ben", "--role", "editor")
        page = set_password(chromium, olga, "olga's long passphrase")
        record_a_decision_in_the_page(page)
        set_password(chromium, ben, "ben's long passphrase").context.close()
        recalled = ask_from_a_terminal(tmp_path, second.url)
        assert "Moderated usability tests" in recalled and "by olga" in recalled
        assert "Guest checkout stays" not in recalled  # what was asked about, only
    finally:
        first.stop()
        second.stop()
    audit = run(admin, "audit", "--project", "checkout")
    assert "olga  decision.recorded [checkout]" in audit


def set_password(chromium: Any, link: str, password: str) -> Any:
    """Open the invite link, set the password: the app opens, signed in."""
    page, console = new_page(chromium, {"width": 1280, "height": 860})
    page.context.set_default_timeout(STEP)
    page.goto(link)
    page.wait_for_selector("body[data-ready='true']")
    page.locator("#welcome").filter(has_text="Welcome").wait_for()
    check_axe(page, "the invite page")
    page.fill("#password", password)
    page.fill("#again", password)
    page.click("#submit")
    page.wait_for_url("**/")
    page.wait_for_selector("#composer")
    page.wait_for_selector("body[data-ready='true']")
    assert "#" not in page.url  # the spent token left the address bar
    page.console = console
    return page


def record_a_decision_in_the_page(page: Any) -> None:
    page.locator("#person").filter(has_text="olga").wait_for()
    page.locator("#project-list .project-name").filter(has_text="Checkout").click()
    page.click("#tab-members")
    members = page.locator("#member-list .member")
    members.filter(has_text="ben").wait_for()
    assert "owner" in members.filter(has_text="olga").inner_text()
    assert page.locator("#share").is_visible()  # an owner may share
    check_axe(page, "the members of a team's project")
    page.click("#tab-decisions")
    page.fill("#decision-text", "Moderated usability tests")
    page.fill("#decision-rationale", "we need to hear why buyers hesitate")
    page.click("#new-decision button[type='submit']")
    made = page.locator("#decision-list .decision").filter(has_text="Moderated usability tests")
    made.wait_for()
    assert "by olga" in made.inner_text()
    copied = page.locator("#decision-list .decision").filter(has_text="Guest checkout stays")
    assert "by " not in copied.inner_text()  # made before the team: nobody's name
    page.console.check()
    page.click("#sign-out")
    page.wait_for_selector("form[data-form='sign-in']")
    check_axe(page, "the sign-in page")
    page.fill("#name", "olga")
    page.fill("#password", "not her password")
    page.click("#submit")
    page.locator("#problem").filter(has_text="wrong name or password").wait_for()
    page.context.close()


def ask_from_a_terminal(tmp_path: Path, url: str) -> str:
    """Ben, at his own computer: login, then ask."""
    terminal = tmp_path / "ben"
    terminal.mkdir(mode=0o700)
    env = {**os.environ, "DESIGN_AGENT_HOME": str(terminal)}
    env.pop("DESIGN_AGENT_DATABASE_URL", None)
    said = run(env, "login", url, "--name", "ben", input="ben's long passphrase\n")
    assert "as ben" in said
    run(env, "projects", "switch", "checkout")
    return run(env, "ask", "why did we choose moderated usability tests?")


pytestmark = pytest.mark.usefixtures("postgres_cluster")
