"""Usage and budget, by talking: "how much have I spent?", /usage, and the budget question.

`usage.show` reports the active project's answers (or every project's) grouped
by provider, model, day or project, all time, as `design-agent usage` does.
The reply to the budget question (`BudgetConfirm`, left by budget.py) is read
here: "yes" hands the held request back to the pipeline (`budget.confirmed`,
the request in its data) to run over budget; "no" leaves it unsent.
"""

from __future__ import annotations

from design_agent.actions.base import ActionContext, ActionResult, AnswerAgain, action, answers
from design_agent.actions.usage_view import text_table
from design_agent.core.events import ActionDone
from design_agent.memory.usage import UsageQuery, usage_report
from design_agent.understanding.conversation import BudgetConfirm
from design_agent.understanding.inputs import UsageShow
from design_agent.understanding.replies import Reply

CONFIRMED = "budget.confirmed"  # the pipeline runs `data["request"]` when it sees this


@action("usage", "show", UsageShow)
def show(data: UsageShow, ctx: ActionContext) -> ActionResult:
    """The usage table as a reply; its figures in `data` (as `usage --json`)."""
    project = None if data.all_projects else ctx.project
    query = UsageQuery(by=data.by, project_id=project.id if project else None)
    report = usage_report(ctx.services.memory.db, query)
    scope = (
        ctx.say("usage_scope_project", name=project.name) if project else ctx.say("usage_scope_all")
    )
    message = text_table(report, scope, ctx.language)
    done = ActionDone(action="usage.show", message=message, data=report.model_dump(mode="json"))
    return ActionResult(done)


@answers("budget_confirm")
def answer_budget(
    message: str, reply: Reply | None, pending: BudgetConfirm, ctx: ActionContext
) -> ActionResult | None:
    """ "yes": the held request runs over budget; "no": nothing is sent; else not an answer."""
    kind = reply.kind if reply is not None else None
    if kind == "yes":
        data = {"request": pending.request}
        going_on = ctx.done(CONFIRMED, "budget_going_on", data)
        return ActionResult(going_on, then=AnswerAgain(pending.request, over_budget=True))
    if kind in ("no", "cancel", "none"):
        return ActionResult(ctx.done("budget.declined", "budget_declined"))
    return None
