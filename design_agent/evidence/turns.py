"""From a file's cues or lines to speaker turns: times read, one speaker's consecutive cues
merged into one turn, and who the moderator is."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from design_agent.core.errors import EvidenceInputError, EvidenceNeedsAnswer
from design_agent.core.evidence import ParsedSegment
from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import fold

TIME = re.compile(r"^(?:(\d{1,2}):)?(\d{1,2}):(\d{2})(?:[.,](\d{1,3}))?$")
# Speakers whose label says they run the session ("Moderator", "Entrevistadora").
MODERATOR_LABELS = LexiconWords("moderator_labels")
QUESTION_SHARE = 0.5  # a moderator's turns are mostly questions


def seconds(text: str) -> float | None:
    """'01:02:03.500', '2:03', '00:01:23,000' -> seconds; None when it is not a time."""
    found = TIME.match(text.strip())
    if not found:
        return None
    hours, minutes, secs, fraction = found.groups()
    value = int(hours or 0) * 3600 + int(minutes) * 60 + int(secs)
    return value + (int(fraction.ljust(3, "0")) / 1000 if fraction else 0.0)


def merged(segments: Iterable[ParsedSegment]) -> list[ParsedSegment]:
    """Consecutive pieces of one speaker as one turn (Zoom splits a turn across cues)."""
    out: list[ParsedSegment] = []
    for piece in segments:
        text = " ".join(piece.text.split())
        if not text:
            continue
        if out and out[-1].speaker == piece.speaker:
            last = out[-1]
            out[-1] = last.model_copy(update={"text": f"{last.text} {text}"})
        else:
            out.append(piece if text == piece.text else piece.model_copy(update={"text": text}))
    return out


def moderators(
    source: str,
    segments: Sequence[ParsedSegment],
    named: Sequence[str] = (),
    known: Sequence[str] = (),
) -> list[str]:
    """Who moderates: the speakers named (`--moderator`), else those labelled so, else the
    speakers said to moderate another file of the folder (`known`), else the one speaker
    whose turns are mostly questions. Several speakers and no clear moderator:
    EvidenceNeedsAnswer asking which one it is."""
    speakers = list(dict.fromkeys(s.speaker for s in segments))
    if [fold(n) for n in named] == ["none"]:
        return []
    here = {fold(s): s for s in speakers}
    remembered = [here[fold(n)] for n in known if fold(n) in here]
    if remembered and not named:
        return remembered[:1]  # the first name said that speaks here: one moderator
    if named:
        chosen = [s for s in speakers if fold(s) in {fold(n) for n in named}]
        if not chosen:
            raise EvidenceInputError(
                f"{source}: no speaker called {', '.join(named)}; its speakers are "
                f"{', '.join(speakers)}"
            )
        return chosen
    labelled = [s for s in speakers if any(w in MODERATOR_LABELS for w in fold(s).split())]
    if labelled or len(speakers) < 2:
        return labelled
    return [_asker(source, segments, speakers)]


def _asker(source: str, segments: Sequence[ParsedSegment], speakers: list[str]) -> str:
    shares = {}
    for speaker in speakers:
        said = [s.text for s in segments if s.speaker == speaker]
        shares[speaker] = sum("?" in text for text in said) / len(said)
    ranked = sorted(speakers, key=lambda s: -shares[s])
    top, second = ranked[0], ranked[1]
    if shares[top] >= QUESTION_SHARE and shares[top] - shares[second] >= 0.25:
        return top
    raise EvidenceNeedsAnswer(
        f"{source}: which speaker is the moderator? ({', '.join(speakers)}); add it again "
        f"with --moderator NAME (or --moderator none)",
        ask="moderator",
        source=source,
        options=speakers[:9],
        header=[],
    )


def require_speakers(source: str, segments: Sequence[ParsedSegment], line: int = 1) -> None:
    """A transcript with no speaker labels cannot say who said what."""
    if not segments:
        raise EvidenceNeedsAnswer(
            f"{source}:{line}: no speaker labels found (expected lines like 'Name: text' or "
            "'Name  00:01:23'); label the speakers, then add it again",
            ask="labels",
            source=source,
            options=[],
            header=[],
        )
