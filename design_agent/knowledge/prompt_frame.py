"""The words of the prompt contract, in each language the user may write in.

The whole instruction frame (role, rules, the deliverable outline's heading,
the notes on examples and templates) is written in the user's language, so a
Spanish request gets a Spanish frame rather than English rules with one
translated role name. docs/prompt-contract.md describes the contract.
"""

from __future__ import annotations

from typing import Final

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

# Project facts an answer depends on, by metadata key.
KEY_INPUTS: Final = ("users", "problem", "constraints")

FRAME: Final[dict[str, dict[str, str]]] = {
    "en": {
        "role": "You are the {role} on a product design team.",
        "goal": "Your goal: {goal}",
        "stance": "Your stance: {stance}",
        "follow": "The reference material, the project and the instructions are in the "
        "user message; the request is at its end.",
        "example_note": "illustrative: do not reuse its names or numbers",
        "template_note": "fields to draw on; follow the deliverable outline in the "
        "instructions, not this file's order",
        "no_decisions": "none recorded yet",
        "method": "Method: {name}. {description}",
        "outline": "Deliverable: write exactly these parts, in this order, each as a `##` heading:",
        "format": "Format: Markdown. No preamble and no closing summary; use a table "
        "where a part lists items with attributes; bold only key terms.",
        "length": "Length: about {low}-{high} words.",
        "facts": "Use the project's facts above where they belong (users, problem, "
        "constraints, briefs, decisions); do not invent other facts about the project.",
        "missing": "The project does not say {missing}. State your assumption for each "
        'in one line at the top, marked "Assumption:"; if the answer would be wrong '
        "without it, instead ask one question as <ask_user>question</ask_user> and stop.",
        "assumed": "The user did not clarify the request; proceed and state these "
        "assumptions at the top: {assumptions}",
        "cite": "Cite the reference sections you rely on as [source > section], e.g. {example}.",
        "confidence": "End with your confidence (high, medium or low) and why, and the "
        "limitations of this answer, in one or two lines.",
        "decision": "Propose each decision the user should keep as "
        '<decision rationale="why">what</decision>.',
        "tags": "Use no other tags and do not run tools.",
        "language": "Answer in English.",
        "extra": "Also: {instruction}",
        "evidence": "Ground the deliverable in the <evidence> above. Quote participants' "
        'own words exactly, in double quotes, each followed by its segment id, e.g. "the '
        'calendar only showed the next three days" [S03.T047]; at least six words per quote, '
        "never the moderator's words. Under each theme heading give its quotes. Do not write "
        "how many participants said something: design-agent counts them from your "
        "citations. A claim without a quote is your interpretation: say so. The figures in "
        "<facts> are computed: use them as they are, never recompute them.",
        "highlights": "This is one research session. List the 8 to 15 passages that matter "
        'most for the request below, each on its own line as: - "exact words" [segment id]: '
        "why it matters, in a few words. Quote participants only, exactly as written.",
        "users": "who the users are",
        "problem": "the problem to solve",
        "constraints": "the constraints (time, team, technology, regulation)",
        "and": " and ",
    },
    "es": {
        "role": "Eres {role} en un equipo de diseño de producto.",
        "goal": "Tu objetivo: {goal}",
        "stance": "Tu postura: {stance}",
        "follow": "El material de referencia, el proyecto y las instrucciones están en "
        "el mensaje del usuario; la petición va al final.",
        "example_note": "ilustrativo: no reutilices sus nombres ni sus cifras",
        "template_note": "campos de los que partir; sigue el esquema del entregable de "
        "las instrucciones, no el orden de este archivo",
        "no_decisions": "ninguna registrada todavía",
        "method": "Método: {name}. {description}",
        "outline": "Entregable: escribe exactamente estas partes, en este orden, cada una "
        "con un encabezado `##`:",
        "format": "Formato: Markdown. Sin preámbulo ni resumen final; usa una tabla cuando "
        "una parte enumere elementos con atributos; negrita solo en términos clave.",
        "length": "Extensión: unas {low}-{high} palabras.",
        "facts": "Usa los datos del proyecto de arriba donde corresponda (usuarios, "
        "problema, restricciones, briefs, decisiones); no inventes otros datos del proyecto.",
        "missing": "El proyecto no indica {missing}. Declara tu supuesto para cada uno en "
        'una línea al principio, marcado "Supuesto:"; si sin ese dato la respuesta '
        "sería errónea, haz en su lugar una sola pregunta como "
        "<ask_user>pregunta</ask_user> y detente.",
        "assumed": "El usuario no ha aclarado la petición; continúa y declara estos "
        "supuestos al principio: {assumptions}",
        "cite": "Cita las secciones de referencia en las que te apoyes como "
        "[fuente > sección], p. ej. {example}.",
        "confidence": "Termina con tu nivel de confianza (alto, medio o bajo) y por qué, y "
        "las limitaciones de esta respuesta, en una o dos líneas.",
        "decision": "Propón cada decisión que el usuario debería conservar como "
        '<decision rationale="por qué">qué</decision>.',
        "tags": "No uses otras etiquetas ni ejecutes herramientas.",
        "language": "Responde en español.",
        "extra": "Además: {instruction}",
        "evidence": "Basa el entregable en la <evidence> de arriba. Cita las palabras exactas "
        "de los participantes, entre comillas dobles, cada cita seguida de su id de "
        'segmento, p. ej. "el calendario solo enseñaba los próximos tres días" [S03.T047]; '
        "al menos seis palabras por cita, nunca palabras del moderador. Bajo el encabezado "
        "de cada tema pon sus citas. No escribas cuántos participantes dijeron algo: "
        "design-agent los cuenta a partir de tus citas. Una afirmación sin cita es tu "
        "interpretación: dilo. Las cifras de <facts> están calculadas: úsalas tal cual, "
        "nunca las recalcules.",
        "highlights": "Esta es una sesión de investigación. Enumera los 8 a 15 fragmentos "
        "que más importan para la petición de abajo, cada uno en su línea como: - "
        '"palabras exactas" [id de segmento]: por qué importa, en pocas palabras. Cita solo '
        "a los participantes, exactamente como está escrito.",
        "users": "quiénes son los usuarios",
        "problem": "el problema que hay que resolver",
        "constraints": "las restricciones (plazos, equipo, tecnología, normativa)",
        "and": " y ",
    },
}


def frame(language: str) -> dict[str, str]:
    """The frame's words in `language` (English for a language without a frame)."""
    return FRAME.get(language, FRAME["en"])


def length_words(length: str, verbosity: str) -> tuple[int, int]:
    return LENGTH_WORDS.get((length, verbosity), LENGTH_WORDS[("medium", "normal")])
