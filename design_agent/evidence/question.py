"""Whether a message asks what was said in the evidence ("what did participants say about
booking?", "¿qué comentaron los usuarios de las citas?"), read from its shape, not from a
method's keywords: put as a question, with a verb of saying and someone who said it (people,
a participant's code, the sources, or a Spanish verb that names its speaker itself), and
nobody of the conversation or a plan ("what did we decide", "what should I ask users").

The words are the lexicon's (lexicon/<language>/evidence.yaml). The reading alone routes
nothing: a turn takes it as a question about the evidence only when the project has some
(turn/clarify.py), and the evidence block retrieves the segments for it (block.py)."""

from __future__ import annotations

import re

from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import fold, reading_of, words

OPENERS = LexiconWords("question_openers")
OPENER_TYPOS = LexiconWords("opener_typos")
SAYING = LexiconWords("saying_verbs")
SAYING_PHRASES = LexiconWords("saying_phrases")
SPEAKER_CLAUSES = LexiconWords("speaker_clauses")
SAID_BY_THEM = LexiconWords("said_by_them")
SPEAKERS = LexiconWords("evidence_speakers")
SOURCES = LexiconWords("evidence_sources")
NOT_EVIDENCE = LexiconWords("not_evidence_words")
TOPIC = LexiconWords("evidence_topic_words")
INSIDE = LexiconWords("said_inside")
PARTICIPANT_CODE = re.compile(r"^[pr]\d{1,3}$")  # P3, R12: who said it, by their code
MAX_WORDS = 16  # a longer message is a brief with a question in it, not a question
# Two verbs of saying or more ("what do users say, think, do and feel") describe an
# empathy map's quadrants, not a question about what was said.
MAX_SAYING = 1
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|[\s,;:]*(?=¿)")  # a Spanish question opens
# A lead-in before the question ("before we move on, what did..."; "quick one: what...").
LEAD_IN = re.compile(r"^(?:[^\s,:;]+\s+){0,4}[^\s,:;]+[,:;]\s*(?=\S)")  # up to five words
# A feature's hyphenated name ("the invite-your-team step") is one thing, not its words.
HYPHENATED = re.compile(r"(?<=\w)-(?=\w)")


def asks_evidence(message: str) -> bool:
    """Whether `message` is a question about what people said in the evidence: its question
    is read (the last sentence put as one: "the client says it is dull. what would you
    change?" asks about the design)."""
    message = _question_of(HYPHENATED.sub("", reading_of(message)))
    found = words(message)
    if not found or len(found) > MAX_WORDS or not _put_as_question(message, found):
        return False
    joined = f" {' '.join(found)} "
    for clause in SPEAKER_CLAUSES:  # "the customers we interviewed": they are who spoke
        joined = joined.replace(f" {clause} ", " ")
    present = set(joined.split())
    saying = len(present & SAYING) + sum(f" {p} " in joined for p in SAYING_PHRASES)
    if present & NOT_EVIDENCE or saying > MAX_SAYING:
        return False
    if any(f" {phrase} " in joined for phrase in INSIDE):
        return False
    if present & SAID_BY_THEM:
        return True
    if present & SOURCES and present & TOPIC and found[0] in OPENERS:
        return True  # "anything in the transcripts about parking?"
    speaker = bool(present & (SPEAKERS | SOURCES)) or any(map(PARTICIPANT_CODE.match, found))
    return speaker and saying > 0


def _question_of(message: str) -> str:
    asked = [s for s in SENTENCE_END.split(message.strip()) if s.rstrip().endswith("?")]
    question = asked[-1] if asked else message
    lead_in = LEAD_IN.match(question)
    if lead_in is not None:
        rest = question[lead_in.end() :]
        first = words(rest)[:1]
        if first and (first[0] in OPENERS or first[0] in OPENER_TYPOS):
            return rest
    return question


def _put_as_question(message: str, found: list[str]) -> bool:
    text = fold(message).strip()
    opens = found[0] in OPENERS or found[0] in OPENER_TYPOS
    return text.endswith("?") or text.startswith("¿") or opens
