"""Word transcripts, read by python-docx: Teams ("Name  00:01:23" then the text) and Google
Meet (a time on its own line every few turns, then "Name: text" paragraphs)."""

from __future__ import annotations

import io
import re
import zipfile

from design_agent.core.errors import EvidenceInputError
from design_agent.core.evidence import ParsedSegment
from design_agent.evidence.labels import HEADER, INLINE, STAMP, read_labelled
from design_agent.evidence.turns import merged, require_speakers, seconds

TIME_ONLY = re.compile(rf"^(?P<time>{STAMP})$")


def read_docx(source: str, data: bytes) -> tuple[str, list[ParsedSegment]]:
    """(format, turns) of a .docx transcript."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as e:
        raise EvidenceInputError(f"{source}: not a readable Word (.docx) file ({e})") from e
    lines = [p.text.strip() for p in document.paragraphs]
    if any(TIME_ONLY.match(line) for line in lines):
        return "meet_docx", _meet(source, lines)
    headers = sum(bool(HEADER.match(line)) for line in lines)
    fmt = "teams_docx" if headers else "docx"
    return fmt, read_labelled(source, "\n".join(lines))


def _meet(source: str, lines: list[str]) -> list[ParsedSegment]:
    """Google Meet: the last time seen is the time of the turns after it."""
    pieces: list[ParsedSegment] = []
    time: float | None = None
    for number, line in enumerate(lines, start=1):
        stamp = TIME_ONLY.match(line)
        if stamp:
            time = seconds(stamp.group("time"))
            continue
        inline = INLINE.match(line)
        if inline:
            pieces.append(
                ParsedSegment(
                    speaker=inline.group("name").strip(),
                    start=time,
                    text=inline.group("text"),
                    line=number,
                )
            )
        elif pieces and line:
            pieces[-1] = pieces[-1].model_copy(update={"text": f"{pieces[-1].text} {line}"})
    turns = merged(pieces)
    require_speakers(source, turns)
    return turns
