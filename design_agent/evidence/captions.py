"""Caption files: WebVTT from Zoom ("Name: text" cues) and Teams (`<v Name>` voices), and
SubRip, read by webvtt-py; a cue without a name continues the speaker before it."""

from __future__ import annotations

import io
import re

from design_agent.core.errors import EvidenceInputError
from design_agent.core.evidence import ParsedSegment
from design_agent.evidence.labels import NAME
from design_agent.evidence.turns import merged, require_speakers, seconds

LABEL = re.compile(rf"^(?:-\s*)?(?P<name>{NAME})\s*:\s+(?P<text>.+)$", re.DOTALL)
VOICE = re.compile(r"^<v(?:\.[\w.-]+)?\s+(?P<name>[^>]+)>")


def read_captions(source: str, text: str, srt: bool) -> tuple[str, list[ParsedSegment]]:
    """(format, turns) of a WebVTT or SubRip file's text."""
    import webvtt
    from webvtt.errors import MalformedFileError

    try:
        lines = io.StringIO(text).read().splitlines()
        captions = webvtt.from_buffer(lines, format="srt" if srt else "vtt").captions
    except MalformedFileError as e:
        kind = "SubRip" if srt else "WebVTT"
        raise EvidenceInputError(f"{source}: not a readable {kind} file ({e})") from e
    voiced = any(VOICE.match(c.raw_text) for c in captions)
    pieces: list[ParsedSegment] = []
    speaker = ""
    for caption in captions:
        name, words = _speaker(caption.raw_text, caption.text, voiced)
        speaker = name or speaker
        if speaker and words:
            start = seconds(caption.start)
            pieces.append(ParsedSegment(speaker=speaker, start=start, text=words))
    turns = merged(pieces)
    require_speakers(source, turns)
    fmt = "srt" if srt else ("teams_vtt" if voiced else "zoom_vtt")
    return fmt, turns


def _speaker(raw: str, text: str, voiced: bool) -> tuple[str, str]:
    """The cue's speaker ("" when it names none) and its words."""
    flat = " ".join(text.split())
    if voiced:
        found = VOICE.match(raw.strip())
        return (found.group("name").strip(), flat) if found else ("", flat)
    labelled = LABEL.match(flat)
    if labelled:
        return labelled.group("name").strip(), labelled.group("text").strip()
    return "", flat
