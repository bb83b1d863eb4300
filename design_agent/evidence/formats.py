"""One research file to a `Parsed`: its format told by its extension and its content, the
right reader called (each imports its library only then)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from design_agent.core.errors import EvidenceInputError
from design_agent.core.evidence import Parsed, ParsedSegment
from design_agent.evidence.reviews import ColumnMapping
from design_agent.memory.text import guess_language

EXTENSIONS = (".vtt", ".srt", ".docx", ".txt", ".md", ".markdown", ".pdf", ".csv")
MAX_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class ReadOptions:
    """What the user said about the files: who moderates, a reviews file's columns."""

    moderators: Sequence[str] = ()
    mapping: ColumnMapping | None = None
    # A mapping kept from an earlier file with the same columns, by the header.
    known_mapping: Callable[[list[str]], ColumnMapping | None] = lambda header: None
    # Speakers said (in conversation) to moderate another file of the folder.
    known_moderators: Sequence[str] = ()
    # A transcript without speaker labels read as one participant's notes (said so).
    as_notes: bool = False


def parse_file(path: Path, data: bytes, options: ReadOptions) -> Parsed:
    """The evidence in one file; EvidenceInputError naming the file when it cannot be read."""
    source, suffix = path.name, path.suffix.lower()
    if suffix not in EXTENSIONS:
        raise EvidenceInputError(
            f"{source}: unknown format '{suffix or 'no extension'}' (evidence takes "
            f"{', '.join(EXTENSIONS)}); export it as one of those, then add it again"
        )
    if len(data) > MAX_BYTES:
        raise EvidenceInputError(f"{source}: {len(data):,} bytes, more than the 20 MB allowed")
    if suffix == ".csv":
        return _csv(source, _text(source, data), options)
    if options.as_notes:
        from design_agent.evidence.notes import read_notes

        notes = read_notes(source, suffix, data, _text(source, data))
        return _interview(source, "notes", notes, options)
    fmt, segments = _transcript(source, suffix, data)
    return _interview(source, fmt, segments, options)


def _text(source: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _transcript(source: str, suffix: str, data: bytes) -> tuple[str, list[ParsedSegment]]:
    from design_agent.evidence.labels import read_labelled

    if suffix in (".vtt", ".srt"):
        from design_agent.evidence.captions import read_captions

        return read_captions(source, _text(source, data), srt=suffix == ".srt")
    if suffix == ".docx":
        from design_agent.evidence.word import read_docx

        return read_docx(source, data)
    if suffix == ".pdf":
        from design_agent.memory.pdf import Limits, pdf_text

        text, _ = pdf_text(source, data, Limits())
        return "pdf", read_labelled(source, text)
    fmt = "markdown" if suffix in (".md", ".markdown") else "otter_txt"
    return fmt, read_labelled(source, _text(source, data))


def _interview(
    source: str, fmt: str, segments: list[ParsedSegment], options: ReadOptions
) -> Parsed:
    from design_agent.evidence.turns import moderators

    chosen = moderators(source, segments, options.moderators, options.known_moderators)
    sample = " ".join(s.text for s in segments[:60])
    return Parsed(
        source=source,
        format=fmt,
        kind="interview",
        title=Path(source).stem,
        segments=segments,
        moderators=chosen,
        language=guess_language(sample),
    )


def _csv(source: str, text: str, options: ReadOptions) -> Parsed:
    from design_agent.evidence import reviews, surveys

    rows = surveys.read_rows(text)
    if len(rows) < 2:
        raise EvidenceInputError(f"{source}: no rows under the header; nothing to add")
    kind = surveys.dialect(rows)
    if kind is not None:
        table = surveys.read_survey(rows, kind)
        said = surveys.open_answers(table)
        sample = " ".join([*(q.text for q in table.questions), *(s.text for s in said[:40])])
        return Parsed(
            source=source,
            format=kind,
            kind="survey",
            title=Path(source).stem,
            segments=said,
            questions=table.questions,
            rows=table.rows,
            language=guess_language(sample),
        )
    mapping = options.mapping or options.known_mapping(rows[0])
    if mapping is None:
        raise reviews.ask_for_mapping(source, rows[0])
    segments, data = reviews.read_reviews(rows, mapping)
    return Parsed(
        source=source,
        format="reviews_csv",
        kind="reviews",
        title=Path(source).stem,
        segments=segments,
        rows=data,
        language=guess_language(" ".join(s.text for s in segments[:60])),
    )
