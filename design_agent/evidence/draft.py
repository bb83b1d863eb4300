"""Offline, honestly labelled "draft groups": no model, so no themes. Segments that speak
of the request are grouped by the words they share, each group with its distinctive words
and one real representative quote (its id cited, so the check verifies it); the request's
own words in context (keyword in context); the surveys' statistics. A person, or a model,
names the themes."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from design_agent.core.evidence import EvidenceSegment, EvidenceSession
from design_agent.core.lexicon import LexiconWords
from design_agent.core.messages import say
from design_agent.core.text import fold, words
from design_agent.evidence.block import survey_facts
from design_agent.memory.evidence_store import EvidenceStore
from design_agent.memory.text import inflection_stem

STOP = LexiconWords("stop_words")
EVIDENCE_STOP = LexiconWords("evidence_stop_words")
QUESTION_STOP = LexiconWords("question_stop_words")
MAX_GROUPS = 6
MIN_GROUP = 2
QUOTE_WORDS = 40
KWIC = 8
CONTEXT = 60


@dataclass(frozen=True)
class Group:
    terms: list[str]
    segments: list[EvidenceSegment]
    quote: EvidenceSegment


def draft_blocks(store: EvidenceStore, project_id: str, message: str, language: str) -> list[str]:
    """The draft groups as markdown blocks (empty when the project has no evidence)."""
    sessions = store.sessions(project_id)
    if not sessions:
        return []
    topic = request_topic(message)
    pool = _pool(store, project_id, topic, sessions)
    blocks = [say("draft_heading", language), say("draft_note", language)]
    asked = _terms(topic)
    for n, group in enumerate(groups(pool, asked), start=1):
        blocks.append(_group_block(n, group, language))
    kwic = keyword_in_context(pool, topic)
    if kwic:
        blocks += [say("draft_kwic", language), "\n".join(f"- {k}" for k in kwic)]
    facts = survey_facts(store, sessions)
    if facts:
        blocks += [say("draft_facts", language), *(_plain(f) for f in facts)]
    return [b.strip() for b in blocks]


TOPIC_MARKERS = LexiconWords("topic_markers")


def request_topic(message: str) -> str:
    """What the request is about: the words after its last "about" / "sobre" (the whole
    message when it has none)."""
    tokens = message.split()
    marks = [i for i, t in enumerate(tokens) if fold(t.strip(",.:;?¿!¡")) in TOPIC_MARKERS]
    return " ".join(tokens[marks[-1] + 1 :]) if marks and marks[-1] < len(tokens) - 1 else message


def _pool(
    store: EvidenceStore, project_id: str, message: str, sessions: list[EvidenceSession]
) -> list[EvidenceSegment]:
    """The participants' segments that speak of the request (all of them when it names
    nothing the evidence has)."""
    found = [h.segment for h in store.search(project_id, message, 120)]
    found = [s for s in found if s.role == "participant" and len(s.text.split()) >= 6]
    if len(found) >= 8:
        return found
    every = [g for s in sessions for g in store.segments(s.id)]
    return [g for g in every if g.role == "participant" and len(g.text.split()) >= 6][:600]


def _terms(text: str) -> set[str]:
    return {
        inflection_stem(w)
        for w in words(text)
        if len(w) >= 4 and w not in STOP and w not in EVIDENCE_STOP and not w.isdigit()
    }


def groups(
    pool: list[EvidenceSegment], asked: frozenset[str] | set[str] = frozenset()
) -> list[Group]:
    """Greedy: the word most segments share forms a group of those segments, its
    distinctive words those it has more often than the pool; then the next, on the rest.
    The request's own words (`asked`) group nothing: every segment found has them."""
    terms = {s.code: _terms(s.text) - asked for s in pool}
    overall = Counter(t for found in terms.values() for t in found)
    left, out = list(pool), list[Group]()
    while left and len(out) < MAX_GROUPS:
        counts = Counter(t for s in left for t in terms[s.code])
        best = [t for t, n in counts.most_common() if n >= MIN_GROUP]
        if not best:
            break
        members = [s for s in left if best[0] in terms[s.code]]
        inside = Counter(t for s in members for t in terms[s.code])
        ranked = sorted(inside, key=lambda t: (-(inside[t] / overall[t]) * inside[t], t))
        top = ranked[:4]
        quote = max(
            members,
            key=lambda s: (
                s.participant.startswith("P"),
                len(terms[s.code] & set(top)),
                -len(s.text),
            ),
        )
        out.append(Group(top, members, quote))
        left = [s for s in left if s not in members]
    return out


def surface(stem: str, segments: list[EvidenceSegment]) -> str:
    """The word as the participants wrote it most often ("everyth" -> "everything")."""
    seen = Counter(w for s in segments for w in words(s.text) if inflection_stem(w) == stem)
    return seen.most_common(1)[0][0] if seen else stem


def _group_block(n: int, group: Group, language: str) -> str:
    people = sorted({s.participant for s in group.segments}, key=lambda p: (p[0], int(p[1:])))
    named = [surface(t, group.segments) for t in group.terms]
    heading = say("draft_group", language, n=n, terms=", ".join(named))
    count = say("draft_segments", language, segments=len(group.segments), people=", ".join(people))
    return f'### {heading}\n\n{count}\n\n> "{_cut(group.quote.text)}" [{group.quote.code}]'


def _cut(text: str) -> str:
    said = text.split()
    if len(said) <= QUOTE_WORDS:
        return text
    return " ".join(said[: QUOTE_WORDS // 2]) + " … " + " ".join(said[-QUOTE_WORDS // 2 :])


def keyword_in_context(pool: list[EvidenceSegment], message: str) -> list[str]:
    """Lines of the pool where the request's words appear, with the words around them."""
    wanted = [
        w
        for w in words(message)
        if len(w) >= 4 and w not in STOP and w not in QUESTION_STOP and w not in EVIDENCE_STOP
    ]
    stems = {inflection_stem(w)[:5] for w in wanted}
    out = []
    for segment in pool:
        folded = fold(segment.text)
        for match in re.finditer(r"\w+", folded):
            if match.group(0)[:5] in stems and len(match.group(0)) >= 4:
                a, b = match.start(), match.end()
                left, right = segment.text[max(0, a - CONTEXT) : a], segment.text[b : b + CONTEXT]
                word = segment.text[a:b]
                out.append(f"…{left}**{word}**{right}… ({segment.code}, {segment.participant})")
                break
        if len(out) >= KWIC:
            break
    return out


def _plain(facts: str) -> str:
    lines = facts.splitlines()
    return "\n".join(f"- {line}" for line in lines[1:-1])
