"""Problems in a catalogue file, said in plain words: what is wrong; what to write instead.

pydantic says "Input should be a valid dictionary or instance of Localized"; a person
editing `tasks.yaml` needs "name: give the name in each language, e.g. name: {en: ...,
es: ...}". Each error of a strict model is turned into one such sentence here, with a
real example for the field, "did you mean" for a misspelt field or id, and the valid
values when there are few of them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from pydantic_core import ErrorDetails

# Few enough valid values to list them all in a message.
SMALL_SET = 16
# How alike a typo and a valid name must be (rapidfuzz's 0-100 ratio) to suggest it.
SIMILAR = 72.0
IDENTIFIER_RULE = "use lowercase letters, digits and _"
FILE_RULE = "use letters, digits, _, - and . and end the name in .md"

TASK_EXAMPLES: dict[str, str] = {
    "id": "pricing_page_review",
    "name": "{en: Pricing page review, es: Revisión de página de precios}",
    "name.en": "{en: Pricing page review, es: Revisión de página de precios}",
    "description": "Review a pricing page for clarity and plan comparison.",
    "expected_output": "[Findings by severity, Recommendations]",
    "keywords": "{en: [pricing page, plan comparison], es: [página de precios]}",
    "keywords.en": "[pricing page, plan comparison]",
    "keywords.es": "[página de precios]",
    "guides": "[pricing_page_review.md]",
    "materials": "[pricing_checklist.md]",
    "agent": "content_specialist",
    "length": "medium",
    "inputs": "[screen_or_flow]",
    "es": "{description: Revisa una página de precios., expected_output: [Hallazgos]}",
    "es.description": "Revisa una página de precios.",
    "es.expected_output": "[Hallazgos por gravedad, Recomendaciones]",
}
AGENT_EXAMPLES: dict[str, str] = {
    "id": "pricing_specialist",
    "role": "{en: Pricing specialist, es: Especialista en precios}",
    "role.en": "{en: Pricing specialist, es: Especialista en precios}",
    "goal": "Make pricing clear enough to choose a plan in one read.",
    "backstory": "Ten years pricing SaaS products.",
    "capabilities": "[pricing pages, plan comparison]",
    "tools": "[spreadsheets]",
    "operating_procedures": "[Start from the plan people choose most]",
    "handoffs": "{to: [content_specialist], from: [research_analyst]}",
    "example_tasks": "[pricing_page_review]",
    "stance": "{en: Insists on evidence, es: Insiste en la evidencia}",
    "es": "{goal: Que los precios se entiendan a la primera.}",
    "es.goal": "Que los precios se entiendan a la primera.",
}
EXAMPLES = {"task": TASK_EXAMPLES, "agent": AGENT_EXAMPLES}
# Fields written {en: ..., es: ...}, and what the text is called.
LOCALIZED = {"name": "name", "role": "role", "stance": "stance"}


def did_you_mean(word: str, choices: Collection[str]) -> str | None:
    """The valid name closest to `word`, when it is close enough to be a typo of it."""
    from rapidfuzz import fuzz, process

    if not word or not choices:
        return None
    found = process.extractOne(word, list(choices), scorer=fuzz.ratio, score_cutoff=SIMILAR)
    return str(found[0]) if found else None


def unknown_hint(word: str, choices: Collection[str], what: str, command: str) -> str:
    """What to write instead of an unknown `word`: the closest valid one, else every valid
    one when there are few, else the command that lists them."""
    close = did_you_mean(word, choices)
    if close is not None:
        return f"did you mean {close}?"
    if 0 < len(choices) <= SMALL_SET:
        return f"write one of the {what}: {', '.join(sorted(choices))}"
    return f"'{command}' lists the {what}"


def plain_error(kind: str, label: str, error: ErrorDetails, fields: Collection[str]) -> str:
    """One pydantic error of a `kind` entry ("task", "agent") as `label: what is wrong; what
    to write instead`; `fields` are the entry's valid field names."""
    loc = [str(part) for part in error["loc"]]
    where = ".".join(loc)
    said = _said(kind, where, loc, error, fields)
    return f"{label}: {said}"


def _said(
    kind: str, where: str, loc: list[str], error: ErrorDetails, fields: Collection[str]
) -> str:
    kind_of = error["type"]
    value = error.get("input")
    example = _example(kind, loc)
    if kind_of == "extra_forbidden":
        return _unknown_field(loc, fields)
    if kind_of == "missing":
        return _missing(kind, where, loc, example)
    if kind_of in ("model_type", "dict_type", "model_attributes_type"):
        return _not_a_mapping(loc, where, example, value)
    if kind_of == "string_pattern_mismatch":
        return _bad_name(loc, where, str(value))
    if kind_of == "literal_error":
        expected = str(error.get("ctx", {}).get("expected", "")).replace("'", "")
        return f"{where} '{value}' is not one of {expected}; write e.g. {where}: {example}"
    return _shape(kind_of, where, value, example) or f"{where}: {error['msg']}"


