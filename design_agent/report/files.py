"""Writing a report to a file that never silently replaces another.

Without a name, the report goes to `<project-slug>-report.<format>` in the
folder given (the current one), or `-2`, `-3`... when that name is taken; the
name is claimed with an exclusive create, so two reports written at once get
two files. A file the user names (`-o FILE`) is replaced only when the caller
says so (the CLI asks, or --force), and only if it is a regular file
(user_files.py). Either way the report is written beside its path and renamed
over it: whole or not at all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Literal, get_args

from design_agent.core.errors import UsageError
from design_agent.core.messages import say
from design_agent.core.user_files import existing_file, write_file
from design_agent.memory.text import slugify
from design_agent.report.data import ReportData
from design_agent.report.html import to_html
from design_agent.report.markdown import to_markdown
from design_agent.report.pdf import print_pdf, require_chromium

ReportFormat = Literal["md", "html", "pdf"]
FORMATS: tuple[str, ...] = get_args(ReportFormat)
MAX_COPIES = 999


def report_stem(data: ReportData) -> str:
    """ "Ledgerly Invoicing" -> "ledgerly-invoicing-report"."""
    return f"{slugify(data.project.name) or data.project.id}-report"


def free_path(folder: Path, stem: str, extension: str, language: str = "en") -> Path:
    """`folder/stem.ext`, else `stem-2.ext`, `stem-3.ext`...: the first free name, created
    empty so that nobody else takes it."""
    for copy in range(1, MAX_COPIES + 1):
        suffix = "" if copy == 1 else f"-{copy}"
        path = folder / f"{stem}{suffix}.{extension}"
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        except OSError as e:
            raise UsageError(say("report_cannot_write", language, path=path, reason=e)) from e
        return path
    raise UsageError(say("report_no_free_name", language, folder=folder, stem=stem))


def render(data: ReportData, fmt: ReportFormat) -> str:
    """The report as Markdown or HTML text."""
    return to_html(data) if fmt == "html" else to_markdown(data)


def report_bytes(
    data: ReportData, fmt: ReportFormat, environ: Mapping[str, str] | None = None
) -> bytes:
    """The report's file content: Markdown or HTML as UTF-8, or the printed PDF (whose
    images are their alt text: it travels alone)."""
    if fmt == "pdf":
        return print_pdf(to_html(data, link_images=False), data.language, environ)
    return render(data, fmt).encode("utf-8")


def write_report(
    data: ReportData,
    fmt: ReportFormat,
    folder: Path,
    out: Path | None = None,
    environ: Mapping[str, str] | None = None,
    replace: bool = False,
) -> Path:
    """Write the report in `fmt` to `out` (over an existing regular file only when
    `replace`), or to a free name in `folder`; the path written."""
    if fmt == "pdf":
        require_chromium(data.language, environ)  # before a file name is claimed
    if out is not None:
        existing_file(out)  # a link, FIFO or device is refused before any work
    path = out if out is not None else free_path(folder, report_stem(data), fmt, data.language)
    try:
        content = report_bytes(data, fmt, environ)
        write_file(path, content, replace=replace or out is None)  # ours when claimed
    except BaseException:
        _drop(path, claimed=out is None)
        raise
    return path


def _drop(path: Path, claimed: bool) -> None:
    """Remove the empty file claimed for a report that was not written."""
    if claimed:
        path.unlink(missing_ok=True)
