"""Adding a brief: text, markdown and real PDFs are read; binaries, huge files, repeats not."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixtures.pdfs import pdf_file

from design_agent.core.errors import NotFoundError, UsageError
from design_agent.memory import Memory


def make_pdf(lines: list[str]) -> bytes:
    """A minimal but valid one-page PDF whose text is `lines` (Helvetica, WinAnsi)."""
    text = " ".join(f"({line}) Tj 0 -16 Td" for line in lines)
    stream = f"BT /F1 12 Tf 72 720 Td {text} ET".encode("cp1252")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    return pdf_file(objects)


@pytest.fixture
def memory(memory_target: Path | str):
    with Memory.open(memory_target) as opened:
        yield opened


def test_a_markdown_brief_is_stored_and_searchable(memory, tmp_path):
    project = memory.create_project("Checkout")
    brief = tmp_path / "brief.md"
    brief.write_text("# Brief\n\nGuest checkout for first-time buyers.\r\n", encoding="utf-8")
    added = memory.add_file(project.id, brief)
    assert not added.duplicate
    assert (added.file.filename, added.file.file_type) == ("brief.md", "brief")
    stored = memory.get_file(added.file.id)
    assert stored.content == "# Brief\n\nGuest checkout for first-time buyers.\n"
    assert stored.sha256 == added.file.sha256 and len(stored.sha256) == 64
    hits = memory.search("first-time buyers", project.id)
    assert [(h.kind, h.title) for h in hits.groups[0].hits] == [("file", "brief.md")]


def test_a_pdf_brief_is_read_with_its_text(memory, tmp_path):
    project = memory.create_project("Checkout")
    pdf = tmp_path / "brief.pdf"
    pdf.write_bytes(make_pdf(["Research brief", "Interview twelve returning customers"]))
    added = memory.add_file(project.id, pdf, "research")
    content = memory.get_file(added.file.id).content
    assert "Research brief" in content and "twelve returning customers" in content
    assert memory.search("returning customers", project.id).total == 1


def test_the_same_file_twice_is_detected_by_its_bytes(memory, tmp_path):
    project = memory.create_project("Checkout")
    other = memory.create_project("Onboarding")
    first = tmp_path / "brief.md"
    first.write_text("same words", encoding="utf-8")
    copy = tmp_path / "copy-of-brief.txt"
    copy.write_bytes(first.read_bytes())
    original = memory.add_file(project.id, first)
    again = memory.add_file(project.id, copy)
    assert again.duplicate and again.file == original.file
    assert [f.filename for f in memory.list_files(project.id)] == ["brief.md"]
    assert not memory.add_file(other.id, copy).duplicate  # another project has its own files
    assert [f.filename for f in memory.list_files(other.id)] == ["copy-of-brief.txt"]


def test_binaries_huge_empty_and_missing_files_are_refused_clearly(memory, tmp_path):
    project = memory.create_project("Checkout")
    image = tmp_path / "mock.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(UsageError, match="binary"):
        memory.add_file(project.id, image)
    latin1 = tmp_path / "notes.txt"
    latin1.write_bytes("investigación".encode("latin-1"))
    with pytest.raises(UsageError, match="not UTF-8"):
        memory.add_file(project.id, latin1)
    big = tmp_path / "big.md"
    big.write_text("word " * 1000, encoding="utf-8")
    with pytest.raises(UsageError, match="limit"):
        memory.add_file(project.id, big, max_bytes=1000)
    empty = tmp_path / "empty.md"
    empty.write_text("  \n", encoding="utf-8")
    with pytest.raises(UsageError, match="no text"):
        memory.add_file(project.id, empty)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nnot really a pdf")
    with pytest.raises(UsageError, match="not a readable PDF"):
        memory.add_file(project.id, broken)
    with pytest.raises(NotFoundError):
        memory.add_file(project.id, tmp_path / "nowhere.md")
    with pytest.raises(UsageError, match="type"):
        memory.add_file(project.id, big, "spreadsheet")
    assert memory.list_files(project.id) == []
