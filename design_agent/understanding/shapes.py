"""A method described by what it does, not by its name: its shape.

"watch five customers try to pay with the new wallet" never says "usability test", and its
words name other methods (paying is pricing's). What names the method is the shape of the
request: someone watching people try something. A task declares its shapes in
config/tasks.yaml as lists of lexicon groups (`[watching_words, attempt_words]`); the
groups' words are each language's (lexicon/<language>/shapes.yaml), so a shape is written
once for every language. A message has a shape when one sentence has a word or phrase of
each of its groups, in any order. Matching counts a shape as much as a phrase that names the
task (understanding/matching.py).

One group is read from the sentence's form rather than its words: `a_list`, several short
items joined by commas and a last "and"/"y" ("Duolingo, Babbel and Busuu", "concejales,
técnicos y la empresa de limpieza"): the companies a comparison is with, the people a
project answers to. The lexicon's `a_list` gives the words that join the last item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from design_agent.core.lexicon import Lexicon
from design_agent.core.models import Task
from design_agent.core.text import fold

_PERCENT = re.compile(r"\d+(?:[.,]\d+)?\s*%")
_TOKEN = re.compile(r"[a-z0-9]+|[.;!¡\n,:]")
# A question and what follows it are one thought ("can people find it in the menu? just the
# labels"): only these end a sentence.
_SENTENCE_MARKS = frozenset(".;!¡\n")
_CLAUSE_MARKS = frozenset(",:")
Phrase = tuple[str, ...]
# A negator this many words before a phrase negates it ("without us watching live").
NEGATION_REACH = 3
# The group a sentence listing several short items has ("Monzo, Revolut and N26").
LIST_GROUP = "a_list"
# The most words a listed item has ("la empresa de limpieza").
LIST_ITEM_WORDS = 4


@dataclass(frozen=True, slots=True)
class ShapeIndex:
    """Every task's shapes and the phrases of the groups they are written with."""

    # first word -> (phrase, group) for every phrase of a group some shape uses
    phrases_by_first: dict[str, tuple[tuple[Phrase, str], ...]]
    # (task position, its groups) for every shape
    shapes: tuple[tuple[int, frozenset[str]], ...]
    # words that negate what follows them: "without us watching live" is no watching
    negators: frozenset[str]
    # the words that join a list's last item ("and", "y"), when some shape uses a_list
    joiners: frozenset[str] = frozenset()

    @classmethod
    def build(cls, tasks: Iterable[Task], words: Lexicon) -> ShapeIndex:
        shapes = tuple(
            (position, frozenset(shape))
            for position, task in enumerate(tasks)
            for shape in task.shapes
        )
        groups = {group for _task, shape in shapes for group in shape}
        by_first: dict[str, list[tuple[Phrase, str]]] = {}
        for group in sorted(groups - {LIST_GROUP}):  # a list is read from its form
            for entry in sorted(words.union(group)):
                phrase = tuple(_TOKEN.findall(entry))
                if phrase:
                    by_first.setdefault(phrase[0], []).append((phrase, group))
        negators = frozenset(
            w for w in words.union("negation_triggers") | words.union("negators") if " " not in w
        )
        joiners = words.union(LIST_GROUP) if LIST_GROUP in groups else frozenset()
        return cls({w: tuple(p) for w, p in by_first.items()}, shapes, negators, joiners)

    def tasks_in(self, text: str) -> frozenset[int]:
        """The positions of the tasks whose shape one sentence of `text` has."""
        if not self.shapes:
            return frozenset()
        found: set[int] = set()
        sentences = _groups_per_sentence(text, self.phrases_by_first, self.negators, self.joiners)
        for groups in sentences:
            found.update(task for task, shape in self.shapes if shape <= groups)
        return frozenset(found)


def _groups_per_sentence(
    text: str,
    by_first: dict[str, tuple[tuple[Phrase, str], ...]],
    negators: frozenset[str],
    joiners: frozenset[str] = frozenset(),
) -> list[frozenset[str]]:
    tokens = _TOKEN.findall(_PERCENT.sub(" percent ", fold(text)))
    sentences: list[frozenset[str]] = []
    present: set[str] = set()
    # The list being read: whether a comma was seen, and the words since the last one.
    comma, item = False, 0
    for index, token in enumerate(tokens):
        if token in _SENTENCE_MARKS:
            if present:
                sentences.append(frozenset(present))
            present = set()
            comma, item = False, 0
            continue
        if token == ",":
            comma, item = True, 0
            continue
        if token in joiners and comma and 0 < item <= LIST_ITEM_WORDS:
            present.add(LIST_GROUP)  # "X, Y and Z": the item before "and" was a short one
        item += 1
        phrases = by_first.get(token, ())
        if phrases and not _negated(tokens, index, negators):
            for phrase, group in phrases:
                if tuple(tokens[index : index + len(phrase)]) == phrase:
                    present.add(group)
    if present:
        sentences.append(frozenset(present))
    return sentences


def _negated(tokens: list[str], index: int, negators: frozenset[str]) -> bool:
    """Whether a negator is among the few words before `index`, in the same clause."""
    for token in reversed(tokens[max(0, index - NEGATION_REACH) : index]):
        if token in _CLAUSE_MARKS:
            return False
        if token in negators:
            return True
    return False
