"""The review's words (words.yaml beside this module), validated once and cached."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from design_agent.core.text import fold

WORDS_FILE = Path(__file__).with_name("words.yaml")


class Labels(BaseModel):
    """The items' names, in one language."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    outline: str
    citations: str
    limitations: str
    confidence: str
    percentages: str
    sample_size: str
    decisions: str
    decision: str
    tables: str
    sums: str


Side = list[str]


class LanguageWords(BaseModel):
    """One language's words (all folded when read)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    synonyms: list[list[str]]
    stop_words: list[str]
    limitations: list[str]
    nothing: list[str]
    confidence: list[str]
    confidence_levels: list[str]
    participants: list[str]
    per_segment: list[str]
    bounded: list[str]
    change: list[str]
    negations: list[str]
    forbids: list[str]
    forbids_inside: list[str]
    only: list[str]
    ruled_out: list[str]
    generic: list[str]
    opposites: list[tuple[Side, Side]]
    not_sample: list[str]
    kano: dict[str, str]
    labels: Labels

    def synonym_of(self) -> dict[str, str]:
        """Each word's stem -> its group's first word's stem."""
        table: dict[str, str] = {}
        for group in self.synonyms:
            head = stem(group[0])
            for word in group:
                table.setdefault(stem(word), head)
        return table


class ReviewWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    en: LanguageWords
    es: LanguageWords
    columns: dict[str, list[str]] = Field(min_length=1)
    counts: dict[str, int] = Field(default_factory=dict)

    def of(self, language: str) -> LanguageWords:
        return self.es if language == "es" else self.en

    @property
    def languages(self) -> tuple[LanguageWords, ...]:
        return (self.en, self.es)


@cache
def review_words() -> ReviewWords:
    """words.yaml, read once per process, when the first answer is reviewed (YAML's reader
    is not loaded before: a turn that answers nothing does not pay for it)."""
    import yaml

    raw = yaml.safe_load(WORDS_FILE.read_text(encoding="utf-8"))
    return ReviewWords.model_validate(raw)


def stem(word: str) -> str:
    """A light stem for heading words: folded, -ing / -ed and a plural taken off, six
    letters kept ("Tasks" ~ "task", "métricas" ~ "metric", "Testing" ~ "test")."""
    word = fold(word)
    for suffix in ("ing", "ed"):  # "tested", "testing" ~ "test"
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    for ending in ("es", "s"):
        if len(word) > 4 and word.endswith(ending) and not word.endswith("ss"):
            word = word[: -len(ending)] if ending == "s" or word[-3] in "rnl" else word[:-1]
            break
    return word[:6]


def phrase_pattern(phrases: list[str]) -> re.Pattern[str]:
    """One regex matching any of `phrases` as whole words in folded text."""
    ordered = sorted({fold(p) for p in phrases if p.strip()}, key=len, reverse=True)
    body = "|".join(re.escape(p) for p in ordered) or "(?!)"
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w-])")
