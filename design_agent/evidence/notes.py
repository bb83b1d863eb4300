"""A transcript without speaker labels, read as one participant's notes when the person
says so in conversation: each caption cue, or each paragraph of the text, is one turn of
a single speaker (no moderator: nothing of it is someone else's words)."""

from __future__ import annotations

import io
import re

from design_agent.core.evidence import ParsedSegment
from design_agent.evidence.turns import seconds

SPEAKER = "Participant"
PARAGRAPH = re.compile(r"\n\s*\n")


def read_notes(source: str, suffix: str, data: bytes, text: str) -> list[ParsedSegment]:
    """The turns of an unlabelled file (`text`: its decoded text, for the text formats)."""
    if suffix in (".vtt", ".srt"):
        import webvtt

        lines = io.StringIO(text).read().splitlines()
        captions = webvtt.from_buffer(lines, format="srt" if suffix == ".srt" else "vtt")
        found = [(seconds(c.start), " ".join(c.text.split())) for c in captions.captions]
        return [ParsedSegment(speaker=SPEAKER, start=at, text=t) for at, t in found if t]
    if suffix == ".docx":
        import docx

        paragraphs = [p.text for p in docx.Document(io.BytesIO(data)).paragraphs]
    elif suffix == ".pdf":
        from design_agent.memory.pdf import Limits, pdf_text

        paragraphs = PARAGRAPH.split(pdf_text(source, data, Limits())[0])
    else:
        paragraphs = PARAGRAPH.split(text)
    kept = [" ".join(p.split()) for p in paragraphs]
    return [ParsedSegment(speaker=SPEAKER, text=p, line=None) for p in kept if p]
