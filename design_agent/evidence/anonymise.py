"""`evidence.anonymise`: people's names replaced by their participant ids (P3, M1) in what
is sent to a provider. Each full name, and each first name that belongs to one person only,
is replaced as a whole word, longest first."""

from __future__ import annotations

import re
from collections.abc import Mapping


def anonymiser(names: Mapping[str, str]) -> re.Pattern[str] | None:
    """One pattern for every name worth replacing (None when there are none)."""
    table = replacements(names)
    if not table:
        return None
    alternatives = "|".join(re.escape(n) for n in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def replacements(names: Mapping[str, str]) -> dict[str, str]:
    """name (lower case) -> code: full names, and first names no one else shares."""
    table = {name.lower(): code for name, code in names.items() if len(name) > 1}
    firsts: dict[str, set[str]] = {}
    for name, code in names.items():
        parts = name.split()
        if len(parts) > 1 and len(parts[0]) > 2:
            firsts.setdefault(parts[0].lower(), set()).add(code)
    table.update({first: next(iter(codes)) for first, codes in firsts.items() if len(codes) == 1})
    return table


def anonymise(text: str, names: Mapping[str, str]) -> str:
    """`text` with every known name replaced by its participant id."""
    pattern = anonymiser(names)
    if pattern is None:
        return text
    table = replacements(names)
    return pattern.sub(lambda m: table[m.group(0).lower()], text)
