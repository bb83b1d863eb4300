"""`design-agent match`: which design task a message asks for, with scores.

Other tools measure matching through this command, so its JSON is the
MatchResult model as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from design_agent.cli.options import WholeNumber, app_of, json_option
from design_agent.cli.output import console, print_json
from design_agent.cli.stdin import read_stdin
from design_agent.core.errors import UsageError

if TYPE_CHECKING:
    from design_agent.knowledge.registry import Catalogue
    from design_agent.understanding.matching import Matcher, MatchResult


@click.command()
@click.argument("message", nargs=-1, required=True)
@click.option(
    "--limit",
    "-n",
    type=WholeNumber(),
    default=5,
    show_default=True,
    help="How many ranked tasks to show.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Mark your team's methods, say which of each method's words the message shares, "
    "and how every one of your team's methods scored, ranked or not.",
)
@json_option
@click.pass_context
def match(
    ctx: click.Context, message: tuple[str, ...], limit: int, explain: bool, as_json: bool
) -> None:
    """Show which design tasks MESSAGE asks for, best first, scored 0-100.

    Prints the detected language (en/es), the keywords, each candidate task
    with its score and band (HIGH >= 80, MEDIUM 50-79, LOW < 50), and whether
    the top two are too close to call. Words may be given unquoted; a single
    "-" reads the message from standard input.

    \b
    Examples:
      design-agent match "necesito planear una prueba de usabilidad"
      design-agent match --json -n 3 "user stories or acceptance criteria?"
      echo "journey map for renewals" | design-agent match -
      design-agent match --explain "review our pricing page"
    """
    from design_agent.understanding.matching import Matcher

    text = _message_text(message)
    catalogue = app_of(ctx).catalogue
    matcher = Matcher.from_catalogue(catalogue)
    result = matcher.match(text, limit=limit)
    if explain:
        return _explain(catalogue, matcher, text, result, as_json)
    if as_json:
        print_json(result)
        return
    out = console()
    out.print(f"language: {result.language}   keywords: {', '.join(result.keywords) or '-'}")
    if not result.candidates:
        out.print("no task matches; try naming the deliverable or the method")
    for rank, candidate in enumerate(result.candidates, start=1):
        name = catalogue.tasks[candidate.task_id].name.en
        out.print(
            f"{rank:>2}. {candidate.task_id:<28} {candidate.score:5.1f}  {candidate.band:<6}  "
            f"{name}",
            markup=False,
        )
    verdict = "ambiguous: the top two are close" if result.ambiguous else "not ambiguous"
    out.print(f"{verdict}; {'ask the user to choose' if result.needs_choice else 'proceed'}")


def _message_text(words: tuple[str, ...]) -> str:
    if words == ("-",):
        text = read_stdin('give the message as words, e.g. design-agent match "journey map"')
    else:
        text = " ".join(words)
    if not text.strip():
        raise UsageError("the message is empty; pass some words or pipe text with '-'")
    return text


def _explain(
    catalogue: Catalogue, matcher: Matcher, text: str, result: MatchResult, as_json: bool
) -> None:
    """The ranking with the team's methods marked and the words each shares with the
    message, then every team method's own score for it (ranked or not)."""
    from design_agent.understanding.overlap import shared_words

    everyone = matcher.match(text, limit=max(len(catalogue.tasks), 1)).candidates
    ranks = {c.task_id: (n, c.score) for n, c in enumerate(everyone, 1)}
    team = [t for t in sorted(catalogue.tasks) if catalogue.is_team(t)]
    rows = [
        {
            "task_id": c.task_id,
            "score": c.score,
            "band": c.band,
            "team": catalogue.is_team(c.task_id),
            "shares": shared_words(result.keywords, catalogue.tasks[c.task_id]),
        }
        for c in result.candidates
    ]
    mine = [
        {"task_id": t, "rank": ranks.get(t, (None, 0.0))[0], "score": ranks.get(t, (0, 0.0))[1]}
        for t in team
    ]
    if as_json:
        print_json({**result.model_dump(mode="json"), "explain": rows, "team_methods": mine})
        return
    _print_explained(catalogue, result, rows, mine)


def _print_explained(
    catalogue: Catalogue,
    result: MatchResult,
    rows: list[dict[str, Any]],
    mine: list[dict[str, Any]],
) -> None:
    out = console()
    out.print(f"language: {result.language}   keywords: {', '.join(result.keywords) or '-'}")
    for rank, row in enumerate(rows, start=1):
        mark = "  yours" if row["team"] else ""
        name = catalogue.tasks[row["task_id"]].name.en
        out.print(
            f"{rank:>2}. {row['task_id']:<28} {row['score']:5.1f}  {row['band']:<6}  {name}{mark}",
            markup=False,
        )
        out.print(f"      shares: {', '.join(row['shares']) or '-'}", markup=False)
    if not mine:
        out.print("your team's methods: none (design-agent methods new adds one)")
        return
    said = [
        f"{m['task_id']} #{m['rank']} ({m['score']:.1f})" if m["rank"] else f"{m['task_id']} (0)"
        for m in mine
    ]
    out.print(f"your team's methods: {', '.join(said)}", markup=False)
