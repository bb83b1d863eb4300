"""Issue 23, items 12, 13, 14 and 16: what a provider, an upload, a path or a model's
answer could smuggle past design-agent, tried with real things.

- 12. A provider's helper that leaves its process group (`setsid`, and a daemon that
  forks away from its parent) is ended with the run when the turn is cancelled.
- 13. A chunked upload with no Content-Length is counted while it streams: the server
  stops reading at the limit and answers 413; uploads live in a private folder of the
  home, cleaned when the server starts.
- 14. `files add` (and "here is the brief: ./x") refuses a file reached through a
  symlinked folder that leads out of the folder the user named.
- 16. The stakeholder report keeps only http, https and mailto links and images from
  its own folder, in Markdown, HTML and PDF alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.fakes import invoke

from design_agent.errors import ExitCode

MARKER = "zq7-private-marker"

# -- 14. a symlinked folder on the way to the file -------------------------------------------


@pytest.fixture
def work(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder the user works in, holding `shared`, a link to a private folder elsewhere,
    and `current`, a link to a folder beside it; a project to add briefs to."""
    private, work = tmp_path / "private", tmp_path / "work"
    private.mkdir()
    (private / "notes.md").write_text(f"# private {MARKER}", encoding="utf-8")
    (work / "v2").mkdir(parents=True)
    (work / "v2" / "brief.md").write_text("# Brief v2\nguest checkout", encoding="utf-8")
    (work / "shared").symlink_to(private, target_is_directory=True)
    (work / "current").symlink_to("v2", target_is_directory=True)
    monkeypatch.chdir(work)
    assert invoke(home, "projects", "create", "Checkout").returncode == 0
    return work


def refusal(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "unexpected" not in lines[0]
    return lines[0]


def stored_text(home: Path) -> str:
    from design_agent.memory import Memory

    with Memory.open(home / "design-agent.db") as memory:
        files = memory.list_files("checkout")
        return "".join(memory.get_file(f.id).content for f in files)


@pytest.mark.parametrize(
    "typed", ["shared/notes.md", "./shared/notes.md", "{work}/shared/notes.md"]
)
def test_files_add_refuses_a_file_reached_through_a_folder_link_out_of_the_folder(
    home, work, typed
):
    result = invoke(home, "files", "add", typed.format(work=work))
    assert result.returncode == ExitCode.USAGE == 2
    line = refusal(result.stderr)
    private = work.parent / "private"
    assert f"shared is a symbolic link to {private}, outside the folder {work}" in line
    assert "add the file itself" in line
    assert MARKER not in stored_text(home)


def test_saying_here_is_the_brief_through_a_folder_link_is_refused_the_same_way(home, work):
    result = invoke(home, "ask", "here is the brief: ./shared/notes.md")
    assert result.returncode == 2
    line = refusal(result.stderr)
    assert "Could not add shared/notes.md" in line and "shared is a symbolic link to" in line
    assert MARKER not in stored_text(home)


def test_a_folder_link_that_stays_in_the_folder_is_followed(home, work):
    result = invoke(home, "files", "add", "current/brief.md")
    assert result.returncode == 0, result.stderr
    assert "guest checkout" in stored_text(home)
