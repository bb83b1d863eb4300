"""Text helpers: project slugs, safe FTS5 queries built from what the user typed, and the
language a stored text is in.

User text never reaches FTS5 as syntax. It is cut into words the way the
`unicode61` tokenizer cuts them, each word is quoted (so `AND`, `NOT`, `*`,
quotes and parentheses are plain text), stop words of the question ("why did
we choose ...", "por qué decidimos ...") are dropped and the rest are ORed
with prefix matching, so bm25 ranks the rows that share the most rare words.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from design_agent.core.lexicon import LexiconWords
from design_agent.core.text import fold

# Words that carry a question, not its subject (lexicon/<language>/words.yaml).
STOP_WORDS = LexiconWords("question_stop_words")

MAX_TERMS = 12  # bound the work of one query, whatever the user pastes
MIN_PREFIX = 3  # "a*" would expand to half the vocabulary
MAX_SLUG = 48

_WORD = re.compile(r"[^\W_]+")  # runs of letters and digits, like unicode61

# The commonest words of each language (none in both) and endings only one of them has,
# for `guess_language`.
_ENGLISH = frozenset(
    {"the", "and", "of", "to", "is", "in", "that", "for", "with", "we", "you", "it", "this"}
    | {"are", "be", "on", "was", "what", "how", "our", "they", "not", "have", "can", "will"}
    | {"an", "or", "as", "at", "by", "from", "which", "should", "would", "about", "us"}
    | {"why", "do", "does", "did", "i", "my", "your", "if", "there", "their", "when", "who"}
    | {"so", "but", "lets", "let", "need", "into", "than", "then", "been", "has", "had"}
)
_SPANISH = frozenset(
    {"el", "la", "de", "que", "y", "en", "los", "las", "del", "se", "por", "para", "con"}
    | {"una", "un", "es", "su", "al", "lo", "como", "más", "mas", "pero", "sus", "le", "ya"}
    | {"este", "esta", "qué", "nos", "muy", "hay", "son", "también", "porque", "cuando"}
    | {"unos", "unas", "sobre", "entre", "fue", "ser", "está", "están", "tiene", "hacer"}
    | {"necesitamos", "queremos", "vamos", "usuarios", "usuario", "cómo", "dónde", "sin"}
)
_ENGLISH_ENDINGS = ("ing", "tion", "ly", "ness", "ity")
_SPANISH_ENDINGS = ("ción", "ciones", "dad", "mente", "amos", "ado", "ada", "ados", "adas")
_SPANISH_MARKS = re.compile(r"[ñ¿¡áéíóú]")
GUESS_CHARS = 2000  # the start of a long text says its language


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


def guess_language(text: str | None) -> str:
    """The language a stored text is in: "en", "es", or "" when its words do not tell (a
    short or mixed text). Each searchable row keeps it: PostgreSQL indexes the row with
    that language's stemmer (postgres/schema.py), and with both when it is ""."""
    if not text:
        return ""
    sample = text[:GUESS_CHARS].lower()
    tokens = _WORD.findall(sample)
    english = 2 * sum(token in _ENGLISH for token in tokens)
    spanish = 2 * sum(token in _SPANISH for token in tokens)
    english += sum(token.endswith(_ENGLISH_ENDINGS) for token in tokens)
    spanish += sum(token.endswith(_SPANISH_ENDINGS) for token in tokens)
    spanish += 3 if _SPANISH_MARKS.search(sample) else 0
    if english == spanish:
        return ""
    return "en" if english > spanish else "es"


def query_terms(text: str) -> list[str]:
    """The words worth searching for: stop words dropped, unless nothing else is left."""
    every = words(text)
    meaningful = [w for w in every if w not in STOP_WORDS]
    return (meaningful or every)[:MAX_TERMS]


def inflection_stem(term: str) -> str:
    """A word without the plural or verb ending English and Spanish add, for a prefix
    match: "entrevistas" -> "entrevista", "sesiones" -> "sesion", "interviews" ->
    "interview", "testing" -> "test", "moderated" -> "moderat"; short words stay whole."""
    for ending, keep in (("ing", 6), ("ed", 5), ("es", 6), ("s", 4)):
        if term.endswith(ending) and len(term) >= keep and not term.endswith("ss"):
            return term[: -len(ending)]
    return term


def search_terms(terms: list[str]) -> list[str]:
    """The words a search matches as prefixes: each without its inflection (the stemming
    SQLite's unicode61 tokenizer does not do), duplicates dropped."""
    return list(dict.fromkeys(inflection_stem(t) for t in terms))


def stem_terms(terms: list[str]) -> list[str]:
    """Terms cut to five letters, for recall over small tables: 'moderadas' and
    'moderated' meet at 'moder', 'usabilidad' and 'usability' at 'usabi'."""
    return list(dict.fromkeys(short_stem(t) for t in terms))


def short_stem(term: str) -> str:
    """A term cut to five letters, if it has six or more (see stem_terms)."""
    return term[:5] if len(term) >= 6 else term


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


_JSON_NUL = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")  # \u0000, not an escaped backslash's
NUL, REPLACEMENT = "\x00", "\ufffd"


def without_nul(value: Any) -> Any:
    """`value` as PostgreSQL can keep it: a NUL (raw, or escaped in JSON text) as U+FFFD, the
    replacement character; anything but a string as it is. (A text with the six characters
    `\u0000` in it is read as JSON and changed too: a price paid for never failing.)"""
    if not isinstance(value, str):
        return value
    if NUL in value:
        value = value.replace(NUL, REPLACEMENT)
    if "\\u0000" in value:
        value = _JSON_NUL.sub(r"\1\\ufffd", value)
    return value
