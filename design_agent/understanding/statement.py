"""Whether a message asks for anything, or only states something.

"the card sort finished on Friday, 42 people took part" names a method but asks for
none: it answers a question or gives context. A method it names is context too, never a
request sure enough to start answering (HIGH). A statement is read from its shape, not
from its topic: each of its sentences opens with a clause whose verb reports
("finished", "thinks", "tenemos") before any word that opens a subordinate clause, and
nothing in the message asks: no question mark or question opening, no request cue ("I
need", "¿puedes?"), no clause opened by an imperative ("..., redesign it", "revísalos").
Everything else may be a request: a noun phrase ("personas for the pharmacy app") asks by
itself, and so does a sentence without a verb after a statement ("Our designers want
clarity. Levels, titles, tracks.").

The words are the lexicon's (lexicon/<language>/request.yaml), every language's joined:
people mix them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.text import fold

_TOKEN = re.compile(r"[a-z0-9]+|[^\sa-z0-9'’`´]")
_QUESTION_MARKS = frozenset("?¿")
_SENTENCE_MARKS = frozenset(".;!¡\n")
_CLAUSE_MARKS = frozenset(",:()-") | _SENTENCE_MARKS
# A subject is short: a reporting verb further into the clause than this belongs to a
# clause inside a noun phrase ("hints for the card sorting tool we're building").
SUBJECT_MAX_WORDS = 6
Phrase = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Words:
    verbs: frozenset[str]  # report wherever they are in the clause
    verbs_after_subject: frozenset[str]  # report once a word is before them
    subordinators: frozenset[str]  # and modals: what follows them does not report
    leading_words: frozenset[str]
    imperatives: frozenset[str]
    clitics: tuple[str, ...]
    clause_breaks: frozenset[str]
    contractions: dict[Phrase, Phrase]
    cues_by_first: dict[str, tuple[Phrase, ...]]
    question_starts: tuple[Phrase, ...]


def _words(words: Lexicon) -> _Words:
    def phrases(name: str) -> tuple[Phrase, ...]:
        return tuple(sorted(tuple(p.split()) for p in words.union(name)))

    return _Words(
        verbs=words.union("statement_verbs"),
        verbs_after_subject=words.union("statement_verbs_after_subject"),
        subordinators=words.union("subordinators") | words.union("modals"),
        leading_words=words.union("leading_words"),
        imperatives=words.union("imperatives"),
        clitics=tuple(sorted(words.union("clitics"), key=len, reverse=True)),
        clause_breaks=words.union("clause_breaks"),
        contractions={
            tuple(short.split()): tuple(str(full).split())
            for short, full in words.merged_table("contractions").items()
        },
        cues_by_first=_by_first(phrases("request_cues")),
        question_starts=phrases("question_starts"),
    )


def is_statement(text: str) -> bool:
    """Whether `text` only states something (see the module's docstring)."""
    known = lexicon().derived(_words)
    tokens = _spelled_out(_TOKEN.findall(fold(text)), known)
    if not tokens or not _QUESTION_MARKS.isdisjoint(tokens):
        return False
    if _has_cue([t for t in tokens if t[0].isalnum()], known) or _commands(tokens, known):
        return False
    sentences = _sentences(tokens)
    return bool(sentences) and all(_reports(s, known) for s in sentences)


def _reports(sentence: list[str], known: _Words) -> bool:
    """Whether the sentence's first clause has a reporting verb before any subordinator."""
    clause = _first_clause(sentence, known)
    if not clause or _asks_at(clause, 0, known):
        return False
    for position, word in enumerate(clause[: SUBJECT_MAX_WORDS + 1]):
        if word in known.subordinators:
            return False
        if word in known.verbs or (position and word in known.verbs_after_subject):
            return True
    return False


def _commands(tokens: list[str], known: _Words) -> bool:
    """Whether any clause (after a mark or a clause break) opens with an imperative or a
    question ("tenemos demasiadas ideas, cómo decidimos")."""
    opening = True
    for index, token in enumerate(tokens):
        if token in _CLAUSE_MARKS or token in known.clause_breaks:
            opening = True
        elif token[0].isalnum():
            if opening and (_imperative(token, known) or _asks_at(tokens, index, known)):
                return True
            opening = opening and token in known.leading_words
    return False


def _asks_at(tokens: list[str], index: int, known: _Words) -> bool:
    return any(tuple(tokens[index : index + len(p)]) == p for p in known.question_starts)


def _imperative(word: str, known: _Words) -> bool:
    """An imperative, alone or with pronouns joined to it ("revísalos", "hazme")."""
    if word in known.imperatives:
        return True
    return any(
        word.endswith(clitic) and word[: -len(clitic)] in known.imperatives
        for clitic in known.clitics
    )


def _sentences(tokens: list[str]) -> list[list[str]]:
    sentences: list[list[str]] = [[]]
    for token in tokens:
        if token in _SENTENCE_MARKS:
            sentences.append([])
        else:
            sentences[-1].append(token)
    return [s for s in sentences if any(t[0].isalnum() for t in s)]


def _first_clause(tokens: list[str], known: _Words) -> list[str]:
    """The words of the first clause, leading words ("no, ...", "yes so ...") skipped."""
    clause: list[str] = []
    for token in tokens:
        if token[0].isalnum():
            if clause or token not in known.leading_words:
                clause.append(token)
        elif token in _CLAUSE_MARKS and clause:
            break
    return clause


def _spelled_out(tokens: list[str], known: _Words) -> list[str]:
    """The tokens with contractions spelled out ("it s" -> "it is")."""
    if not known.contractions:
        return tokens
    out: list[str] = []
    index = 0
    while index < len(tokens):
        pair = tuple(tokens[index : index + 2])
        full = known.contractions.get(pair)
        if full is not None:
            out.extend(full)
            index += 2
        else:
            out.append(tokens[index])
            index += 1
    return out


def _by_first(phrases: tuple[Phrase, ...]) -> dict[str, tuple[Phrase, ...]]:
    found: dict[str, list[Phrase]] = {}
    for phrase in phrases:
        found.setdefault(phrase[0], []).append(phrase)
    return {first: tuple(group) for first, group in found.items()}


def _has_cue(words: list[str], known: _Words) -> bool:
    cues = known.cues_by_first
    return any(
        tuple(words[i : i + len(cue)]) == cue
        for i, word in enumerate(words)
        for cue in cues.get(word, ())
    )
