"""The offline answer's own words, in English and Spanish."""

from __future__ import annotations

from typing import Any

TEXTS: dict[str, dict[str, Any]] = {
    "en": {
        "banner": "> **Offline answer.** design-agent's built-in provider filled this skeleton "
        "of the deliverable from the method guide and your project, without an AI model: "
        "it places what is known and marks what is not; it does not reason about your case.",
        "banner_brief": "> **Offline answer** (built in, no AI model): the method's skeleton, "
        "with what your project already says.",
        "request": "**Your request:** {text}",
        "assumption": "**To confirm:** {what}: [not in the project yet]",
        "missing": {
            "users": "who the users are",
            "problem": "the problem to solve",
            "constraints": "the constraints (time, team, technology)",
        },
        "known": "**{label}:** {value}",
        "labels": {
            "users": "Users",
            "problem": "Problem",
            "constraints": "Constraints",
            "briefs": "Briefs",
            "description": "Description",
        },
        "decided": "**Decided:** {decision}",
        "steps": "How to do it:",
        "holds": "What it holds (the guide's deliverable):",
        "from_brief": "From {name}:",
        "briefs_unquoted": "**Briefs read:** {names} (no line in them speaks to this request)",
        "from_guide": "From the guide ({heading}):",
        "fields": "Fill in:",
        "to_fill": "[to fill]",
        "prepare": "## What to prepare",
        "short_on_time": "## If time or budget is short",
        "pitfalls": "## Pitfalls",
        "limits": "## Confidence and limitations",
        "limit_items": [
            "**Confidence: low.** The method's steps placed in its outline, not an analysis "
            "of your situation; every [bracketed] field is yours to fill.",
            "**Limitations:** no AI model was used. For an answer written for your case, "
            "install an AI CLI (Claude Code, Gemini CLI or Codex): "
            "'design-agent providers list' shows how.",
        ],
        "limits_brief": "**Confidence: low.** **Limitations:** an offline skeleton, written "
        "without an AI model.",
        "sources": "## Sources",
        "no_match": "I could not match this request to a design method, and there is no AI "
        "model here to write an answer. Rephrase it naming the method (for example "
        "'journey map' or 'usability test plan'), or see 'design-agent methods list'.",
        "no_sources": "- none: no guide section matched",
    },
    "es": {
        "banner": "> **Respuesta offline.** El proveedor integrado de design-agent ha rellenado "
        "este esquema del entregable con la guía del método y tu proyecto, sin modelo de IA: "
        "coloca lo que se sabe y marca lo que falta; no razona sobre tu caso.",
        "banner_brief": "> **Respuesta offline** (integrada, sin modelo de IA): el esquema del "
        "método, con lo que tu proyecto ya dice.",
        "request": "**Tu petición:** {text}",
        "assumption": "**Por confirmar:** {what}: [aún no está en el proyecto]",
        "missing": {
            "users": "quiénes son los usuarios",
            "problem": "el problema que hay que resolver",
            "constraints": "las restricciones (plazos, equipo, tecnología)",
        },
        "known": "**{label}:** {value}",
        "labels": {
            "users": "Usuarios",
            "problem": "Problema",
            "constraints": "Restricciones",
            "briefs": "Briefs",
            "description": "Descripción",
        },
        "decided": "**Decidido:** {decision}",
        "steps": "Cómo hacerlo:",
        "holds": "Qué contiene (el entregable de la guía):",
        "from_brief": "De {name}:",
        "briefs_unquoted": "**Briefs leídos:** {names} (ninguna línea habla de esta petición)",
        "from_guide": "De la guía ({heading}):",
        "fields": "Completa:",
        "to_fill": "[por completar]",
        "prepare": "## Qué preparar",
        "short_on_time": "## Si falta tiempo o presupuesto",
        "pitfalls": "## Errores frecuentes",
        "limits": "## Confianza y limitaciones",
        "limit_items": [
            "**Confianza: baja.** Son los pasos del método colocados en su esquema, no un "
            "análisis de tu situación; cada campo [entre corchetes] te toca a ti.",
            "**Limitaciones:** no se ha usado ningún modelo de IA. Para una respuesta escrita "
            "para tu caso, instala un CLI de IA (Claude Code, Gemini CLI o Codex): "
            "'design-agent providers list' explica cómo.",
        ],
        "limits_brief": "**Confianza: baja.** **Limitaciones:** un esquema offline, escrito sin "
        "modelo de IA.",
        "sources": "## Fuentes",
        "no_match": "No pude asociar esta petición a un método de diseño y aquí no hay un "
        "modelo de IA que escriba la respuesta. Reformúlala nombrando el método (por ejemplo "
        "'journey map' o 'plan de test de usabilidad'), o mira 'design-agent methods list'.",
        "no_sources": "- ninguna: no coincidió ninguna sección de guía",
    },
}

# Words that say which outline part a project fact belongs in, per fact, the most telling
# first: a fact goes to the part naming the earliest of them (offline_places.home_of).
FACT_HOMES: dict[str, tuple[str, ...]] = {
    "users": (
        "participant",
        "persona",
        "audience",
        "user",
        "usuari",
        "customer",
        "client",
        "segment",
        "public",
        "who",
        "quien",
    ),
    "problem": (
        "goal",
        "objective",
        "objetiv",
        "problem",
        "question",
        "pregunta",
        "hypothes",
        "hipotesis",
        "purpose",
        "proposito",
        "scope",
        "alcance",
        "context",
    ),
    "constraints": (
        "logistic",
        "schedule",
        "calendario",
        "timeline",
        "plazo",
        "constraint",
        "restricc",
        "budget",
        "presupuesto",
        "resourc",
        "recurso",
        "risk",
        "riesgo",
        "dependenc",
        "distribut",
        "distribuc",
        "plan",
    ),
}
# The standard guide sections (folded); any other section of a guide is its own practical
# material (Van Westendorp questions, severity ratings), shown under the part it serves.
STANDARD_HEADINGS = frozenset(
    {
        "summary",
        "resumen",
        "when to use",
        "when not to use",
        "cuando usarlo",
        "cuando no usarlo",
        "inputs",
        "entradas",
        "procedure",
        "procedimiento",
        "deliverable",
        "entregable",
        "worked example",
        "ejemplo practico",
        "pitfalls",
        "errores frecuentes",
        "references",
        "referencias",
        "small budgets and short timelines",
        "con poco presupuesto y poco tiempo",
    }
)
# Headings of the guide sections the skeleton draws on, in both languages.
PROCEDURE = frozenset({"procedure", "procedimiento", "steps", "pasos"})
PITFALLS = frozenset({"pitfalls", "errores frecuentes", "common mistakes"})
INPUTS = frozenset({"inputs", "entradas"})
SHORT_ON_TIME = frozenset(
    {"small budgets and short timelines", "con poco presupuesto y poco tiempo"}
)