def _shape(kind_of: str, where: str, value: Any, example: str) -> str | None:
    """Errors about the kind of value: a list, a text, an empty one."""
    if kind_of == "list_type":
        suggestion = f"[{value}]" if isinstance(value, str) and value else example
        return f"{where} must be a list; write {where}: {suggestion}"
    if kind_of == "string_type":
        if isinstance(value, list) and len(value) == 1:
            return f"{where} must be one text, not a list; write {where}: {value[0]}"
        return f"{where} must be text; write e.g. {where}: {example}"
    if kind_of == "string_too_short":
        return f"{where} is empty; write e.g. {where}: {example}"
    if kind_of == "too_short":
        return f"{where} is an empty list; give at least one, e.g. {where}: {example}"
    if kind_of == "string_too_long":
        return f"{where} is too long; keep it under 64 characters"
    if kind_of == "value_error":
        return None
    return None


def _example(kind: str, loc: list[str]) -> str:
    table: Mapping[str, str] = EXAMPLES.get(kind, TASK_EXAMPLES)
    named = [part for part in loc if not part.isdigit()]
    for end in range(len(named), 0, -1):
        found = table.get(".".join(named[:end]))
        if found is not None:
            return found
    return "..."


def _unknown_field(loc: list[str], fields: Collection[str]) -> str:
    key = loc[-1]
    close = did_you_mean(key, fields) if len(loc) == 1 else None
    if close is not None:
        return f"unknown field '{key}'; did you mean {close}?"
    where = ".".join(loc[:-1])
    if len(loc) == 1:
        return f"unknown field '{key}'; the fields are: {', '.join(sorted(fields))}"
    return f"unknown field '{key}' in {where}; check its spelling (remove it if unsure)"


def _missing(kind: str, where: str, loc: list[str], example: str) -> str:
    if loc and loc[0] in LOCALIZED and len(loc) == 2:
        return f"{loc[0]} has no '{loc[1]}'; give it in each language, e.g. {loc[0]}: {example}"
    return f"{where} is missing; add {where}: {example}"


def _not_a_mapping(loc: list[str], where: str, example: str, value: Any) -> str:
    field = loc[0] if loc else where
    if field in LOCALIZED and len(loc) == 1:
        word = LOCALIZED[field]
        english = value if isinstance(value, str) and value.strip() else "..."
        return (
            f"{field}: give the {word} in each language, e.g. {field}: {{en: {english}, es: ...}}"
        )
    return f"{where}: give its parts as a mapping, e.g. {where}: {example}"


def _bad_name(loc: list[str], where: str, value: str) -> str:
    """An id or a file name that does not follow the rule, said with what is wrong in it."""
    is_file = loc[0] in ("guides", "materials")
    flaws = _flaws(value, is_file)
    noun = "guide" if loc[0] == "guides" else "material" if loc[0] == "materials" else loc[0]
    if noun in ("to", "from"):
        noun = "agent"
    what = " or ".join(flaws) if flaws else "characters that are not allowed"
    if is_file:
        return f"{noun} '{value}' has {what}; {FILE_RULE} (e.g. {file_name(value)})"
    name = noun if not noun.isdigit() else where
    return f"{name} '{value}' has {what}; {IDENTIFIER_RULE} (e.g. {identifier(value)})"


def _flaws(value: str, is_file: bool) -> list[str]:
    flaws: list[str] = []
    if not is_file and any(c.isupper() for c in value):
        flaws.append("capitals")
    if not is_file and "-" in value:
        flaws.append("a dash")
    if any(c.isspace() for c in value):
        flaws.append("spaces")
    if not is_file and value[:1].isdigit():
        flaws.append("a digit first")
    allowed = r"[A-Za-z0-9_. -]" if is_file else r"[A-Za-z0-9_ -]"
    if re.sub(allowed, "", value):
        flaws.append("other signs")
    if is_file and not re.search(r"\.(md|csv|txt)$", value):
        flaws.append("no .md ending")
    return flaws


def identifier(text: str) -> str:
    """`text` as a catalogue id: "Pricing-Page review" -> pricing_page_review."""
    from design_agent.core.text import fold

    words = re.findall(r"[a-z0-9]+", fold(text))
    name = "_".join(words)[:64].strip("_")
    if not name or not name[0].isalpha():
        name = f"method_{name}".strip("_")
    return name if len(name) >= 2 else f"{name}_method"


def file_name(text: str) -> str:
    """`text` as a guide's file name: "Pricing Page.md" -> pricing_page.md."""
    stem = re.sub(r"\.(md|csv|txt)$", "", text.strip())
    return f"{identifier(stem)}.md"


# PyYAML's words for the usual slips, and what to do about each.
YAML_SLIPS: tuple[tuple[str, str], ...] = (
    (
        "mapping values are not allowed",
        "a ':' where YAML does not expect one; put text that holds ': ' in quotes "
        '(description: "Plans: what to test"), or put a missing line break back',
    ),
    (
        "cannot start any token",
        "a character YAML cannot read here (often a tab); indent with spaces",
    ),
    ("expected ',' or ']'", "a list [ ... ] that is never closed; end it with ]"),
    ("expected ',' or '}'", "a mapping { ... } that is never closed; end it with }"),
    (
        "expected '-' indicator",
        "a line indented differently from the lines around it; line each field up under "
        "the one above",
    ),
    ("expected <block end>", "the indentation is off; line each field up under the one above"),
    ("unexpected end of stream", "a quote that is never closed; close it on the same line"),
    ("could not find expected ':'", "a line that is not 'field: value'; add the ':'"),
)


def plain_yaml(problem: str) -> str:
    """PyYAML's description of a syntax error, in plain words."""
    for slip, said in YAML_SLIPS:
        if slip in problem:
            return f"invalid YAML: {said}"
    return f"invalid YAML: {problem}"
