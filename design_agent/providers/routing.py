"""Model tier routing: a fast model by default, a deep one when the request needs it.

Deep when the request is long, structured (a list, several questions) or
asks for reasoning (compare, trade-off, why, strategy, plan; and their
Spanish forms). The reason is reported to the user with the chosen tier.
"""

from __future__ import annotations

import re

from design_agent.core.text import fold
from design_agent.providers.events import Tier

LONG_WORDS = 120
MANY_QUESTIONS = 2
LIST_ITEMS = 3
REASONING_WORDS = (
    # English
    "compare", "comparing", "comparison", "versus", "vs", "trade-off", "trade-offs",
    "tradeoff", "tradeoffs", "pros and cons", "why", "strategy", "strategic", "plan",
    "planning", "roadmap", "prioritize", "prioritise", "evaluate", "justify",
    # Spanish (matched without accents: "por qué" -> "por que")
    "comparar", "compara", "comparacion", "compensacion", "compensaciones",
    "ventajas y desventajas", "pros y contras", "por que", "estrategia", "estrategico",
    "plan", "planificar", "planifica", "planificacion", "planear", "hoja de ruta",
    "priorizar", "prioriza", "evaluar", "justificar",
)  # fmt: skip
_REASONING = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(w) for w in REASONING_WORDS) + r")(?![\w-])"
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+\S", re.MULTILINE)


def choose_tier(message: str, setting: str = "auto") -> tuple[Tier, str]:
    """The tier for `message` under the tier setting (auto | fast | deep), and why."""
    if setting == "fast":
        return "fast", "tier set to fast in settings"
    if setting == "deep":
        return "deep", "tier set to deep in settings"
    words = len(message.split())
    if words > LONG_WORDS:
        return "deep", f"long request ({words} words)"
    questions = message.count("?")
    if questions >= MANY_QUESTIONS:
        return "deep", f"structured request ({questions} questions)"
    items = len(_LIST_ITEM.findall(message))
    if items >= LIST_ITEMS:
        return "deep", f"structured request (a list of {items} items)"
    found = _REASONING.search(fold(message))
    if found:
        return "deep", f"asks for reasoning ('{found.group(1)}')"
    return "fast", "short, direct request"
