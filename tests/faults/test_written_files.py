"""Files written where the user says: `projects export FILE` and `projects report -o FILE`.

What is at FILE decides: nothing yet, it is written; a regular file, it is replaced only
when the user says yes on a terminal or passes --force; a symbolic link, a FIFO, a device
node or a folder is refused, whatever the flags, and left exactly as it was. The file is
written beside FILE and renamed over it, so a failed write (a full disk) leaves the old
file whole and no temporary file behind.

Real things throughout: real FIFOs and device nodes (made with mknod, as root), a real
terminal (pexpect) for the question, a real size-limited tmpfs for the full disk.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from design_agent.cli.context import AppContext
from design_agent.core.errors import ExitCode

AGENT = [sys.executable, "-m", "design_agent"]
OLD = '{"my": "notes, not an export"}\n'


def one_error_line(result) -> str:  # type: ignore[no-untyped-def]
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.stderr
    assert "unexpected" not in lines[0] and "Traceback" not in result.stderr
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left in `folder` (there should be none)."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def atlas(home: Path) -> str:
    """A project with a turn and a decision, to export or report on."""
    app = AppContext(str(home))
    project = app.memory.create_project("Atlas")
    app.memory.switch_project(project.id)
    app.memory.add_turn(project.id, "user", "plan a usability test")
    app.memory.add_decision(project.id, "moderated testing", "we need to probe hesitation")
    app.close()
    return "Atlas"


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


# -- a new path, an existing file ----------------------------------------------------------


def test_an_export_to_a_new_path_is_written_private_and_whole(run_cli, atlas, out):
    backup = out / "atlas.json"
    result = run_cli("projects", "export", atlas, str(backup))
    assert result.exit_code == 0, result.output
    assert json.loads(backup.read_text(encoding="utf-8"))["project"]["name"] == "Atlas"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert leftovers(out) == []


def test_an_existing_file_is_not_replaced_without_force_when_nobody_can_be_asked(
    run_cli, atlas, out
):
    backup = out / "atlas.json"
    backup.write_text(OLD, encoding="utf-8")
    for args in (("projects", "export", atlas), ("projects", "report", atlas, "-o")):
        result = run_cli(*args, str(backup))  # CliRunner's stdin is not a terminal
        assert result.exit_code == ExitCode.USAGE, result.output
        line = one_error_line(result)
        assert str(backup) in line and "--force" in line
        assert backup.read_text(encoding="utf-8") == OLD
    assert leftovers(out) == []


def test_force_replaces_an_existing_file_atomically(run_cli, atlas, out):
    backup, report = out / "atlas.json", out / "atlas.md"
    for path in (backup, report):
        path.write_text(OLD, encoding="utf-8")
        path.chmod(0o644)
    before = backup.stat().st_ino
    exported = run_cli("projects", "export", atlas, str(backup), "--force")
    assert exported.exit_code == 0, exported.output
    assert json.loads(backup.read_text(encoding="utf-8"))["project"]["name"] == "Atlas"
    assert backup.stat().st_ino != before  # a new file renamed over it, not rewritten in place
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # an export is always private
    reported = run_cli("projects", "report", atlas, "-o", str(report), "--force")
    assert reported.exit_code == 0, reported.output
    assert report.read_text(encoding="utf-8").startswith("# ")
    assert stat.S_IMODE(report.stat().st_mode) == 0o644  # a report keeps the file's mode
    assert leftovers(out) == []


def test_on_a_terminal_the_user_is_asked_before_a_file_is_replaced(atlas, home, out):
    backup = out / "atlas.json"
    backup.write_text(OLD, encoding="utf-8")
    env = {**os.environ, "DESIGN_AGENT_HOME": str(home)}
    for answer, replaced in (("n", False), ("y", True)):
        child = pexpect.spawn(
            AGENT[0],
            [*AGENT[1:], "projects", "export", atlas, str(backup)],
            env=env,
            encoding="utf-8",
            timeout=30,
        )
        child.expect(r"already exists\. Replace it\? \[y/N\]")
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert (child.exitstatus == 0) is replaced, child.before
        is_export = backup.read_text(encoding="utf-8") != OLD
        assert is_export is replaced
    assert leftovers(out) == []


# -- what is not a regular file is refused, untouched ---------------------------------------


def test_a_symlink_is_refused_naming_it_and_its_target_is_untouched(run_cli, atlas, out):
    target = out / "notes.txt"
    target.write_text(OLD, encoding="utf-8")
    link = out / "atlas.json"
    link.symlink_to(target)
    for args in (("projects", "export", atlas), ("projects", "report", atlas, "-o")):
        result = run_cli(*args, str(link), "--force")
        assert result.exit_code == ExitCode.USAGE, result.output
        line = one_error_line(result)
        assert f"{link} is a symbolic link" in line and str(target) in line
        assert link.is_symlink() and os.readlink(link) == str(target)
        assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(out) == []


def test_a_fifo_is_refused_without_being_opened(run_cli, atlas, out):
    fifo = out / "atlas.json"
    os.mkfifo(fifo)
    result = run_cli("projects", "export", atlas, str(fifo), "--force")  # would block if opened
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{fifo} is a named pipe (FIFO)" in one_error_line(result)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert leftovers(out) == []


@pytest.fixture
def full_device(out: Path) -> Iterator[Path]:
    """A character device node like /dev/full (1, 7), made in the test's folder."""
    node = out / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("mknod is not permitted here (needs root, or CAP_MKNOD)")
    yield node


def test_a_device_node_is_refused_and_stays_a_device(run_cli, atlas, full_device, out):
    for args in (("projects", "export", atlas), ("projects", "report", atlas, "-o")):
        result = run_cli(*args, str(full_device), "--force")
        assert result.exit_code == ExitCode.USAGE, result.output
        assert f"{full_device} is a character device" in one_error_line(result)
        info = os.lstat(full_device)
        assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 7)
    assert leftovers(out) == []


# -- a write that fails leaves the old file whole ---------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 256 KB tmpfs (root only), unmounted afterwards."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_an_export_that_does_not_fit_leaves_the_old_file_whole(run_cli, home, atlas, small_disk):
    app = AppContext(str(home))
    project = app.memory.find_project(atlas)
    for n in range(60):  # about 300 KB of turns: more than the small disk holds
        app.memory.add_turn(project.id, "agent", f"answer {n} " + "findings " * 600)
    app.close()
    backup = small_disk / "atlas.json"
    backup.write_text(OLD, encoding="utf-8")
    result = run_cli("projects", "export", atlas, str(backup), "--force")
    assert result.exit_code == ExitCode.DISK_FULL, result.output
    line = one_error_line(result)
    assert "disk is full" in line and str(backup) in line
    assert backup.read_text(encoding="utf-8") == OLD
    assert leftovers(small_disk) == []
