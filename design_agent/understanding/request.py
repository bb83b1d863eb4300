"""Reading a design request: which words are its head and which are details, objects or
material the person already has, which sit in the scope of a negation, and which are false
friends without support (Spanish "personas" meaning people).

A request has a head (the deliverable asked for first) and often details after it:
"spec for the date picker: behaviour, keyboard, edge cases". Words after a colon, inside
brackets or after "including" are details; words naming material the person already has
("these backlog items", "the ideas from the brainstorm") are material, not the request.
What a checking verb puts under test ("test the new onboarding flow") is "checked": the
thing tested, not the method asked for. Words in the scope of a negation ("without
visuals", "no quiero una encuesta") say what the person does NOT want. Matching weighs each
kind differently.

The rules are here; their words are the lexicon's (lexicon/<language>/request.yaml and
false_friends.yaml), every language's joined but for false friends, which are a
language's own. `Reading` holds them as sets, made once per lexicon.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from rapidfuzz.distance import OSA

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.text import AB_TEST, fold
from design_agent.understanding.stemming import stem

Role = Literal["head", "detail", "object", "checked", "material"]
Phrase = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Word:
    """One word of a request as `normalize` spells it, with what it does in the request."""

    text: str
    role: Role
    negated: bool = False
    # A false friend whose method sense has no support in the message ("personas" = people).
    unsupported: bool = False


# Marks that end a sentence (each sentence has its own head) or open details.
_SENTENCE_MARKS = frozenset(".?!;\n¿¡")
_DETAIL_MARKS = frozenset(":([")
_CLOSE_MARKS = frozenset(")]")
_TOKEN = re.compile(r"[a-z0-9]+|[^\sa-z0-9]")
MATERIAL_MAX_WORDS = 4
OBJECT_MAX_WORDS = 5
# A negation's scope runs over at most this many content words.
NEGATION_MAX_WORDS = 4
ABANDONED_MAX_WORDS = 12
FALSE_FRIEND_WINDOW = 2
# Support words of this length or more are recognised with one typo.
TYPO_MIN_LENGTH = 5


@dataclass(frozen=True)
class Reading:
    """The lexicon's words for reading a request (request.yaml, false_friends.yaml)."""

    stop_words: frozenset[str]  # every language's: what a scope counts as content
    stop_words_of: Mapping[str, frozenset[str]]
    detail_markers: frozenset[str]
    material_markers: frozenset[str]
    material_by_last: Mapping[str, list[Phrase]]
    topic_verbs: frozenset[str]
    span_breaks: frozenset[str]
    closing_material: frozenset[str]
    clause_breaks: frozenset[str]
    comma_detail_markers: frozenset[str]
    object_markers: frozenset[str]
    object_by_last: Mapping[str, list[Phrase]]
    checking_verbs: frozenset[str]
    checked_determiners: frozenset[str]
    purpose_by_first: Mapping[str, list[Phrase]]
    purpose_words: frozenset[str]
    infinitive_endings: tuple[str, ...]
    past_subjects: frozenset[str]
    past_endings: tuple[str, ...]
    range_starts: frozenset[str]
    range_ends: frozenset[str]
    generic_deliverables: frozenset[str]
    triggers_by_first: Mapping[str, list[Phrase]]
    negators: frozenset[str]
    noun_negators: Mapping[str, frozenset[str]]
    clitic_negators: frozenset[str]
    negated_auxiliaries: frozenset[str]
    determiners: frozenset[str]
    want_verbs: frozenset[str]
    clitics: frozenset[str]
    not_negating: tuple[Phrase, ...]
    backward_negations: tuple[Phrase, ...]
    backward_first_words: frozenset[str]
    retractions_by_first: Mapping[str, list[Phrase]]
    plans_by_first: Mapping[str, list[Phrase]]
    change_first_words: frozenset[str]
    abandoned_ends: frozenset[str]
    negation_breaks: frozenset[str]
    state_verbs: frozenset[str]
    negated_prepositions: frozenset[str]
    false_friends: Mapping[str, Mapping[str, frozenset[str]]]  # language -> word -> support
    nearby_support: Mapping[str, frozenset[str]]
    idioms: tuple[Phrase, ...]
    idiom_first_words: frozenset[str]


def reading() -> Reading:
    """The words of the lexicon in use, for reading requests (made once per lexicon)."""
    return lexicon().derived(_reading)


def _reading(words: Lexicon) -> Reading:
    return Reading(**_parts(words), **_negation(words), **_friends(words))


