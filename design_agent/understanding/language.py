"""Language: which of the lexicon's languages a message is in, its content words, and the
text basics every reader of a message shares.

Everything that compares what a person typed with what design-agent knows goes
through `fold`, so "Straße", "STRASSE" and "strasse" meet, as do "Investigación"
and "investigacion". The words are data: each language's folder of the lexicon
(design_agent/lexicon/<language>/*.yaml, core/lexicon.py) holds its stop words and
what detection counts as that language (words.yaml). Stemming is stemming.py,
reading a design request (head, details, negation, false friends) is request.py;
both are imported here too, for the callers that read a message whole.

Modules that only test membership hold live views of the lexicon (`YES`, `STOP_WORDS_EN`):
they read the lexicon in use at each test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from design_agent.core.lexicon import Language, Lexicon, LexiconWords, lexicon
from design_agent.core.text import fold, normalize, split_words
from design_agent.understanding.request import Role, Word, negation_pairs, read_request
from design_agent.understanding.stemming import stem

__all__ = [
    "DECISION_WORDS",
    "QUESTION_STOP_WORDS",
    "STOP_WORDS_EN",
    "STOP_WORDS_ES",
    "Language",
    "Role",
    "Word",
    "detect_language",
    "is_content",
    "keywords_of",
    "language_signal",
    "negation_pairs",
    "phrase_list",
    "read_request",
    "stem",
]

ENGLISH = "en"  # the language a message is read in when nothing says otherwise

# Live views of the lexicon, for the modules that test membership.
STOP_WORDS_EN = LexiconWords("stop_words", "en")
STOP_WORDS_ES = LexiconWords("stop_words", "es")
# Words that carry a question, not its subject: search drops them ("why did we choose ...").
QUESTION_STOP_WORDS = LexiconWords("question_stop_words")
# Words that name no decision in particular: "the Madrid decision" is about Madrid.
DECISION_WORDS = LexiconWords("decision_words")

# Weights of detection's evidence: a character only one language writes, one of its own
# words, one of its word endings (on words of more than ENDING_MIN_LENGTH letters).
CHARACTER_WEIGHT = 2.0
WORD_WEIGHT = 1.0
ENDING_WEIGHT = 0.5
ENDING_MIN_LENGTH = 4


@dataclass(frozen=True)
class Detection:
    """What tells the lexicon's languages apart (words.yaml), made once per lexicon."""

    languages: tuple[str, ...]
    # A word only one language has (its stop words and detection words) -> that language.
    own: dict[str, str]
    characters: tuple[tuple[str, re.Pattern[str]], ...]  # those only one language writes
    endings: tuple[tuple[str, tuple[str, ...]], ...]


def detect_language(text: str) -> Language:
    """The lexicon language `text` is most likely in, from its function words, the characters
    only one language writes and word endings; a tie is English.

    Short messages carry few signals, so every one counts. With English and Spanish alone
    this is the English-minus-Spanish score of before: "es" when it is below zero.
    """
    return language_signal(text)[0]


def language_signal(text: str) -> tuple[Language, float]:
    """The language `text` is most likely in, and by how much its own words say so over the
    next language (0: they say nothing, "ok", "2", "acme.pdf": such a message keeps the
    conversation's language)."""
    known = lexicon().derived(_detection)
    lowered = text.lower()
    scores = dict.fromkeys(known.languages, 0.0)
    for code, characters in known.characters:
        scores[code] += CHARACTER_WEIGHT * len(characters.findall(lowered))
    for word in split_words(normalize(lowered)):
        owner = known.own.get(word)
        if owner is not None:
            scores[owner] += WORD_WEIGHT
        elif len(word) > ENDING_MIN_LENGTH:
            for code, endings in known.endings:
                if word.endswith(endings):
                    scores[code] += ENDING_WEIGHT
    ranked = sorted(scores.values(), reverse=True)
    best = ranked[0] if ranked else 0.0
    margin = best - ranked[1] if len(ranked) > 1 else best
    leaders = [code for code, score in scores.items() if score == best]
    return (leaders[0] if len(leaders) == 1 else ENGLISH), margin


def _detection(words: Lexicon) -> Detection:
    languages = tuple(code for code in words.languages if words.words("stop_words", code))
    languages = languages if ENGLISH in languages else (ENGLISH, *languages)
    said = {c: words.words("stop_words", c) | words.words("detection_words", c) for c in languages}
    own: dict[str, str] = {}
    for code in languages:
        others = frozenset().union(*(said[o] for o in languages if o != code))
        own.update(dict.fromkeys(said[code] - others, code))
    tables = {code: words.table("detection", code) for code in languages}
    written = {code: set(str(tables[code].get("characters", ""))) for code in languages}
    characters, endings = [], []
    for code in languages:
        # Only the characters no other language writes: "á" is Spanish or Portuguese.
        elsewhere = set().union(*(written[o] for o in languages if o != code))
        if alone := "".join(sorted(written[code] - elsewhere)):
            characters.append((code, re.compile("[" + re.escape(alone) + "]")))
        if tables[code].get("endings"):
            endings.append((code, tuple(tables[code]["endings"])))
    return Detection(languages, own, tuple(characters), tuple(endings))


def keywords_of(text: str, language: str) -> list[str]:
    """The message's content words, normalised, stop words of `language` removed, in order
    (English's for a language the lexicon has none for)."""
    words = lexicon()
    stops = words.words("stop_words", language) or words.words("stop_words", ENGLISH)
    seen: dict[str, None] = {}
    for word in split_words(normalize(text)):
        if is_content(word, stops):
            seen.setdefault(word, None)
    return list(seen)


def is_content(word: str, stops: frozenset[str]) -> bool:
    # Numbers stay: "404 page" and "5 day sprint" need them; one letter never helps.
    return len(word) > 1 and word not in stops


def phrase_list(text: str) -> frozenset[str]:
    """Comma-separated phrases (a phrase may have spaces), folded."""
    return frozenset(fold(p.strip()) for p in text.split(",") if p.strip())
