"""The checklist of one answer, as events, memory and the report carry it (computed by
knowledge/validation.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from design_agent.core.evidence import EvidenceReport


class CheckItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    passed: bool
    detail: str = ""
    # False where the text cannot show it: a point only a reader (a model on the fast tier,
    # or a person) can judge, when no model graded it.
    assessed: bool = True
    # The answer's own words the item rests on: a model's quote, a conflicting sentence.
    evidence: str = ""
    # A recorded decision the answer plans against (the question asked after it names it).
    decision_id: int | None = None
    # Who judged it: the deterministic checks ("rule") or the fast model ("model").
    by: Literal["rule", "model"] = "rule"


class Validation(BaseModel):
    """The checklist for one answer."""

    items: list[CheckItem]
    citations: list[str]
    invalid_citations: list[str]
    # A research answer's quotes checked against the project's evidence (evidence/verify.py).
    evidence: EvidenceReport | None = None
    # The model-graded pass: "graded" merged in, "unavailable" (failed or timed out: the
    # deterministic checks stand alone, and the footer says so), None when none was run.
    model_review: Literal["graded", "unavailable"] | None = None

    @property
    def failed(self) -> list[CheckItem]:
        """The items judged and not met."""
        return [item for item in self.items if item.assessed and not item.passed]

    def failed_lines(self) -> list[str]:
        """What is wrong, one line per failed item, as shown under the answer."""
        return [f"✗ {item.detail or item.label}" for item in self.failed]

    @property
    def passed(self) -> int:
        return sum(item.passed for item in self.items if item.assessed)

    @property
    def assessed(self) -> int:
        return sum(item.assessed for item in self.items)

    @property
    def score(self) -> str:
        return f"{self.passed}/{self.assessed}"

    def summary(self) -> str:
        failed = [item.detail or item.label for item in self.failed]
        tail = f" ({'; '.join(failed)})" if failed else ""
        skipped = len(self.items) - self.assessed
        tail += f"; {skipped} not assessed" if skipped else ""
        flagged = f"; {len(self.invalid_citations)} unknown citation(s)" * bool(
            self.invalid_citations
        )
        return f"checklist {self.score}{tail}{flagged}"
