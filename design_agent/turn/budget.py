"""A monthly cost budget per project: a warning at 80 %, a confirmation once it is spent.

`config set budget.monthly_usd 20` sets one budget that applies to each
project's spend in the current calendar month (UTC), as the providers
reported it (memory/usage.py). Settings are global (there are no per-project
settings), so every project gets the same budget, counted separately.

Before an answer from a provider that reports cost (today: Claude Code, whose
stream carries `total_cost_usd`), `budget_gate` looks at the month's spend:
from 80 % on, one warning line and the turn goes on; from 100 % on, the
request is held and a yes/no question left pending (`BudgetConfirm`); "yes"
runs it (the pipeline sets `TurnRequest.over_budget`), "no" leaves it unsent.
The offline provider and CLIs that report no cost never trigger it: what
they cost is not known, and a guess would be worse than nothing. `ask`
cannot be asked, so it ends with exit code 7 and says how to go on
(`--over-budget`, `ask yes`, or a higher budget).

    gate = budget_gate(ctx, resolution.spec, message, turn.request.over_budget)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from design_agent.actions.base import ActionContext, ActionResult
from design_agent.actions.usage_view import money
from design_agent.core.errors import DesignAgentError, ExitCode
from design_agent.core.events import ActionDone
from design_agent.core.messages import say
from design_agent.memory.usage import month_spend
from design_agent.understanding.conversation import BudgetConfirm

if TYPE_CHECKING:
    from design_agent.core.events import TurnFinished
    from design_agent.providers.spec import AdapterSpec

WARN_AT = 0.8
# The stream formats whose parser reads a cost (providers/parsers/claude.py: total_cost_usd).
COST_OUTPUTS = frozenset({"claude-stream-json"})
HELD = "budget.confirm"  # the action of the question, as `ask` recognises it


class BudgetSpentError(DesignAgentError):
    """`ask` met a spent budget: nothing ran (exit 7); the message says how to go on."""

    exit_code = ExitCode.OVER_BUDGET


class BudgetStatus(BaseModel):
    """A project's spend this calendar month against the monthly budget (US dollars)."""

    # Built when first used: only a project with a budget and a provider that reports cost needs it.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    project_id: str
    spent_usd: float
    budget_usd: float

    @property
    def fraction(self) -> float:
        return self.spent_usd / self.budget_usd


@dataclass(frozen=True)
class BudgetGate:
    """What the gate decided: a warning line to show, and the question when the request is
    held (None: it runs)."""

    warning: ActionDone | None = None
    held: ActionResult | None = None


def reports_cost(spec: AdapterSpec) -> bool:
    """Whether answers from `spec` carry a cost (only those are ever held or warned)."""
    return not spec.is_offline and spec.output in COST_OUTPUTS


def budget_status(ctx: ActionContext, now: datetime | None = None) -> BudgetStatus | None:
    """The active project's month against the budget; None when no budget is set."""
    budget = ctx.services.settings.values.budget.monthly_usd
    if budget is None or ctx.project is None:
        return None
    spent = month_spend(ctx.services.memory.db, ctx.project.id, now or datetime.now(UTC))
    return BudgetStatus(project_id=ctx.project.id, spent_usd=spent, budget_usd=budget)


def budget_gate(
    ctx: ActionContext, spec: AdapterSpec, request: str, approved: bool = False
) -> BudgetGate:
    """Before an answer from `spec`: go on, go on with a warning, or hold the request."""
    status = budget_status(ctx) if reports_cost(spec) else None
    if status is None or status.fraction < WARN_AT:
        return BudgetGate()
    if status.fraction < 1 or approved:
        return BudgetGate(warning=_warning(ctx, status))
    return BudgetGate(held=_held(ctx, status, request))


def _figures(ctx: ActionContext, status: BudgetStatus) -> dict[str, str | int]:
    name = ctx.project.name if ctx.project else ""
    percent = int(status.fraction * 100 + 1e-9)  # 0.96 is 95.99999... as a float
    return {
        "name": name,
        "spent": money(status.spent_usd),
        "budget": money(status.budget_usd),
        "percent": percent,
    }


def _warning(ctx: ActionContext, status: BudgetStatus) -> ActionDone:
    data = status.model_dump()
    return ctx.done("budget.warning", "budget_warning", data, **_figures(ctx, status))


def _held(ctx: ActionContext, status: BudgetStatus, request: str) -> ActionResult:
    question = ctx.say("budget_question", **_figures(ctx, status))
    done = ActionDone(
        action=HELD,
        message=question,
        data=status.model_dump(),
        asks=question,
        needs_confirmation=True,
    )
    pending = BudgetConfirm(
        language=ctx.pending_language,
        question=question,
        project_id=status.project_id,
        request=request,
        spent_usd=status.spent_usd,
        budget_usd=status.budget_usd,
    )
    return ActionResult(done, pending)


def held_error(finished: TurnFinished | None) -> BudgetSpentError | None:
    """For `ask`, which cannot wait for a "yes": the turn held its request, so the command
    ends with exit 7 and how to go on."""
    if finished is None or finished.action != HELD:
        return None
    spent, budget = finished.data.get("spent_usd"), finished.data.get("budget_usd")
    if not isinstance(spent, int | float) or not isinstance(budget, int | float):
        return None
    values = {"spent": money(spent), "budget": money(budget), "name": finished.project}
    return BudgetSpentError(say("budget_ask_held", finished.language, **values))
