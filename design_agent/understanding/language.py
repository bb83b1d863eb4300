"""Language: folding, stop words, stemming, detection and every word list, in one place.

Everything that compares what a person typed with what design-agent knows goes
through `fold`, so "Straße", "STRASSE" and "strasse" meet, as do "Investigación"
and "investigacion". Word lists are prose strings split on whitespace: they read
better that way and are easy to extend.

`read_request` reads a design request for matching: which words are its head and
which are details, objects or material the person already has, which sit in the
scope of a negation, and which are false friends without support (Spanish
"personas" meaning people). The word lists it needs live here too: negation
triggers, false friends and their support words per language, everyday (generic)
words, synonyms, and a Spanish-English glossary that lets a Spanish request reach
the English prose of the catalogue.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rapidfuzz.distance import OSA

from design_agent.core.text import (
    AB_TEST,
    fold,
    normalize,
    split_words,
    word_list,
)

Language = Literal["en", "es"]


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
# Command verbs count too: "cambia a admin" is Spanish, "switch to admin" English.
_ONLY_EN = (STOP_WORDS_EN - STOP_WORDS_ES) | word_list(
    """want need help write build create review team users customers switch delete remove
    rename show list make give tell go back keep save forget thanks thank please shorter
    longer"""
)
_ONLY_ES = (STOP_WORDS_ES - STOP_WORDS_EN) | word_list(
    """usuarios usuario equipo diseno clientes proyecto quiero necesito crear hacer cambia
    cambiame cambiemos pasa pasate borra borrar elimina renombra muestra muestrame ensename
    dame dime crea creame haz hazme guarda olvida vuelve volvamos corto largo proyectos
    gracias porfa"""
)
_SPANISH_CHARACTERS = re.compile(r"[ñ¿¡áéíóú]")
_SPANISH_ENDINGS = ("cion", "ciones", "dad", "mente", "amos", "emos", "imos")
_ENGLISH_ENDINGS = ("ing", "tion", "ly", "ness", "ity", "ities")


def detect_language(text: str) -> Language:
    """ "es" or "en", from function words, Spanish-only characters and word endings.

    Short messages carry few signals, so every one counts; a tie is English.
    """
    return language_signal(text)[0]


def language_signal(text: str) -> tuple[Language, float]:
    """The language `text` is in, and how much its own words say so (0: no sign of either:
    "ok", "2", "acme.pdf", "plan"; such a message keeps the conversation's language)."""
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
    return ("es" if score > 0 else "en"), abs(score)


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
    word = _without_clitic(word)
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


_CLITIC = re.compile(r"(?<=[aei]r)(?:lo|la|los|las|le|les|me)$")
CLITIC_MIN_LENGTH = 7


def _without_clitic(word: str) -> str:
    """A Spanish infinitive without the pronoun joined to it: "ordenarlas" -> "ordenar",
    "revisarlo" -> "revisar" ("nos", "se" and "te" stay: "internos", "diverse")."""
    if len(word) < CLITIC_MIN_LENGTH:
        return word
    return _CLITIC.sub("", word)


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


# -- meta-requests said in plain words (read by intents.py) ------------------------------
#
# Whole-message phrases are compared after `normalize`, so "What's up?" meets
# "what s up" and "¿Qué tal?" meets "que tal".


def plain_phrases(text: str) -> frozenset[str]:
    """Comma-separated phrases, each normalised (folded, punctuation gone)."""
    return frozenset(normalize(p) for p in text.split(",") if normalize(p))


GREETINGS = plain_phrases(
    """hello, hi, hey, hiya, heya, helo, hallo, howdy, yo, hey there, hi there, hello there,
    hi again, hello again, hey again, greetings, good morning, good afternoon, good evening,
    morning, evening, hi everyone, hello everyone, hola, holi, holaa, hola de nuevo, buenas,
    buenos dias, buen dia, buenas tardes, buenas noches, saludos, hey hola, ey, que hay,
    hola hola"""
)
THANKS = plain_phrases(
    """thanks, thank you, thank you so much, thank you very much, thanks a lot, thanks so much,
    thanks a bunch, many thanks, thx, thnx, ty, tysm, cheers, much appreciated,
    appreciate it, i appreciate it, thanks again, gracias, muchas gracias, mil gracias,
    muchisimas gracias, gracias de nuevo, te lo agradezco, se agradece, gracias mil"""
)
HOW_ARE_YOU = plain_phrases(
    """how are you, how are you doing, how r u, how are u, how s it going, how is it going,
    how are things, how do you do, how have you been, what s up, whats up, sup, wassup,
    how s everything, que tal, que tal estas, que tal todo, que tal vas, como estas,
    como esta, como va, como va todo, como te va, como andas, que onda, que hay de nuevo"""
)
BYE = plain_phrases(
    """bye, goodbye, good bye, bye bye, byebye, see you, see ya, see you later, see you soon,
    catch you later, good night, night, ciao, take care, talk later,
    talk to you later, that s all, that s all for now, that s it for today, adios, adio,
    chao, chau, hasta luego, hasta pronto, hasta manana, nos vemos, hasta la proxima,
    eso es todo, eso es todo por hoy"""
)
# Said around small talk without adding a request: "great, thanks!".
ACKNOWLEDGEMENTS = plain_phrases(
    """ok, okay, okey, great, perfect, awesome, cool, nice, super, good, excellent, brilliant,
    lovely, amazing, wonderful, got it, that s great, that s helpful, very helpful, sounds good,
    genial, perfecto, vale, estupendo, bien, muy bien, excelente, guay, buenisimo, de acuerdo,
    entendido, muy util, oh, ah, well"""
)
HELP_REQUESTS = plain_phrases(
    """help, help please, i need help, need help, what can you do,
    what else can you do, what can you do for me, what can you help me with,
    what can you help with, what do you do, what are you, who are you, what is this,
    what s this, how does this work, how does it work, how do you work, how do i use this,
    how do i use you, how to use this, how can you help, how can you help me,
    what are you able to do, what are your capabilities, what are you capable of,
    what commands are there, what commands do you know, commands, show me what you can do,
    getting started, how do i start, where do i start, how do i get started, instructions,
    usage, menu, tutorial, what are your features, what do you know how to do, ayuda,
    necesito ayuda, que puedes hacer, que mas puedes hacer, que sabes hacer,
    que haces, quien eres, que eres, que es esto, como funciona esto, como funciona,
    como funcionas, como te uso, como se usa, como se usa esto, como uso esto,
    en que me puedes ayudar, en que puedes ayudarme, en que me ayudas,
    que puedes hacer por mi, por donde empiezo, como empiezo, instrucciones, comandos,
    que comandos hay, que comandos conoces, que cosas puedes hacer, que sabes hacer tu,
    are you a bot, are you a robot, are you human, are you a human, are you a person,
    are you an ai, are you ai, are you real, are you a real person, is this a bot,
    am i talking to a bot, am i talking to a human, am i talking to a person,
    are you a bot or a person, are you a bot or a human, are you human or a bot,
    eres un bot, eres un robot, eres humano, eres humana, eres una persona, eres una ia,
    eres real, eres una persona real, es un bot, hablo con un bot, hablo con una persona,
    estoy hablando con un bot, estoy hablando con una persona, eres un bot o una persona,
    eres una persona o un bot, eres humano o un bot, eres una ia o una persona"""
)
# Whole messages that drop what is going on; the reply words in CANCEL, and more.
CANCEL_REQUESTS = CANCEL | plain_phrases(
    """cancel that, cancel it, forget about it, forget that, never mind that, nevermind that,
    scratch that, don t worry, dont worry, not anymore, olvida eso, olvidalo todo, cancelalo,
    cancela eso, no te preocupes, dejalo ya, nada olvidalo"""
)
# Prefixes and suffixes that do not change what a message asks for.
LEAD_INS = plain_phrases(
    """hi, hello, hey, ok, okay, so, well, alright, right, oh, um, hmm, please, pls, hola,
    actually, wait, oh wait, hang on, by the way, btw, anyway, also, and, first, quick question,
    oye, vale, bueno, pues, mira, ah, por favor, por cierto, espera, de hecho, en realidad,
    primero, y, tambien, una pregunta, can you, could you, would you,
    can you please, could you please, puedes, podrias, podria, puedes por favor,
    i want you to, i d like you to, i would like you to, quiero que, necesito que"""
)
POLITE_TAILS = plain_phrases(
    """please, pls, plz, thanks, thank you, por favor, gracias, porfa, porfavor"""
)
NUMBER_WORDS: dict[str, int] = {
    **dict.fromkeys(["one", "uno", "una"], 1),
    **dict.fromkeys(["two", "dos", "couple", "a couple", "a couple of", "un par de"], 2),
    **dict.fromkeys(["three", "tres", "few", "a few", "unos pocos", "unos cuantos"], 3),
    **dict.fromkeys(["four", "cuatro"], 4),
    **dict.fromkeys(["five", "cinco"], 5),
    **dict.fromkeys(["six", "seis"], 6),
    **dict.fromkeys(["seven", "siete"], 7),
    **dict.fromkeys(["eight", "ocho"], 8),
    **dict.fromkeys(["nine", "nueve"], 9),
    **dict.fromkeys(["ten", "diez"], 10),
    **dict.fromkeys(["fifteen", "quince"], 15),
    **dict.fromkeys(["twenty", "veinte"], 20),
    **dict.fromkeys(["fifty", "cincuenta"], 50),
    **dict.fromkeys(["hundred", "a hundred", "cien"], 100),
}
# A path ending in one of these is a file in any sentence ("see notes.md").
FILE_EXTENSIONS = word_list(
    """pdf md markdown txt text rtf doc docx odt pages csv tsv xls xlsx ods numbers ppt pptx
    key odp json yaml yml html htm xml png jpg jpeg gif svg webp heic bmp tif tiff fig
    sketch xd zip mp4 mov mp3 wav m4a vtt srt epub"""
)
# Words that say a file is being handed over ("here is the brief: ...").
FILE_WORDS = word_list(
    """brief briefing file files upload uploading attach attached attaching document
    documents doc docs research notes transcript transcripts interviews deck slides spec
    mockup mockups screenshot image logo pdf read add load import folder directory here
    heres archivo archivos fichero ficheros adjunto adjunta sube subo subir
    documento documentos investigacion notas transcripcion entrevistas anade agrega carga
    lee importa aqui carpeta tienes paso mando"""
)
RESEARCH_FILE_WORDS = word_list(
    """research interview interviews survey surveys transcript transcripts findings study
    studies data insights usability investigacion entrevista entrevistas encuesta encuestas
    transcripcion hallazgos estudio datos"""
)
DESIGN_FILE_WORDS = word_list(
    """design designs mockup mockups wireframe wireframes prototype prototypes figma
    screenshot screenshots logo spec specs ui diseno disenos prototipo prototipos captura
    capturas maqueta maquetas"""
)
BRIEF_FILE_WORDS = word_list("brief briefing briefs encargo")
IMAGE_EXTENSIONS = word_list("png jpg jpeg gif svg webp heic bmp tif tiff fig sketch xd")
# Words that point at the active project and are never a project's name.
ACTIVE_PROJECT_WORDS = plain_phrases(
    """this project, this, that project, that, it, the project, current project,
    the current project, current, this one, my project, project, este proyecto, este,
    ese proyecto, eso, el proyecto, el proyecto actual, actual, mi proyecto, proyecto"""
)
# Words that may follow "I'm starting a new project" without making it a design request.
CREATE_FILLERS = word_list(
    """today now please too also again soon here this week tomorrow together with you hoy
    ahora por favor tambien de nuevo pronto aqui esta semana manana contigo juntos ya"""
)
# Searches that look outward, not into past conversations: "busca participantes".
OUTWARD_SEARCH_WORDS = word_list(
    """competitors competitor participants participant users inspiration examples benchmarks
    references recruits candidates vendors tools apps competidores competidor participantes
    usuarios inspiracion ejemplos referencias candidatos proveedores herramientas"""
)
# Nouns after "project" that make it a design request: "create a project plan".
NOT_PROJECT_NAMES = word_list(
    """plan plans brief briefs roadmap roadmaps timeline timelines charter schedule kickoff
    kick proposal proposals budget budgets scope management manager managers status update
    updates report reports overview summary summaries goals goal requirements retrospective
    retro board tracker template templates structure milestones milestone risks risk
    stakeholders stakeholder page pages settings canvas estimate estimates estimation deck
    presentation review backlog team teams lead leads kpis metrics outline description
    doc document documentation handoff debrief"""
)
# Words of meta-requests that a one-letter typo should still reach ("swich", "histroy").
ACTION_WORDS = word_list(
    """switch switched change changed delete deleted remove removed rename renamed project
    projects provider providers history historial decision decisions decided decide
    methods method techniques technique shorter longer detailed details detail spanish
    english espanol ingles castellano thanks thank hello cancel nevermind forget create
    created creating starting start started called named record search summarize
    summarise proyecto proyectos cambia cambiar borra borrar elimina eliminar renombra
    renombrar muestra muestrame decisiones decidimos decidido metodos tecnicas gracias
    ayuda llamado llamada nuevo offline conversation conversacion please porque because
    research upload attach archivo resumelo detallado largo corto expand elaborate concise
    translate traduce traducelo previous recent messages mensajes turns turnos ultimos
    ultimas claude gemini codex ollama chatgpt openai without agreed acordamos hemos"""
)


# -- reading a request: head and details, negation, false friends ---------------------------
#
# A request has a head (the deliverable asked for first) and often details after it:
# "spec for the date picker: behaviour, keyboard, edge cases". Words after a colon, inside
# brackets or after "including" are details; words naming material the person already has
# ("these backlog items", "the ideas from the brainstorm") are material, not the request.
# What a checking verb puts under test ("test the new onboarding flow") is "checked":
# the thing tested, not the method asked for.
# Words in the scope of a negation ("without visuals", "no quiero una encuesta") say what
# the person does NOT want. Matching weighs each kind differently.

Role = Literal["head", "detail", "object", "checked", "material"]


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

# Words that open the details of a request.
DETAIL_MARKERS = word_list(
    """including include includes incl plus incluido incluida incluidos incluidas
    incluyendo incluye"""
)
# Words that open a mention of material the person already has (not what they ask for).
MATERIAL_MARKERS = word_list(
    """these those from before estos estas esos esas aquellos aquellas antes ran did
    conducted hicimos realizamos"""
)
# Word sequences with the same role: "las ideas que salieron de la lluvia de ideas",
# what the person already has ("ya tenemos el journey map", "we've got the problem
# statement done") and what comes later, not now ("luego ya mediremos la activación").
MATERIAL_PHRASES = (
    ("que", "salieron", "de"),
    ("que", "salio", "de"),
    ("que", "surgieron", "de"),
    ("que", "sacamos", "de"),
    ("sacadas", "de"),
    ("sacados", "de"),
    ("ya", "tenemos"),
    ("ya", "tengo"),
    ("ya", "hemos"),
    ("ya", "hicimos"),
    ("already",),
    ("we", "ve", "got"),
    ("i", "ve", "got"),
    ("luego",),
    ("later",),
    ("afterwards",),
    ("mas", "adelante"),
    ("after", "that"),
)
# Verbs whose object is a method to learn, not the method to apply: "teach PMs to run a
# card sort" asks for a lesson.
TOPIC_VERBS = word_list(
    """teach teaching train training ensenar ensena ensenarle ensenarles formar capacitar
    explicarle explicarles"""
)
# Words that end a material mention or a negation's scope.
SPAN_BREAKS = word_list(
    """with by using into to for on and but just only instead rather so then con por usando
    en para y pero sino solo solamente sino mas bien luego"""
)
_MATERIAL_BY_LAST = {
    p[-1]: [q for q in MATERIAL_PHRASES if q[-1] == p[-1]] for p in MATERIAL_PHRASES
}
MATERIAL_MAX_WORDS = 4
# A word that, closing a clause, makes the whole clause material the person already has:
# "we ran 8 interviews and did an affinity session already".
CLOSING_MATERIAL = word_list("already")
CLAUSE_BREAKS = word_list("and but so then now y pero luego ahora")
# After a comma these open details too: "a PRD for exports, with user stories and ...".
COMMA_DETAIL_MARKERS = word_list("with con")
# "test plan for the booking flow": what follows "for" is what the deliverable is about,
# a weaker hint than the deliverable itself.
OBJECT_MARKERS = word_list("for para about sobre")
OBJECT_MAX_WORDS = 5
# "test the new onboarding flow with real users": what a checking verb puts under test is
# the thing checked, not the method asked for; the verb (and what follows the object) is.
CHECKING_VERBS = word_list(
    """test testing evaluate evaluating validate validating probar probemos evaluar
    evaluemos validar validemos testear testeemos comprobar"""
)
CHECKED_DETERMINERS = word_list(
    """a an the this that our my your their el la los las un una unos unas este esta
    ese esa nuestro nuestra nuestros nuestras mi mis tu tus su sus"""
)
# Clauses that say why, not what: "... para probar el prototipo", "so that we can ...".
PURPOSE_PHRASES = (
    ("so", "that"),
    ("in", "order", "to"),
    ("so", "we", "can"),
    ("para", "que"),
    ("para", "poder"),
)
_PURPOSE_BY_FIRST = {p[0]: [q for q in PURPOSE_PHRASES if q[0] == p[0]] for p in PURPOSE_PHRASES}
RANGE_ENDS = word_list("to until till through hasta")

# Negation. A scope starts after a trigger and runs to the next mark or break word, over
# at most NEGATION_MAX_WORDS content words.
NEGATION_TRIGGERS: tuple[tuple[str, ...], ...] = (
    ("without",),
    ("except",),
    ("excluding",),
    ("instead", "of"),
    ("rather", "than"),
    ("other", "than"),
    ("apart", "from"),
    ("aside", "from"),
    ("no", "need", "for"),
    ("nor",),
    ("neither",),
    ("sin",),
    ("excepto",),
    ("salvo",),
    ("en", "vez", "de"),
    ("en", "lugar", "de"),
    ("nada", "de"),
    ("ni",),
)
_TRIGGERS_BY_FIRST = {
    first: [t for t in NEGATION_TRIGGERS if t[0] == first] for first, *_ in NEGATION_TRIGGERS
}
# "not"/"no" negate what follows only before an article or a verb of wanting or doing:
# "not a survey", "no quiero una encuesta", "don't need personas"; but "users can't find
# the menu" and "no encuentran la sección" describe a problem and keep their evidence.
NEGATORS = word_list("not no never cannot dont cant wont doesnt didnt isnt nunca tampoco")
NEGATED_AUXILIARIES = word_list(
    "don doesn didn can won isn aren wasn weren shouldn couldn wouldn haven hasn"
)
DETERMINERS = word_list(
    """a an the any more another some el la los las un una unos unas ningun ninguna mas
    otro otra"""
)
WANT_VERBS = word_list(
    """want wants need needs like use run do make build write create give send have include
    add show care interested worried quiero queremos quiere quieren necesito necesitamos
    necesita necesitan hagas haga hagamos hagan hacer hace uses usemos usar busco buscamos
    buscan pidas interesa interesan sirve sirven preocupa preocupan importa importan"""
)
# Object pronouns between "no" and its verb: "no me hagas el prototipo".
CLITICS = word_list("me nos te le les lo la los las se")
# "no" that is not a negation of the request: "no idea how to...", "no sé".
NOT_NEGATING = (
    ("no", "idea"),
    ("no", "se"),
    ("not", "sure"),
    ("no", "clue"),
    ("no", "matter"),
    ("ni", "si"),
)
# Negations that point back: "a dashboard is not what I need", "no es lo que busco".
BACKWARD_NEGATIONS = (("not", "what"), ("no", "es", "lo", "que"), ("no", "es", "eso"))
_BACKWARD_FIRST_WORDS = frozenset(b[0] for b in BACKWARD_NEGATIONS)
NEGATION_MAX_WORDS = 4
# A change of mind takes back everything said before it: "a survey... actually, no: I want
# 1:1 conversations", "un card sorting... bueno no, lo que quiero es ...".
RETRACTIONS = (
    ("actually", "no"),
    ("actually", "not"),
    ("hmm", "actually"),
    ("on", "second", "thought"),
    ("scratch", "that"),
    ("wait", "no"),
    ("bueno", "no"),
    ("mejor", "no"),
    ("pero", "mejor"),
    ("pensandolo", "mejor"),
    ("pensandolo", "bien"),
    ("en", "realidad", "no"),
    ("o", "mejor", "dicho"),
)
# A plan given up: "I was going to do interviews, but ...", "pensé en una encuesta, pero":
# the words between the plan and the "but" are what the person no longer wants.
ABANDONED_PLANS = (
    ("was", "going", "to"),
    ("were", "going", "to"),
    ("i", "thought", "about"),
    ("we", "thought", "about"),
    ("iba", "a"),
    ("ibamos", "a"),
    ("pense", "en"),
    ("habia", "pensado", "en"),
    ("habiamos", "pensado", "en"),
)
ABANDONED_ENDS = word_list("but pero")
ABANDONED_MAX_WORDS = 12
_RETRACTIONS_BY_FIRST = {c[0]: [d for d in RETRACTIONS if d[0] == c[0]] for c in RETRACTIONS}
_PLANS_BY_FIRST = {c[0]: [d for d in ABANDONED_PLANS if d[0] == c[0]] for c in ABANDONED_PLANS}
_CHANGE_FIRST_WORDS = frozenset(_RETRACTIONS_BY_FIRST) | frozenset(_PLANS_BY_FIRST)
# A negation's scope ends at a contrast, not at a preposition: "no quiero comparar con la
# competencia" rejects the comparison with competitors.
NEGATION_BREAKS = word_list(
    """but just only instead rather now and pero sino solo solamente ahora mas bien sin
    embargo y e"""
)
# "has no projects", "with no data": "no" after these describes a state, not a request.
STATE_VERBS = word_list("has have had having with there s gets got")
# "not for", "no para": a negated purpose or topic.
NEGATED_PREPOSITIONS = word_list("for about on para sobre")

# False friends: a word whose method sense needs support in the same message. Spanish
# "personas" are people unless the message speaks of building, defining or using personas
# as a design artefact ("crear proto-personas", "user personas", "arquetipos").
_PERSONA_SUPPORT = word_list(
    """crear creamos crea construir definir define definamos elaborar disenar documentar
    actualizar arquetipo arquetipos proto protopersona protopersonas ficha fichas plantilla
    plantillas ficticia ficticias ficticio ficticios primaria primarias secundaria segmento
    segmentos retrato retratos"""
)
_STORY_SUPPORT = word_list(
    """backlog sprint epic epica epicas invest jira ticket tickets acceptance aceptacion
    criterios criteria points puntos split dividir partir refinement refinamiento agile
    agil"""
)
_SPRINT_SUPPORT = word_list(
    """google gv ventures knapp jake five cinco four cuatro challenge reto storyboard"""
)
# "Design" is everywhere in a designer's messages: it supports "sprint" only beside it.
_SPRINT_NEARBY = word_list("design diseno")
# A conversation is a chat between people unless a bot or an assistant holds it.
_CONVERSATION_SUPPORT = word_list(
    """bot bots chatbot chatbots assistant assistants asistente asistentes voice voz alexa
    siri agent virtual ai ia llm dialog dialogue dialogo dialogos intent intents"""
)
# Spanish "enseñar" is also "to show": it means teaching a method only with a lesson.
_TEACHING_SUPPORT = word_list(
    """clase clases leccion lecciones curso cursos formacion ejercicio ejercicios aprender
    aprendan metodo metodos metodologia tecnica tecnicas hacer usar taller thinking ux
    investigacion entrevistas usabilidad prototipado"""
)
_TOKEN_SUPPORT = word_list(
    """design diseno colour color colours colores spacing espaciado spacings typography
    tipografia theme themes theming tema temas naming nomenclatura figma semantic
    semantico semanticos primitive primitivos variable variables css style estilo estilos
    dark oscuro elevation elevacion radius radios palette paleta"""
)
# Words that support a false friend only right next to it: "historias de usuario" and
# "user personas" are the methods, "la historia del diseño centrado en el usuario" is not.
_PERSONA_NEARBY = word_list("user users ux buyer usuario cliente perfil perfiles tipo")
_STORY_NEARBY = word_list("user usuario usuarios")
NEARBY_SUPPORT = {
    "sprint": _SPRINT_NEARBY,
    "personas": _PERSONA_NEARBY,
    "persona": _PERSONA_NEARBY,
    "historia": _STORY_NEARBY,
    "historias": _STORY_NEARBY,
    "story": _STORY_NEARBY,
    "stories": _STORY_NEARBY,
}
FALSE_FRIEND_WINDOW = 2
# Support words of this length or more are recognised with one typo.
TYPO_MIN_LENGTH = 5
# Idioms whose words name nothing: "any ideas?" asks for help, not for a brainstorm.
IDIOMS = (
    ("any", "ideas"),
    ("any", "idea"),
    ("alguna", "idea"),
    ("algunas", "ideas"),
    ("ni", "idea"),
)
_IDIOM_FIRST_WORDS = frozenset(i[0] for i in IDIOMS)
# "card" is a payment or UI card unless cards are being sorted.
_CARD_SUPPORT = word_list(
    """sort sorts sorting sorted open closed hybrid ordenacion ordenar ordenamos clasificacion
    clasificar agrupar agrupen agrupan reverse inverso inversa"""
)
# "hire" is a designer's hiring unless a product is hired for a job (jobs to be done).
_HIRING_SUPPORT = word_list(
    """designer designers disenador disenadores disenadora disenadoras candidate candidates
    candidato candidatos candidata candidatas portfolio portfolios portafolio role roles
    rol puesto puestos vacante vacantes recruiter junior senior lead staff principal
    interviewer interviewers loop scorecard scorecards headcount"""
)
# Spanish "experimentar" is to experience something, unless an experiment is meant.
_EXPERIMENT_SUPPORT = word_list(
    """ab variante variantes version versiones hipotesis trafico control grupo grupos
    muestra significancia conversion"""
)
_HIRING = {"hire": _HIRING_SUPPORT, "hiring": _HIRING_SUPPORT, "hired": _HIRING_SUPPORT}
FALSE_FRIENDS: dict[str, dict[str, frozenset[str]]] = {
    "es": {
        "personas": _PERSONA_SUPPORT,
        "persona": _PERSONA_SUPPORT,
        "historia": _STORY_SUPPORT,
        "historias": _STORY_SUPPORT,
        "tokens": _TOKEN_SUPPORT,
        "token": _TOKEN_SUPPORT,
        "sprint": _SPRINT_SUPPORT,
        "tarjeta": _CARD_SUPPORT,
        "tarjetas": _CARD_SUPPORT,
        "contratar": _HIRING_SUPPORT,
        "contratan": _HIRING_SUPPORT,
        "contratamos": _HIRING_SUPPORT,
        "contratacion": _HIRING_SUPPORT,
        "conversacion": _CONVERSATION_SUPPORT,
        "conversaciones": _CONVERSATION_SUPPORT,
        "ensenar": _TEACHING_SUPPORT,
        "ensena": _TEACHING_SUPPORT,
        "ensenarle": _TEACHING_SUPPORT,
        "ensenarles": _TEACHING_SUPPORT,
        "experimenta": _EXPERIMENT_SUPPORT,
        "experimentan": _EXPERIMENT_SUPPORT,
        "experimentar": _EXPERIMENT_SUPPORT,
        "experimentamos": _EXPERIMENT_SUPPORT,
    },
    "en": {
        "sprint": _SPRINT_SUPPORT,
        "card": _CARD_SUPPORT,
        "cards": _CARD_SUPPORT,
        **_HIRING,
        "story": _STORY_SUPPORT,
        "stories": _STORY_SUPPORT,
        "tokens": _TOKEN_SUPPORT,
        "token": _TOKEN_SUPPORT,
        "conversation": _CONVERSATION_SUPPORT,
        "conversations": _CONVERSATION_SUPPORT,
    },
}

# Everyday words that a catalogue of methods uses rarely, so their rarity there says
# little: "what went wrong" is not about error messages, "a format for the team" is not
# about any one method. Matching gives them less weight than their rarity suggests.
GENERIC_WORDS = word_list(
    """wrong right well went go goes going gone good bad badly better best worse worst work
    works worked working thing things stuff people person everyone everybody someone
    nobody team teams new old show shows look looks looking find found use used using time
    times day days way ways talk talking say says said tell ask get put start started end
    ended done happen happens happened happening see seen help helps kind sort lot lots
    format formats big small quick quickly easy hard mal bien salio salir sale pasa pasar
    paso cosa cosas gente equipo equipos nuevo nueva mejor peor ver decir hablar usar
    tiempo dia dias forma formas manera formato rapido facil dificil gran grande pequeno
    algo todo empezar terminar acabar funcionar funciona funciono buscar encontrar puede
    pueden podria podrian could"""
)


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
    tokens = _tokens(text)
    words = [t for t in tokens if t[0].isalnum()]
    unsupported = _unsupported(words, language, names or {})
    roles = _roles(tokens, unsupported)
    negated = _negated(tokens, exempt, language)
    return [Word(word, roles[i], i in negated, i in unsupported) for i, word in enumerate(words)]


def _tokens(text: str) -> list[str]:
    """Words as `normalize` spells them, and the punctuation marks between them."""
    plain = AB_TEST.sub("ab", fold(text))
    # An apostrophe joins ("don't", "client's"): it never ends a span.
    return [t for t in _TOKEN.findall(plain) if t not in "'’`´"]


def _roles(tokens: list[str], unsupported: set[int]) -> list[Role]:
    """head / detail / object / material for every word token, in order."""
    reader = _RoleReader([t for t in tokens if t[0].isalnum()], unsupported)
    roles: list[Role] = []
    clause: list[int] = []  # the words of the current clause, for a closing "already"
    for token in tokens:
        if not token[0].isalnum():
            reader.mark(token)
            clause = []
        elif token in CLOSING_MATERIAL:  # "we did an affinity session already"
            roles.append(reader.word())
            for index in clause:
                roles[index] = "material"
            clause = []
        else:
            clause = [] if token in CLAUSE_BREAKS else [*clause, len(roles)]
            roles.append(reader.word())
    return roles


class _RoleReader:
    """Walks a request's tokens in order, tracking the part and span each word is in."""

    def __init__(self, words: list[str], unsupported: set[int]) -> None:
        self.words = words
        self.unsupported = unsupported
        self.position = 0
        self.part: Role = "head"
        self.span: Role | None = None
        self.span_left = 0
        self.after_topic_verb = False
        self.after_comma = False
        self.depth = 0

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
        words, position = self.words, self.position
        token = words[position]
        self.position += 1
        if token in SPAN_BREAKS or self.span_left <= 0:
            self.span = None
        if token in DETAIL_MARKERS or _purpose_clause(words, position):
            self.part = "detail"
        if self.after_comma and token in COMMA_DETAIL_MARKERS:  # "..., with X and Y"
            self.part = "detail"
        self.after_comma = False
        role: Role = "material" if self.after_topic_verb else (self.span or self.part)
        # A span runs over content words: "ya les pondremos criterios de aceptación".
        self.span_left -= token not in STOP_WORDS_EN and token not in STOP_WORDS_ES
        self._open_span(words, position)
        # A topic verb that is a false friend without support ("enseñar" = show) is not one.
        teaches = token in TOPIC_VERBS and position not in self.unsupported
        self.after_topic_verb = self.after_topic_verb or teaches
        return role

    def _open_span(self, words: list[str], position: int) -> None:
        """Start a material or object span after the word at `position`, if it opens one."""
        token = words[position]
        done = words[: position + 1]
        ending = _MATERIAL_BY_LAST.get(token, ())
        if token in MATERIAL_MARKERS or any(tuple(done[-len(p) :]) == p for p in ending):
            if token != "from" or not _range_follows(words, position):
                self.span, self.span_left = "material", MATERIAL_MAX_WORDS
        elif token in OBJECT_MARKERS and self.span is None and self.part == "head":
            self.span, self.span_left = "object", OBJECT_MAX_WORDS
        elif token in CHECKING_VERBS and self.span is None and self.part == "head":
            following = words[position + 1] if position + 1 < len(words) else ""
            if following in CHECKED_DETERMINERS:
                self.span, self.span_left = "checked", OBJECT_MAX_WORDS


def _purpose_clause(words: list[str], position: int) -> bool:
    """Whether a purpose clause ("para probar el prototipo", "so that") starts here."""
    if any(_starts_with(words, position, p) for p in _PURPOSE_BY_FIRST.get(words[position], ())):
        return True
    following = words[position + 1] if position + 1 < len(words) else ""
    return words[position] == "para" and _infinitive(following)


def _infinitive(word: str) -> bool:
    return len(word) > 3 and word.endswith(("ar", "er", "ir"))


def _range_follows(words: list[str], position: int) -> bool:
    """ "from booking to follow-up" is a range, not material the person has."""
    return any(w in RANGE_ENDS for w in words[position + 1 : position + 5])


def _negated(tokens: list[str], exempt: frozenset[tuple[str, str]], language: str) -> set[int]:
    """Indices (among the words) of the words in the scope of a negation."""
    words = [t if t[0].isalnum() else "" for t in tokens]  # "" stands for a mark
    index = _word_indices(tokens)
    negated: set[int] = set()
    for position in range(len(words)):
        found = _scope_start(words, position, language)
        if found is not None and not _is_exempt(words, found, exempt):
            negated.update(index[i] for i in _scope(words, found[0]))
        negated.update(index[i] for i in _backward_scope(words, position))
    return negated | _changed_mind(words, index)


def _changed_mind(words: list[str], index: list[int]) -> set[int]:
    """Words taken back by a change of mind: all before a retraction, or a plan up to its
    "but" (see RETRACTIONS and ABANDONED_PLANS); marks between the words are skipped."""
    spoken = [(i, w) for i, w in enumerate(words) if w]
    plain = [w for _, w in spoken]
    taken: set[int] = set()
    for at, word in enumerate(plain):
        if word not in _CHANGE_FIRST_WORDS:  # most words start no cue: one set lookup
            continue
        if any(_starts_with(plain, at, cue) for cue in _RETRACTIONS_BY_FIRST.get(word, ())):
            taken.update(index[spoken[i][0]] for i in range(at))
        if any(_starts_with(plain, at, plan) for plan in _PLANS_BY_FIRST.get(word, ())):
            end = _abandoned_end(plain, at)
            if end is not None:
                taken.update(index[spoken[i][0]] for i in range(at, end))
    return taken


def _abandoned_end(plain: list[str], at: int) -> int | None:
    """Where the "but" that gives up the plan starting at `at` is, if near enough."""
    for j in range(at, min(len(plain), at + ABANDONED_MAX_WORDS)):
        if plain[j] in ABANDONED_ENDS:
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


def _trigger_at(words: list[str], position: int) -> tuple[int, str] | None:
    """A negation trigger written at `position`: (where its object starts, its key)."""
    word = words[position]
    for trigger in _TRIGGERS_BY_FIRST.get(word, ()):
        if _starts_with(words, position, trigger):
            return position + len(trigger), " ".join(trigger)
    nxt = position + 1
    if word in NEGATED_AUXILIARIES and nxt < len(words) and words[nxt] == "t":
        return nxt + 1, "not"
    if word in NEGATORS:
        return nxt, word
    return None


def _scope_start(words: list[str], position: int, language: str) -> tuple[int, str] | None:
    """Where the negated words start if a negation begins at `position`, with its key."""
    trigger = _trigger_at(words, position)
    if trigger is None or any(_starts_with(words, position, i) for i in NOT_NEGATING):
        return None
    start, key = trigger
    if key not in NEGATORS:  # "without", "en vez de": always a negation
        return trigger
    while start < len(words) and words[start] in CLITICS and key == "no":
        start += 1
    following = words[start] if start < len(words) else ""
    if following in WANT_VERBS:
        return start + 1, key
    if following in DETERMINERS or following in NEGATED_PREPOSITIONS:
        return start, key
    # "Not OKRs, I need ...": a clause that opens with the negation rejects what follows.
    if position == 0 or not words[position - 1]:
        return (start, key) if following else None
    # English "no personas", "no error messages": "no" before a content word negates it
    # (Spanish "no" before a content word is a verb's: "no encuentran" describes), unless
    # it says what something has: "a user has no projects yet" describes a state.
    if key == "no" and language == "en" and following and following not in STOP_WORDS_EN:
        return None if words[position - 1] in STATE_VERBS else (start, key)
    return None


def _scope(words: list[str], start: int) -> list[int]:
    """Positions of the words a negation starting at `start` covers."""
    covered: list[int] = []
    content = 0
    for position in range(start, len(words)):
        word = words[position]
        if not word or word in NEGATION_BREAKS or content >= NEGATION_MAX_WORDS:
            break
        covered.append(position)
        content += word not in STOP_WORDS_EN and word not in STOP_WORDS_ES
    return covered


def _is_exempt(
    words: list[str], found: tuple[int, str], exempt: frozenset[tuple[str, str]]
) -> bool:
    """Whether the negation is part of a method's own name: "sin moderador", "no results"."""
    first = _first_content(words, found[0])
    return first is not None and (found[1], stem(first)) in exempt


def _backward_scope(words: list[str], position: int) -> list[int]:
    """Words before "is not what I need" / "no es lo que busco", back to the last mark."""
    if words[position] not in _BACKWARD_FIRST_WORDS or not any(
        _starts_with(words, position, p) for p in BACKWARD_NEGATIONS
    ):
        return []
    start = position
    while start > 0 and words[start - 1]:
        start -= 1
    return list(range(start, position))


def _unsupported(words: list[str], language: str, names: Mapping[str, frozenset[str]]) -> set[int]:
    """Indices of false friends whose method sense nothing in the message supports, and
    of words in idioms ("any ideas?"). A false friend is supported by its support words
    anywhere, or right beside it by NEARBY_SUPPORT or by the rest of a method name it is
    part of (`names`: "story" -> {"user", "mapping"})."""
    friends = FALSE_FRIENDS.get(language, {})
    present = set(words)
    unsupported = _in_idioms(words)
    for i, word in enumerate(words):
        if word not in friends or present & friends[word]:
            continue
        near = set(words[max(0, i - FALSE_FRIEND_WINDOW) : i + FALSE_FRIEND_WINDOW + 1])
        nearby = NEARBY_SUPPORT.get(word, frozenset()) | names.get(word, frozenset())
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


def _in_idioms(words: list[str]) -> set[int]:
    found: set[int] = set()
    for i in range(len(words)):
        if words[i] not in _IDIOM_FIRST_WORDS:  # most words start none: one set lookup
            continue
        for idiom in IDIOMS:
            if _starts_with(words, i, idiom):
                found.update(range(i, i + len(idiom)))
    return found


def negation_pairs(words: list[str], language: str) -> set[tuple[str, str]]:
    """(negation key, stem) pairs inside a method's own phrase, exempt from negation in
    messages: ["pruebas", "no", "moderadas"] -> {("no", "moderad")}. The stem is the first
    content word the negation covers, as `_is_exempt` checks it."""
    pairs: set[tuple[str, str]] = set()
    for position in range(len(words)):
        found = _scope_start(words, position, language)
        first = _first_content(words, found[0]) if found else None
        if found and first:
            pairs.add((found[1], stem(first)))
    return pairs


def _first_content(words: list[str], start: int) -> str | None:
    """The first word from `start` that is not a stop word, before any mark."""
    for word in words[start : start + NEGATION_MAX_WORDS]:
        if not word:
            return None
        if word not in STOP_WORDS_EN and word not in STOP_WORDS_ES:
            return word
    return None


def _pairs(text: str) -> dict[str, tuple[str, ...]]:
    """ "word:target" pairs, several targets per word allowed."""
    pairs: dict[str, tuple[str, ...]] = {}
    for pair in text.split():
        word, _, target = pair.partition(":")
        pairs[word] = (*pairs.get(word, ()), target)
    return pairs


# Spanish words and the English word a method's description or guide would use, so a
# Spanish request can meet the English text of the catalogue ("cifras" -> "numbers").
# Pairs are "spanish:english"; both sides go through `stem`.
_GLOSSARY_PAIRS = """
personas:people persona:person historia:history historias:stories experimenta:experience
experimentan:experience experimentar:experience satisfechos:satisfied satisfecho:satisfied
satisfechas:satisfied primer:first primera:first esperan:expect espera:expect gente:people
piso:home busqueda:search devolvio:returned abandonan:drop abandono:drop abandonar:drop
abandonos:churn acciones:actions accion:action accesibilidad:accessibility acuerdo:agreement
acuerdos:agreements adopcion:adoption agenda:agenda agrupar:group agrupamos:group
agrupen:group alcance:scope alinear:align alternativas:alternatives analisis:analysis
analitica:analytics anuncio:announcement aprendizaje:learning aprender:learn arbol:tree
arquitectura:architecture articulos:articles asistente:assistant audiencia:audience
auditoria:audit avance:progress ayuda:help backlog:backlog baja:low barreras:barriers
benchmark:benchmark boton:button botones:buttons buscar:search calidad:quality cambio:change
cambios:changes camino:path canales:channels capacidad:capacity carrera:career casos:cases
categorias:categories centro:centre cifras:numbers cliente:customer clientes:customers
clasificar:classify colores:colour color:colour comparar:compare comparativa:comparison
competencia:competitors competidores:competitors componente:component componentes:components
comportamiento:behaviour compras:purchases comprobar:check conceptos:concepts
confianza:trust consistente:consistent contenido:content contexto:context contratar:hiring
contratacion:hiring conversacion:conversation conversion:conversion copia:copy costes:costs
crecer:grow crecimiento:growth criterios:criteria cuestionario:questionnaire cuenta:account
cuentas:accounts cumplir:meet datos:data decidir:decide decidimos:decide decision:decision
decisiones:decisions definir:define desarrollo:development desarrolladores:engineers
descubrir:discover descubierto:discover deseos:desires detalles:details diagrama:diagram
diario:diary dias:days dificultades:struggle direccion:leadership directivos:executives
discapacidad:disability diseno:design disenadores:designers disenadora:designer
disenador:designer documentar:document documento:document duda:question efecto:impact
ejemplos:examples embudo:funnel emociones:emotions empresa:company encuesta:survey
encuestas:surveys enfoque:approach entrega:handoff entender:understand entrevista:interview
entrevistas:interviews equivocarse:wrong errores:errors error:error escala:scale
escenarios:scenarios esfuerzo:effort espaciado:spacing espaciados:spacing estados:states
estimar:estimate estrategia:strategy estructura:structure estudio:study estudios:studies
etiquetas:labels evaluar:evaluate evidencia:evidence exito:success experiencia:experience
experimento:experiment experimentos:experiments explicar:explain facturas:invoices
fallo:failure fases:phases feedback:feedback fiables:reliable fichero:file ficheros:files
flujo:flow flujos:flows formacion:training formulario:form formularios:forms frase:statement
frustraciones:frustrations funcionalidad:feature funcionalidades:features ganancias:gains
gestion:management grafico:chart graficos:charts guia:guide habitos:habits
hallazgos:findings herramienta:tool herramientas:tools hipotesis:hypothesis hitos:milestones
ideas:ideas impacto:impact implementado:built indicadores:metrics informe:report
informes:reports ingresos:revenue insights:insights interfaz:interface inversores:investors
investigacion:research jerarquia:hierarchy lanzamiento:launch lanzar:launch lector:reader
lenguaje:language limite:edge lista:list llamada:call lluvia:brainstorm mapa:map mapear:map
marca:brand medir:measure medimos:measure medible:measurable medibles:measurable
mensaje:message mensajes:messages mentor:mentor menu:menu metricas:metrics metrica:metric
metodo:method metodos:methods miedo:fear moderador:moderator motivos:reasons
motivaciones:motivations navegacion:navigation necesidades:needs negocio:business
nivel:level niveles:levels nombre:name notas:notes numero:number numeros:numbers
objetivo:goal objetivos:goals observar:observe oficina:office operaciones:operations
oportunidades:opportunities orden:order ordenar:rank organizar:organise paciente:patient
pagina:page paginas:pages pantalla:screen pantallas:screens participantes:participants
pasos:steps patrones:patterns pensar:think percepcion:perception perfil:profile
peticiones:requests piensa:thinks plan:plan plantilla:template plazo:timeline
precios:pricing pregunta:question preguntas:questions presentar:present presupuesto:budget
principios:principles prioridad:priority prioridades:priorities problema:problem
problemas:problems proceso:process producto:product progreso:progress promocion:promotion
propuesta:proposal prototipo:prototype proveedores:vendors proyecto:project prueba:test
pruebas:tests publicar:release puntuar:score puntua:score rechaza:rejects
recomendacion:recommendation reclutar:recruit reclutamiento:recruiting recorrido:journey
recursos:resources redisenar:redesign rediseno:redesign reglas:rules registro:signup
reunion:meeting reuniones:meetings requisitos:requirements resultados:results
resumen:summary retos:challenges reto:challenge retrasos:delays revisar:review
revision:review riesgo:risk riesgos:risks rivales:competitors roles:roles seccion:section
seguimiento:follow selector:picker semanas:weeks semana:week sesion:session
sesiones:sessions siente:feels sistema:system solucion:solution soluciones:solutions
soporte:support suena:sounds supuestos:assumptions tareas:tasks tarea:task taller:workshop
talleres:workshops tarjeta:card tarjetas:cards teclado:keyboard temas:themes tema:theme
textos:copy texto:copy tiempo:time tipografia:typography tono:tone trabajo:work
traducido:translated traducidas:translated traduccion:translation trafico:traffic
trimestre:quarter usable:usable usabilidad:usability usuarios:users usuario:user
validar:validate valor:value variantes:variants ventas:sales version:release
versiones:variants vision:vision visual:visual voz:voice acuerdan:agree acordar:agree
claro:clear claridad:clear compartir:share compartido:shared compartidos:shared
responder:answer respuesta:answer respuestas:answers real:real reales:real corto:short
corta:short preguntar:ask resultado:outcome resultados:outcomes producir:produce
siguiente:next clave:key importa:matter importan:matter existente:existing
existentes:existing alcanzar:reach tipo:type tipos:types temprano:early fallar:fail
falla:fail fallan:fail momento:moment modelo:model elemento:item elementos:items
ticket:ticket sprint:sprint registrarse:sign elegir:choose describir:describe
incorporacion:onboarding interaccion:interaction interacciones:interactions
priorizar:prioritise inventario:inventory fuente:source fuentes:sources disposicion:layout
escribir:write redactar:write redacta:write escribe:write escrito:written mercado:market
actual:current tema:issue temas:issues linea:baseline referencia:reference causa:cause
causas:causes agencia:agency leer:read segmento:segment segmentos:segments arreglar:fix
cadencia:cadence capturar:capture muestra:sample cualitativo:qualitative
cualitativa:qualitative entrada:input entradas:inputs completo:complete concreto:concrete
suficiente:enough eleccion:choice cualquiera:anyone comprometer:commit legal:legal
preparar:prepare preparo:prepare comunicacion:communication diferente:different
diferencias:differences hueco:gap huecos:gaps romper:break rompe:break incluir:include
parte:part nadie:nobody dueno:owner responsable:owner responsables:owners todo:everything
juzgar:judge juzgarlas:judge juzgarlos:judge proponer:propose rapidamente:quickly
material:material materiales:materials enfocar:focus foco:focus situacion:situation
opcion:option opciones:options grande:large grandes:large sintesis:synthesis hecho:done
enlace:link enlaces:links razon:rationale explorar:explore entregar:deliver interno:internal
interna:internal patrocinador:sponsor expectativas:expectations dependencia:dependency
dependencias:dependencies enviar:ship socio:partner socios:partners posicion:position
posicionamiento:positioning resolver:solve mejora:improvement mejoras:improvements
usado:used cinco:five registro:log revelar:reveal importante:important invertir:invest
atascado:stuck atascados:stuck debate:debate descubrimiento:discovery aprobacion:approval
implicaciones:implications principal:primary desacuerdo:disagreement discutir:argue
discusiones:arguments seguir:track seguimiento:track vivo:live contextual:contextual
tasa:rate palabra:word palabras:words investigador:researcher evento:event crear:create
cuatro:four falta:missing uso:usage encaja:fit visible:visible secuencia:sequence
conectar:connect definicion:definition aceptacion:acceptance especificacion:spec
actividad:activity actividades:activities vacio:empty vacia:empty vacios:empty codigo:code
tres:three realista:realistic conflicto:conflict recomendar:recommend financiar:fund
influir:influence influencia:influence departamento:department barato:cheap despues:later
compromiso:engagement seleccion:selection oferta:offer esperar:expect nunca:never
ejercicio:exercise etapa:stage etapas:stages vista:view entrega:delivery gravedad:severity
severidad:severity valoracion:rating predecir:predict predice:predict afectar:affect
afecta:affect afectados:affected sorprender:surprise sorprenderian:surprise pasado:past
gastar:spend mejor:better contar:tell tamano:size calendario:schedule remoto:remote
remota:remote repetir:repeat habilidad:skill habilidades:skills liderar:lead
explicacion:explanation terminar:finish terminado:finished campo:field crudo:raw
organizacion:organisation generar:generate generadas:generated generada:generated
borrador:draft candidato:candidate candidatos:candidates compromisos:trade complejo:complex
dificil:hard sitio:site observacion:observation plataforma:platform clic:click
clicable:clickable marco:framework entregable:deliverable entregables:deliverables
contacto:contact estandar:standard individual:individual competir:compete
discusion:discussion evaluacion:assessment forma:shape fecha:date incertidumbre:uncertainty
termino:term terminos:terms jefe:manager jefa:manager nada:nothing actualizacion:update
actualizar:update guias:guidelines ia:ai fidelidad:fidelity practica:practice reducir:reduce
arranque:kickoff sala:room merece:worth propuestas:proposition mejorar:improve verdad:truth
entero:whole satisfaccion:satisfaction fisico:physical servicio:service roto:broken
rota:broken fusionar:merge rapido:fast depende:depend disponible:available vigilar:watch
vigila:watch explicito:explicit interes:interest dinero:money sistematico:systematic
seguridad:safety web:web logistica:logistics comparable:comparable neutral:neutral
neutrales:neutral posible:possible recoger:collect tecnologia:technology cita:quote
limite:limit comun:common piloto:pilot minutos:minutes opinion:opinion opiniones:opinions
cambiar:switch control:control elegido:chosen ultimo:last requisito:requirement
investigar:inquiry social:social depender:rely docena:dozen simple:simple aprobar:approve
aplicar:apply facil:easy largo:long larga:long agrupamiento:cluster resumir:summarise
servir:serve personal:personal fuerza:force fuerzas:forces dimension:dimension
disparador:trigger alineacion:alignment descripcion:description alguien:someone
defender:defend honesto:honest trimestral:quarterly ano:year estable:stable critica:critique
semanal:weekly pesado:heavy dentro:inside aumentar:raise placeholder:placeholder
asegurar:sure pieza:piece aceptar:accept pasar:pass salud:health permiso:permission
permisos:permissions wireframe:wireframe propiedad:ownership consistencia:consistency
coherencia:consistency terminologia:terminology util:useful localizacion:localisation
gusto:taste estado:status validacion:validation malo:bad culpa:blame paleta:palette
demo:demo filtro:filter filtros:filters automatico:automatic plazo:deadline
activacion:activation regulacion:regulation restriccion:constraint restricciones:constraints
saber:know vago:vague disputa:dispute intentado:tried resolver:resolve empezar:begin
convencion:convention matriz:matrix fortalezas:strengths contar:count cortar:slice
diagnosticar:diagnose futuro:future separar:separate miembro:member miembros:members
visibilidad:visibility tarde:late inconsistente:inconsistent manual:manual experto:expert
expertos:expert establecer:establish ubicacion:location captura:screenshot recorrer:walk
diez:ten obvio:obvious rapida:quick arriesgado:riskiest deseabilidad:desirability
viabilidad:feasibility critico:critical colaborativo:collaborative seguro:confident
decidir:settle identificar:identify todos:everyone cuadrante:quadrant evaluar:assess
papel:paper publico:public secundario:secondary reunir:gather tendencia:trend
tendencias:trends anecdota:anecdote cohorte:cohort moderar:moderate guion:script pareja:pair
consentimiento:consent incentivo:incentive incentivos:incentives justamente:fairly
hablar:speak sesgo:bias sesgos:bias ocho:eight exportar:export oficio:craft reciente:recent
prueba:trial invitar:invite companero:teammate adoptar:adopt cerrar:close
reestructurar:restructure pertenecer:belong sugerir:suggest duracion:duration dividir:split
efecto:effect listo:ready hogar:home casa:home flujo:workflow entorno:environment
memoria:memory dinamica:dynamic operativo:operational hoja:spreadsheet
instruccion:instruction confuso:confusing confunden:confusing confusa:confusing
autonomo:freelancer seleccionar:select coleccion:collection emergente:emerge
frecuencia:frequency nombres:naming demografico:demographic distinto:distinct contratar:hire
multitud:crowd generico:generic notar:notice ideacion:ideation transcripcion:transcript
transcripciones:transcripts combinar:combine tecnica:technique tecnicas:techniques
menos:fewer esperar:wait charlar:talk pitch:pitch revisitar:revisit proximo:coming
iniciativa:initiative norte:north estrella:star madurez:maturity madura:maturity
medicion:measurement retencion:retention recurrente:recurring continuo:continuous
ligado:tied saltar:jump saltamos:jump adaptar:adapt clasificacion:classification ganar:earn
nivel:tier confirmar:confirm implementacion:implementation testeable:testable
condicion:condition intencion:intent tecnico:technical rehacer:rework regulatorio:regulatory
minimo:minimum marcar:mark pulir:polish artefacto:artifact frontera:boundary
produccion:production tocar:touch reservar:book reserva:booking innecesario:unnecessary
quitar:remove gobernanza:governance migracion:migration reescrito:rewritten
confirmacion:confirmation atributo:attribute formalidad:formality celebrar:celebrate
pago:payment pagos:payment conversacional:conversational cadena:string recuperar:recover
recuperarse:recover colocacion:placement prevenir:prevent taxonomia:taxonomy
reflejar:reflect refleja:reflect atencion:attention anotar:annotate imagen:image
imagenes:image ilustracion:illustration significativo:significant comprar:buy
movimiento:motion colaboracion:collaboration adivinar:guess tabla:table tablas:table
relevante:relevant ocupado:busy modo:mode proposito:purpose biblioteca:library
regresion:regression documentacion:documentation predecible:predictable reinventar:reinvent
conocimiento:knowledge humano:human humana:human senal:cue rubrica:rubric justo:fair
teach:teach ensenar:teach evitar:avoid evito:avoid tablero:board anterior:previous
iteracion:iteration friccion:friction junior:junior informal:informal lider:leader
fuera:outside contingencia:contingency seis:six vender:sell politica:politic
consultor:consultant asistente:attendee asistentes:attendees responsabilidad:responsibility
responsabilidades:responsibility reiniciar:restart pausar:pause competitivo:competitive
indirecto:indirect debilidad:weakness debilidades:weakness pensamiento:thought
punto:touchpoint visualizar:visualise correo:email correos:email realidad:reality
extender:extend politicas:policy mensajero:courier heuristica:heuristic
heuristicas:heuristic inspeccion:inspection evaluador:evaluator violacion:violation
complementar:complement sustituto:substitute profundo:deeper creencia:belief
creencias:belief cognitivo:cognitive ocultar:hide arriesgada:risky fe:faith apuesta:leap
apostando:leap emocionar:excit verdadero:true falso:false falsa:false cuadricula:grid
preocupacion:concern postura:stance resistencia:resistance objecion:objection
academico:academic academica:academic consultar:consult fiabilidad:reliability
fiables:reliability foro:forum dominio:domain banco:bank comida:food ley:law
anomalia:anomaly peor:worse raramente:rarely esquema:outline seguro:secure parar:stop
lejos:away recompensa:reward pagar:pay pagamos:pay externo:external empleado:employee
empleados:employee panel:panel moderacion:moderation libremente:freely observador:observer
observadores:observer preparacion:preparation introduccion:introduction calentamiento:warm
rescatar:rescue rellenar:fill silencio:silence mayores:older adulto:adult adultos:adult
digital:digital lectura:readout limitacion:limitation analizar:analyze argumento:argument
creer:believe clip:clip inmediato:immediate archivo:archive repositorio:repository
distribucion:distribution actitud:attitude actitudes:attitude entrevistado:interviewee
mentir:lie prediccion:prediction hibrido:hybrid similitud:similarity
representativo:representative sentido:sense mental:mental predefinido:predefined
catalogo:catalogue espejo:mirror correcto:correct destino:destination evaluativo:evaluative
probar:prove sospechar:suspect controlado:controlled lanzamiento:rollout aleatorio:randomly
causal:causal ventana:window finalizacion:completion mejorar:upgrade recordatorio:reminder
recordatorios:reminder infrecuente:infrequent profundidad:depth longitudinal:longitudinal
formacion:formation impredecible:unpredictable viaje:travel interrupcion:disruption
medicacion:medication mensual:monthly facturacion:billing noche:night vida:life
aprendiz:apprentice maestro:master interrupciones:interruption valioso:valuable
profesional:professional clinico:clinical almacen:warehouse finanzas:finance envio:dispatch
ordenado:tidy aclarar:clarify zona:zone mes:month meses:months cuenten:tell cuentan:tell
diariamente:daily dia:day proveedor:vendor ganador:winner perdedor:loser gana:win
pierde:lose contento:satisfied descarrilar:derail tropiezan:stall encontrar:find
encuentran:find quedarse:stay quedara:stay funcionar:work funciono:worked pacientes:patients
enfermeras:nurses agentes:agents agente:agent sugerencias:suggestions
tienda:store tienda:shop carrito:cart pedido:order pedidos:orders suscripcion:subscription
suscripciones:subscription comercial:sales entiende:understand entienden:understand
entienda:understand pedir:ask piden:ask pide:ask pido:ask pedimos:ask aviso:warning
avisos:warnings alerta:alert alertas:alerts mostrar:show mostramos:show lograr:achieve
logran:achieve conseguir:achieve beneficio:benefit beneficios:benefits ventaja:advantage
ventajas:advantages resolvemos:solve resuelve:solve eligen:choose eligiendo:choose
convencer:convince convence:convince descargar:download descarga:download factura:invoice
pista:hint pistas:hints consejo:tip consejos:tips ascender:promotion ascenso:promotion
competencias:competencies competencias:skills mide:measure presupuestar:budget horas:hours
calcular:calculate calculo:calculation estimacion:estimate estimaciones:estimates
libreria:library librerias:library contribuir:contribute contribuciones:contributions
estructurar:structure quejas:complaints queja:complaint quejan:complain
reclamaciones:complaints llamadas:calls cancelar:cancel cancelan:cancel cancelaron:cancel
cancelacion:cancellation renovar:renew renovacion:renewal alta:signup primeros:first
sesgar:bias sesgadas:biased escalas:scales cuantitativo:quantitative
cuantitativos:quantitative porcentaje:percentage miles:thousands observaciones:observations
corregir:correct inventar:hallucinate resumenes:summaries sistematica:systematic
diferenciar:differentiate
"""
GLOSSARY_ES_EN: dict[str, tuple[str, ...]] = _pairs(_GLOSSARY_PAIRS)


# Everyday words and the catalogue word they stand for, in both languages: people say
# "rivals" for competitors, "numbers" for metrics, name a component ("date picker")
# instead of saying "component", a disability when they mean accessibility, or their
# analytics tool ("Amplitude", "GA4") when they mean analytics.
# Pairs are "word:catalogue word"; both sides go through `stem`.
_SYNONYM_PAIRS = """
rival:competitor rivals:competitors rivales:competidores rival:competidor
competition:competitors numbers:metrics figures:metrics kpi:metric kpis:metrics
cifras:metricas numeros:metricas indicadores:metricas picker:component datepicker:component
dropdown:component dropdowns:components modal:component modals:components tooltip:component
tooltips:components toggle:component checkbox:component carousel:component
accordion:component tabs:component combobox:component slider:component stepper:component
snackbar:component toast:component breadcrumb:component pagination:component
navbar:component sidebar:component selector:componente desplegable:componente
interruptor:componente casilla:componente carrusel:componente acordeon:componente
pestanas:componente paginacion:componente dyslexia:accessibility dyslexic:accessibility
blind:accessibility deaf:accessibility colourblind:accessibility colorblind:accessibility
disability:accessibility disabilities:accessibility impaired:accessibility
impairment:accessibility wheelchair:accessibility dislexia:accesibilidad
ciegos:accesibilidad ciegas:accesibilidad sordos:accesibilidad sordas:accesibilidad
daltonicos:accesibilidad daltonismo:accesibilidad discapacidad:accesibilidad
discapacidades:accesibilidad chatbot:chatbot bot:chatbot bots:chatbot asistente:chatbot
goals:objectives metas:objetivos wording:copy textos:textos estetico:visual estetica:visual
aesthetic:visual aesthetics:visual alineaciones:espaciado alignment:spacing validate:test
verify:test validar:probar comprobar:probar verificar:probar hurt:pain hurts:pain
painful:pain sufre:dolor sufren:dolor duele:dolor duelen:dolor declined:error rejected:error
rejects:error rechaza:error rechazada:error rechazo:error polished:visual polish:visual
ugly:visual cluttered:visual clutter:visual pulido:visual pulida:visual feo:visual
fea:visual recargado:visual recargada:visual recargadas:visual buffer:contingency
colchon:contingencia margen:contingencia amplitude:analytics mixpanel:analytics
ga4:analytics posthog:analytics hotjar:analytics matomo:analytics heap:analytics
"""


SYNONYMS = _pairs(_SYNONYM_PAIRS)

# Places hint at a market, and so at localisation, but never ask for it: "launch in
# Colombia: what research?" is a research plan. A hint adds a little evidence and can
# never by itself name a task (see matching.Matcher._ceiling).
_PLACE_PAIRS = """
argentinian:localization argentine:localization colombian:localization chilean:localization
peruvian:localization brazilian:localization mexico:localization mexican:localization
latam:localization argentina:localization colombia:localization chile:localization
peru:localization brazil:localization portugal:localization mexicano:localizacion
mexicanos:localizacion latinoamerica:localizacion argentinos:localizacion brasil:localizacion
"""
PLACE_HINTS = _pairs(_PLACE_PAIRS)

# -- decisions that change: which one a reply or a message names (actions/decision_changes.py)

# Words that name no decision in particular: "the Madrid decision" is about Madrid.
DECISION_WORDS = word_list(
    """decision decisions decided decide decisiones decidimos decidido decidir idea plan
    thing choice anymore any more longer doing going do use using run running go with
    vamos hacer usar hemos lo"""
)
