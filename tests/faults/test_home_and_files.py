"""Faults around the home folder and the files a user adds, reproduced with real folders.

- A command never chmods a folder it did not create (a shared 1777 home keeps its
  mode and sticky bit; we only warn), and a home we cannot write gives one clear
  line naming the path, with exit code 3.
- A foreign file at the database path is refused before its mode or journal
  mode is touched.
- `files add` (and "here is the brief: ./x") refuses symlinks that lead out of
  their folder, keys and unknown types, and caps the text and the PDF work.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fixtures.pdfs import pdf_file

from design_agent.actions import ActionContext, ActionEnvelope, run_action
from design_agent.cli.context import AppContext
from design_agent.core.errors import ConfigError, ExitCode, UsageError
from design_agent.memory import Memory
from design_agent.turn.session import Services
from design_agent.understanding.conversation import load_state

MARKER = "zq7-secret-marker"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    assert "unexpected" not in lines[0] and "Traceback" not in result.stderr
    return lines[0]


# -- 8. a folder we did not create keeps its mode ------------------------------------------


def test_a_shared_sticky_home_keeps_its_mode_and_we_only_warn_once(run_cli, tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    monkeypatch.setenv("DESIGN_AGENT_HOME", str(shared))
    created = run_cli("projects", "create", "Checkout")
    assert created.exit_code == 0, created.output
    asked = run_cli("ask", "--json", "--provider", "offline", "plan a usability test")
    assert asked.exit_code == 0, asked.output
    listed = run_cli("--home", str(shared), "projects", "list")
    assert listed.exit_code == 0 and "other users" not in listed.stderr  # said once per home
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o1777  # sticky bit and all kept
    assert created.stderr.count("other users") == 1
    assert "mode 1777" in created.stderr and str(shared) in created.stderr
    assert mode(shared / "logs") == 0o700  # what we create is private
    assert mode(shared / "design-agent.db") == 0o600


def test_a_private_home_we_create_is_0700_with_its_parents_and_no_warning(run_cli, tmp_path):
    home = tmp_path / "new" / "deeper" / "home"
    result = run_cli("--home", str(home), "projects", "create", "Checkout")
    assert result.exit_code == 0 and "other users" not in result.stderr
    assert [mode(p) for p in (home.parent.parent, home.parent, home)] == [0o700] * 3


def test_a_home_below_a_file_is_one_clear_line(run_cli, tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    result = run_cli("--home", str(blocker / "home"), "projects", "list")
    assert result.exit_code == ExitCode.INVALID_CONFIG
    line = one_error_line(result)
    assert str(blocker / "home") in line and "--home" in line


@pytest.fixture
def immutable_home(tmp_path: Path) -> Iterator[Path]:
    """A folder even root cannot write into (chattr +i), made writable again afterwards."""
    home = tmp_path / "locked"
    home.mkdir()
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: cannot make a folder root cannot write")
    done = subprocess.run(["chattr", "+i", str(home)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"this filesystem has no immutable flag: {done.stderr.strip()}")
    yield home
    subprocess.run(["chattr", "-i", str(home)], check=True)


def test_a_home_that_cannot_be_written_is_one_clear_line(run_cli, immutable_home):
    for args in (("projects", "list"), ("config", "set", "language", "es")):
        result = run_cli("--home", str(immutable_home), *args)
        assert result.exit_code == ExitCode.INVALID_CONFIG, result.output
        line = one_error_line(result)
        assert str(immutable_home) in line and "not permitted" in line


def test_a_read_only_home_for_another_user_is_one_clear_line():
    """A real permission denial: root's 0555 folder, used by `nobody` in a subprocess."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv to run the command as another user")
    outer = Path(tempfile.mkdtemp(prefix="da-ro-", dir="/tmp"))
    try:
        outer.chmod(0o755)
        home = outer / "home"
        home.mkdir(mode=0o555)
        home.chmod(0o555)
        drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        probe = subprocess.run(
            [*drop, sys.executable, "-c", "import design_agent"], capture_output=True, cwd=outer
        )
        if probe.returncode != 0:  # e.g. CI's virtualenv lives in a 0700 temp folder
            pytest.skip("user nobody cannot import design_agent from this environment")
        command = [*drop, sys.executable, "-m", "design_agent", "--home", str(home), "projects"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("DESIGN_AGENT_")}
        done = subprocess.run(
            [*command, "list"], capture_output=True, text=True, env=env, cwd=outer, timeout=60
        )
        assert done.returncode == ExitCode.INVALID_CONFIG, done.stderr
        errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1 and str(home) in errors[0], done.stderr
        assert "Permission denied" in errors[0] and "unexpected" not in done.stderr
        assert mode(home) == 0o555 and list(home.iterdir()) == []
    finally:
        shutil.rmtree(outer)