def _parts(words: Lexicon) -> dict[str, Any]:
    """What tells the head of a request from its details, objects and material."""
    union, phrases = words.union, partial(_phrases, words)
    return {
        "stop_words": union("stop_words"),
        "stop_words_of": {code: words.words("stop_words", code) for code in words.languages},
        "detail_markers": union("detail_markers"),
        "material_markers": union("material_markers"),
        "material_by_last": _by(phrases("material_phrases"), -1),
        "topic_verbs": union("topic_verbs"),
        "span_breaks": union("span_breaks"),
        "closing_material": union("closing_material"),
        "clause_breaks": union("clause_breaks"),
        "comma_detail_markers": union("comma_detail_markers"),
        "object_markers": union("object_markers"),
        "object_by_last": _by(phrases("object_phrases"), -1),
        "checking_verbs": union("checking_verbs"),
        "checked_determiners": union("checked_determiners"),
        "purpose_by_first": _by(phrases("purpose_phrases"), 0),
        "purpose_words": union("purpose_words"),
        "infinitive_endings": tuple(sorted(union("infinitive_endings"))),
        "past_subjects": union("past_subjects"),
        "past_endings": tuple(sorted(union("past_endings"))),
        "range_starts": union("range_starts"),
        "range_ends": union("range_ends"),
        "generic_deliverables": union("generic_deliverables"),
    }


def _negation(words: Lexicon) -> dict[str, Any]:
    """What negates, what a negation covers, and what takes back what was said."""
    union, phrases = words.union, partial(_phrases, words)
    return {
        "triggers_by_first": _by(phrases("negation_triggers"), 0),
        "negators": union("negators"),
        "noun_negators": {code: words.words("noun_negators", code) for code in words.languages},
        "clitic_negators": union("clitic_negators"),
        "negated_auxiliaries": union("negated_auxiliaries"),
        "determiners": union("determiners"),
        "want_verbs": union("want_verbs"),
        "clitics": union("clitics"),
        "not_negating": phrases("not_negating"),
        "backward_negations": phrases("backward_negations"),
        "backward_first_words": frozenset(p[0] for p in phrases("backward_negations")),
        "retractions_by_first": _by(phrases("retractions"), 0),
        "plans_by_first": _by(phrases("abandoned_plans"), 0),
        "change_first_words": frozenset(
            p[0] for p in (*phrases("retractions"), *phrases("abandoned_plans"))
        ),
        "abandoned_ends": union("abandoned_ends"),
        "negation_breaks": union("negation_breaks"),
        "state_verbs": union("state_verbs"),
        "negated_prepositions": union("negated_prepositions"),
    }


def _friends(words: Lexicon) -> dict[str, Any]:
    """False friends (a language's own; their support every language's) and idioms."""
    idioms = _phrases(words, "idioms")
    return {
        "false_friends": {
            code: {w: words.union(str(n)) for w, n in words.table("false_friends", code).items()}
            for code in words.languages
        },
        "nearby_support": words.merged_lists("nearby_support"),
        "idioms": idioms,
        "idiom_first_words": frozenset(p[0] for p in idioms),
    }


def _phrases(words: Lexicon, name: str) -> tuple[Phrase, ...]:
    """`name`'s phrases as word tuples, in a stable order."""
    return tuple(sorted(tuple(p.split()) for p in words.union(name)))


def _by(phrases: tuple[Phrase, ...], at: int) -> dict[str, list[Phrase]]:
    """The phrases by their first (0) or last (-1) word: most words start none."""
    found: dict[str, list[Phrase]] = {}
    for phrase in phrases:
        found.setdefault(phrase[at], []).append(phrase)
    return found


def read_request(
    text: str,
    language: str,
    exempt: frozenset[tuple[str, str]] = frozenset(),
    names: Mapping[str, frozenset[str]] | None = None,
) -> list[Word]:
    """The words of `text` (as `normalize` splits them), each with its role in the request.

    `exempt` holds (negator, stem) pairs that name a method rather than negate one
    ("sin moderador", "no results"): those are not treated as negations. `names` maps a
    false friend to the other words of the method names it is part of, which support it
    right beside it ("story mapping").
    """
    known = reading()
    tokens = _tokens(text)
    words = [t for t in tokens if t[0].isalnum()]
    unsupported = _unsupported(words, language, names or {}, known)
    roles = _roles(tokens, unsupported, known)
    negated = _negated(tokens, exempt, language, known)
    return [Word(word, roles[i], i in negated, i in unsupported) for i, word in enumerate(words)]


