"""Whole numbers the user types: counts (`-n`), turn numbers (`--from 12`, `/goto 12`, "vuelve
al turno 12", `--turns 2,6`) and turn ids (`--turn`).

One bound for all of them, MAX_NUMBER: far above any real count or turn, and far below
what would end in a traceback (SQLite stores 64-bit integers; Python reads at most 4,300
digits as an int). A number above it is a slip of the finger, refused with one line
(UsageError, exit 2) that says the bound; the number is shortened in that line.
"""

from __future__ import annotations

from design_agent.core.errors import UsageError

MAX_NUMBER = 1_000_000_000
# Said after a turn number that is too large.
TURN_HINT = "; 'history --tree' (or /tree in the shell) shows the turn numbers"
SHOWN_DIGITS = 24  # a longer number is cut in the error line (it may be 5,000 digits long)


def too_large(text: str, what: str, hint: str = "") -> UsageError:
    """The refusal of a number above MAX_NUMBER."""
    shown = text if len(text) <= SHOWN_DIGITS else f"{text[:SHOWN_DIGITS]}… ({len(text)} digits)"
    return UsageError(f"{what} {shown} is too large (at most {MAX_NUMBER:,}){hint}")


def parse_whole(text: str, what: str = "number", hint: str = "") -> int | None:
    """'12', '#12', ' 12 ' as an int; None when the text is not a whole number (so it may be
    a name); UsageError when it is one above MAX_NUMBER."""
    digits = text.strip().removeprefix("#")
    if not digits.isdecimal():  # digits of any script, as int() reads them; not '²'
        return None
    if len(digits.lstrip("0")) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
        raise too_large(digits, what, hint)
    return int(digits)


def turn_number(text: str) -> int | None:
    """'12' or '#12' as a turn number; None when it is not one (a branch's name, say);
    UsageError when it is far too large to be one."""
    return parse_whole(text, "turn", TURN_HINT)


def bounded(number: int, what: str = "number", hint: str = "") -> int:
    """`number`, when it is at most MAX_NUMBER; UsageError otherwise."""
    if number > MAX_NUMBER:
        shown = str(number) if number < 10**100 else "(over 100 digits)"
        raise too_large(shown, what, hint)
    return number
