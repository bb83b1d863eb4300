"""Language: folding, stop words, stemming, detection and every word list, in one place.

Everything that compares what a person typed with what design-agent knows goes
through `fold`, so "Straße", "STRASSE" and "strasse" meet, as do "Investigación"
and "investigacion". Word lists are prose strings split on whitespace: they read
better that way and are easy to extend.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

Language = Literal["en", "es"]


def fold(text: str) -> str:
    """Casefold and strip accents: "Straße" -> "strasse", "Próxima" -> "proxima"."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", stripped)


def fold_mapped(text: str) -> tuple[str, list[int]]:
    """`fold(text)` and, for each folded character, the index of the original one it came
    from, so a span found in the folded text can be cut from the original."""
    out: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        folded = fold(char)
        out.append(folded)
        origin.extend([index] * len(folded))
    return "".join(out), origin


def original_span(text: str, origin: list[int], start: int, end: int) -> str:
    """The part of `text` that the folded span [start, end) came from."""
    if start >= end or not origin:
        return ""
    last = origin[end - 1] + 1
    return text[origin[start] : last]


_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")


def words(text: str) -> list[str]:
    """The folded words of `text`, in order."""
    return _WORD.findall(fold(text))


def word_set(text: str, min_length: int = 3) -> set[str]:
    """Distinct folded words of at least `min_length` letters (drops most function words)."""
    return {w for w in words(text) if len(w) >= min_length}


def short_stems(text: str, min_length: int = 3) -> set[str]:
    """Word stems for loose relevance: the first six letters ('recruit' ~ 'recruiting')."""
    return {w[:6] for w in word_set(text, min_length)}