# -- 12d. a foreign file at the database path is left as it is ------------------------------


def test_a_foreign_file_at_the_database_path_is_refused_untouched(tmp_path):
    garbage = tmp_path / "design-agent.db"
    garbage.write_bytes(b"my tax return, not a database " * 40)
    garbage.chmod(0o644)
    before = hashlib.sha256(garbage.read_bytes()).hexdigest()
    with pytest.raises(ConfigError) as refused:
        Memory.open(garbage)
    assert mode(garbage) == 0o644  # was made 0600 before it was refused
    assert hashlib.sha256(garbage.read_bytes()).hexdigest() == before
    assert "not an SQLite file" in refused.value.message


def test_a_foreign_sqlite_file_keeps_its_mode_and_journal_mode(tmp_path):
    foreign = tmp_path / "design-agent.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    db.execute("INSERT INTO invoices VALUES (1, 9.5)")
    db.commit()
    db.close()
    foreign.chmod(0o644)
    before = foreign.read_bytes()
    with pytest.raises(ConfigError, match="not a design-agent database"):
        Memory.open(foreign)
    assert mode(foreign) == 0o644
    assert foreign.read_bytes() == before  # header bytes 18-19 still say rollback journal
    assert before[18:20] == b"\x01\x01"
    assert not foreign.with_name(foreign.name + "-wal").exists()


# -- 10. what `files add` reads ------------------------------------------------------------


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory.open(tmp_path / "db" / "design-agent.db") as opened:
        yield opened


def test_a_symlink_out_of_its_folder_is_refused(memory, tmp_path):
    project = memory.create_project("Checkout")
    docs, outside = tmp_path / "docs", tmp_path / "private"
    docs.mkdir()
    outside.mkdir()
    (outside / "notes.md").write_text(f"# private {MARKER}", encoding="utf-8")
    (docs / "brief.md").symlink_to(outside / "notes.md")
    (docs / "shadow.txt").symlink_to("/etc/shadow")
    for link in ("brief.md", "shadow.txt"):
        with pytest.raises(UsageError, match=r"symbolic link.*outside"):
            memory.add_file(project.id, docs / link)
    (docs / "v2.md").write_text("# Brief v2\nguest checkout", encoding="utf-8")
    (docs / "current.md").symlink_to("v2.md")  # a link inside its own folder is fine
    assert memory.add_file(project.id, docs / "current.md").file.filename == "current.md"
    assert MARKER not in "".join(
        memory.get_file(f.id).content for f in memory.list_files(project.id)
    )


def test_keys_and_unknown_or_disguised_types_are_refused(memory, tmp_path):
    project = memory.create_project("Checkout")
    key = tmp_path / "id_ed25519"
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n", encoding="utf-8")
    cases = {
        key: "no file extension",
        tmp_path / ".env": "no file extension",
        tmp_path / "accounts.csv": r"\.csv",
        tmp_path / "server.key": r"\.key",
        tmp_path / "report.pdf": "not a PDF",
    }
    for path, why in cases.items():
        if not path.exists():
            path.write_text("SECRET=1\n", encoding="utf-8")
        with pytest.raises(UsageError, match=why):
            memory.add_file(project.id, path)
    assert memory.list_files(project.id) == []
    for name in ("a.md", "b.markdown", "c.txt", "d.text", "E.MD"):
        (tmp_path / name).write_text(f"brief {name}", encoding="utf-8")
        assert not memory.add_file(project.id, tmp_path / name).duplicate


