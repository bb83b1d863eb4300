"""What a reply to a question says, in the words people use: one reader for every question.

design-agent asks yes/no questions (delete it? save them?) and numbered ones (which
method? keep which decisions? which project?). People answer "keep the second one",
"just 2", "1 and 3", "all but the last", "solo la 2", "me quedo con la primera", "sí, las
dos", "yes please, both", "no, none of them", "ninguna". `read_reply` reads all of them
from the lexicon's reply words (lexicon/<language>/replies.yaml) and says what they mean:

    read_reply("todas menos la última", options=3)  ->  Reply("pick", picks=(1, 2))
    read_reply("no, none of them", options=2)       ->  Reply("none")
    read_reply("yes please", options=0)             ->  Reply("yes")

A message with a word that is none of these is not a reply (None): "switch to acme", "what
methods do you know?", "plan a usability test" are handled as what they are. A reason
after "because" / "porque" is kept (`Reply.reason`): "2 because it covers recruiting".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Literal

from design_agent.core.lexicon import Lexicon, lexicon
from design_agent.core.text import fold, fold_mapped, reading_of

ReplyKind = Literal["yes", "no", "pick", "all", "none", "skip", "cancel"]
# The longest reply phrase, in words ("ni una ni otra", "for the reason that").
MAX_PHRASE_WORDS = 4
MAX_REPLY_WORDS = 24  # longer is a message, not a reply (its reason aside)
_TOKEN = re.compile(r"\d+(?:st|nd|rd|th|a|o|ª|º)?|[a-z0-9ªº]+(?:['’][a-z]+)?|[,;&+/]")


@dataclass(frozen=True)
class Reply:
    """What a reply says: yes, no, which options (1-based), all, none, skip or cancel."""

    kind: ReplyKind
    picks: tuple[int, ...] = ()
    reason: str = ""
    # Picked options the question does not have ("the third" of two): asked again.
    out_of_range: tuple[int, ...] = ()
    # A yes or a no said with the choice ("sí, la 1", "no, none of them").
    said_yes: bool = False
    said_no: bool = False

    def chosen(self, options: int) -> tuple[int, ...]:
        """The options this reply keeps, 1-based, of `options` (all for "yes" and "all")."""
        if self.kind in ("yes", "all"):
            return tuple(range(1, options + 1))
        return self.picks if self.kind == "pick" else ()


@dataclass(frozen=True)
class _Words:
    """The reply words of every language, by kind, as folded phrases."""

    kinds: dict[str, str]  # phrase -> yes / no / all / none / skip / cancel / except / filler
    positions: dict[str, int]  # ordinal and number words -> position (negative from the end)
    because: frozenset[str]
    cardinal_nouns: frozenset[str]  # "one" after a position: "the second one"


def read_reply(message: str, options: int = 0) -> Reply | None:
    """What `message` answers to a question with `options` numbered options (0: a yes/no
    question); None when it is not made of reply words."""
    said, reason = _split_reason(reading_of(message))  # a reply is short: read a bounded part
    tokens = _TOKEN.findall(fold(said).replace("’", "'"))
    if not tokens or len(tokens) > MAX_REPLY_WORDS:
        return None
    read = _read_tokens(tokens, _words(lexicon()))
    if read is None:
        return None
    return _meaning(read, options, reason)


@dataclass
class _Read:
    flags: set[str]
    picks: list[int]
    excluded: list[int]


def _read_tokens(tokens: list[str], words: _Words) -> _Read | None:
    read = _Read(set(), [], [])
    excluding = False
    index = 0
    while index < len(tokens):
        phrase, kind, size = _longest(tokens, index, words)
        index += size
        if kind is None:
            position = _position(phrase, words)
            if position is None:
                return None
            (read.excluded if excluding else read.picks).append(position)
            if index < len(tokens) and tokens[index] in words.cardinal_nouns:
                index += 1  # "the second one", "la primera": "one" names the option
        elif kind == "except" and (read.flags & {"all", "yes"} or read.picks):
            excluding = True
        elif kind in ("filler", "separator", "except"):
            continue
        else:
            read.flags.add(kind)
    return read


def _longest(tokens: list[str], start: int, words: _Words) -> tuple[str, str | None, int]:
    """The longest reply phrase at `start`, its kind (None: a position or nothing) and size."""
    for size in range(min(MAX_PHRASE_WORDS, len(tokens) - start), 0, -1):
        phrase = " ".join(tokens[start : start + size])
        kind = words.kinds.get(phrase)
        if kind is not None:
            return phrase, kind, size
        if phrase in words.positions and size > 1:
            return phrase, None, size
    token = tokens[start]
    return token, ("separator" if token in ",;&+/" else None), 1


def _position(token: str, words: _Words) -> int | None:
    number = re.fullmatch(r"(\d+)(?:st|nd|rd|th|a|o|ª|º)?", token)
    if number:
        return int(number.group(1))
    return words.positions.get(token)


def _meaning(read: _Read, options: int, reason: str) -> Reply | None:
    flags = read.flags
    yes, no = "yes" in flags, "no" in flags
    if "cancel" in flags:
        return Reply("cancel", reason=reason)
    picks = _resolve(read.picks, options)
    excluded = set(_resolve(read.excluded, options))
    if read.excluded or ("all" in flags and options):
        kept = [n for n in range(1, options + 1) if n not in excluded]
        return Reply("pick" if excluded else "all", tuple(kept), reason, said_yes=yes, said_no=no)
    if picks:
        inside = tuple(dict.fromkeys(n for n in picks if 1 <= n <= options))
        outside = tuple(n for n in picks if not 1 <= n <= options)
        return Reply("pick", inside, reason, outside, said_yes=yes, said_no=no)
    if "none" in flags:
        return Reply("none", reason=reason, said_no=no)
    if "all" in flags:
        return Reply("all", reason=reason, said_yes=yes)
    simple: tuple[ReplyKind, ...] = ("skip", "no", "yes")
    for kind in simple:
        if kind in flags and not (yes and no):
            return Reply(kind, reason=reason, said_yes=yes, said_no=no)
    return None


def _resolve(positions: list[int], options: int) -> list[int]:
    """Positions counted from the end (-1: the last) made 1-based, when the count is known."""
    return [options + 1 + p if p < 0 and options else p for p in positions]


def named_option(message: str, names: list[str]) -> int | None:
    """The option (1-based) a reply names by the words only its name has ("the mobile one"
    of Acme Admin Portal and Acme Mobile, "la de gemini"); None unless exactly one."""
    heard = set(_TOKEN.findall(fold(_split_reason(message)[0])))
    named = [set(_TOKEN.findall(fold(name))) for name in names]
    found = []
    for index, words in enumerate(named, 1):
        others = set().union(*(w for i, w in enumerate(named, 1) if i != index))
        own = {w for w in words - others if len(w) > 2}
        if own and own & heard:
            found.append(index)
    return found[0] if len(found) == 1 else None


def reason_in(message: str) -> str:
    """The reason given after "because" / "porque" in `message`, as typed ("" when none)."""
    return _split_reason(message)[1]


def _split_reason(message: str) -> tuple[str, str]:
    """The reply and the reason after its first "because" / "porque", both as typed."""
    folded, origin = fold_mapped(message)
    for marker in sorted(_words(lexicon()).because, key=len, reverse=True):
        found = re.search(rf"(?:^|[\s,;]){re.escape(marker)}(?=[\s,:]|$)", folded)
        if found and found.start() > 0:
            cut = origin[found.start()]
            after = origin[found.end() - 1] + 1
            return message[:cut], message[after:].strip(" ,:;.")
    return message, ""


@cache
def _words(words: Lexicon) -> _Words:
    kinds: dict[str, str] = {}
    # Later kinds win a phrase two lists share: "no" is a no, never the Spanish "except".
    for kind, name in (
        ("filler", "fillers"),
        ("except", "except"),
        ("skip", "skip"),
        ("all", "all"),
        ("none", "none"),
        ("yes", "yes_words"),
        ("no", "no_words"),
        ("cancel", "cancel"),
    ):
        kinds.update(dict.fromkeys(words.union(name), kind))
    positions = {k: int(v) for k, v in words.merged_table("cardinals").items()}
    positions |= {k: int(v) for k, v in words.merged_table("ordinals").items()}
    for phrase in positions:
        kinds.pop(phrase, None)  # "one" in "the second one" is a filler; alone it is 1
    nouns = frozenset(k for k, v in words.merged_table("cardinals").items() if v == 1)
    return _Words(kinds, positions, words.union("because"), nouns)
