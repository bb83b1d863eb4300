"""`design-agent match`: which design task a message asks for, with scores.

Other tools measure matching through this command, so its JSON is the
MatchResult model as is.
"""

from __future__ import annotations

import click

from design_agent.cli.options import WholeNumber, app_of, json_option
from design_agent.cli.output import console, print_json
from design_agent.cli.stdin import read_stdin
from design_agent.core.errors import UsageError


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
@json_option
@click.pass_context
def match(ctx: click.Context, message: tuple[str, ...], limit: int, as_json: bool) -> None:
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
    """
    from design_agent.understanding.matching import Matcher

    text = _message_text(message)
    catalogue = app_of(ctx).catalogue
    result = Matcher.from_catalogue(catalogue).match(text, limit=limit)
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