def word_list(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text` (long word lists read better as prose)."""
    return frozenset(text.split())


STOP_WORDS_EN = word_list(
    """a about above after again all also am an and any are as at be because been being
    both but by can could d did do does doing don dont for from get gets getting got had
    has have having he hello her here hers hey hi him his how i if im in into is it its
    ive just know let lets like ll m make me might mine more most much must my need
    needed needs no not now of off ok okay on once one only or other our ours out over
    own please re really s same she should so some something stuff such t than thank
    thanks that thats the their them then there these they thing things this those
    through to too under until up us ve very want wanted wants was way we were what
    whats when where which while who whom whose why will with would yes you your yours"""
)

STOP_WORDS_ES = word_list(
    """a al algo alguien algun alguna algunas alguno algunos ahi alli asi aqui ayuda
    ayudame ayudar ayudas bien bueno buena buenas buenos cada como con cual cuales
    cualquier cuando cuanto cuanta cuantos cuantas da dame de del desde dime donde e el
    ella ellas ellos en entonces entre era eres es esa esas ese eso esos esta estaba
    estamos estan estar estas este esto estos estoy favor fue gracias ha hace hacer
    hacemos hacia han has hasta hay haz hazme he hemos hola la las le les lo los mas me
    mi mia mis mucho muchos muy nada necesitamos necesito ni no nos nosotros nuestra
    nuestras nuestro nuestros o ok os otra otras otro otros para pero poco por porque
    pues puedes puedo podemos podrias que queremos quien quiero quisiera se sea ser si
    sin sobre solo son soy su sus tal tambien te tenemos tener tengo tiene tienen toda
    todas todo todos tu tus u un una unas uno unos vale vamos y ya yo"""
)

STOP_WORDS: dict[str, frozenset[str]] = {"en": STOP_WORDS_EN, "es": STOP_WORDS_ES}

# Words the stemmer leaves alone because their stem would be another word:
# "persona" (the method) must not turn into the English "person".
UNSTEMMED = frozenset({"persona", "personas"})

# Words that only one of the two languages uses, beyond the shared stop words.
_ONLY_EN = (STOP_WORDS_EN - STOP_WORDS_ES) | word_list(
    "want need help write build create review team users customers"
)
_ONLY_ES = (STOP_WORDS_ES - STOP_WORDS_EN) | word_list(
    "usuarios usuario equipo diseno clientes proyecto quiero necesito crear hacer"
)
_SPANISH_CHARACTERS = re.compile(r"[ñ¿¡áéíóú]")
_SPANISH_ENDINGS = ("cion", "ciones", "dad", "mente", "amos", "emos", "imos")
_ENGLISH_ENDINGS = ("ing", "tion", "ly", "ness")

_AB_TEST = re.compile(r"\ba\s*/\s*b\b")
_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize(text: str) -> str:
    """Folded, with only letters and digits left, separated by single spaces."""
    plain = fold(text)
    # "A/B" would otherwise split into two one-letter words that mean nothing.
    plain = _AB_TEST.sub("ab", plain)
    return _NON_WORD.sub(" ", plain).strip()


def split_words(normalized: str) -> list[str]:
    return normalized.split()


def detect_language(text: str) -> Language:
    """ "es" or "en", from function words, Spanish-only characters and word endings.

    Short messages carry few signals, so every one counts; a tie is English.
    """
    lowered = text.lower()
    score = 2.0 * len(_SPANISH_CHARACTERS.findall(lowered))
    for word in split_words(normalize(lowered)):
        if word in _ONLY_ES:
            score += 1.0
        elif word in _ONLY_EN:
            score -= 1.0
        elif len(word) > 4 and word.endswith(_SPANISH_ENDINGS):
            score += 0.5
        elif len(word) > 4 and word.endswith(_ENGLISH_ENDINGS):
            score -= 0.5
    return "es" if score > 0 else "en"


def keywords_of(text: str, language: str) -> list[str]:
    """The message's content words, normalised, stop words of `language` removed, in order."""
    stops = STOP_WORDS.get(language, STOP_WORDS_EN)
    seen: dict[str, None] = {}
    for word in split_words(normalize(text)):
        if is_content(word, stops):
            seen.setdefault(word, None)
    return list(seen)


def is_content(word: str, stops: frozenset[str]) -> bool:
    # Numbers stay: "404 page" and "5 day sprint" need them; one letter never helps.
    return len(word) > 1 and word not in stops


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stem shared by English and Spanish, so word forms meet.

    Takes off Spanish verb endings (-amos, -ar, -ir: "priorizamos", "priorizar"
    -> "prioriz"; not -er, which would turn "screener" into "screen"), plurals,
    -ing/-ed and a final vowel. Both sides of every comparison go through it,
    so it only has to be consistent, not linguistically right ("guides" and
    "guide" -> "guid").
    """
    if len(word) <= 3 or word.isdigit() or word in UNSTEMMED:
        return word
    if word.endswith(("amos", "emos", "imos")) and len(word) >= 7:
        return word[:-4]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith(("ar", "ir")) and len(word) >= 5:
        return word[:-2]
    if word.endswith("ing") and len(word) >= 7:
        word = word[:-3]
        if word[-1] == word[-2]:  # planning -> plann -> plan
            word = word[:-1]
    elif word.endswith("ed") and len(word) >= 6:
        word = word[:-2]
    if len(word) > 4 and word[-1] in "aeo":  # not "site" -> "sit"
        word = word[:-1]
    return word


# Words that carry a question, not its subject: search drops them ("why did we choose ...",
# "por qué decidimos ...").
QUESTION_STOP_WORDS = frozenset(
    fold(w)
    for w in word_list(
        """a about after again all also am an and any are as at be because been before being but
    by can could did do does doing done for from had has have having he her here him his
    how i if in into is it its just let me more most my no nor not now of on once only or
    other our ours out over own same she should so some such than that the their them then
    there these they this those through to too under until up us very was we were what when
    where which while who whom why will with would you your choose chose chosen choosing
    decide decided deciding pick picked select selected opt opted go went going use used
    make made tell told say said remember know think thought please again ago last el la
    los las un una unos unas y o u e de del al a ante con contra en entre para por sin
    sobre tras que qué quien quién cual cuál cuando cuándo como cómo donde dónde porque
    porqué es son fue fueron era eran ser estar esta este esto estos estas ese esa eso esos
    esas lo le les se su sus mi mis tu tus nos nosotros nuestra nuestro nuestras nuestros
    yo te ti ya muy mas más pero si sí no hay han ha he hemos habia había decidimos decidio
    decidió decidir decidiste elegimos elegir eligio eligió escogimos escoger optamos
    usamos usar hicimos hacer dijimos dime recuerdas recuerda"""
    )
)


# -- replies to a question ----------------------------------------------------------------


def phrase_list(text: str) -> frozenset[str]:
    """Comma-separated phrases (a phrase may have spaces), folded."""
    return frozenset(fold(p.strip()) for p in text.split(",") if p.strip())


YES = phrase_list(
    """yes, y, yeah, yep, yup, sure, ok, okay, confirm, correct, right, yes please, do it,
    go ahead, save it, si, s, vale, claro, confirmo, de acuerdo, si por favor, hazlo,
    adelante, eso, exacto, perfecto, dale, guardalo"""
)
NO = phrase_list(
    """no, n, nope, nah, no thanks, not now, don't, dont, no gracias, mejor no, dejalo,
    no lo guardes"""
)
SKIP = phrase_list(
    """skip, later, pass, next, i don't know, i dont know, dont know, n/a, none, saltar,
    omitir, omite, salta, luego, paso, no se, ninguna, nada, siguiente"""
)
# Said while something is pending: drop it, do nothing else.
CANCEL = phrase_list(
    """cancel, nevermind, never mind, nvm, forget it, stop, ignore that, cancelar, cancela,
    olvidalo, da igual, para, dejalo, dejalo estar, no importa, ignora eso"""
)


def reply_of(message: str) -> str:
    """A short reply, folded and without its punctuation: "¡Sí!" -> "si"."""
    return " ".join(fold(message).strip(" .!¡¿?,;").split())
