"""The headless browser seam: print the HTML report to PDF (and take a screenshot of it).

There is no PDF library in design-agent: a PDF is the HTML report printed by
headless Chromium (or Chrome), when one is installed: `DESIGN_AGENT_CHROMIUM`
(a path or a command name), else `chromium`, `chromium-browser`,
`google-chrome` on PATH. Without one, RendererMissingError (exit 4) names what
to install. The browser gets a throwaway profile and every background network
feature off; the HTML itself loads nothing (see html.py).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from design_agent.core.errors import DesignAgentError, ExitCode
from design_agent.core.messages import say

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
ENV_VAR = "DESIGN_AGENT_CHROMIUM"
TIMEOUT_SECONDS = 90
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-pdf-header-footer",
)
_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


class RendererMissingError(DesignAgentError):
    """No headless browser to print the PDF with (exit 4: a program it needs is missing)."""

    exit_code = ExitCode.PROVIDER_UNAVAILABLE


class RendererFailedError(DesignAgentError):
    """The browser ran but produced no usable PDF or image (exit 5)."""

    exit_code = ExitCode.PROVIDER_FAILED


def find_chromium(environ: Mapping[str, str] | None = None) -> str | None:
    """The browser to print with: $DESIGN_AGENT_CHROMIUM, else the first one on PATH."""
    env = os.environ if environ is None else environ
    path = env.get("PATH", os.defpath)
    chosen = env.get(ENV_VAR, "").strip()
    if chosen:
        return shutil.which(chosen, path=path) or (chosen if Path(chosen).is_file() else None)
    return next((found for name in BROWSERS if (found := shutil.which(name, path=path))), None)


def require_chromium(language: str, environ: Mapping[str, str] | None = None) -> str:
    found = find_chromium(environ)
    if found is None:
        raise RendererMissingError(say("report_no_chromium", language))
    return found


def print_pdf(html: str, language: str, environ: Mapping[str, str] | None = None) -> bytes:
    """`html` printed to PDF: the PDF's bytes (at least one page), for the caller to write."""
    browser = require_chromium(language, environ)
    with tempfile.TemporaryDirectory(prefix="design-agent-report-") as scratch:
        page = Path(scratch) / "report.html"
        page.write_text(html, encoding="utf-8")
        printed = Path(scratch) / "report.pdf"
        _run(browser, scratch, [f"--print-to-pdf={printed}", page.as_uri()], language)
        data = printed.read_bytes() if printed.is_file() else b""
        if not data.startswith(b"%PDF") or not _PAGE.search(data):
            raise RendererFailedError(say("report_pdf_failed", language, browser=browser))
    return data


def screenshot(
    page: Path, png: Path, language: str, environ: Mapping[str, str] | None = None
) -> None:
    """A PNG of the HTML file `page` as the browser shows it (1200 px wide)."""
    browser = require_chromium(language, environ)
    with tempfile.TemporaryDirectory(prefix="design-agent-shot-") as scratch:
        args = [f"--screenshot={png}", "--window-size=1200,1800", page.resolve().as_uri()]
        _run(browser, scratch, args, language)
    if not png.is_file() or not png.read_bytes().startswith(b"\x89PNG"):
        raise RendererFailedError(say("report_pdf_failed", language, browser=browser))


def _run(browser: str, scratch: str, args: list[str], language: str) -> None:
    """One headless browser run with a throwaway profile, bounded in time; its whole
    process group is gone afterwards (the browser starts helpers)."""
    argv = [browser, *FLAGS, f"--user-data-dir={Path(scratch) / 'profile'}", *args]
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError as e:
        raise RendererFailedError(say("report_pdf_failed", language, browser=browser)) from e
    try:
        process.wait(timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired as e:
        raise RendererFailedError(say("report_pdf_failed", language, browser=browser)) from e
    finally:
        _end_group(process)


def _end_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone, as it should be
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
