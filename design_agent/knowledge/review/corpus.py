"""The answer corpus the review is measured on (tests/data/answers/*.yaml; a held-out
folder alike): each file one answer, good or seeded with known defects. A seeded defect
counts as named when a failed item's detail holds its hint (any of the alternatives, in
any case); a good answer with any failed item is a false alarm. Used by the suite
(tests/test_review_corpus.py) and benchmarks/review.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from design_agent.core.checklist import Validation

DefectKind = Literal[
    "missing_part",
    "arithmetic",
    "percentage",
    "sample_size",
    "invented_citation",
    "no_limitations",
    "no_confidence",
    "decision_conflict",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CorpusDecision(_Model):
    text: str = Field(min_length=1)
    why: str = ""


class CorpusProject(_Model):
    name: str = Field(min_length=1)
    users: str = ""
    problem: str = ""
    constraints: str = ""
    decisions: list[CorpusDecision] = Field(default_factory=list)


class Defect(_Model):
    kind: DefectKind
    hint: list[str] = Field(min_length=1)
    note: str = ""

    @field_validator("hint", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str | int | float) else value

    @field_validator("hint")
    @classmethod
    def _as_text(cls, value: list[object]) -> list[str]:
        return [str(v) for v in value]

    def named_by(self, validation: Validation) -> bool:
        details = [item.detail.casefold() for item in validation.failed]
        return any(h.casefold() in d for h in self.hint for d in details)


class Case(_Model):
    """One answer of the corpus."""

    id: str
    method: str
    language: Literal["en", "es"]
    verbosity: Literal["brief", "normal", "detailed"] = "normal"
    request: str
    project: CorpusProject
    quality: Literal["good", "seeded"]
    defects: list[Defect] = Field(default_factory=list)
    answer: str


def load_cases(folder: Path) -> list[Case]:
    """Every `<id>.yaml` of `folder`, sorted by id."""
    cases = []
    for path in sorted(folder.glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        cases.append(Case.model_validate(raw))
    return cases


@dataclass
class Figures:
    """Defects named by kind and language; good answers with a failed item."""

    planted: Counter[tuple[str, str]] = field(default_factory=Counter)
    named: Counter[tuple[str, str]] = field(default_factory=Counter)
    missed: list[str] = field(default_factory=list)
    good: Counter[str] = field(default_factory=Counter)
    alarms: list[str] = field(default_factory=list)
    # Both errors of the decision check: answers with recorded decisions that plan against
    # none of them, and those flagged anyway.
    respecting: int = 0
    wrongly_flagged: list[str] = field(default_factory=list)

    def add(self, case: Case, validation: Validation) -> None:
        self._decisions(case, validation)
        if case.quality == "good":
            self.good[case.language] += 1
            failed = validation.failed
            if failed:
                self.alarms.append(f"{case.id}: {'; '.join(i.detail or i.label for i in failed)}")
            return
        for defect in case.defects:
            key = (defect.kind, case.language)
            self.planted[key] += 1
            if defect.named_by(validation):
                self.named[key] += 1
            else:
                self.missed.append(f"{case.id}: {defect.kind} {defect.hint} ({defect.note})")

    def _decisions(self, case: Case, validation: Validation) -> None:
        conflicting = any(d.kind == "decision_conflict" for d in case.defects)
        if not case.project.decisions or conflicting:
            return
        self.respecting += 1
        flagged = [i for i in validation.failed if i.decision_id is not None]
        if flagged:
            self.wrongly_flagged.append(f"{case.id}: {flagged[0].detail}")

    @property
    def named_share(self) -> float:
        total = sum(self.planted.values())
        return sum(self.named.values()) / total if total else 1.0

    @property
    def alarm_share(self) -> float:
        total = sum(self.good.values())
        return len(self.alarms) / total if total else 0.0

    def lines(self) -> list[str]:
        """The figures as a small table, then what was missed and the false alarms."""
        out = ["kind                 en        es        all"]
        for kind in sorted({k for k, _ in self.planted}):
            cells = [self._cell([(kind, lang)]) for lang in ("en", "es")]
            cells.append(self._cell([(kind, "en"), (kind, "es")]))
            out.append(f"{kind:<20} " + " ".join(f"{c:<9}" for c in cells))
        total = sum(self.planted.values())
        out.append(f"seeded defects named: {sum(self.named.values())}/{total} "
                   f"({self.named_share:.0%})")  # fmt: skip
        good = sum(self.good.values())
        out.append(f"good answers with a failed item: {len(self.alarms)}/{good} "
                   f"({self.alarm_share:.0%})")  # fmt: skip
        out.append(f"answers respecting their decisions flagged: {len(self.wrongly_flagged)}/"
                   f"{self.respecting}")  # fmt: skip
        out += [f"  missed  {m}" for m in self.missed]
        out += [f"  flagged {f}" for f in self.wrongly_flagged]
        out += [f"  alarm   {a}" for a in self.alarms]
        return out

    def _cell(self, keys: Iterable[tuple[str, str]]) -> str:
        planted = sum(self.planted[k] for k in keys)
        named = sum(self.named[k] for k in keys)
        return f"{named}/{planted}" if planted else "-"


def measure(cases: Iterable[Case], reviewed: Callable[[Case], Validation]) -> Figures:
    """The figures of `reviewed` (a case to its answer's review) over `cases`."""
    figures = Figures()
    for case in cases:
        figures.add(case, reviewed(case))
    return figures