def _tokens(text: str) -> list[str]:
    """Words as `normalize` spells them, and the punctuation marks between them."""
    plain = AB_TEST.sub("ab", fold(text))
    # An apostrophe joins ("don't", "client's"): it never ends a span.
    return [t for t in _TOKEN.findall(plain) if t not in "'’`´"]


def _roles(tokens: list[str], unsupported: set[int], known: Reading) -> list[Role]:
    """head / detail / object / material for every word token, in order."""
    reader = _RoleReader([t for t in tokens if t[0].isalnum()], unsupported, known)
    roles: list[Role] = []
    clause: list[int] = []  # the words of the current clause, for a closing "already"
    for token in tokens:
        if not token[0].isalnum():
            reader.mark(token)
            clause = []
        elif token in known.closing_material:  # "we did an affinity session already"
            roles.append(reader.word())
            for index in clause:
                roles[index] = "material"
            clause = []
        else:
            clause = [] if token in known.clause_breaks else [*clause, len(roles)]
            roles.append(reader.word())
    return roles


class _RoleReader:
    """Walks a request's tokens in order, tracking the part and span each word is in."""

    def __init__(self, words: list[str], unsupported: set[int], known: Reading) -> None:
        self.known = known
        self.words = words
        self.unsupported = unsupported
        self.position = 0
        self.part: Role = "head"
        self.span: Role | None = None
        self.span_left = 0
        self.after_topic_verb = False
        self.after_comma = False
        self.depth = 0
        self.head_words: list[str] = []  # the content words of the head so far

    def mark(self, token: str) -> None:
        self.span, self.span_left = None, 0
        self.after_comma = token == ","
        if token in _SENTENCE_MARKS:
            self.part, self.after_topic_verb, self.depth = "head", False, 0
        elif token in _DETAIL_MARKS:
            self.part = "detail"
            self.depth += token != ":"
        elif token in _CLOSE_MARKS and self.depth:
            self.depth -= 1

    def word(self) -> Role:
        words, position, known = self.words, self.position, self.known
        token = words[position]
        self.position += 1
        if token in known.span_breaks or self.span_left <= 0:
            self.span = None
        if token in known.detail_markers or (
            _purpose_clause(words, position, known) and not self._only_a_generic_head()
        ):
            self.part = "detail"
        if self.after_comma and token in known.comma_detail_markers:  # "..., with X and Y"
            self.part = "detail"
        self.after_comma = False
        role: Role = "material" if self.after_topic_verb else (self.span or self.part)
        if role == "head" and token not in known.stop_words:
            self.head_words.append(token)
        # A span runs over content words: "ya les pondremos criterios de aceptación".
        self.span_left -= token not in known.stop_words
        self._open_span(words, position)
        # A topic verb that is a false friend without support ("enseñar" = show) is not one.
        teaches = token in known.topic_verbs and position not in self.unsupported
        self.after_topic_verb = self.after_topic_verb or teaches
        return role

    def _only_a_generic_head(self) -> bool:
        """ "un plan para reclutar participantes": a head that is only a generic deliverable
        ("plan", "plantilla") is named by its purpose, which is then no detail."""
        heads = self.head_words
        return bool(heads) and all(w in self.known.generic_deliverables for w in heads)

    def _open_span(self, words: list[str], position: int) -> None:
        """Start a material or object span after the word at `position`, if it opens one."""
        token, known = words[position], self.known
        done = words[: position + 1]
        ending = known.material_by_last.get(token, ())
        if (
            token in known.material_markers
            or any(tuple(done[-len(p) :]) == p for p in ending)
            or _said_done(done, known)
        ):
            if token not in known.range_starts or not _range_follows(words, position, known):
                self.span, self.span_left = "material", MATERIAL_MAX_WORDS
        elif self.span is None and self.part == "head" and _opens_object(done, known):
            self.span, self.span_left = "object", OBJECT_MAX_WORDS
        elif token in known.checking_verbs and self.span is None and self.part == "head":
            following = words[position + 1] if position + 1 < len(words) else ""
            if following in known.checked_determiners:
                self.span, self.span_left = "checked", OBJECT_MAX_WORDS


def _said_done(done: list[str], known: Reading) -> bool:
    """ "we mapped the customer journey", "we've finished 10 sessions": what follows a verb in
    the past with its subject is work already done, material the person has."""
    return (
        len(done) > 1
        and done[-2] in known.past_subjects
        and len(done[-1]) > 4
        and done[-1].endswith(known.past_endings)
    )


