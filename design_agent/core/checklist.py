"""The checklist of one answer, as events, memory and the report carry it (computed by
knowledge/validation.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from design_agent.core.evidence import EvidenceReport


class CheckItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    passed: bool
    detail: str = ""
    # False where the text cannot show it: an offline answer quotes the method, so its
    # wording says nothing about the method having been applied.
    assessed: bool = True


class Validation(BaseModel):
    """The checklist for one answer."""

    items: list[CheckItem]
    citations: list[str]
    invalid_citations: list[str]
    # A research answer's quotes checked against the project's evidence (evidence/verify.py).
    evidence: EvidenceReport | None = None

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
        failed = [item.label for item in self.items if item.assessed and not item.passed]
        tail = f" (missing: {', '.join(failed)})" if failed else ""
        skipped = len(self.items) - self.assessed
        tail += f"; {skipped} not assessed offline" if skipped else ""
        flagged = f"; {len(self.invalid_citations)} unknown citation(s)" * bool(
            self.invalid_citations
        )
        return f"checklist {self.score}{tail}{flagged}"
