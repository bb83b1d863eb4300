"""The words of the prompt contract, in each language the user may write in.

The whole instruction frame (role, rules, the deliverable outline's heading,
the notes on examples and templates) is written in the user's language, so a
Spanish request gets a Spanish frame rather than English rules with one
translated role name. The words are data, the `prompt_frame` table of each
language's `lexicon/<language>/prompt.yaml` (a home may reword them there);
docs/prompt-contract.md describes the contract.
"""

from __future__ import annotations

from typing import Final

from design_agent.core.lexicon import lexicon

# Words per (task length, verbosity): microcopy is short, a test plan long.
LENGTH_WORDS: Final[dict[tuple[str, str], tuple[int, int]]] = {
    ("short", "brief"): (60, 120),
    ("short", "normal"): (120, 250),
    ("short", "detailed"): (250, 450),
    ("medium", "brief"): (150, 250),
    ("medium", "normal"): (400, 700),
    ("medium", "detailed"): (800, 1200),
    ("long", "brief"): (250, 400),
    ("long", "normal"): (800, 1300),
    ("long", "detailed"): (1500, 2500),
}

FRAME_TABLE: Final = "prompt_frame"
# Project facts an answer depends on, by metadata key.
KEY_INPUTS: Final = ("users", "problem", "constraints")


def frame(language: str) -> dict[str, str]:
    """The frame's words in `language` (English for a language without a frame)."""
    words = lexicon()
    table = words.table(FRAME_TABLE, language) or words.table(FRAME_TABLE, "en")
    return {str(key): str(text) for key, text in table.items()}


def length_words(length: str, verbosity: str) -> tuple[int, int]:
    return LENGTH_WORDS.get((length, verbosity), LENGTH_WORDS[("medium", "normal")])


def count(number: int, language: str) -> str:
    """A whole number written as `language` writes it: 1,500 in English; 1500, and 12 500
    from five digits, in Spanish (the RAE's rule: a space, never a comma or a point)."""
    if language != "es":
        return f"{number:,}"
    return str(number) if number < 10_000 else f"{number:,}".replace(",", "\u00a0")
