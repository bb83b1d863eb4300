"""Step 2: meta-requests said in plain English or Spanish, as action envelopes.

"I'm starting a new project for a B2B invoicing app called Ledgerly", "cambia a
Claude", "¿por qué decidimos hacer pruebas moderadas?", "here is the brief:
./my brief.md", "más corto, por favor", "thanks!"... become an ActionEnvelope
here; anything else is a design request (None) and goes to task matching.

`detect_action` is a pure function of the message, the adapter names and the
project names. It reads the message folded (accents and case gone) and cuts
names, paths and decisions from the original, so "Rediseño Móvil" keeps its
accents. Rules run in order, the most specific first; whole-message phrases
(small talk, cancel, help, "shorter") come before anything that reads a part.
A message with no match is read once more with one-letter typos in command
words corrected ("swich to gemini", "histroy").

The patterns are code and their words are data: a template's `⟪name⟫` is the lexicon's
`name` words in every language, joined (lexicon/<language>/intents.yaml and
small_talk.yaml; see phrasebook.py), so a language's file adds alternatives to the
phrasings here. Every word set and pattern is made once per lexicon and kept on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from design_agent.core.lexicon import Lexicon, LexiconWords, lexicon
from design_agent.core.text import fold, fold_mapped, normalize, original_span, word_list, words
from design_agent.understanding.envelope import ActionEnvelope
from design_agent.understanding.lazy_regex import LazyPattern
from design_agent.understanding.phrasebook import PhraseBook, Template, digest, fill

__all__ = ["MAX_MESSAGE", "detect_action"]

# Longer messages are design requests: nobody types 1,000 characters to say "shorter".
MAX_MESSAGE = 1000
NAME_WORDS = 8
DESCRIPTION_MAX = 500
TEXT_MAX = 1000
# Other names people give an adapter ("cambia a ChatGPT").
PROVIDER_ALIASES = {
    "claude code": "claude",
    "gemini cli": "gemini",
    "chatgpt": "codex",
    "openai": "codex",
}
_OUTER = " .!?¡¿,;:…"
# File formats, the same in every language. A path ending in one is a file in any sentence.
FILE_EXTENSIONS = word_list(
    """pdf md markdown txt text rtf doc docx odt pages csv tsv xls xlsx ods numbers ppt pptx
    key odp json yaml yml html htm xml png jpg jpeg gif svg webp heic bmp tif tiff fig
    sketch xd zip mp4 mov mp3 wav m4a vtt srt epub"""
)
IMAGE_EXTENSIONS = word_list("png jpg jpeg gif svg webp heic bmp tif tiff fig sketch xd")
# Every pattern group, by key: templates filled with each lexicon's words (phrasebook.py).
TEMPLATES: dict[str, Template] = {}


def template(key: str, *sources: str, needles: str = "", flags: int = 0, gated: bool = True) -> str:
    """Register a group of patterns (see phrasebook.Template); returns its key."""
    TEMPLATES[key] = Template(sources, needles, flags, gated)
    return key


@dataclass(frozen=True)
class Said:
    """One message, ready for the rules: folded text mapped back to the original."""

    raw: str  # one line, as typed
    text: str  # without outer punctuation ("¿...?")
    folded: str  # `text` folded, apostrophes straightened, maybe typo-corrected
    origin: list[int]  # folded index -> `text` index
    start: int  # where the request begins, after "ok, can you"
    plain: str  # the request's words only: "what s up", polite tail dropped
    providers: tuple[str, ...]
    projects: tuple[str, ...]

    @property
    def body(self) -> str:
        return self.folded[self.start :]

    def cut(self, start: int, end: int) -> str:
        """The original text of the folded span, as the user typed it."""
        return clean(original_span(self.text, self.origin, start, end))

    def rest(self) -> str:
        """The request from its beginning, as typed."""
        return self.cut(self.start, len(self.folded))

    def knows_project(self, name: str) -> bool:
        return fold(name) in {fold(p) for p in self.projects}

    def is_provider(self, name: str) -> bool:
        return provider_named(name, self.providers) is not None


Rule = Callable[[Said], ActionEnvelope | None]


def detect_action(
    text: str, providers: Sequence[str] = (), projects: Sequence[str] = ()
) -> ActionEnvelope | None:
    """The meta-request in `text`, or None for a design request.

    `providers` are adapter names ("claude", "gemini", "offline"...): "switch to
    gemini" changes provider, "switch to Ledgerly" changes project. `projects`
    are the user's project names: "delete Atlas" deletes only a known project.
    """
    raw = " ".join(text.split())  # a pasted multi-line message reads as one line
    if not raw or len(raw) > MAX_MESSAGE:
        return None
    said = read(raw, tuple(providers), tuple(projects), correct=False)
    found = first_match(said)
    if found is None:
        corrected = read(raw, tuple(providers), tuple(projects), correct=True)
        if corrected.folded != said.folded:
            found = first_match(corrected)
    return found


def first_match(said: Said) -> ActionEnvelope | None:
    for rule in RULES:
        envelope = rule(said)
        if envelope is not None:
            return envelope
    return None


def read(raw: str, providers: tuple[str, ...], projects: tuple[str, ...], correct: bool) -> Said:
    """`raw` folded, its request's start found, optionally with typos corrected."""
    text = raw.strip(_OUTER)
    folded, origin = fold_mapped(text)
    folded = folded.replace("’", "'").replace("‘", "'")
    if correct:
        folded, origin = corrected(folded, origin, vocabulary(providers))
    lead = intent_words().lead.match(folded)
    start = lead.end() if lead else 0
    plain = without_tail(normalize(folded[start:]))
    return Said(raw, text, folded, origin, start, plain, providers, projects)


def make(module: str, method: str, **data: Any) -> ActionEnvelope | None:
    """The envelope, or None when what was read does not fit its input model."""
    try:
        return ActionEnvelope(module=module, method=method, input=data)  # type: ignore[arg-type]
    except ValidationError:
        return None


# -- the lexicon's words, as the rules read them ---------------------------------------------


@dataclass(frozen=True)
class IntentWords:
    """The word sets and regexes of one lexicon that the rules read (all languages').

    Whole-message phrases are compared after `normalize`, so "What's up?" meets "what s up"
    and "¿Qué tal?" meets "que tal"."""

    book: PhraseBook
    small_talk: tuple[tuple[str, frozenset[str]], ...]  # (kind, phrases), the most specific first
    acknowledgements: frozenset[str]
    help_requests: frozenset[str]
    cancel_requests: frozenset[str]
    polite_tails: frozenset[str]
    active_project_words: frozenset[str]
    number_words: dict[str, int]
    action_words: frozenset[str]
    file_kinds: tuple[tuple[str, frozenset[str]], ...]  # (brief|research|design, words)
    file_words: frozenset[str]
    create_fillers: frozenset[str]
    outward_search_words: frozenset[str]
    not_project_names: frozenset[str]
    not_in_names: frozenset[str]
    title_joiners: frozenset[str]
    stop_words: frozenset[str]
    language_codes: dict[str, str]
    usage_groups: dict[str, str]
    lead: re.Pattern[str]
    tail_plain: re.Pattern[str]
    parts: re.Pattern[str]


def intent_words() -> IntentWords:
    """The process lexicon's words for the rules (made once per lexicon)."""
    return lexicon().derived(_intent_words)


def phrase_book() -> PhraseBook:
    """Every pattern of this module, for the process lexicon."""
    return intent_words().book


def _intent_words(words: Lexicon) -> IntentWords:
    """What the rules read, from the home's cache when made for these files and templates
    (filling the templates and reading their starts costs ~100 ms; this, ~1 ms)."""
    key = f"{words.signature}-{digest(TEMPLATES)}-{WORDS_FORMAT}"
    # A copy: what the cache holds is shared by the process and read-only (core/cache.py).
    data = dict(words.persisted("intent-words", key, lambda: _intent_data(words)))
    book = PhraseBook(data.pop("filled"), {k: t.flags for k, t in TEMPLATES.items()})
    return IntentWords(
        book=book,
        lead=re.compile(data.pop("lead")),
        tail_plain=re.compile(data.pop("tail_plain")),
        parts=book.one(_PARTS).compiled,
        **data,
    )


# Bumped when _intent_data makes something else: a home's cached copy is then made again.
WORDS_FORMAT = 1


def _intent_data(words: Lexicon) -> dict[str, Any]:
    """IntentWords as plain data: sets, tables, the filled templates, regex sources."""

    def plain(name: str) -> frozenset[str]:
        return frozenset(normalize(p) for p in words.union(name) if normalize(p))

    tails = plain("polite_tails")
    return {
        "filled": fill(TEMPLATES, words),
        "small_talk": tuple((kind, plain(name)) for kind, name in SMALL_TALK),
        "acknowledgements": plain("acknowledgements"),
        "help_requests": plain("help_requests"),
        "cancel_requests": plain("cancel_requests") | plain("cancel"),
        "polite_tails": tails,
        "active_project_words": plain("active_project_words"),
        "number_words": {k: int(v) for k, v in words.merged_table("number_words").items()},
        "action_words": words.union("action_words"),
        "file_kinds": tuple((k, words.union(f"{k}_file_words")) for k in FILE_KINDS),
        "file_words": words.union("file_words"),
        "create_fillers": words.union("create_fillers"),
        "outward_search_words": words.union("outward_search_words"),
        "not_project_names": words.union("not_project_names"),
        "not_in_names": words.union("not_in_names"),
        "title_joiners": words.union("title_joiners"),
        "stop_words": words.union("stop_words"),
        "language_codes": {k: str(v) for k, v in words.merged_table("language_names").items()},
        "usage_groups": {k: str(v) for k, v in words.merged_table("usage_groups").items()},
        "lead": rf"(?:{_spoken(plain('lead_ins'))}(?![\w'])[\s,!.:;¿¡-]*)+",
        "tail_plain": rf"(?:\s+{_spoken(tails)})+$",
    }


# Kinds of small talk and the lexicon names of their phrases, the most specific first.
SMALL_TALK: tuple[tuple[str, str], ...] = (
    ("how_are_you", "how_are_you"),
    ("bye", "bye"),
    ("thanks", "thanks"),
    ("greeting", "greetings"),
)
FILE_KINDS = ("brief", "research", "design")  # in this order: a brief's research is a brief


