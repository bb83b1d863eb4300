"""Text helpers: project slugs and safe FTS5 queries built from what the user typed.

User text never reaches FTS5 as syntax. It is cut into words the way the
`unicode61` tokenizer cuts them, each word is quoted (so `AND`, `NOT`, `*`,
quotes and parentheses are plain text), stop words of the question ("why did
we choose ...", "por qué decidimos ...") are dropped and the rest are ORed
with prefix matching, so bm25 ranks the rows that share the most rare words.
"""

from __future__ import annotations

import re
import unicodedata

from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import fold

# Words that carry a question, not its subject (lexicon/<language>/words.yaml).
STOP_WORDS = LexiconWords("question_stop_words")

MAX_TERMS = 12  # bound the work of one query, whatever the user pastes
MIN_PREFIX = 3  # "a*" would expand to half the vocabulary
MAX_SLUG = 48

_WORD = re.compile(r"[^\W_]+")  # runs of letters and digits, like unicode61


def slugify(name: str) -> str:
    """The lookup key and default id of a project name: "Café Móvil!" -> "cafe-movil"."""
    words = _WORD.findall(fold(name))
    return "-".join(words)[:MAX_SLUG].strip("-")


def is_slug(text: str) -> bool:
    """Whether `text` has the form of a project id design-agent makes: a slug, perhaps with
    the "-2", "-3" a clash adds ("mobile-checkout-2"); never a path or a capital."""
    return 0 < len(text) <= MAX_SLUG + 8 and "-".join(_WORD.findall(fold(text))) == text


def words(text: str) -> list[str]:
    """The folded words of `text`, in order, duplicates removed."""
    found = _WORD.findall(fold(unicodedata.normalize("NFKC", text)))
    return list(dict.fromkeys(found))


def query_terms(text: str) -> list[str]:
    """The words worth searching for: stop words dropped, unless nothing else is left."""
    every = words(text)
    meaningful = [w for w in every if w not in STOP_WORDS]
    return (meaningful or every)[:MAX_TERMS]


def stem_terms(terms: list[str]) -> list[str]:
    """Terms cut to five letters, for recall over small tables: 'moderadas' and
    'moderated' meet at 'moder', 'usabilidad' and 'usability' at 'usabi'."""
    return list(dict.fromkeys(t[:5] if len(t) >= 6 else t for t in terms))


def _phrase(term: str) -> str:
    # A folded word has no double quote, so quoting makes it plain text for FTS5.
    quoted = f'"{term}"'
    return f"{quoted}*" if len(term) >= MIN_PREFIX else quoted


def match_expression(terms: list[str], columns: list[str] | None = None) -> str | None:
    """An FTS5 MATCH expression that ORs `terms` (prefix-matched) within `columns`.

    Returns None when there is nothing to search for, so callers return no
    rows instead of sending an empty (invalid) expression to FTS5.
    """
    if not terms:
        return None
    either = " OR ".join(_phrase(term) for term in terms)
    if not columns:
        return f"({either})"
    return "{" + " ".join(columns) + "} : (" + either + ")"


def snippet(text: str, terms: list[str], width: int = 160) -> str:
    """A one-line excerpt of `text` around the first word that starts with a term."""
    flat = " ".join(text.split())
    folded = fold(flat)
    starts = [m.start() for t in terms if (m := re.search(rf"\b{re.escape(t)}", folded))]
    # Folding can change the length (e.g. "ß" -> "ss"); only trust positions if it did not.
    first = min(starts) if starts and len(folded) == len(flat) else 0
    begin = max(0, first - width // 3)
    excerpt = flat[begin : begin + width]
    prefix = "…" if begin > 0 else ""
    suffix = "…" if begin + width < len(flat) else ""
    return f"{prefix}{excerpt.strip()}{suffix}"