def _opens_object(done: list[str], known: Reading) -> bool:
    """Whether the words so far end with an object marker ("for", "about") or phrase ("a user
    flow of how someone answers the survey": what follows is what the flow shows)."""
    last = done[-1]
    if last in known.object_markers:
        return True
    return any(tuple(done[-len(p) :]) == p for p in known.object_by_last.get(last, ()))


def _purpose_clause(words: list[str], position: int, known: Reading) -> bool:
    """Whether a purpose clause ("para probar el prototipo", "so that") starts here."""
    phrases = known.purpose_by_first.get(words[position], ())
    if any(_starts_with(words, position, p) for p in phrases):
        return True
    following = words[position + 1] if position + 1 < len(words) else ""
    return words[position] in known.purpose_words and _infinitive(following, known)


def _infinitive(word: str, known: Reading) -> bool:
    return len(word) > 3 and word.endswith(known.infinitive_endings)


def _range_follows(words: list[str], position: int, known: Reading) -> bool:
    """ "from booking to follow-up" is a range, not material the person has."""
    return any(w in known.range_ends for w in words[position + 1 : position + 5])


def _negated(
    tokens: list[str], exempt: frozenset[tuple[str, str]], language: str, known: Reading
) -> set[int]:
    """Indices (among the words) of the words in the scope of a negation."""
    words = [t if t[0].isalnum() else "" for t in tokens]  # "" stands for a mark
    index = _word_indices(tokens)
    negated: set[int] = set()
    for position in range(len(words)):
        found = _scope_start(words, position, language, known)
        if found is not None and not _is_exempt(words, found, exempt, known):
            negated.update(index[i] for i in _scope(words, found[0], known))
        negated.update(index[i] for i in _backward_scope(words, position, known))
    return negated | _changed_mind(words, index, known)


def _changed_mind(words: list[str], index: list[int], known: Reading) -> set[int]:
    """Words taken back by a change of mind: all before a retraction, or a plan up to its
    "but" (the lexicon's retractions and abandoned_plans); marks between the words are
    skipped."""
    spoken = [(i, w) for i, w in enumerate(words) if w]
    plain = [w for _, w in spoken]
    taken: set[int] = set()
    for at, word in enumerate(plain):
        if word not in known.change_first_words:  # most words start no cue: one set lookup
            continue
        if any(_starts_with(plain, at, cue) for cue in known.retractions_by_first.get(word, ())):
            taken.update(index[spoken[i][0]] for i in range(at))
        if any(_starts_with(plain, at, plan) for plan in known.plans_by_first.get(word, ())):
            end = _abandoned_end(plain, at, known)
            if end is not None:
                taken.update(index[spoken[i][0]] for i in range(at, end))
    return taken


def _abandoned_end(plain: list[str], at: int, known: Reading) -> int | None:
    """Where the "but" that gives up the plan starting at `at` is, if near enough."""
    for j in range(at, min(len(plain), at + ABANDONED_MAX_WORDS)):
        if plain[j] in known.abandoned_ends:
            return j
    return None


def _word_indices(tokens: list[str]) -> list[int]:
    """For each token, the index of the word it is (or of the next word, for a mark)."""
    indices: list[int] = []
    count = 0
    for token in tokens:
        indices.append(count)
        count += token[0].isalnum()
    return indices


def _starts_with(words: list[str], position: int, pattern: tuple[str, ...]) -> bool:
    return tuple(words[position : position + len(pattern)]) == pattern


def _trigger_at(words: list[str], position: int, known: Reading) -> tuple[int, str] | None:
    """A negation trigger written at `position`: (where its object starts, its key)."""
    word = words[position]
    for trigger in known.triggers_by_first.get(word, ()):
        if _starts_with(words, position, trigger):
            return position + len(trigger), " ".join(trigger)
    nxt = position + 1
    if word in known.negated_auxiliaries and nxt < len(words) and words[nxt] == "t":
        return nxt + 1, "not"
    if word in known.negators:
        return nxt, word
    return None


def _scope_start(
    words: list[str], position: int, language: str, known: Reading
) -> tuple[int, str] | None:
    """Where the negated words start if a negation begins at `position`, with its key."""
    trigger = _trigger_at(words, position, known)
    if trigger is None or any(_starts_with(words, position, i) for i in known.not_negating):
        return None
    start, key = trigger
    if key not in known.negators:  # "without", "en vez de": always a negation
        return trigger
    while start < len(words) and words[start] in known.clitics and key in known.clitic_negators:
        start += 1
    following = words[start] if start < len(words) else ""
    if following in known.want_verbs:
        return start + 1, key
    if following in known.determiners or following in known.negated_prepositions:
        return start, key
    # "Not OKRs, I need ...": a clause that opens with the negation rejects what follows.
    if position == 0 or not words[position - 1]:
        return (start, key) if following else None
    return _before_noun(words, position, (start, key), language, known)