def _spoken(phrases: Iterable[str]) -> str:
    """A regex group of normalised phrases, longest first, matching "i'd" for "i d"."""
    ordered = sorted(set(phrases), key=len, reverse=True)
    return "(?:" + "|".join(r"[\s']+".join(map(re.escape, p.split())) for p in ordered) + ")"


# -- shared pieces ---------------------------------------------------------------------------

# A polite tail after a request read whole ("delete Atlas, please").
_TAIL = r"(?:[\s,]+⟪polite_tails⟫)*[\s.!?]*"
_ARTICLE = "⟪articles⟫"


def without_lead(plain: str) -> str:
    lead = intent_words().lead.match(plain)
    return plain[lead.end() :] if lead else plain


def without_tail(plain: str) -> str:
    return intent_words().tail_plain.sub("", plain).strip()


def clean(name: str) -> str:
    """A name or path as typed, without surrounding quotes, spaces and punctuation."""
    name = name.strip().strip("\"'“”‘’«»`¿?¡!.,:; ")
    return " ".join(name.split())


def name_or_none(name: str, max_words: int = NAME_WORDS) -> str | None:
    """`name` when it can be a project name (1-120 characters, a few words)."""
    name = clean(name)
    if not name or len(name) > 120 or len(name.split()) > max_words:
        return None
    if normalize(name) in intent_words().active_project_words:
        return None
    return name


def phrase_in(plain: str, phrases: frozenset[str]) -> bool:
    """Whether `plain` is one of `phrases`, allowing one typo in phrases of 5+ letters."""
    if plain in phrases:
        return True
    if len(plain) < 5:
        return False
    near = _by_first_letter(phrases).get(plain[0], ())
    return any(abs(len(p) - len(plain)) <= 1 and one_typo(plain, p) for p in near)


