"""Step 2: meta-requests said in plain English or Spanish, as action envelopes.

"I'm starting a new project for a mobile checkout redesign", "cambia a Claude",
"why did we go with moderated testing?", "here is the brief: ./brief.pdf"...
are recognised here by ordered patterns over accent-folded text. Anything
that is not a meta-request is a design request and goes to task matching.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from design_agent.actions import ActionEnvelope

Rule = Callable[[str, str, Sequence[str]], ActionEnvelope | None]

_PATH = re.compile(r"(?P<path>(?:~|\.{1,2})?/?[\w.~/-]*[\w-]\.(?:pdf|md|markdown|txt|text))\b")
_FILE_WORDS = re.compile(
    r"\b(brief|file|upload|attach|attached|here is|here's|heres|document|doc|research"
    r"|archivo|adjunto|sube|subo|aqui|documento|investigacion)\b"
)
_CROSS = re.compile(
    r"\b(another|other|any|all|previous|past)\s+projects?\b|\bacross projects\b"
    r"|\b(otro|otros|cualquier|todos los|anteriores?)\s+proyectos?\b"
)


def fold_same_length(text: str) -> str:
    """Lowercase, strip accents, keep one character per character (spans map back)."""
    out = []
    for char in text:
        base = unicodedata.normalize("NFKD", char.lower())
        kept = "".join(c for c in base if not unicodedata.combining(c))
        out.append(kept[:1] if len(kept) >= 1 else char.lower()[:1] or " ")
    return "".join(out)


def detect_action(
    text: str, providers: Sequence[str] = (), projects: Sequence[str] = ()
) -> ActionEnvelope | None:
    """The meta-request in `text`, or None for a design request.

    `providers` are adapter names ("claude", "gemini"...): "switch to gemini"
    changes provider, "switch to Enterprise Dashboard" changes project.
    """
    original = " ".join(text.split())  # a pasted multi-line message reads as one line
    folded = fold_same_length(original)
    for rule in RULES:
        envelope = rule(original, folded, providers)
        if envelope is not None:
            return envelope
    return None


def _span(original: str, match: re.Match[str], group: str) -> str:
    start, end = match.span(group)
    return _clean_name(original[start:end])


def _clean_name(name: str) -> str:
    name = name.strip().strip("\"'“”«»¿?¡!.,:; ")
    return re.sub(r"\s+", " ", name)


# -- providers ------------------------------------------------------------------------------

_USE = re.compile(
    r"^(?:please\s+|por favor\s+)?(?:(?:let'?s\s+)?use|usa|usar|usemos|utiliza|switch(?: over)? to"
    r"|change(?: the)? provider to|cambia(?:r)?(?: el proveedor)? a|pasa a|cambiemos a)\s+"
    r"(?P<name>[\w-]+)(?:\s+(?:from now on|instead|please|de ahora en adelante|a partir de ahora"
    r"|desde ahora|por favor))*\s*[.!]?$"
)


def _provider_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    match = _USE.match(folded)
    if not match:
        return None
    name = match.group("name")
    known = {p.lower(): p for p in providers}
    aliases = {
        "claude code": "claude",
        "gemini cli": "gemini",
        "chatgpt": "codex",
        "openai": "codex",
    }
    name = aliases.get(name, name)
    if name not in known:
        return None
    return ActionEnvelope(module="providers", method="use", input={"name": known[name]})


# -- projects -------------------------------------------------------------------------------

_CREATE = [
    re.compile(
        r"\b(?:start|starting|create|creating|begin|beginning|open|opening|set up|setting up"
        r"|make|kick off|kicking off)\s+(?:a\s+|an\s+)?(?:brand\s+)?new\s+project\b(?P<rest>.*)$"
    ),
    re.compile(r"\b(?:create|start|make|add)\s+(?:a\s+)?project\b(?P<rest>.*)$"),
    re.compile(r"^new project\b(?P<rest>.*)$"),
    re.compile(
        r"\b(?:empiezo|empezamos|empezar|empecemos|comienzo|comenzamos|inicio|iniciamos|iniciar"
        r"|crea|crear|creo|creamos|abre|abro|arranco|arrancamos)\s+(?:un\s+|otro\s+)?"
        r"(?:nuevo\s+)?proyecto(?:\s+nuevo)?\b(?P<rest>.*)$"
    ),
    re.compile(r"^(?:un\s+)?(?:nuevo proyecto|proyecto nuevo)\b(?P<rest>.*)$"),
]
_NAMED = re.compile(
    r"^\s*[:,-]?\s*(?:(?:called|named|llamado|que se llama|con el nombre)\s+|[:\-]\s*)(?P<name>.+)$"
)
_ABOUT = re.compile(
    r"^\s*[:,-]?\s*(?:for|about|on|para|sobre|de)\s+(?:(?:a|an|the|our|my|un|una|el|la|los|las"
    r"|nuestro|nuestra|mi)\s+)?(?P<name>.+)$"
)


def _create_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    for pattern in _CREATE:
        match = pattern.search(folded)
        if not match:
            continue
        offset = match.start("rest")
        rest_folded, rest = folded[offset:], original[offset:]
        name, description = None, None
        for sub, is_name in ((_NAMED, True), (_ABOUT, False)):
            found = sub.match(rest_folded)
            if found:
                start, end = found.span("name")
                candidate = _clean_name(rest[start:end])
                name = _title(_first_clause(candidate))
                description = None if is_name else candidate
                break
        data = {"name": name or None, "description": description}
        return ActionEnvelope(module="projects", method="create", input=data)
    return None


def _first_clause(text: str) -> str:
    clause = re.split(r"[.;!?]|,\s|\s(?:and|y|because|porque|where|donde)\s", text, maxsplit=1)[0]
    return " ".join(clause.split()[:8])


def _title(name: str) -> str:
    return name[:1].upper() + name[1:] if name else name


_LIST = re.compile(
    r"\b(?:what|which|list|show|see)\b.*\bprojects\b|\bmy projects\b|^projects\??$"
    r"|\b(?:que|cuales|lista|listar|muestra|muestrame|ver|ensename)\b.*\bproyectos\b"
    r"|\bmis proyectos\b"
)


def _list_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    if _LIST.search(folded) and not _CROSS.search(folded.replace("my projects", "")):
        return ActionEnvelope(module="projects", method="list")
    return None


_DELETE = re.compile(
    r"\b(?:delete|remove|erase|drop|borra|borrar|elimina|eliminar|suprime)\s+(?:the\s+|el\s+)?"
    r"(?:project\s+|proyecto\s+)?(?P<name>.+?)(?:\s+project)?\s*[.!?]?$"
)


def _delete_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    if "project" not in folded and "proyecto" not in folded:
        return None
    match = _DELETE.search(folded)
    if not match:
        return None
    name = _span(original, match, "name")
    return ActionEnvelope(module="projects", method="delete", input={"name": name})


_RENAME = re.compile(
    r"\b(?:rename|renombra|renombrar|cambia el nombre (?:de|del))\s+(?:the\s+|el\s+)?"
    r"(?:project\s+|proyecto\s+)?(?P<old>.*?)\s*\b(?:to|as|a|como)\s+(?P<new>.+)$"
)


def _rename_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    match = _RENAME.search(folded)
    if not match:
        return None
    old = _span(original, match, "old") or None
    if old and fold_same_length(old) in {"project", "proyecto", "this project", "este proyecto"}:
        old = None
    new = _span(original, match, "new")
    return ActionEnvelope(module="projects", method="rename", input={"old": old, "new": new})


_SWITCH = re.compile(
    r"^(?:please\s+|ok,?\s+|por favor\s+)?(?:switch|change|go|move|jump|get)\s+(?:back\s+)?"
    r"(?:over\s+)?to\s+(?:the\s+)?(?:project\s+)?(?P<name>.+?)(?:\s+project)?\s*[.!]?$"
    r"|^(?:open|load|resume|continue)\s+(?:the\s+)?project\s+(?P<name2>.+?)\s*[.!]?$"
    r"|^(?:cambia(?:me|r)?|cambiemos|pasa(?:me|r)?|vamos|volvamos|vuelve|regresa|regresemos)"
    r"\s+(?:de nuevo\s+)?(?:al|a)\s+(?:(?:el|la)\s+)?(?:proyecto\s+)?(?P<name3>.+?)\s*[.!]?$"
    r"|^(?:abre|carga|retoma|continua)\s+(?:el\s+)?proyecto\s+(?P<name4>.+?)\s*[.!]?$"
)


def _switch_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    match = _SWITCH.match(folded)
    if not match:
        return None
    group = next(g for g in ("name", "name2", "name3", "name4") if match.group(g))
    name = _span(original, match, group)
    if not name or fold_same_length(name) in {p.lower() for p in providers}:
        return None
    return ActionEnvelope(module="projects", method="switch", input={"name": name})


# -- memory ---------------------------------------------------------------------------------

_RECALL = re.compile(
    r"^(?:(?:remind me|tell me|recuerdame|dime)\s+)?(?:why|por\s?que)\s+"
    r"(?:did|do|have|had|were|was|decidimos|elegimos|escogimos|optamos|fuimos|hicimos|usamos"
    r"|nos decidimos|se decidio|dijimos|pusimos)\b(?P<rest>.*)$"
    r"|\bwhat did (?:we|i) (?:decide|choose|pick|agree)\b(?P<rest2>.*)$"
    r"|\bque (?:decidimos|elegimos|acordamos)\b(?P<rest3>.*)$"
)


def _recall_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    match = _RECALL.search(folded.lstrip("¿ "))
    if not match:
        return None
    return ActionEnvelope(module="memory", method="recall", input={"query": original})


_SEARCH = re.compile(
    r"\b(?:did|have)\s+(?:i|we)\b.*\b(?:similar|before|already|previously|in another|elsewhere)\b"
    r"|^(?:search|find|look up|look for)\b|\bwhat did (?:we|i) (?:say|discuss|talk|write)\b"
    r"|\b(?:resolvi|resolvimos|hice|hicimos|trabaje|vimos)\b.*\b(?:parecido|similar|antes"
    r"|otro proyecto)\b|^(?:busca|buscar|encuentra)\b|\bde que hablamos\b|\bhablamos de\b"
)


def _search_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    if not _SEARCH.search(folded.lstrip("¿ ")):
        return None
    data = {"query": original, "all_projects": bool(_CROSS.search(folded))}
    return ActionEnvelope(module="memory", method="search", input=data)


# -- files ----------------------------------------------------------------------------------


def _file_rule(original: str, folded: str, providers: Sequence[str]) -> ActionEnvelope | None:
    match = _PATH.search(original)
    if not match or not _FILE_WORDS.search(folded):
        return None
    file_type = "research" if re.search(r"\b(research|investigacion)\b", folded) else "brief"
    if re.search(r"\b(design|diseno|mockup|spec)\b", folded) and "brief" not in folded:
        file_type = "design"
    return ActionEnvelope(
        module="files", method="add", input={"path": match.group("path"), "file_type": file_type}
    )


# Order matters: the most specific phrasing first.
RULES: list[Rule] = [
    _file_rule,
    _provider_rule,
    _create_rule,
    _delete_rule,
    _rename_rule,
    _list_rule,
    _recall_rule,
    _search_rule,
    _switch_rule,
]