def _before_noun(
    words: list[str], position: int, found: tuple[int, str], language: str, known: Reading
) -> tuple[int, str] | None:
    """English "no personas", "no error messages": "no" before a content word negates it
    (Spanish "no" before a content word is a verb's: "no encuentran" describes), unless it
    says what something has: "a user has no projects yet" describes a state."""
    start, key = found
    following = words[start] if start < len(words) else ""
    if key not in known.noun_negators.get(language, ()) or not following:
        return None
    if following in known.stop_words_of.get(language, frozenset()):
        return None
    return None if words[position - 1] in known.state_verbs else found


def _scope(words: list[str], start: int, known: Reading) -> list[int]:
    """Positions of the words a negation starting at `start` covers."""
    covered: list[int] = []
    content = 0
    for position in range(start, len(words)):
        word = words[position]
        if not word or word in known.negation_breaks or content >= NEGATION_MAX_WORDS:
            break
        covered.append(position)
        content += word not in known.stop_words
    return covered


def _is_exempt(
    words: list[str], found: tuple[int, str], exempt: frozenset[tuple[str, str]], known: Reading
) -> bool:
    """Whether the negation is part of a method's own name: "sin moderador", "no results"."""
    first = _first_content(words, found[0], known)
    return first is not None and (found[1], stem(first)) in exempt


def _backward_scope(words: list[str], position: int, known: Reading) -> list[int]:
    """Words before "is not what I need" / "no es lo que busco", back to the last mark."""
    if words[position] not in known.backward_first_words or not any(
        _starts_with(words, position, p) for p in known.backward_negations
    ):
        return []
    start = position
    while start > 0 and words[start - 1]:
        start -= 1
    return list(range(start, position))


def _unsupported(
    words: list[str], language: str, names: Mapping[str, frozenset[str]], known: Reading
) -> set[int]:
    """Indices of false friends whose method sense nothing in the message supports, and
    of words in idioms ("any ideas?"). A false friend is supported by its support words
    anywhere, or right beside it by its nearby_support or by the rest of a method name it is
    part of (`names`: "story" -> {"user", "mapping"})."""
    friends = known.false_friends.get(language, {})
    present = set(words)
    unsupported = _in_idioms(words, known)
    for i, word in enumerate(words):
        if word not in friends or present & friends[word]:
            continue
        near = set(words[max(0, i - FALSE_FRIEND_WINDOW) : i + FALSE_FRIEND_WINDOW + 1])
        nearby = known.nearby_support.get(word, frozenset()) | names.get(word, frozenset())
        if not _supports(near, nearby):
            unsupported.add(i)
    return unsupported


def _supports(near: set[str], support: frozenset[str]) -> bool:
    """Whether a word beside a false friend supports it, typos forgiven ("desgin sprint")."""
    if near & support:
        return True
    return any(
        OSA.distance(word, wanted, score_cutoff=1) <= 1
        for word in near
        if len(word) >= TYPO_MIN_LENGTH
        for wanted in support
        if abs(len(wanted) - len(word)) <= 1
    )


def _in_idioms(words: list[str], known: Reading) -> set[int]:
    found: set[int] = set()
    for i in range(len(words)):
        if words[i] not in known.idiom_first_words:  # most words start none: one set lookup
            continue
        for idiom in known.idioms:
            if _starts_with(words, i, idiom):
                found.update(range(i, i + len(idiom)))
    return found


def negation_pairs(words: list[str], language: str) -> set[tuple[str, str]]:
    """(negation key, stem) pairs inside a method's own phrase, exempt from negation in
    messages: ["pruebas", "no", "moderadas"] -> {("no", "moderad")}. The stem is the first
    content word the negation covers, as `_is_exempt` checks it."""
    pairs: set[tuple[str, str]] = set()
    known = reading()
    for position in range(len(words)):
        found = _scope_start(words, position, language, known)
        first = _first_content(words, found[0], known) if found else None
        if found and first:
            pairs.add((found[1], stem(first)))
    return pairs


def _first_content(words: list[str], start: int, known: Reading) -> str | None:
    """The first word from `start` that is not a stop word, before any mark."""
    for word in words[start : start + NEGATION_MAX_WORDS]:
        if not word:
            return None
        if word not in known.stop_words:
            return word
    return None
