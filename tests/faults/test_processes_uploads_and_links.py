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

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fixtures.fakes import alive, claude_stream, invoke, pids_in

from design_agent.core.errors import ConfigError, ExitCode
from design_agent.providers.process import group_members


def wait_for(check: Callable[[], Any], within: float = 10.0) -> Any:
    """What `check` returns once it is true, or its last (false) answer after `within` s."""
    deadline = time.monotonic() + within
    while not (found := check()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return found


# -- 12. a provider's helper that leaves its process group ------------------------------------

PARTIAL = "Hello from a CLI whose helper left its group"
# The helpers the fake CLI starts. Each notes its own pid in FAKE_PIDS once it has left the
# CLI's process group, then sleeps well past any test.
HELPERS = {
    # calls setsid() and keeps the CLI's stdout and stderr open
    "setsid": "import os, time\nos.setsid()\nnote(os.getpid())\ntime.sleep(60)\n",
    # a daemon: forks, setsid(), forks again and lets init adopt it; no pipes held
    "daemon": (
        "import os, time\n"
        "if os.fork(): os._exit(0)\n"
        "os.setsid()\n"
        "if os.fork(): os._exit(0)\n"
        "note(os.getpid())\n"
        "time.sleep(60)\n"
    ),
}
FAKE_WITH_HELPER = """#!{python} -S
import os, subprocess, sys, time

{note}
note(os.getpid())
sys.stdin.buffer.read()
helper = [sys.executable, "-S", "-c", {helper!r}]
quiet = dict.fromkeys(("stdin", "stdout", "stderr"), subprocess.DEVNULL)
subprocess.Popen(helper, **(quiet if {quiet!r} else {{}}))
sys.stdout.buffer.write({stream!r})
sys.stdout.flush()
time.sleep(60)
"""


def fake_with_helper(folder: Path, helper: str, pids: Path) -> Path:
    """A fake Claude CLI that starts `helper`, streams PARTIAL, then hangs."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "claude"
    note = (
        f"def note(pid):\n    with open({str(pids)!r}, 'a') as f:\n        f.write(f'{{pid}}\\n')\n"
    )
    stream = claude_stream(PARTIAL).encode("utf-8").splitlines(keepends=True)[0]
    code = FAKE_WITH_HELPER.format(
        python=sys.executable,
        note=note,
        helper=note + HELPERS[helper],
        quiet=helper == "daemon",
        stream=stream,
    )
    script.write_text(code, encoding="utf-8")
    script.chmod(0o755)
    return script


def ask_with_helper(home: Path, tmp_path: Path, helper: str) -> tuple[subprocess.Popen[str], int]:
    """`design-agent ask --events` in a real process, returned once the answer has begun to
    stream and the helper has left the CLI's group; and the helper's pid."""
    pids, scratch = tmp_path / "pids", tmp_path / "tmp"
    scratch.mkdir()
    env = {
        **os.environ,
        "DESIGN_AGENT_HOME": str(home),
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(fake_with_helper(tmp_path / "bin", helper, pids)),
        "TMPDIR": str(scratch),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "design_agent",
            "ask",
            "--events",
            "Plan a kickoff meeting for the redesign",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if json.loads(line).get("text") == PARTIAL:
            break
    found = wait_for(lambda: pids_in(pids)[1:])
    assert found, f"the helper never started: {process.communicate()[1]}"
    assert group_members(pids_in(pids)[0]) and found[0] not in group_members(pids_in(pids)[0])
    return process, found[0]


def gone(pid: int, within: float = 3.0) -> bool:
    return bool(wait_for(lambda: not alive(pid), within))


@pytest.mark.parametrize("helper", HELPERS)
def test_ctrl_c_ends_a_helper_that_left_the_clis_group(home, tmp_path, helper):
    process, pid = ask_with_helper(home, tmp_path, helper)
    try:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=10)
        assert process.returncode == 130, stderr
        assert "partial answer was saved" in stderr
        assert gone(pid), f"the {helper} helper outlived the cancelled turn"
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("helper", HELPERS)
def test_a_helper_that_left_the_group_dies_with_a_killed_design_agent(home, tmp_path, helper):
    process, pid = ask_with_helper(home, tmp_path, helper)
    try:
        process.kill()  # kill -9: design-agent cannot stop anything; its watchdog does
        process.communicate(timeout=10)
        assert gone(pid), f"the {helper} helper outlived design-agent"
    finally:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def test_a_timed_out_run_ends_its_daemon_too(tmp_path):
    from fixtures.fakes import bundled_adapters

    from design_agent.core.errors import ProviderTimeoutError
    from design_agent.core.settings import Settings
    from design_agent.providers.request import ProviderRequest
    from design_agent.providers.runner import start
    from design_agent.providers.spec import Timeouts

    pids = tmp_path / "pids"
    spec = bundled_adapters()["claude"]
    spec = spec.model_copy(update={"timeouts": Timeouts(first_output=5, idle=0.5, total=20)})
    settings = Settings(bins={"claude": str(fake_with_helper(tmp_path / "bin", "daemon", pids))})
    run = start(spec, ProviderRequest(prompt="hello"), settings)
    with pytest.raises(ProviderTimeoutError):
        for event in run:
            if getattr(event, "text", None) == PARTIAL:
                assert wait_for(lambda: pids_in(pids)[1:])
    helper = pids_in(pids)[1]
    try:
        assert gone(helper), "the daemon outlived the timed-out run"
    finally:
        with contextlib.suppress(OSError):
            os.kill(helper, signal.SIGKILL)


# -- 13. a chunked upload is counted as it streams ---------------------------------------------

BOUNDARY = "zq7-boundary"
PIECE = b"x" * 65536


class ChunkedUpload:
    """A brief POSTed as a chunked body with no Content-Length, one 64 KB chunk at a time,
    as a client that never says how big it is; sends until told to stop or refused."""

    def __init__(self, port: int, token: str, project: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        head = (
            f"POST /api/v1/projects/{project}/files HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {token}\r\nTransfer-Encoding: chunked\r\n"
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n\r\n"
        )
        part = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.md"'
            "\r\nContent-Type: text/markdown\r\n\r\n"
        )
        self.sock.sendall(head.encode() + self._chunk(part.encode()))
        self.sent = 0

    @staticmethod
    def _chunk(data: bytes) -> bytes:
        return b"%x\r\n" % len(data) + data + b"\r\n"

    def send(self, size: int, each: Callable[[], None] = lambda: None) -> bool:
        """Send `size` bytes of the file; False when the server stopped taking them."""
        try:
            while self.sent < size:
                self.sock.sendall(self._chunk(PIECE))
                self.sent += len(PIECE)
                each()
            self.sock.sendall(self._chunk(f"\r\n--{BOUNDARY}--\r\n".encode()) + b"0\r\n\r\n")
        except OSError:  # the server answered and closed: the rest is refused
            return False
        return True

    def answer(self) -> tuple[int, dict[str, Any]]:
        """The status and JSON body of the server's answer."""
        data = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
                got = self.sock.recv(65536)
                if not got:
                    break
                data += got
        self.sock.close()
        head, _, body = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 "), data[:200]
        return int(head.split()[1]), json.loads(body)


def largest_open_file(folders: list[Path]) -> int:
    """The size of the largest file this process has open in `folders` (the in-process
    server's upload, named or not)."""
    largest = 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith(tuple(str(f) for f in folders)):
                largest = max(largest, os.fstat(int(fd)).st_size)
    return largest


def test_a_chunked_upload_is_stopped_at_the_limit_and_refused_with_413(home, tmp_path, monkeypatch):
    from fixtures.live_server import LiveServer

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where a spooled upload would go
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    server = LiveServer(home)
    try:
        server.context.upload_limit_mb = 1
        assert server.json("POST", "/api/v1/projects", {"name": "Big"})[0] == 201
        upload = ChunkedUpload(server.port, server.token, "big")
        written: list[int] = []
        watch = lambda: written.append(largest_open_file([scratch, home]))  # noqa: E731
        finished = upload.send(64 * 1024 * 1024, watch)
        status, body = upload.answer()
        assert status == 413 and body["error"]["code"] == "too_large", body
        assert "larger than 1 MB" in body["error"]["message"]
        assert not finished and upload.sent < 16 * 1024 * 1024  # was all 64 MB, then 413
        assert max(written) <= 1024 * 1024 + len(PIECE)  # was 64 MB in TMPDIR
        assert server.json("GET", "/api/v1/projects/big/files")[1]["files"] == []
        assert list(scratch.iterdir()) == [] and list((home / "uploads").iterdir()) == []
    finally:
        server.stop()


def serve(home: Path, tmpdir: Path) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """`design-agent serve` as a real process with its own TMPDIR; its server.json."""
    env = {**os.environ, "DESIGN_AGENT_HOME": str(home), "TMPDIR": str(tmpdir)}
    process = subprocess.Popen(
        [sys.executable, "-m", "design_agent", "serve"], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None and process.stdout.readline().startswith("http://")
    return process, json.loads((home / "server.json").read_text(encoding="utf-8"))


def test_an_upload_cut_by_a_killed_server_stays_in_the_home_and_goes_at_the_next_start(
    home, tmp_path
):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    home.mkdir(mode=0o700)
    assert invoke(home, "projects", "create", "Big").returncode == 0
    server, info = serve(home, tmpdir)
    try:
        upload = ChunkedUpload(info["port"], info["token"], "big")
        assert upload.send(3 * 1024 * 1024)  # under the limit; the body is never finished
        uploads = home / "uploads"
        partial = wait_for(lambda: [p for p in uploads.glob("*/big.md") if p.stat().st_size])
        assert partial, "the upload is not in <home>/uploads"
        modes = [stat.S_IMODE(p.stat().st_mode) for p in (uploads, partial[0].parent, partial[0])]
        assert modes == [0o700, 0o700, 0o600]
        server.kill()  # mid-upload
        server.wait(timeout=10)
        upload.sock.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert list(tmpdir.iterdir()) == []  # nothing was ever in TMPDIR
    assert partial[0].exists()  # the killed server could not remove it
    again, info = serve(home, tmpdir)  # its server.json, left by the killed one, is stale
    try:
        assert list(uploads.iterdir()) == []  # emptied at the start
        status = http.client.HTTPConnection("127.0.0.1", info["port"], timeout=10)
        status.request(
            "GET", "/api/v1/status", headers={"Authorization": f"Bearer {info['token']}"}
        )
        assert status.getresponse().status == 200  # serving: a stop signal now stops it cleanly
    finally:
        again.send_signal(signal.SIGTERM)
        assert again.wait(timeout=15) == 0


def test_an_uploads_link_someone_planted_is_never_emptied_or_written(home, tmp_path):
    from design_agent.core.paths import HomeLayout
    from design_agent.server.uploads import clean_uploads, upload_folder

    elsewhere = tmp_path / "documents"
    elsewhere.mkdir()
    (elsewhere / "thesis.md").write_text("years of work", encoding="utf-8")
    home.mkdir(mode=0o700)
    (home / "uploads").symlink_to(elsewhere, target_is_directory=True)
    clean_uploads(HomeLayout(home))
    assert (elsewhere / "thesis.md").read_text(encoding="utf-8") == "years of work"
    with pytest.raises(ConfigError, match="uploads is not a folder of yours"):
        upload_folder(HomeLayout(home))
    assert [p.name for p in elsewhere.iterdir()] == ["thesis.md"]


# -- 14. a symlinked folder on the way to the file -------------------------------------------

MARKER = "zq7-private-marker"


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


# -- 16. links and images in the stakeholder report --------------------------------------------

# Each answer hides one link or image that must not survive as one; the word "bait" is its
# text or alt text, which must.
UNSAFE_LINKS = {
    "javascript": "[bait](javascript:alert(1))",
    "mixed case": "[bait](JaVaScRiPt:alert(1))",
    "leading space": "[bait](  javascript:alert(1))",
    "angle brackets": "[bait](<javascript:alert(1)>)",
    "decimal entity": "[bait](&#106;avascript:alert(1))",
    "hex entities": "[bait](&#x6A;ava&#x73;cript&#x3A;alert(1))",
    "tab inside": "[bait](<java\tscript:alert(1)>)",
    "autolink": "<javascript:alert('bait')>",
    "autolink in capitals": "<JAVASCRIPT:alert('bait')>",
    "reference": "See [bait][1].\n\n[1]: javascript:alert(1)",
    "collapsed reference": "See [bait][].\n\n[bait]: <javascript:alert(1)> 'a title'",
    "shortcut reference": "See [bait].\n\n[bait]:\n  JavaScript:alert(1)",
    "reference in a quote": "> See [bait][x]\n>\n> [x]: javascript:alert(1)",
    "data": "[bait](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "file": "[bait](file:///etc/passwd)",
    "vbscript": "[bait](vbscript:msgbox(1))",
    "a path": "[bait](/etc/passwd)",
    "in a list": "- one\n- [bait](javascript:alert(1)) *and* `code`\n  continued",
    "in a heading": "# Plan [bait](javascript:alert(1))",
}
UNSAFE_IMAGES = {
    "remote": "![bait](https://tracker.example/pixel.png)",
    "remote in capitals": "![bait](HTTPS://tracker.example/pixel.png)",
    "protocol-relative": "![bait](//tracker.example/pixel.png)",
    "data": "![bait](data:image/png;base64,iVBORw0KGgo=)",
    "file": "![bait](file:///etc/passwd)",
    "absolute path": "![bait](/etc/passwd.png)",
    "parent folder": "![bait](../secret.png)",
    "encoded parent folder": "![bait](img/%2e%2e/%2E%2E/secret.png)",
    "backslashes": "![bait](..\\\\..\\\\secret.png)",
    "reference": "![bait][img]\n\n[img]: https://tracker.example/pixel.png",
    "inside a safe link": "[![bait](https://tracker.example/p.png)](https://example.org/ok)",
}
SAFE = (
    "Read [the study](https://example.org/study), [the notes](HTTP://example.org/Notes "
    '"notes"), <mailto:team@example.org> and <https://example.org/auto>; see the '
    "![chart](chart.png) and ![flow](./img/flow.png)."
)


def report_of(*answers: str) -> Any:
    from design_agent.memory.models import Project
    from design_agent.report import ReportData
    from design_agent.report.data import ReportAnswer

    now = datetime.now(UTC)
    chosen = [
        ReportAnswer(
            number=2 * n, task_id=None, method=f"Method {n}", persona="Researcher",
            request="plan it", text=text, timestamp=now, citations=[], checklist=[],
        )
        for n, text in enumerate(answers, 1)
    ]  # fmt: skip
    project = Project(id="links", name="Links", created_at=now, last_accessed=now)
    return ReportData(
        project=project, language="en", generated_at=now, context=[], briefs=[],
        decisions=[], answers=chosen,
    )  # fmt: skip


def links_and_images(markdown: str) -> tuple[list[str], list[str], str]:
    """Every link's address, every image's source and the visible text, as the most lenient
    Markdown viewer reads them (any scheme accepted)."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark")
    parser.validateLink = lambda url: True  # type: ignore[method-assign]
    hrefs, srcs, text = [], [], []
    todo = [t for t in parser.parse(markdown) if t.children]
    children = [c for t in todo for c in t.children or []]
    while children:
        child = children.pop(0)
        if child.type == "link_open":
            hrefs.append(str(child.attrGet("href")))
        elif child.type == "image":
            srcs.append(str(child.attrGet("src")))
            children[:0] = child.children or []
        elif child.type in ("text", "code_inline"):
            text.append(child.content)
    return hrefs, srcs, " ".join(text)


def assert_only_safe(markdown: str) -> str:
    hrefs, srcs, text = links_and_images(markdown)
    assert all(h.lower().startswith(("http://", "https://", "mailto:", "#")) for h in hrefs), hrefs
    assert all(s in ("chart.png", "./img/flow.png") for s in srcs), srcs
    return text


def assert_safe_ones_kept(markdown: str) -> None:
    hrefs, srcs, _ = links_and_images(markdown)
    assert {"https://example.org/study", "mailto:team@example.org"} <= set(hrefs)
    assert {"https://example.org/auto"} <= set(hrefs)
    assert any(h.lower() == "http://example.org/notes" for h in hrefs)
    assert srcs == ["chart.png", "./img/flow.png"]


@pytest.mark.parametrize("answer", UNSAFE_LINKS.values(), ids=UNSAFE_LINKS.keys())
def test_a_link_other_than_web_or_mail_becomes_its_text(answer, tmp_path):
    from design_agent.report import write_report

    data = report_of(f"{answer}\n\n{SAFE}")
    markdown = write_report(data, "md", tmp_path).read_text(encoding="utf-8")
    assert "bait" in assert_only_safe(markdown)
    assert_safe_ones_kept(markdown)
    assert not re.search(r"(?i)java\s*script\s*:|vbscript|data:text|file:", hrefs_of_html(data))


@pytest.mark.parametrize("answer", UNSAFE_IMAGES.values(), ids=UNSAFE_IMAGES.keys())
def test_an_image_from_outside_the_reports_folder_becomes_its_alt_text(answer, tmp_path):
    from design_agent.report import write_report

    data = report_of(f"{answer}\n\n{SAFE}")
    markdown = write_report(data, "md", tmp_path).read_text(encoding="utf-8")
    assert "bait" in assert_only_safe(markdown)
    assert_safe_ones_kept(markdown)
    assert "tracker.example" not in hrefs_of_html(data)


def test_a_definition_in_one_answer_is_no_link_in_the_next():
    from design_agent.report import to_markdown

    markdown = to_markdown(report_of("[1]: javascript:alert(1)", "See [bait][1]."))
    assert "bait" in assert_only_safe(markdown)


def hrefs_of_html(data: Any) -> str:
    """The HTML report's link addresses; it has no image and nothing else that loads."""
    from html.parser import HTMLParser

    from design_agent.report import to_html

    found: list[tuple[str, dict[str, str | None]]] = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            found.append((tag, dict(attrs)))

    Tags().feed(to_html(data))
    assert not [tag for tag, attrs in found if tag == "img" or "src" in attrs]
    hrefs = [str(attrs.get("href")) for _, attrs in found if "href" in attrs]
    local = ("chart.png", "./img/flow.png")
    assert all(
        h.lower().startswith(("http:", "https:", "mailto:", "#")) or h in local for h in hrefs
    )
    assert set(local) <= set(hrefs)  # an image of the report's folder: a link to its file
    return " ".join(hrefs)


@pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium to print with")
def test_the_pdf_keeps_only_the_web_and_mail_links(tmp_path):
    from design_agent.report import write_report

    hostile = "\n\n".join([*UNSAFE_LINKS.values(), *UNSAFE_IMAGES.values()])
    pdf = write_report(report_of(hostile, SAFE), "pdf", tmp_path).read_bytes()
    uris = {u.decode() for u in re.findall(rb"/URI\s*\(([^)]*)\)", pdf)}
    assert "https://example.org/study" in uris and "mailto:team@example.org" in uris
    assert all(u.lower().startswith(("http:", "https:", "mailto:")) for u in uris), uris
    assert not [u for u in uris if "tracker.example" in u]
