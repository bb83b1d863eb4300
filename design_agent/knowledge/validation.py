"""Step 7: the review of an answer, stored with the turn (issue 26).

Every method's answer is held to the same common checks (its outline's parts found by
heading in its language, totals and percentages that can be, real citations, its
limitations, a stated confidence, the project's recorded decisions), plus what its entry
in tasks.yaml declares under `review:` (tables recomputed, the sample size its guide
supports, points only a reader can judge). Each check kind lives in knowledge/review/;
this module only runs the ones a method declares and gathers their items."""

from __future__ import annotations

from collections.abc import Callable, Collection

from design_agent.core.checklist import CheckItem, Validation
from design_agent.core.messages import say
from design_agent.core.models import Task
from design_agent.knowledge.review.citations import citation_items, citations_in
from design_agent.knowledge.review.decisions import RecordedDecision, decision_items
from design_agent.knowledge.review.document import Document
from design_agent.knowledge.review.kano import kano_item
from design_agent.knowledge.review.nps import nps_item
from design_agent.knowledge.review.outline import outline_items
from design_agent.knowledge.review.percentages import percentage_item
from design_agent.knowledge.review.power import ab_sample_item
from design_agent.knowledge.review.sample_size import sample_size_item
from design_agent.knowledge.review.scoring import scoring_item
from design_agent.knowledge.review.statements import confidence_item, limitations_item
from design_agent.knowledge.review.sus import sus_item
from design_agent.knowledge.review.totals import totals_item

__all__ = ["RecordedDecision", "citations_in", "rubric_items", "validate_answer"]

TABLES: dict[str, Callable[[Document], CheckItem]] = {
    "rice": lambda doc: scoring_item(doc, "rice"),
    "ice": lambda doc: scoring_item(doc, "ice"),
    "sus": sus_item,
    "kano": kano_item,
    "nps": nps_item,
    "revenue": lambda doc: scoring_item(doc, "revenue"),
    "ab_sample": ab_sample_item,
}
# The points every method's answer is read for by a model (or a person): not judged from
# words, so never failed for not repeating the project's name.
COMMON_RUBRIC = ("review_rubric_context", "review_rubric_method")


def validate_answer(
    answer: str,
    task: Task,
    language: str,
    sent: Collection[tuple[str, str]],
    headings_of: Callable[[str], Collection[str] | None] = lambda _: None,
    decisions: Collection[RecordedDecision] = (),
    offline: bool = False,
) -> Validation:
    """The review's items for `answer`. `sent`: the (source, heading) pairs of the guide
    sections the prompt carried; `headings_of`: the headings a guide or material of the
    catalogue has (None: no such file), so that only an invented section is named;
    `offline`: the answer is the offline skeleton, written from the outline itself, so its
    parts say nothing about it."""
    doc = Document(answer, language)
    sources = {source for source, _ in citations_in(answer)}
    known = {(s, h) for s in sources for h in (headings_of(s) or ())}
    cited, invalid = citation_items(
        doc, sent, known, {s for s in sources if headings_of(s) is not None}
    )
    outline = outline_items(doc, task.outline(language))
    decided = decision_items(doc, list(decisions))
    if offline:  # written from the outline and the guide (its alternatives too): no plan
        pending = say("review_needs_reader", language)
        outline = [_not_assessed(item, pending) for item in outline]
        decided = [_not_assessed(item, pending) for item in decided]
    review = task.review
    items = [
        *outline,
        *(TABLES[kind](doc) for kind in review.recompute),
        totals_item(doc),
        percentage_item(doc),
        *([sample_size_item(doc, review.sample_size)] if review.sample_size else []),
        cited,
        limitations_item(doc),
        confidence_item(doc),
        *decided,
        *rubric_items(task, language),
    ]
    return Validation(
        items=items, citations=[f"[{s} > {h}]" for s, h in citations_in(answer)],
        invalid_citations=invalid,
    )  # fmt: skip


def rubric_items(task: Task, language: str) -> list[CheckItem]:
    """The points only a reader can judge, not assessed until a model grades them."""
    texts = [say(key, language) for key in COMMON_RUBRIC]
    texts += [point.get(language) for point in task.review.rubric]
    pending = say("review_needs_reader", language)
    return [
        CheckItem(
            id=f"rubric_{i + 1}",
            label=text,
            passed=False,
            assessed=False,
            detail=pending,
            by="model",
        )
        for i, text in enumerate(texts)
    ]


def _not_assessed(item: CheckItem, detail: str) -> CheckItem:
    return item.model_copy(update={"passed": False, "assessed": False, "detail": detail})