@lru_cache(maxsize=256)
def _by_first_letter(phrases: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The phrases of 5+ letters by their first letter (a typo is never the first one):
    each message is read against many lists of hundreds of phrases."""
    index: dict[str, list[str]] = {}
    for phrase in phrases:
        if len(phrase) >= 5:
            index.setdefault(phrase[0], []).append(phrase)
    return {letter: tuple(found) for letter, found in index.items()}


def one_typo(word: str, target: str) -> bool:
    """At most one insertion, deletion, substitution or swap of neighbours apart."""
    if word == target:
        return True
    if abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [i for i, (a, b) in enumerate(zip(word, target, strict=True)) if a != b]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == target[diff[1]]
            and word[diff[1]] == target[diff[0]]
        )
    short, long = sorted((word, target), key=len)
    i = next((k for k, (a, b) in enumerate(zip(short, long, strict=False)) if a != b), len(short))
    return short[i:] == long[i + 1 :]


def vocabulary(providers: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Command words (and provider names) by first letter, for typo correction."""
    return _vocabulary(providers, intent_words().action_words)


@lru_cache(maxsize=64)
def _vocabulary(
    providers: tuple[str, ...], action_words: frozenset[str]
) -> dict[str, tuple[str, ...]]:
    known = set(action_words) | {fold(p) for p in providers if p.isalpha()}
    table: dict[str, list[str]] = {}
    for word in known:
        table.setdefault(word[0], []).append(word)
    return {k: tuple(v) for k, v in table.items()}


def corrected(
    folded: str, origin: list[int], vocab: dict[str, tuple[str, ...]]
) -> tuple[str, list[int]]:
    """`folded` with words one typo away from exactly one command word replaced by it."""
    out: list[str] = []
    mapped: list[int] = []
    pos = 0
    for match in re.finditer(r"\b[a-z]{5,}\b", folded):
        word = match.group()
        near = [
            w for w in vocab.get(word[0], ()) if abs(len(w) - len(word)) <= 1 and one_typo(word, w)
        ]
        if word in near or len(near) != 1:
            continue
        out.append(folded[pos : match.start()])
        mapped.extend(origin[pos : match.start()])
        out.append(near[0])
        last = len(word) - 1
        mapped.extend(origin[match.start() + min(i, last)] for i in range(len(near[0])))
        pos = match.end()
    out.append(folded[pos:])
    mapped.extend(origin[pos:])
    return "".join(out), mapped


def full(pattern: str) -> str:
    """A pattern read against the whole request, polite tail allowed."""
    return rf"(?:{pattern}){_TAIL}"


def match_body(said: Said, key: str) -> re.Match[str] | None:
    """The first pattern of group `key` that matches the whole request (from its start)."""
    for pattern in phrase_book()[key]:
        found = pattern.fullmatch(said.folded, said.start)
        if found:
            return found
    return None


def match_plain(plain: str, key: str) -> re.Match[str] | None:
    """The first pattern of group `key` that matches all of `plain`."""
    for pattern in phrase_book()[key]:
        found = pattern.fullmatch(plain)
        if found:
            return found
    return None


def count_of(word: str | None, default: int) -> int:
    """A count said in digits or words ("5", "five", "cinco"), 1-200."""
    if not word:
        return default
    value = int(word) if word.isdigit() else intent_words().number_words.get(word, default)
    return max(1, min(200, value))


# -- the conversation itself: whole messages ------------------------------------------------

# Where a message splits into the clauses read one by one.
_PARTS = template("parts", r"[,.;:!?¡¿()]+|\s⟪clause_joiners⟫\s|\s[-–—]+\s", gated=False)


def cancel_rule(said: Said) -> ActionEnvelope | None:
    """ "never mind", "olvídalo": only as the whole message."""
    if said.plain and phrase_in(said.plain, intent_words().cancel_requests):
        return make("conversation", "cancel")
    return None


def small_talk_rule(said: Said) -> ActionEnvelope | None:
    """ "hi!", "gracias", "hola, ¿qué tal?": only when nothing else is asked."""
    kinds: set[str] = set()
    known = intent_words()
    for part in known.parts.split(said.folded):
        found = small_talk_kinds(normalize(part).split())
        if found is None:
            return None
        kinds.update(found)
    kind = next((k for k, _ in known.small_talk if k in kinds), None)
    return make("conversation", "small_talk", kind=kind) if kind else None


def small_talk_kinds(words: list[str]) -> list[str] | None:
    """The kinds of pleasantry `words` is made of ("hi how are you"), None if anything else."""
    if not words:
        return []
    if len(words) > 8:
        return None
    phrase = " ".join(words)
    known = intent_words()
    if phrase in known.acknowledgements:
        return []
    for kind, phrases in known.small_talk:
        if phrase_in(phrase, phrases):
            return [kind]
    for cut in range(len(words) - 1, 0, -1):
        head = small_talk_kinds(words[:cut]) if cut <= 4 else None
        tail = small_talk_kinds(words[cut:]) if head is not None else None
        if head is not None and tail is not None:
            return head + tail
    return None


_HOW_TO = template(
    "how_to",
    r"⟪how_to_openers⟫ ⟪how_to_verbs⟫(?: ⟪how_to_determiners⟫){0,3} ⟪how_to_objects⟫"
    r"(?: (?:here|aqui))?",
)


def help_rule(said: Said) -> ActionEnvelope | None:
    """ "what can you do?", "ayuda", "how do I create a project?"."""
    if not said.plain:
        return None
    if phrase_in(said.plain, intent_words().help_requests):
        return make("conversation", "help")
    return make("conversation", "help") if match_plain(said.plain, _HOW_TO) else None


# -- rerender: "shorter", "more detail", "in Spanish" ---------------------------------------

_DEGREE = "(?: ⟪degree_words⟫)?"
_OBJECT = "(?: ⟪answer_words⟫)?"
_VERSION = "(?: ⟪version_words⟫)?"
_TOO = "(?:⟪too_openers⟫ )*"
_ES_VERB = "⟪make_it_verbs⟫"

_BRIEF = template(
    "brief",
    rf"⟪brief_verbs⟫{_OBJECT}{_DEGREE} ⟪brief_adjectives⟫{_VERSION}",
    rf"(?:(?:a lot|a bit|a little|much|way|even) )?⟪shorter_words⟫{_VERSION}",
    rf"{_TOO}⟪too_words⟫ ⟪too_long_words⟫(?: to read)?",
    r"⟪shorten_verbs⟫(?: it| that| this| the answer| your answer)?(?: down| up)?"
    r"(?: a bit| a little)?",
    r"(?:give me |just )?(?:a |the )?⟪summary_words⟫",
    r"⟪less_words⟫ ⟪less_nouns⟫",
    r"⟪in_short_phrases⟫",
    rf"(?:{_ES_VERB}{_DEGREE} )?(?:mas )?⟪short_adjectives⟫(?: version| respuesta)?",
    r"(?:una )?(?:version|respuesta) (?:mas )?⟪short_version_adjectives⟫",
    r"⟪shorten_commands⟫(?: un poco| mas| eso| esto| todo)?",
    r"(?:dame |hazme |quiero )?(?:un )?resumen",
)
_DETAILED = template(
    "detailed",
    rf"⟪detail_verbs⟫{_OBJECT}{_DEGREE} ⟪detailed_adjectives⟫{_VERSION}",
    rf"(?:(?:a lot|a bit|a little|much|way|even) )?⟪longer_words⟫{_VERSION}",
    r"(?:⟪more_detail_verbs⟫ )?(?:(?:a bit|a little|a lot|much|way|some|even) )?more"
    r" ⟪more_detail_nouns⟫",
    r"⟪elaborate_verbs⟫(?: on| about| upon)?"
    r"(?: it| that| this| the answer| the last answer| your answer| the last one)?"
    r"(?: a bit| a little| more| further)?",
    rf"{_TOO}⟪too_words⟫ ⟪too_short_words⟫",
    r"in (?:more |much more |greater |full )?detail|⟪in_detail_phrases⟫"
    r"|(?:con |en )?(?:mas )?detalle",
    rf"(?:{_ES_VERB}{_DEGREE} )?mas ⟪longer_adjectives⟫(?: version| respuesta)?",
    r"(?:una )?(?:version|respuesta) (?:mas )?⟪long_version_adjectives⟫",
    r"(?:⟪more_detail_commands⟫ )?(?:(?:un poco|mucho|algo|bastante) )?"
    r"mas ⟪more_detail_nouns_after_mas⟫",
    r"⟪elaborate_commands⟫(?: en eso| sobre eso| eso| esto| mas| un poco| un poco mas"
    r"| la respuesta)?",
)
# Every pattern below names the language: a message that does not is not read against them.
_LANGUAGE_NAME = "(?P<lang>⟪language_names⟫)"
_LANGUAGE = template(
    "language",
    r"(?:⟪say_it_verbs⟫(?: it| that| this| me| the answer| that again| it again| everything"
    rf"| all| this again)? )?(?:in|into) {_LANGUAGE_NAME}(?: instead| from now on| version"
    r"| again)?",
    r"⟪translate_verbs⟫(?: it| that| this| the answer| everything| all| the whole thing"
    rf"| back)? (?:to|into|in) {_LANGUAGE_NAME}",
    rf"{_LANGUAGE_NAME}(?: version| instead)?",
    rf"⟪speak_verbs⟫(?: to me)?(?: in)? {_LANGUAGE_NAME}",
    rf"(?:do you|can you) (?:speak|do|write|talk) {_LANGUAGE_NAME}",
    r"(?:⟪say_it_commands⟫(?: eso| esto| la respuesta| todo)? )?(?:en|al|a) "
    rf"{_LANGUAGE_NAME}(?: de nuevo| otra vez)?",
    r"⟪translate_commands⟫(?: eso| esto| la respuesta| todo)? (?:al|a|en) "
    rf"{_LANGUAGE_NAME}",
    rf"(?:la )?version en {_LANGUAGE_NAME}",
    rf"⟪speak_questions⟫ (?:en )?{_LANGUAGE_NAME}",
    needles="language_names",
)
_LANGUAGE_AFTER = template(
    "language_after",
    rf"(?P<before>.+?) (?:in|into|en|al|a) {_LANGUAGE_NAME}",
    needles="language_names",
    gated=False,
)


# Retry and compare patterns name a provider ({p}, {q}): they are filled with the adapters'
# names when read, never gated or compiled ahead.
_RETRY = template(
    "retry",
    r"⟪retry_verbs⟫(?: (?:that|it|this|the same|the same thing"
    r"|the last one|the last request|the request))?(?: again| once more)? (?:with|using|on|in"
    r"|via) {p}",
    r"(?:same|that|the same thing|same request)(?: again)? (?:with|on|using|in) {p}",
    r"what would {p} (?:say|answer|write)(?: to that| to this| instead)?",
    r"⟪retry_commands⟫(?: eso| esto| lo mismo)?(?: otra vez| de nuevo)? (?:con"
    r"|en|usando|a) {p}",
    r"(?:lo mismo|eso|otra vez|de nuevo)(?: otra vez| de nuevo)? (?:con|en|usando) {p}",
    r"que (?:diria|responderia|contestaria) {p}",
    gated=False,
)


def retry_rule(said: Said) -> ActionEnvelope | None:
    """ "try that again with gemini", "¿qué diría codex?": the last request, answered again
    by another provider, on a branch beside the first answer."""
    if not names_a_provider(said):
        return None
    names = "|".join(re.escape(p) for p in sorted(said.providers, key=len, reverse=True))
    provider = rf"(?P<p>{names})"
    for pattern in phrase_book()[_RETRY]:
        found = re.fullmatch(pattern.source.format(p=provider), said.plain)
        if found:
            return make("conversation", "rerender", provider=found.group("p"))
    return None


_COMPARE = template(
    "compare",
    r"⟪compare_verbs⟫(?: (?:it|that|this|the answer|the last"
    r" answer|eso|esto|la respuesta))? (?:with|to|against|con|contra) {p}",
    r"(?:compare|compara|comparar) {p} (?:and|with|vs|versus|y|con) {q}",
    gated=False,
)


def compare_rule(said: Said) -> ActionEnvelope | None:
    """ "compare with codex", "compara claude y gemini": the last request on two providers."""
    if not names_a_provider(said):
        return None
    names = "|".join(re.escape(p) for p in sorted(said.providers, key=len, reverse=True))
    for pattern in phrase_book()[_COMPARE]:
        regex = pattern.source.format(p=rf"(?P<p>{names})", q=rf"(?P<q>{names})")
        found = re.fullmatch(regex, said.plain)
        if found:
            named = [found.group("p"), *([found.group("q")] if "q" in found.groupdict() else [])]
            return make("conversation", "compare", providers=named)
    return None


def names_a_provider(said: Said) -> bool:
    """Whether an adapter's name is in the request, as every retry and compare pattern
    needs: without one they are not built and compiled for it."""
    return any(name in said.plain for name in said.providers)


def rerender_rule(said: Said) -> ActionEnvelope | None:
    """ "make it shorter", "más detallado", "in Spanish", "más corto y en inglés"."""
    verbosity: str | None = None
    language: str | None = None
    known = intent_words()
    for part in known.parts.split(said.body):
        plain = without_tail(without_lead(normalize(part)))
        if not plain or plain in known.acknowledgements or plain in known.polite_tails:
            continue
        found = rerender_part(plain)
        if found is None:
            return None
        verbosity, language = found[0] or verbosity, found[1] or language
    if verbosity is None and language is None:
        return None
    return make("conversation", "rerender", verbosity=verbosity, language=language)


def rerender_part(plain: str) -> tuple[str | None, str | None] | None:
    """(verbosity, language) asked for by one clause, None when it asks something else."""
    if match_plain(plain, _BRIEF):
        return "brief", None
    if match_plain(plain, _DETAILED):
        return "detailed", None
    codes = intent_words().language_codes
    found = match_plain(plain, _LANGUAGE)
    if found:
        return None, codes.get(found.group("lang"), "en")
    found = match_plain(plain, _LANGUAGE_AFTER)
    if found:
        verbosity = rerender_part(found.group("before"))
        if verbosity is not None and verbosity[0] is not None:
            return verbosity[0], codes.get(found.group("lang"), "en")
    return None


# -- files: "here is the brief: ./my brief.md" ----------------------------------------------

_EXT = "|".join(sorted(FILE_EXTENSIONS, key=len, reverse=True))
_QUOTES = "\"'“”‘’«»`"
_QUOTED_PATH = LazyPattern(
    rf"(?<![^\s:(,=¿¡])[{_QUOTES}](?P<path>[^{_QUOTES}]{{1,400}}?)[{_QUOTES}](?=$|[\s.,;:!?)])",
    needles=tuple(_QUOTES),
)
# After "<" a slash closes a tag ("</decision>"): it does not start a path.
_PATH_START = re.compile(
    rf"(?<![\w/\\.~:@<-])(?:(?P<prefixed>~[/\\]|\.{{1,2}}[/\\]|[a-zA-Z]:[/\\])|(?P<absolute>/)"
    rf"(?=[\w.~-])|(?=[\w-][\w.-]*(?:[/\\][\w. -]*?)*\.(?:{_EXT})(?![\w-])))",
    re.IGNORECASE,
)
_EXT_END = LazyPattern(rf"\.(?:{_EXT})(?=$|[\s,;:!?)]|\.(?:\s|$))", flags=re.IGNORECASE)
_HAS_EXT = LazyPattern(rf"\.(?:{_EXT})$", flags=re.IGNORECASE)
_JOINERS = template("path_joiners", r"\s⟪path_joiners⟫\s", flags=re.IGNORECASE, gated=False)


def file_rule(said: Said) -> ActionEnvelope | None:
    """A path the user hands over, quoted or not, with spaces, even a folder or an image."""
    found = quoted_path(said.raw) or spoken_path(said.raw)
    if found is None:
        return None
    path, sure = found
    others = set(words(said.raw.replace(path, " ")))
    if not sure and not others & intent_words().file_words and others:
        return None
    kind = file_type(others, path)
    if is_evidence(others, path, kind):
        return make("files", "add", path=path, file_type=kind, evidence=True)
    return make("files", "add", path=path, file_type=kind)


EVIDENCE_WORDS = LexiconWords("evidence_words")
EVIDENCE_ONLY = (".vtt", ".srt", ".csv")


def is_evidence(said_words: set[str], path: str, kind: str) -> bool:
    """Transcripts, notes or a survey export handed over as research evidence: the words
    say so ("here are my interview transcripts: ./interviews/"), or the file is a caption
    file or a CSV not handed over as a brief."""
    if said_words & EVIDENCE_WORDS:
        return True
    return kind != "brief" and path.rstrip().rstrip("/\\").lower().endswith(EVIDENCE_ONLY)


def quoted_path(raw: str) -> tuple[str, bool] | None:
    """'"~/Docs/Q3 research.pdf"': the quoted text, when it looks like a path."""
    for match in _QUOTED_PATH.finditer(raw):
        path = match.group("path").strip()
        if looks_like_path(path):
            return path, True
    return None


def looks_like_path(text: str) -> bool:
    """A quoted text that names a file or folder, not a quote with a slash in it
    ("as a / I want / so that", "me gusta/no me gusta")."""
    if text.startswith(("~", "./", "../", "/", ".\\")) or re.match(r"[a-z]:[/\\]", text, re.I):
        return True
    if _HAS_EXT.search(text) or text.endswith(("/", "\\")):
        return True
    if not re.search(r"[/\\]", text) or re.search(r"\s[/\\]|[/\\]\s", text):
        return False
    return " " not in text or Path(text).expanduser().exists()


def spoken_path(raw: str) -> tuple[str, bool] | None:
    """An unquoted path: to its extension (spaces allowed), else to the end of the word.

    The bool says the text is surely a path ("./x", "~/x", "notes.md"), where a bare
    "/settings" might be a page of the product being designed.
    """
    start = _PATH_START.search(raw)
    if start is None:
        return None
    rest = raw[start.start() :]
    if rest.lower().startswith(("www.", "http")):
        return None
    path = to_extension(rest) or to_folder(rest) or rest.split(" ", 1)[0].rstrip(".,;:!?)")
    if len(path) < 2:
        return None
    sure = bool(start.group("prefixed")) or bool(_HAS_EXT.search(path))
    return path, sure


def to_extension(rest: str) -> str | None:
    """ "./my brief.md please" -> "./my brief.md": up to the first file extension."""
    end = _EXT_END.search(rest)
    if end is None:
        return None
    path = rest[: end.end()]
    if path.count(" ") > 4 or _joined(path) or re.search(f"[{_QUOTES}]", path):
        return None
    return path


def to_folder(rest: str) -> str | None:
    """ "./my docs/" at the end of the message: the folder, spaces and all."""
    path = rest.rstrip(" .,;:!?)")
    if path.endswith(("/", "\\")) and path.count(" ") <= 4 and not _joined(path):
        return path
    return None


def _joined(path: str) -> bool:
    """Whether `path` holds a joining word between spaces ("notes.md and brief.md")."""
    return phrase_book().one(_JOINERS).search(path) is not None


def file_type(said_words: set[str], path: str) -> str:
    """brief, research or design from what the user said, else from the file's name."""
    for vocabulary_ in (said_words, set(words(path))):
        for kind, kind_words in intent_words().file_kinds:
            if vocabulary_ & kind_words:
                return kind
    extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return "design" if extension in IMAGE_EXTENSIONS else "other"


# -- providers: "use gemini from now on", "usa el modo offline" -----------------------------

_PROVIDER_VERB = (
    r"(?:⟪provider_verbs⟫|⟪provider_switch_verbs⟫(?: over| back)? to"
    r"|⟪provider_change_verbs⟫(?: over| back)?(?: the provider| provider| the model| model)? to"
    r"|⟪provider_move_verbs⟫(?: el proveedor| de proveedor| el modelo)? (?:a|al))"
)
_PROVIDER_TAIL = "(?: ⟪provider_tails⟫)*"
_OFFLINE = template(
    "offline",
    r"(?:⟪offline_verbs⟫ )?(?:(?:the|el|la|al|en|in) )?(?:⟪offline_phrases⟫"
    r"|without (?:an |any |the )?ai|sin (?:la |ninguna )?(?:ia|ai|inteligencia artificial)"
    r"|no (?:uses|utilices) (?:la |ninguna )?ia|don t use (?:any |the )?ai)" + _PROVIDER_TAIL,
)
# The adapters' names stand where NAMES is (provider_pattern): they are known when read.
NAMES = "\x00"
_PROVIDER_USE = template(
    "provider_use",
    rf"{_PROVIDER_VERB} (?:(?:the|el|la) )?(?:⟪provider_kinds⟫ )?(?P<name>{NAMES})"
    + _PROVIDER_TAIL,
)
_PROVIDER_TYPO = template(
    "provider_typo",
    rf"{_PROVIDER_VERB} (?:(?:the|el|la) )?(?P<name>[a-z0-9]{{5,}}){_PROVIDER_TAIL}",
)


def provider_rule(said: Said) -> ActionEnvelope | None:
    """ "switch to codex", "cambia a Claude", "go back to offline answers", "sin IA"."""
    pattern = provider_pattern(said.providers)
    found = pattern.fullmatch(said.plain) if pattern else None
    name = provider_named(found.group("name"), said.providers) if found else None
    if name is None:
        name = provider_misspelt(said)
    if name is None and match_plain(said.plain, _OFFLINE):
        name = provider_named("offline", said.providers)
    return make("providers", "use", name=name) if name else None


def provider_pattern(providers: tuple[str, ...]) -> LazyPattern | None:
    """The "use NAME" pattern for these adapters and the aliases of the ones present."""
    return _provider_pattern(phrase_book().one(_PROVIDER_USE), providers)


@lru_cache(maxsize=64)
def _provider_pattern(used: LazyPattern, providers: tuple[str, ...]) -> LazyPattern | None:
    names = {normalize(p) for p in providers if normalize(p)}
    names |= {alias for alias, target in PROVIDER_ALIASES.items() if target in names}
    if not names:
        return None
    # The names come after the verb: the template's starts are the pattern's.
    source = used.source.replace(NAMES, _spoken(names))
    return LazyPattern(source, starts=used.starts)


def provider_misspelt(said: Said) -> str | None:
    """ "cambia a Gemnii": an adapter one typo away, unless a project has that name."""
    found = match_plain(said.plain, _PROVIDER_TYPO)
    if found is None or said.knows_project(found.group("name")):
        return None
    word = found.group("name")
    near = [p for p in said.providers if len(p) >= 5 and one_typo(word, normalize(p))]
    return near[0] if len(near) == 1 else None


def provider_named(name: str, providers: Sequence[str]) -> str | None:
    """The adapter `name` refers to ("Claude Code" -> "claude"), as spelled in `providers`."""
    wanted = normalize(name)
    wanted = PROVIDER_ALIASES.get(wanted, wanted)
    return next((p for p in providers if normalize(p) == wanted), None)


# -- projects -------------------------------------------------------------------------------

_LIST_PROJECTS = template(
    "list_projects",
    r"⟪list_projects_verbs⟫(?: me)?(?: all| the list of"
    r"| a list of)?(?: of)?(?: the| my| our| all| all my| all the| all of my)? projects"
    r"(?: i have| we have| i ve got| there are| so far| available)?",
    r"(?:what|which) projects (?:do|have|did) (?:i|we) (?:have|got|created|made|started"
    r"|saved)(?: so far| going| here)?",
    r"(?:what|which) (?:are )?(?:my|our|the) projects|(?:what|which) projects are there",
    r"(?:my |our |all |all my )?projects|project list|list projects|how many projects"
    r" (?:do i have|do we have|are there)",
    r"⟪list_projects_commands⟫(?: todos)?"
    r"(?: los| mis| nuestros)? proyectos(?: que tengo| que tenemos| guardados)?",
    r"(?:que|cuales) proyectos (?:tengo|tenemos|hay|existen)(?: guardados| creados)?",
    r"cuales son (?:mis|los|nuestros) proyectos|(?:mis |los |nuestros )?proyectos",
    r"(?:lista de|listado de) proyectos|cuantos proyectos (?:tengo|tenemos|hay)",
    needles="project_words",
)


def list_projects_rule(said: Said) -> ActionEnvelope | None:
    """ "what projects do I have?", "¿qué proyectos tengo?"."""
    if match_plain(said.plain, _LIST_PROJECTS):
        return make("projects", "list")
    return None


_NEW_EN = r"(?:(?:a|an) (?:brand )?new|another(?: new)?)"
# (pattern, anchored): an anchored one must start the request ("new project: Atlas").
_CREATE = template(
    "create",
    r"\b⟪create_verbs⟫ (?P<article>(?:a|an|another|one more|one) )?"
    r"(?:brand )?(?:new )?project(?![\w'])",
    rf"\b⟪have_new_verbs⟫ {_NEW_EN} project(?![\w'])",
    r"(?P<article>(?:a )?(?:brand )?new|another) project(?![\w'])",
    r"\b⟪create_the_verbs⟫ (?P<article>(?:the|el) )⟪project_words⟫(?![\w'])",
    r"\b⟪create_commands⟫ (?P<article>(?:un|una|otro) )?"
    r"(?:nuevo )?proyecto(?: nuevo)?(?![\w'])",
    r"\b⟪have_new_commands⟫ "
    r"(?:un (?:nuevo proyecto|proyecto nuevo)|otro proyecto(?: nuevo)?)(?![\w'])",
    r"(?P<article>(?:un )?(?:nuevo proyecto|proyecto nuevo|otro proyecto))(?![\w'])",
    needles="project_words",
)
_CREATE_ANCHORED = (False, False, True, False, False, False, True)
# Questions about projects are not requests to make one ("should I start a new project?").
_QUESTION_START = template("question_start", r"⟪question_openers⟫\b")
# A question or a request after "new project" makes the message a design request:
# "we're starting a new project on monday, help me run the kickoff".
_REQUEST_AFTER = template(
    "request_after", r"\?|\b(?:⟪request_openers⟫|(?:i|we) need (?:a|an|to|help))\b", gated=False
)
_CALLED = template("called", r"\b⟪called_words⟫\s+(?=\S)", gated=False)
_NAME_END = template("name_end", r"[.;!?](?=\s|$)|,(?=\s)|\s⟪name_enders⟫\b", gated=False)
_ABOUT = template("about", rf"[\s,:]*⟪about_words⟫\s+(?:{_ARTICLE}\s+)?(?=\S)", gated=False)
_DESCRIPTION_END = template(
    "description_end",
    r"[.;!?](?=\s|$)|,\s|\s(?:⟪because_words⟫|and (?:i|we|i'm|need|want)|y (?:quiero"
    r"|necesito|tengo|me|nos))\b",
    gated=False,
)
_QUOTED_NAME = LazyPattern(
    rf"(?<![^\s:(,¿¡])[{_QUOTES}](?P<name>[^{_QUOTES}]{{1,120}}?)[{_QUOTES}](?=$|[\s.,;:!?)])"
)


def _one(key: str) -> LazyPattern:
    return phrase_book().one(key)


def create_rule(said: Said) -> ActionEnvelope | None:
    """ "I'm starting a new project for an invoicing app called Ledgerly", "nuevo proyecto: X"."""
    if _one(_QUESTION_START).match(said.folded, said.start):
        return None
    for pattern, anchored in zip(phrase_book()[_CREATE], _CREATE_ANCHORED, strict=True):
        find = pattern.match if anchored else pattern.search
        found = find(said.folded, said.start)
        if found and _one(_REQUEST_AFTER).search(said.folded, found.end()):
            return None
        if found:
            details = project_details(said, found)
            if details is None:
                return None
            name, description = details
            return make("projects", "create", name=name, description=description)
    return None


def project_details(said: Said, trigger: re.Match[str]) -> tuple[str | None, str | None] | None:
    """(name, description) after "new project"; None when "project" was a design noun."""
    at = trigger.end()
    after = said.folded[at:].split()
    if after and after[0].strip(".,:;!?") in intent_words().not_project_names:
        return None
    description = described(said, at)
    called = _one(_CALLED).search(said.folded, trigger.start())
    if called:
        name, end = name_at(said, called.end())
        return name, description or described(said, end)
    quoted = _QUOTED_NAME.search(said.folded, at)
    if quoted:
        return name_or_none(said.cut(*quoted.span("name"))), description
    if description is not None:
        return None, description
    # "create project Atlas" names it bare; "a new project atlas" needs a capital or a colon.
    bare = "article" in trigger.groupdict() and not trigger.group("article")
    name = named_right_after(said, at, bare)
    if name is None and not nothing_else(said, at):
        return None  # "a new project onboarding checklist" is a design request
    return name, None


def nothing_else(said: Said, at: int) -> bool:
    """Whether the sentence ends after "new project" (but for "today", "please"...)."""
    end = re.compile(r"[.!?;](?=\s|$)").search(said.folded, at)
    left = normalize(said.folded[at : end.start() if end else len(said.folded)])
    fillers = intent_words().create_fillers
    return all(word in fillers for word in left.split())


def name_at(said: Said, start: int) -> tuple[str | None, int]:
    """The name that starts at `start` (quoted, or to the end of its clause), and its end."""
    quoted = _QUOTED_NAME.match(said.folded, start)
    if quoted:
        return name_or_none(said.cut(*quoted.span("name"))), quoted.end()
    end = name_end(said, start)
    return name_or_none(said.cut(start, end)), end


def name_end(said: Said, start: int) -> int:
    """Where an unquoted name ends: at the clause's end, but "Design for Good" stays whole."""
    pos = start
    name_end, joiners = _one(_NAME_END), intent_words().title_joiners
    while (end := name_end.search(said.folded, pos)) is not None:
        joiner = end.group().strip()
        after = said.cut(end.end(), len(said.folded)).split(" ", 1)[0]
        title_case = after[:1].isupper() and fold(after) not in {"i", "i'm", "i've", "i'll"}
        if joiner not in joiners or not title_case:
            return end.start()
        pos = end.end()
    return len(said.folded)


def described(said: Said, at: int) -> str | None:
    """ "for a B2B invoicing app called Ledgerly" -> "B2B invoicing app"."""
    about = _one(_ABOUT).match(said.folded, at)
    if about is None:
        return None
    end = _one(_DESCRIPTION_END).search(said.folded, about.end())
    stop = end.start() if end else len(said.folded)
    called = _one(_CALLED).search(said.folded, about.end(), stop)
    if called:
        stop = called.start()
    text = said.cut(about.end(), stop)
    text = re.sub(r"[\s,]+(?:which is|que se|which|que)$", "", text).strip(" ,")
    return text[:DESCRIPTION_MAX].strip() or None


def named_right_after(said: Said, at: int, bare: bool) -> str | None:
    """ "new project: Atlas", "a new project, Atlas", "create project Atlas"."""
    found = re.compile(r"\s*(?P<mark>[:,–—-]?)\s*(?=\S)").match(said.folded, at)
    if found is None:
        return None
    start = found.end()
    name, _ = name_at(said, start)
    if name is None or len(name.split()) > 5:
        return None
    first = fold(name).split()[0]
    known = intent_words()
    if first in known.stop_words or first in known.not_project_names:
        return None
    if found.group("mark") or bare or name[:1].isupper() or said.knows_project(name):
        return name
    return None


_OWNER = "(?:⟪owner_words⟫ )?"
_CURRENT = "⟪current_words⟫"
_DELETE_VERB = "⟪delete_verbs⟫"
_ACTIVE_SUFFIX = "(?: ⟪active_suffixes⟫)?"
_DELETE_ACTIVE = template(
    "delete_active",
    full(rf"{_DELETE_VERB} {_OWNER}⟪project_words⟫{_ACTIVE_SUFFIX}"),
    full(rf"{_DELETE_VERB} {_CURRENT} (?:⟪project_words⟫|one){_ACTIVE_SUFFIX}"),
)
_DELETE_NAMED = template(
    "delete_named",
    full(rf"{_DELETE_VERB} {_OWNER}⟪project_words⟫ (?:⟪named_words⟫ )?(?P<name>.+?)"),
    full(rf"{_DELETE_VERB} {_OWNER}(?P<name>.+?) project"),
    full(rf"{_DELETE_VERB} (?P<name>.+?)"),
)


def delete_rule(said: Said) -> ActionEnvelope | None:
    """ "delete the Acme project", "borra este proyecto" (name None: the active one)."""
    if match_body(said, _DELETE_ACTIVE):
        return make("projects", "delete", name=None)
    for index, pattern in enumerate(phrase_book()[_DELETE_NAMED]):
        found = pattern.fullmatch(said.folded, said.start)
        if not found:
            continue
        name = name_or_none(said.cut(*found.span("name")), 6)
        if name and (said.knows_project(name) or (index < 2 and plausible_name(name))):
            return make("projects", "delete", name=name)
    return None


def plausible_name(name: str) -> bool:
    """Could be a project's name: not "settings page from the sitemap"."""
    folded = fold(name).split()
    known = intent_words()
    if not folded or folded[0] in known.not_project_names or "?" in name:
        return False
    return not (set(folded[1:]) & known.not_in_names)


_RENAME_VERB = "⟪rename_verbs⟫"
_TO = "⟪rename_to⟫"
_RENAME_ACTIVE = template(
    "rename_active",
    full(
        rf"{_RENAME_VERB} (?:{_CURRENT} |{_OWNER})?⟪project_words⟫{_ACTIVE_SUFFIX} {_TO}"
        r" (?P<new>.+?)"
    ),
    full(
        r"(?:change|set|update) (?:the name of (?:this|the|my|our) project|(?:the |this )?"
        r"project(?:'s|s)? name|this project's name) (?:to|as) (?P<new>.+?)"
    ),
    full(
        r"cambia(?:le)? el nombre (?:del|de este|de mi|al|a este) proyecto(?: actual)? "
        r"(?:a|por|como) (?P<new>.+?)"
    ),
    full(r"(?:call|let's call|lets call|we'll call) (?:this|the) project (?P<new>.+?)"),
    full(
        r"(?:llama(?:le)?|llamemos|ponle de nombre|ponle) (?:a )?(?:este|el) proyecto "
        r"(?P<new>.+?)"
    ),
)
_RENAME_NAMED = template(
    "rename_named",
    full(rf"{_RENAME_VERB} {_OWNER}⟪project_words⟫ (?P<old>.+?) {_TO} (?P<new>.+?)"),
    full(rf"{_RENAME_VERB} {_OWNER}(?P<old>.+?) project (?:to|as|into) (?P<new>.+?)"),
    full(r"(?:change|set) the name of (?:the )?project (?P<old>.+?) to (?P<new>.+?)"),
    full(r"cambia(?:le)? el nombre (?:del proyecto|de) (?P<old>.+?) (?:a|por|como) (?P<new>.+?)"),
    full(rf"{_RENAME_VERB} (?P<old>.+?) {_TO} (?P<new>.+?)"),
)


def rename_rule(said: Said) -> ActionEnvelope | None:
    """ "rename this project to Checkout 2.0", "renombra Acme a Atlas"."""
    found = match_body(said, _RENAME_ACTIVE)
    if found:
        new = name_or_none(said.cut(*found.span("new")))
        return make("projects", "rename", old=None, new=new) if new else None
    for index, pattern in enumerate(phrase_book()[_RENAME_NAMED]):
        found = pattern.fullmatch(said.folded, said.start)
        if not found:
            continue
        old = name_or_none(said.cut(*found.span("old")), 6)
        new = name_or_none(said.cut(*found.span("new")))
        if old and new and (said.knows_project(old) or index < 4):
            return make("projects", "rename", old=old, new=new)
    return None


_SWITCH_TARGET = (
    r"(?:(?P<owner>⟪target_owners⟫) )?(?:(?P<word>⟪project_words⟫) )?(?P<name>.+?)"
    r"(?: (?P<after>project))?"
)
# "switch" trusts any short name, "return" a capitalised or known one, "open" only a known
# one or one said with the word "project"; in the order of _SWITCH's patterns.
_SWITCH_KINDS = ("switch", "switch", "return", "return", "return", "return", "open")
_SWITCH = template(
    "switch",
    full(rf"⟪switch_verbs⟫(?: back| over)? (?:to|into) {_SWITCH_TARGET}"),
    full(rf"⟪switch_commands⟫(?: de nuevo)? (?:a|al) {_SWITCH_TARGET}"),
    full(rf"⟪go_verbs⟫(?: back)? to {_SWITCH_TARGET}"),
    full(rf"⟪return_verbs⟫ {_SWITCH_TARGET}"),
    full(rf"⟪return_commands⟫(?: de nuevo)? (?:a|al) {_SWITCH_TARGET}"),
    full(rf"⟪resume_commands⟫ {_SWITCH_TARGET}"),
    full(rf"⟪open_verbs⟫ {_SWITCH_TARGET}"),
)


def switch_rule(said: Said) -> ActionEnvelope | None:
    """ "switch to Ledgerly", "cambia al proyecto Atlas"; never to "this project"."""
    for pattern, kind in zip(phrase_book()[_SWITCH], _SWITCH_KINDS, strict=True):
        found = pattern.fullmatch(said.folded, said.start)
        if not found:
            continue
        name = name_or_none(said.cut(*found.span("name")), 6)
        said_project = bool(found.group("word") or found.group("after"))
        if name is None or (said.is_provider(name) and not said_project):
            return None
        if found.group("owner") and not said_project and not name[:1].isupper():
            kind = "open"  # "switch to the next step"
        if said.knows_project(name) or switchable(name, kind, said_project):
            return make("projects", "switch", name=name)
        return None
    return None


def switchable(name: str, kind: str, said_project: bool) -> bool:
    """Whether an unknown `name` after this kind of verb is a project to switch to."""
    first = fold(name).split()[0]
    if first in {"a", "an", "un", "una", "some", "unos", "unas"}:
        return False
    if said_project or kind == "switch":
        return True
    return kind == "return" and name[:1].isupper()


# -- history, decisions, memory, catalogue -----------------------------------------------------

_NUMBER = r"(?P<count>\d{1,4}|⟪number_words⟫)"
_NUMBER2 = _NUMBER.replace("<count>", "<count2>")
_TURNS = "(?P<noun>⟪turn_nouns⟫)"
_HISTORY = template(
    "history",
    r"⟪history_verbs⟫(?: me)?(?: the| my| our"
    r"| this)?(?: full| whole| complete| recent| entire)?(?: conversation| chat| project"
    r"| message| turn)? (?:history|log|transcript)",
    r"(?:the |our |my )?(?:conversation |chat |message )?history",
    rf"⟪last_turns_verbs⟫(?: me)?(?: the| our| my)? (?:last"
    rf"|latest|previous|recent|past)(?: {_NUMBER})? {_TURNS}",
    rf"(?:the )?(?:last|latest|previous) (?:{_NUMBER} )?{_TURNS}",
    r"what (?:have|did) we (?:talk|talked|discuss|discussed|chat|chatted|cover|covered"
    r"|talking|been talking|been discussing)(?: about)?(?: so far| until now| today| before"
    r"| earlier)?",
    r"what were we (?:talking about|discussing|doing|working on)|where were we",
    r"⟪history_commands⟫(?: el| mi| nuestro)? historial"
    r"(?: de (?:la )?conversacion| del chat| del proyecto| completo)?",
    r"(?:el )?historial(?: de (?:la )?conversacion| del chat| del proyecto)?",
    rf"⟪last_turns_commands⟫(?: los| las| el| la)? (?:{_NUMBER} )?"
    rf"(?:ultimos|ultimas|ultimo|ultima|anteriores)(?: {_NUMBER2})? {_TURNS}",
    rf"(?:los |las )?(?:ultimos|ultimas) (?:{_NUMBER} )?{_TURNS}",
    r"(?:de|sobre) que (?:hemos hablado|hablamos|estabamos hablando|hemos estado hablando"
    r"|habiamos hablado)(?: hasta ahora| antes| hoy)?",
    r"que hemos (?:hablado|comentado|visto|tratado)(?: hasta ahora| hoy)?",
    r"en que (?:estabamos|quedamos)|donde (?:estabamos|lo dejamos|nos quedamos)",
)


def history_rule(said: Said) -> ActionEnvelope | None:
    """ "show me the last 5 turns", "muestra el historial", "¿de qué hemos hablado?"."""
    found = match_plain(said.plain, _HISTORY)
    if found is None:
        return None
    groups = found.groupdict()
    default = 10
    if groups.get("noun") and not groups["noun"].endswith(("s", "things we said")):
        default = 1  # "the last message"
    count = groups.get("count") or groups.get("count2")
    return make("history", "show", count=count_of(count, default))


_DECISIONS = template(
    "decisions",
    r"⟪decisions_verbs⟫(?: me)?"
    r"(?: all)?(?: of)?(?: the| my| our| your)?(?: recorded| saved| past| previous| key"
    r"| main| project)? decisions(?: so far| we ve made| we have made| made| we ve taken"
    r"| we took| we made| recorded| logged| until now| to date)?",
    r"(?:my |our |the |all )?(?:recorded )?decisions(?: so far| list)?|decision (?:log|list"
    r"|history)",
    r"(?:what|which) decisions (?:have|did) (?:we|i) (?:made|make|taken|take|recorded"
    r"|record)(?: so far| until now| to date| yet)?",
    r"(?:what|which) decisions (?:are there|do we have|do i have|have we got)",
    r"what (?:have|did) (?:we|i) (?:decided|decide|agreed|agree)(?: on)?(?: ⟪here_words⟫)?"
    r"(?: so far| until now| up to now| to date| yet| already)?(?: ⟪here_words⟫)?",
    r"what s been decided(?: so far)?|what has been decided(?: so far)?",
    r"⟪decisions_commands⟫(?: todas)?(?: las| mis| nuestras| tus)? decisiones(?: tomadas"
    r"| guardadas| registradas| del proyecto| que hemos tomado| que tomamos| hasta ahora"
    r"| hasta el momento)?",
    r"(?:las |mis |nuestras )?decisiones(?: tomadas| del proyecto| hasta ahora)?",
    r"(?:que|cuales) (?:decisiones )?(?:hemos|he|habiamos) (?:decidido|tomado|acordado)"
    r"(?: ⟪here_words⟫)?(?: hasta ahora| por ahora| de momento| hasta el momento| ya)?"
    r"(?: ⟪here_words⟫)?",
    r"(?:que|cuales) (?:son las )?decisiones (?:hemos tomado|hay|tenemos|tomamos)"
    r"(?: hasta ahora)?",
    r"que (?:decidimos|acordamos)(?: hasta ahora)?|(?:lista|registro) de decisiones",
)


def list_decisions_rule(said: Said) -> ActionEnvelope | None:
    """ "what have we decided so far?", "muéstrame las decisiones"."""
    if match_plain(said.plain, _DECISIONS):
        return make("decisions", "list")
    return None


_ASKER = "(?:⟪asker_words⟫ )?"
_RECALL = template(
    "recall",
    rf"{_ASKER}(?:why|por que|porque) (?:did|had|have|were|was) (?:we|i|you) .+",
    rf"{_ASKER}(?:por que|porque) (?:no )?⟪recall_verbs⟫\b.*",
    rf"{_ASKER}(?:why|por que) (?:was|were|is|fue) .*\b(?:decided|chosen|picked|agreed"
    r"|decidido|elegido|decidio)\b.*",
    r"(?:remind me|tell me|recuerdame|dime) (?:why|por que) .+",
    r"what (?:did|have|had) (?:we|i) (?:decided?|chose|choose|picked?|agreed?|settled?"
    r"|go with|went with)(?: on)?(?: so far| until now| to date| yet| already)?"
    r" (?:about|on|regarding|for|with|re|around|in) .+",
    r"what (?:was|were|is) (?:our|the|my) (?:decision|decisions|reason|reasons|reasoning"
    r"|rationale|thinking) (?:about|on|for|regarding|behind|with|re|to) .+",
    r"(?:que|cual) (?:decidimos|elegimos|acordamos|habiamos decidido|hemos decidido|decidi"
    r"|escogimos|optamos)(?: hasta ahora| por ahora| de momento| hasta el momento| ya)?"
    r" (?:sobre|con|para|acerca de|del|de|respecto a|en cuanto a|en) .+",
    r"(?:cual|cuales) (?:fue|fueron|es|era) (?:la|las|nuestra|nuestras) (?:decision"
    r"|decisiones|razon|razones|motivo|motivos) (?:sobre|de|para|con|respecto a|acerca de"
    r"|detras de) .+",
    # "why do we pay participants 80 euros?", "¿por qué tenemos dos planes?": a decision
    # that stands, asked about in the present.
    rf"{_ASKER}why (?:do|are) (?:we|i) (?:pay|paying|use|using|charge|charging|start"
    r"|starting|launch|launching|go with|going with|run|running|keep|keeping|offer"
    r"|offering|ship|shipping|send|sending|recruit|recruiting|open|opening|work with"
    r"|working with|target|targeting|test with|testing with) .+",
    rf"{_ASKER}(?:por que|porque) (?:tenemos|pagamos|usamos|cobramos|lanzamos|ofrecemos"
    r"|enviamos|mandamos|reclutamos|abrimos|mantenemos|trabajamos con|apostamos por"
    r"|empezamos|vamos con) .+",
)


def recall_rule(said: Said) -> ActionEnvelope | None:
    """ "why did we go with moderated testing?", "¿qué decidimos sobre la navegación?"."""
    if match_plain(said.plain, _RECALL):
        return make("memory", "recall", query=said.rest()[:2000])
    return None


_RECORD_TRIGGER = (
    r"(?:(?:so|note|fyi|update|btw|by the way|entonces|nota)[,:]? )?(?:"
    r"(?:we|i|the team|the client|we all|everyone)(?:'ve|'d| have| had)?(?: just| finally| now"
    r"| already| all)? (?:decided|agreed)(?: (?:to|on|upon|that))?"
    r"|(?:we're|we are|we re|i'm|i am) going (?:to go )?with"
    r"|(?P<cond>(?:we'll|we will|let's|lets|let us) go with|(?:vamos|iremos|nos vamos) con)"
    r"|(?:the |our |my |final |the final )?decision(?: is| was)?(?: (?:to|that))?\s*:"
    r"|(?:the |our |my |final |the final )?decision (?:is|was) (?:to|that)"
    r"|decided\s*:"
    r"|⟪record_verbs⟫"
    r"(?: down)?(?: (?:a|the|this|that|our|my|one|another))?(?: new)? decision(?:\s*:"
    r"| (?:that|to|on))?"
    r"|(?:note|remember|record|log) (?:that|down that) (?:we|i)(?:'ve| have)? (?:decided|agreed"
    r"|chose|picked)(?: (?:to|on|that))?"
    r"|(?:ya )?(?:hemos|he|habiamos) (?:decidido|acordado|elegido)(?: (?:que|en|por))?"
    r"|⟪decided_words⟫(?: (?:que|en|por))?"
    r"|(?:la |nuestra |mi )?decision(?: final)?(?: es| fue)?(?: (?:que|de))?\s*:"
    r"|(?:la |nuestra )?decision(?: final)? (?:es|fue)(?: que| de)?"
    r"|decidido\s*:"
    r"|⟪record_commands⟫(?: (?:la|una|esta|esa|nuestra|mi|otra|nueva))?(?: nueva)?"
    r" decision(?:\s*:| (?:que|de))?"
    r")\s*(?=\S)"
)
_RECORD = template("record", _RECORD_TRIGGER)
_BECAUSE = template(
    "because",
    r"[\s,;–—-]+⟪because_markers⟫\s+",
    r"[\s,;–—-]+since\s+",
    r",\s*as\s+|\s+as\s+(?=(?:we|they|it|its|it's|our|their|he|she|you|i|users|customers"
    r"|people|most|many|everyone|nobody|there|this|that)\b)",
    gated=False,
)


def record_decision_rule(said: Said) -> ActionEnvelope | None:
    """ "We decided to start with email reminders because accountants live in their inbox"."""
    if said.raw.rstrip().endswith("?"):
        return None
    found = _one(_RECORD).match(said.folded, said.start)
    if found is None:
        return None
    start, end = found.end(), len(said.folded)
    split = next((m for p in phrase_book()[_BECAUSE] if (m := p.search(said.folded, start))), None)
    if found.group("cond") and split is None:
        return None  # "let's go with a journey map" is a design request
    if _one(_REQUEST_AFTER).search(said.folded, start, split.start() if split else end):
        return None  # "we decided nothing yet, help me run a workshop"
    decision = said.cut(start, split.start() if split else end).rstrip(" ,;:-–—")
    rationale = said.cut(split.end(), end) if split else ""
    if not decision:
        return None
    return make("decisions", "record", decision=decision[:TEXT_MAX], rationale=rationale[:TEXT_MAX])


_CROSS = template(
    "cross",
    r"\b(?:another|other|any|all|previous|past|earlier|different)(?: of)?(?: my| our| the)?"
    r" projects?\b|\bacross(?: my| our| all)? projects\b"
    r"|\b(?:otro|otros|cualquier|todos los|todos mis|todos nuestros|anteriores?|distintos?)"
    r" proyectos?\b"
    r"|\bproyectos? (?:anteriores?|pasados?|distintos?)\b|\belsewhere\b",
    gated=False,
)
_SEARCH = template(
    "search",
    r"(?:did|have|had) (?:i|we) (?:ever )?.*\b(?:similar|before|already|previously|elsewhere"
    r"|ever|another project|other projects?)\b.*",
    r"⟪search_verbs⟫(?: for| por| en| in)? .+",
    r"(?:find|look up|look for|encuentra|buscame)(?: me)? .*\b⟪past_words⟫\b.*",
    r"what did (?:we|i) (?:say|discuss|talk|write|conclude|learn|find|found)(?: about| on"
    r"| regarding)? .+",
    r"⟪did_before_verbs⟫\b.*\b(?:parecido|similar|antes"
    r"|otro proyecto|otros proyectos)\b.*",
    r"(?:que|de que) (?:dijimos|hablamos|comentamos|concluimos|aprendimos) (?:sobre|de"
    r"|acerca de|con) .+|hablamos (?:de|sobre) .+",
    r"(?:ya )?(?:hemos|habiamos|he) (?:hecho|hablado|trabajado|visto|probado) .*\b(?:antes"
    r"|parecido|similar|otro proyecto|otros proyectos)\b.*",
)


def search_rule(said: Said) -> ActionEnvelope | None:
    """ "did I solve something similar in another project?", "busca card sorting"."""
    outward = intent_words().outward_search_words
    if not match_plain(said.plain, _SEARCH) or set(said.plain.split()) & outward:
        return None
    all_projects = bool(_one(_CROSS).search(said.plain))
    return make("memory", "search", query=said.rest()[:2000], all_projects=all_projects)


_KINDS = "(?: ⟪kinds_words⟫)?"
_METHODS = "⟪method_nouns⟫"
_CATALOGUE = template(
    "catalogue",
    rf"(?:what|which){_KINDS} {_METHODS} (?:do|can|could|are|have|does) (?:you|there|u)"
    r"(?: ⟪catalogue_verbs⟫)?(?: available)?",
    rf"(?:what|which){_KINDS} {_METHODS} (?:are|is) (?:available|there|supported)",
    r"(?:list|show|see|give|tell)(?: me)?(?: all)?(?: of)?(?: the| your| available"
    rf"| all the| the available| all your)? {_METHODS}(?: you (?:know|have|support|can run"
    r"|can do|offer))?(?: available)?",
    rf"(?:your |the |available |all |all the )?{_METHODS}(?: list| available)?",
    r"(?:method|methods|task|technique) (?:list|catalogue|catalog|library)",
    r"(?:show|list|open)(?: me)? (?:the |your )?(?:catalogue|catalog)|what s in (?:the|your)"
    r" (?:catalogue|catalog|toolbox|toolkit)",
    rf"(?:que|cuales){_KINDS} {_METHODS} ⟪catalogue_questions⟫",
    r"⟪catalogue_commands⟫(?: todos| todas)?(?: los"
    rf"| las| tus| sus)? {_METHODS}(?: que (?:conoces|sabes|tienes|puedes hacer|hay))?"
    r"(?: disponibles)?",
    rf"(?:tus |los |las )?{_METHODS}(?: disponibles)?|(?:lista|catalogo) de {_METHODS}",
)


def catalogue_rule(said: Said) -> ActionEnvelope | None:
    """ "what methods do you know?", "¿qué técnicas sabes hacer?"."""
    if match_plain(said.plain, _CATALOGUE):
        return make("catalogue", "methods")
    return None


# -- the stakeholder report: "make a report of this project for the stakeholders" -----------

_FORMAT = r"(?P<fmt>html|pdf|markdown|md)"
_REPORT_FORMAT = (
    rf"(?:(?: as| in| to| en| como)(?: an?| un| una| formato)? {_FORMAT}(?: file| document"
    r"| page| format| archivo| documento| pagina)?)?"
)
_REPORT_VERB = "(?:⟪report_verbs⟫(?: me| us)? )?"
_REPORT_NOUN = (
    r"(?:(?:a|an|the|un|una|el) )?(?:(?P<fmt2>html|pdf|markdown) )?"
    r"(?:(?:stakeholder|stakeholders|project|status) )?⟪report_nouns⟫"
)
_THIS_PROJECT = (
    r"(?:of|for|on|about|from|del|de|sobre)(?: the| this| our| my| whole| el| este| mi"
    r"| nuestro| todo el)* ⟪project_words⟫(?: (?P<name>.{1,60}?))??"
)
_STAKEHOLDERS = r"(?: (?:for|para)(?: the| our| my| los| las| el| nuestros)? ⟪audience_words⟫)?"
# Every pattern below names a report (or an export): other messages are not read against them.
_REPORT = template(
    "report",
    rf"{_REPORT_VERB}{_REPORT_NOUN} {_THIS_PROJECT}{_STAKEHOLDERS}{_REPORT_FORMAT}",
    rf"{_REPORT_VERB}{_REPORT_NOUN} (?:of|for|on|about|del|de|sobre) (?P<known>.{{1,60}}?)"
    rf"{_STAKEHOLDERS}{_REPORT_FORMAT}",
    rf"{_REPORT_VERB}(?:(?:a|an|the|un|una|el) )?(?:(?P<fmt3>html|pdf|markdown) )?"
    rf"(?:stakeholder|stakeholders) (?:report|pack|packet|dossier){_REPORT_FORMAT}",
    rf"{_REPORT_VERB}(?:(?:a|an|the|un|una|el) )?(?:(?P<fmt4>html|pdf|markdown) )?"
    rf"(?:report|pack|informe|reporte|dossier) (?:for|para)(?: the| our| los| las)?"
    rf" (?:stakeholders|interesados|partes interesadas){_REPORT_FORMAT}",
    rf"{_REPORT_VERB}(?:(?:a|an|the|un|una|el) )?(?:project report|informe del proyecto"
    rf"|reporte del proyecto){_STAKEHOLDERS}{_REPORT_FORMAT}",
    rf"export(?:ar)?(?: the| this| our| my| el| este)? ⟪project_words⟫ (?:as|to|in|en"
    rf"|como)(?: an?| un)? (?:(?:report|informe) )?(?:(?:as|in|en) )?{_FORMAT}?"
    r"(?: (?:report|informe))?",
    needles="report_words",
    gated=False,
)


def report_rule(said: Said) -> ActionEnvelope | None:
    """ "make a report of this project for the stakeholders", "prepara un informe del
    proyecto", "stakeholder pack as html": only with project or stakeholder words, so
    "write a usability test report" stays a design request."""
    found = match_plain(said.plain, _REPORT)
    if found is None:
        return None
    groups = found.groupdict()
    name = groups.get("name") or groups.get("known")
    if name is not None and not said.knows_project(name):
        return None  # "a report of the usability test" is a design request
    fmt = next((groups[k] for k in ("fmt", "fmt2", "fmt3", "fmt4") if groups.get(k)), "md")
    fmt = "md" if fmt == "markdown" else fmt
    return make("projects", "report", name=name, format=fmt)


# Order matters: whole-message phrases first, then the most specific phrasing.
_BACK_VERB = (
    r"(?:(?:let s |lets |please |can we |can you )?⟪back_moves⟫ back"
    r"|⟪back_verbs⟫(?: atras)?)"
)
_BACK_TO_TURN = template(
    "back_to_turn", _BACK_VERB + r" (?:to|a|al) (?:the )?⟪step_nouns⟫ #?(?P<n>\d+)"
)
_BACK_TO_BRANCH = template(
    "back_to_branch",
    _BACK_VERB + r" (?:to|a) (?:the |la )?(?:branch|rama) (?P<branch>.{1,60})"
    r"|" + _BACK_VERB + r" (?:to|a) (?:the |la )?(?P<branch2>.{1,60}) (?:branch|rama)",
)
_BACK_TO_BEFORE = template(
    "back_to_before",
    _BACK_VERB + r" (?:to |a )?(?:just |justo )?(?:before|antes de) (?:we |i |que )?"
    r"⟪back_decision_verbs⟫(?: on| to| for| por| que)? (?P<what>.{2,200})",
)


def back_rule(said: Said) -> ActionEnvelope | None:
    """ "go back to turn 3", "go back to before we chose moderated testing", "vuelve a la
    rama remota", "vuelve a antes de decidir X": found first, confirmed before moving."""
    plain = said.plain
    if found := match_plain(plain, _BACK_TO_TURN):
        return make("tree", "back", target=found.group("n"))
    if found := match_plain(plain, _BACK_TO_BEFORE):
        return make("tree", "back", decision=found.group("what").strip())
    if found := match_plain(plain, _BACK_TO_BRANCH):
        branch = found.group("branch") or found.group("branch2")
        return make("tree", "back", target=branch.strip())
    return None


_USAGE_BY = (
    r"(?: (?:by|per) (?P<by>day|provider|model|project)| (?:por|segun) (?:el |la )?"
    r"(?P<por>⟪usage_groups⟫))?"
)
_USAGE_ALL = (
    r"(?P<all> (?:for|across|in|on) (?:all|every)(?: of)?(?: my| our| the)? projects?"
    r"| (?:de|en) todos (?:mis |nuestros |los )?proyectos)?"
)
_USAGE_WHEN = "(?: ⟪usage_when⟫)?"
_USAGE = template(
    "usage",
    *(
        p + _USAGE_WHEN + _USAGE_BY + _USAGE_ALL + _USAGE_WHEN
        for p in (
            r"how much (?:have|has|did) (?:i|we|this project|the project|it|this) (?:spent|spend"
            r"|cost)(?: me| us)?(?: on (?:this|the) project)?",
            r"how much (?:money )?(?:have|did) (?:i|we) (?:spent|spend|used|use)"
            r"(?: on ai| in ai)?",
            r"⟪usage_verbs⟫(?: me)?(?: my| the| our)? ⟪usage_nouns⟫",
            r"(?:my |our |the )?(?:usage|token usage|usage report|spending)",
            r"what (?:have|did) (?:i|we) (?:spent|spend)|what s my (?:spend|spending|usage)",
            r"cuanto (?:llevo|llevamos|he|hemos|lleva|ha) gastado(?: en (?:este|el) proyecto)?",
            r"cuanto (?:me|nos) (?:ha|han|lleva) costado(?: esto| el proyecto| este proyecto)?",
            r"cuanto (?:he|hemos) gastado|cuanto gaste|cuanto gastamos",
            r"⟪usage_commands⟫ (?:el |mi |mis |los |nuestro )?⟪spending_nouns⟫(?: de tokens)?",
            r"(?:el |mi )?(?:uso|consumo|gasto) de tokens",
        )
    ),
)


def usage_rule(said: Said) -> ActionEnvelope | None:
    """ "how much have I spent?", "¿cuánto llevo gastado?", "show usage by model"."""
    found = match_plain(said.plain, _USAGE)
    if found is None:
        return None
    groups = intent_words().usage_groups
    by = found.group("by") or groups.get(found.group("por") or "", "provider")
    return make("usage", "show", by=by, all_projects=bool(found.group("all")))


RULES: list[Rule] = [
    cancel_rule,
    small_talk_rule,
    help_rule,
    rerender_rule,
    retry_rule,
    compare_rule,
    file_rule,
    provider_rule,
    history_rule,
    usage_rule,
    list_decisions_rule,
    catalogue_rule,
    report_rule,
    list_projects_rule,
    create_rule,
    rename_rule,
    delete_rule,
    recall_rule,
    record_decision_rule,
    search_rule,
    back_rule,
    switch_rule,
]


# -- decisions that change: "we changed our mind: ...", "forget the Madrid decision" ----------

# "we changed our mind: Valencia goes first", "cambiamos de idea sobre Madrid: ...": the new
# version follows the separator.
_CHANGED_MIND = template(
    "changed_mind",
    r"(?:(?:we|i|the team|the client|they)(?:'ve| have| ve| all)? (?:changed|change) (?:our|my"
    r"|their) minds?|change of plans?|(?:ya )?(?:hemos|he|han|habiamos) cambiado de (?:idea"
    r"|opinion|planes)|(?:cambiamos|cambie|cambiaron) de (?:idea|opinion|planes)|cambio de"
    r" planes?)(?: (?:about|on|regarding|sobre|acerca de|con|respecto a) (?P<about>[^:;,.]{1,80}))?"
    r"\s*[:;,.!–—-]+\s*(?=\S)",
    gated=False,
)
_THE = r"(?:(?:the|our|that|this|la|nuestra|esa|esta) )?"
_LAST = r"(?:(?P<last>last|latest|previous|ultima|anterior) )?"
# "change the decision about Madrid to Valencia goes first", "cambia la última decisión
# por ...", "change the Madrid decision to ...".
_CHANGE_NAMED = template(
    "change_named",
    rf"⟪change_verbs⟫ {_THE}{_LAST}decision(?: (?:about|on|regarding|for|of|de|del|de la"
    r"|sobre|acerca de) (?P<about>.{1,80}?))?\s*(?: to| with| into| por| a|:)\s*(?=\S)",
    rf"⟪change_verbs⟫ {_THE}(?P<about>[^:;,.]{{1,60}}?) decision\s*(?: to| with| into|:)"
    r"\s*(?=\S)",
)
# A change of mind about the method is a design request: "we changed our mind, let's ...".
_NOT_A_DECISION = template(
    "not_a_decision",
    r"(?:let's|lets|let us|how about|what about|what if|maybe|i want|we want|i'd like|we'd like"
    r"|quiero|queremos|hagamos|mejor hacer|prefiero hacer|que tal)\b",
)
_NOT_DOING = (
    r"(?:doing|going to do|going to use|going to run|going to launch|going with|going ahead"
    r" with|using|running|launching|building|opening|starting)"
)
# Read on the request's plain words, before any "because".
_RETIRE = template(
    "retire",
    rf"⟪drop_verbs⟫ {_THE}(?P<last>last|latest|previous|most recent|ultima|anterior)"
    r" decision(?: (?:we made|we took|que tomamos|que hemos tomado|tomada))?",
    rf"⟪drop_verbs⟫ {_THE}decision (?:about|on|regarding|to|that|for|of|de|del|sobre"
    r"|acerca de|de que) (?P<about>.{1,120})",
    rf"⟪drop_verbs⟫ {_THE}(?P<about>.{{1,80}}?) decision",
    r"(?:forget|ignore|scratch|drop|olvida|olvidate de|olvidad|ignora) (?:that|what|que"
    r"|lo que) (?:(?:we|i|the team) )?(?:decided|agreed|hemos decidido|hemos acordado"
    r"|decidimos|acordamos)(?: (?:to|on|that|que|en))? (?P<about>.{1,120})",
    rf"(?:we re|we are|were|i m|i am) not {_NOT_DOING} (?P<about>.{{1,120}}?)"
    r" (?:any ?more|after all)",
    r"we (?:won t|will not|don t|do not|aren t going to|are not going to) (?:do|use|run"
    r"|launch|build|open|start|go with|go ahead with) (?P<about>.{1,120}?) (?:any ?more"
    r"|after all)",
    rf"(?:we re |we are |were |i m |i am |we |i )?no longer (?:{_NOT_DOING}|do|use|run"
    r"|launch|build|open|start|go with|want) (?P<about>.{1,120})",
    r"(?:ya no|al final no|finalmente no) (?:vamos a|haremos|hacemos|usamos|usaremos"
    r"|vamos con|iremos con|lanzamos|lanzaremos|abrimos|abriremos|empezamos|empezaremos"
    r"|queremos) (?P<about>.{1,120})",
)


def change_decision_rule(said: Said) -> ActionEnvelope | None:
    """ "we changed our mind: Valencia goes first because the port partners signed",
    "forget the Madrid decision", "borra la última decisión", "ya no vamos a ...": a
    decision replaced or retired, always confirmed by the handler first."""
    if said.raw.rstrip().endswith("?"):
        return None
    end = len(said.folded)
    because = phrase_book()[_BECAUSE]
    split = next((m for p in because if (m := p.search(said.folded, said.start))), None)
    head_end = split.start() if split else end
    rationale = said.cut(split.end(), end)[:TEXT_MAX] if split else ""
    found = _superseded(said, head_end, rationale) or _retired(said, head_end, rationale)
    if found is not None and _one(_REQUEST_AFTER).search(said.folded, said.start):
        return None  # "we're not doing interviews anymore, help me plan a survey"
    return found


def _superseded(said: Said, head_end: int, rationale: str) -> ActionEnvelope | None:
    trigger = _one(_CHANGED_MIND).match(said.folded, said.start) or next(
        (m for p in phrase_book()[_CHANGE_NAMED] if (m := p.match(said.folded, said.start))),
        None,
    )
    if trigger is None or trigger.end() >= head_end:
        return None
    decision = said.cut(trigger.end(), head_end).rstrip(" ,;:-–—")
    if not decision or _one(_NOT_A_DECISION).match(fold(decision)):
        return None
    about = trigger.group("about")
    last = bool(trigger.groupdict().get("last"))
    target = said.cut(*trigger.span("about")) if about and not last else None
    return make(
        "decisions",
        "supersede",
        decision=decision[:TEXT_MAX],
        rationale=rationale,
        target=target or None,
        last=last,
    )


def _retired(said: Said, head_end: int, rationale: str) -> ActionEnvelope | None:
    head = without_tail(normalize(said.folded[said.start : head_end]))
    found = match_plain(head, _RETIRE)
    if found is None:
        return None
    about = (found.groupdict().get("about") or "").strip()
    last = bool(found.groupdict().get("last"))
    if not last and not about:
        return None
    target = None if last else about[:TEXT_MAX]
    return make("decisions", "retire", target=target, last=last, rationale=rationale)


# Read right after "what have we decided?": before anything that reads "delete", "change"
# or "cambia" as a project or a provider.
RULES.insert(RULES.index(list_decisions_rule) + 1, change_decision_rule)


# -- a team's own method: "I want to add our own method for pricing page reviews" ------------

_OWN = r"(?:own|new|custom|team'?s?|company'?s?|in-house|propi[oa]|nuev[oa]|personalizad[oa])"
_NEW_METHOD = [
    LazyPattern(
        r"(?:(?:i|we)(?: would| 'd|'d)? (?:want|wanna|like|need|would like) to |let'?s |let me "
        r"|help me |help us |how (?:do|can) (?:i|we) |(?:can|could) (?:i|we) )?"
        r"(?:(?P<plain>add|register|teach you)|create|make|define|write|set up|build)"
        rf"(?: (?:a|an|our|my|the|one of our))?(?P<own>(?: {_OWN})*)(?: design)?"
        r" (?:method|technique)(?: of (?:our|my) own)?"
        r"(?: (?:for|called|named|about|on) (?P<about>.{1,120}))?",
        needles=("method", "technique"),
    ),
    LazyPattern(
        r"(?:(?:quiero|queremos|quisiera|quisieramos|me gustaria|nos gustaria|necesito"
        r"|necesitamos|vamos a|como (?:puedo|podemos)|puedo|podemos) )?"
        r"(?:(?P<plain>anadir|agregar|registrar|ensenarte)|crear|definir|escribir|hacer|montar)"
        rf"(?: (?:un|una|nuestro|nuestra|mi|el))?(?P<own>(?: {_OWN})*)"
        rf" (?:metodo|tecnica)(?P<own2>(?: {_OWN}| de(?:l| nuestro) equipo| nuestro)*)"
        r"(?: (?:para|de|llamado|que se llama|sobre) (?P<about>.{1,120}))?",
        needles=("metodo", "tecnica"),
    ),
]


def new_method_rule(said: Said) -> ActionEnvelope | None:
    """ "I want to add our own method for pricing page reviews", "quiero crear un método
    propio para revisar precios": the guided exchange that writes a team's own method."""
    for pattern in _NEW_METHOD:
        found = pattern.fullmatch(said.folded.rstrip(" ?.!"), said.start)
        if found is None:
            continue
        qualified = (found.group("own") or "").strip() or (found.groupdict().get("own2") or "")
        if not found.group("plain") and not qualified.strip():
            return None  # "create a method for prioritising": a request, not a new method
        about = said.cut(*found.span("about")) if found.group("about") else None
        return make("catalogue", "new_method", about=about[:200] if about else None)
    return None


RULES.insert(RULES.index(create_rule), new_method_rule)
