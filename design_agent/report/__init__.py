"""The stakeholder report: a project's context, decisions and chosen answers as one document.

`gather` reads what memory holds into a `ReportData` (data.py); `to_markdown` and
`to_html` render it (markdown.py, html.py); `print_pdf` prints the HTML with a
headless browser when one is installed (pdf.py); `write_report` puts it in a
file that never silently replaces another (files.py).
"""

from __future__ import annotations

from design_agent.report.data import ReportData, gather, parse_turns
from design_agent.report.files import (
    FORMATS,
    ReportFormat,
    free_path,
    render,
    report_bytes,
    report_stem,
    write_report,
)
from design_agent.report.html import to_html
from design_agent.report.markdown import to_markdown
from design_agent.report.pdf import RendererMissingError, find_chromium, print_pdf

__all__ = [
    "FORMATS",
    "RendererMissingError",
    "ReportData",
    "ReportFormat",
    "find_chromium",
    "free_path",
    "gather",
    "parse_turns",
    "print_pdf",
    "render",
    "report_bytes",
    "report_stem",
    "to_html",
    "to_markdown",
    "write_report",
]