def test_long_text_is_cut_at_the_cap_and_said_truncated(run_cli, tmp_path):
    from design_agent.memory.documents import MAX_TEXT_CHARS

    long = tmp_path / "transcripts.txt"
    long.write_text("interview notes " * 20_000, encoding="utf-8")  # 320,000 characters
    run_cli("projects", "create", "Checkout")
    added = run_cli("files", "add", str(long))
    assert added.exit_code == 0 and "truncated" in added.output
    with Memory.open(Path(os.environ["DESIGN_AGENT_HOME"]) / "design-agent.db") as memory:
        stored = memory.get_file(memory.list_files("checkout")[0].id).content
    assert MAX_TEXT_CHARS <= len(stored) < MAX_TEXT_CHARS + 200 and "truncated" in stored


def pdf_bytes(content: bytes, pages: int = 1) -> bytes:
    """A PDF whose pages all draw the same Flate-compressed content stream."""
    stream = zlib.compress(content, 9)
    kids = " ".join(f"{5 + n} 0 R" for n in range(pages)).encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    page = b"<< /Type /Page /Parent 2 0 R /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>"
    objects += [page] * pages
    return pdf_file(objects)


def test_a_small_pdf_that_expands_to_millions_of_characters_is_bounded(memory, tmp_path):
    from design_agent.memory.documents import MAX_TEXT_CHARS

    line = b"(ABCDEFGHIJKLMNOPQRSTUVWXYZ) Tj\n"
    bomb = tmp_path / "brief.pdf"
    bomb.write_bytes(pdf_bytes(b"BT /F1 12 Tf 72 720 Td " + line * 200_000 + b"ET"))
    assert bomb.stat().st_size < 20_000  # 16 KB on disk, 5.2 million characters inside
    project = memory.create_project("Checkout")
    started = time.monotonic()
    added = memory.add_file(project.id, bomb)
    assert time.monotonic() - started < 6  # took 45 s before the caps
    assert added.truncated and added.file.chars < MAX_TEXT_CHARS + 200


def test_pdf_pages_and_time_are_bounded(tmp_path):
    from design_agent.memory.documents import Limits, read_document

    pdf = tmp_path / "deck.pdf"
    pdf.write_bytes(pdf_bytes(b"BT /F1 12 Tf 72 720 Td (slide text) Tj ET", pages=6))
    whole = read_document(pdf)
    assert whole.text.count("slide text") == 6 and not whole.truncated
    first = read_document(pdf, limits=Limits(pages=2))
    assert first.text.count("slide text") == 2 and first.truncated
    with pytest.raises(UsageError, match="within the limits"):
        read_document(pdf, limits=Limits(seconds=0.0))  # out of time before the first page


@pytest.fixture
def services(home: Path) -> Iterator[Services]:
    app = AppContext(str(home))
    yield Services(app.home, app.catalogue, app.memory, {}, environ={"PATH": ""})
    app.close()


def talk(services: Services, **data: str) -> str:
    project = services.memory.active_project()
    state = load_state(services.memory, project.id if project else None)
    envelope = ActionEnvelope(module="files", method="add", input=data)  # type: ignore[arg-type]
    return run_action(envelope, ActionContext(services, "en", project, state, "")).done.message


def test_saying_here_is_the_brief_gets_the_same_checks(services, tmp_path):
    memory = services.memory
    memory.switch_project(memory.create_project("Checkout").id)
    (tmp_path / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n", "utf-8")
    (tmp_path / "brief.md").symlink_to("/etc/shadow")
    for name in ("id_ed25519", "brief.md"):
        with pytest.raises(UsageError, match=f"Could not add .*{name}"):
            talk(services, path=str(tmp_path / name))
    (tmp_path / "long.md").write_text("word " * 50_000, encoding="utf-8")
    assert "truncated" in talk(services, path=str(tmp_path / "long.md"))
    assert [f.filename for f in memory.list_files("checkout")] == ["long.md"]
