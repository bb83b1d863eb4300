"""The built-in offline provider: an honest, structured answer without any AI CLI.

It answers from what the pipeline matched (task, persona, guide sections,
project context, recent decisions), says plainly that it was produced
offline, and names the guide sections it used. It streams block by block
through the same run interface as the CLI providers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from design_agent.providers.events import RunEvent, TextDelta
from design_agent.providers.request import Grounding, ProviderRequest
from design_agent.providers.run import BaseRun
from design_agent.providers.spec import AdapterSpec

REQUEST_CHARS = 400
# How much of the guide an answer quotes, by verbosity: (sections, characters each).
SECTION_LIMITS = {"brief": (2, 500), "normal": (6, 1500), "detailed": (12, 3000)}

TEXTS: dict[str, dict[str, Any]] = {
    "en": {
        "banner": "> **Offline answer.** Written by design-agent's built-in offline provider, "
        "without an AI model, from {source}. It lays out the method; it does not reason "
        "about your particular case.",
        "source_guides": "the method guide and your project context",
        "source_none": "your request alone",
        "request": "**Your request:** {text}",
        "perspective": "*Perspective: {role}.* {goal}",
        "project": "### Your project: {name}",
        "decisions": "### Decisions to respect",
        "method": "### What the method says",
        "produce": "### What to produce",
        "next": "### Next steps",
        "next_items": [
            "Work through the method sections above with your project's specifics.",
            "Record each decision you make, with its reason, so later answers build on it.",
            "For an answer written for your case, install an AI CLI (Claude Code, Gemini CLI "
            "or Codex); 'design-agent providers list' shows how.",
        ],
        "no_match": "I could not match this request to a design method, and there is no AI "
        "model here to write an answer. Rephrase it naming the method (for example "
        "'journey map' or 'usability test plan'), or see 'design-agent tasks list'.",
        "limits": "### Confidence and limitations",
        "limit_items": [
            "**Confidence: low.** This is the method guide applied mechanically, not an "
            "analysis of your situation.",
            "**Limitations:** no AI model was used, so nothing here was checked against your "
            "request beyond matching it to a method.",
        ],
        "sources": "### Sources",
        "no_sources": "- none: no guide section matched",
    },
    "es": {
        "banner": "> **Respuesta offline.** Escrita por el proveedor offline integrado de "
        "design-agent, sin modelo de IA, a partir de {source}. Expone el método; no razona "
        "sobre tu caso concreto.",
        "source_guides": "la guía del método y el contexto de tu proyecto",
        "source_none": "tu petición únicamente",
        "request": "**Tu petición:** {text}",
        "perspective": "*Perspectiva: {role}.* {goal}",
        "project": "### Tu proyecto: {name}",
        "decisions": "### Decisiones a respetar",
        "method": "### Qué dice el método",
        "produce": "### Qué producir",
        "next": "### Próximos pasos",
        "next_items": [
            "Recorre las secciones del método de arriba con los datos de tu proyecto.",
            "Registra cada decisión que tomes, con su motivo, para que las respuestas "
            "siguientes partan de ella.",
            "Para una respuesta escrita para tu caso, instala un CLI de IA (Claude Code, "
            "Gemini CLI o Codex); 'design-agent providers list' explica cómo.",
        ],
        "no_match": "No pude asociar esta petición a un método de diseño y aquí no hay un "
        "modelo de IA que escriba la respuesta. Reformúlala nombrando el método (por ejemplo "
        "'mapa de recorrido' o 'plan de test de usabilidad'), o mira 'design-agent tasks list'.",
        "limits": "### Confianza y limitaciones",
        "limit_items": [
            "**Confianza: baja.** Es la guía del método aplicada mecánicamente, no un análisis "
            "de tu situación.",
            "**Limitaciones:** no se usó ningún modelo de IA, así que nada de esto se contrastó "
            "con tu petición más allá de asociarla a un método.",
        ],
        "sources": "### Fuentes",
        "no_sources": "- ninguna: no coincidió ninguna sección de guía",
    },
}


class OfflineRun(BaseRun):
    """A request answered by the built-in offline provider."""

    def __init__(self, spec: AdapterSpec, request: ProviderRequest) -> None:
        super().__init__(spec, request, model=None)

    def cancel(self) -> None:
        self._cancelled = True

    def _events(self) -> Iterator[RunEvent]:
        yield self._tier_event()
        for block in compose_answer(self.request):
            if self._cancelled:
                yield self._done("cancelled")
                return
            yield from self._text(TextDelta(text=block))
        yield self._done("ok")


def compose_answer(request: ProviderRequest) -> list[str]:
    """The offline answer as markdown blocks (each ends with a blank line)."""
    t = TEXTS[request.language]
    grounding = request.grounding or Grounding()
    source = t["source_guides"] if grounding.sections else t["source_none"]
    blocks = [t["banner"].format(source=source)]
    if grounding.task_name or grounding.task_id:
        blocks.append(f"## {grounding.task_name or grounding.task_id}")
    brief = request.verbosity == "brief"
    if grounding.persona_role and not brief:
        goal = grounding.persona_goal or ""
        blocks.append(t["perspective"].format(role=grounding.persona_role, goal=goal).strip())
    asked = grounding.message or request.prompt
    blocks.append(t["request"].format(text=_clip(" ".join(asked.split()), REQUEST_CHARS)))
    blocks += _project_blocks(grounding, t)
    blocks += _method_blocks(grounding, t, request.verbosity)
    if not brief:
        blocks += [t["limits"], _bullets(t["limit_items"])]
    blocks += [t["sources"], _sources(grounding, t, request.verbosity)]
    return [block + "\n\n" for block in blocks]


def _project_blocks(grounding: Grounding, t: dict[str, Any]) -> list[str]:
    blocks = []
    if grounding.project_name:
        blocks.append(t["project"].format(name=grounding.project_name))
        context = [f"**{k}:** {_clip(str(v), 300)}" for k, v in grounding.project_context.items()]
        if context:
            blocks.append(_bullets(context))
    if grounding.decisions:
        blocks += [t["decisions"], _bullets([_clip(d, 300) for d in grounding.decisions])]
    return blocks


def _method_blocks(grounding: Grounding, t: dict[str, Any], verbosity: str) -> list[str]:
    if not grounding.sections:
        return [t["no_match"]]
    count, chars = SECTION_LIMITS.get(verbosity, SECTION_LIMITS["normal"])
    blocks = [t["method"]]
    for section in grounding.sections[:count]:
        blocks.append(f"#### {section.heading} [{section.guide} > {section.heading}]")
        blocks.append(_clip(section.text.strip(), chars))
    if grounding.expected_output:
        blocks += [t["produce"], _numbered(grounding.expected_output)]
    if verbosity == "brief":
        return blocks
    return [*blocks, t["next"], _numbered(t["next_items"])]


def _sources(grounding: Grounding, t: dict[str, Any], verbosity: str) -> str:
    if not grounding.sections:
        return str(t["no_sources"])
    count = SECTION_LIMITS.get(verbosity, SECTION_LIMITS["normal"])[0]
    # The project's citation form, `[file.md > Heading]`, which validation checks.
    return _bullets([f"[{s.guide} > {s.heading}]" for s in grounding.sections[:count]])


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


def _numbered(items: list[str]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
