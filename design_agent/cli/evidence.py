"""`design-agent evidence`: research files in (transcripts, notes, survey exports, reviews),
listed, shown, searched and removed."""

from __future__ import annotations

from pathlib import Path

import click

from design_agent.cli.options import WholeNumber, app_of, json_option, project_option
from design_agent.cli.output import echo, print_json, print_table
from design_agent.core.evidence import EvidenceSegment, EvidenceSession


@click.group()
def evidence() -> None:
    """Research evidence: interview transcripts, notes, survey exports and reviews.

    Each file becomes a session (S01, S02...) of speaker turns with stable ids
    (S03.T047), searched in English and Spanish; research methods quote them,
    and every quote in an answer is checked against them.

    \b
    Examples:
      design-agent evidence add ./interviews/ survey.csv
      design-agent evidence list
      design-agent evidence show S03
    """


@evidence.command("add")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--moderator",
    "moderators",
    multiple=True,
    metavar="NAME",
    help="Who moderates (when design-agent cannot tell); 'none' when nobody does.",
)
@click.option(
    "--map",
    "mapping",
    metavar="FIELD=COLUMN,...",
    help="A reviews or tickets CSV's columns: text=COLUMN (and author, date, rating); kept "
    "for later files with the same columns.",
)
@project_option
@json_option
@click.pass_context
def evidence_add(
    ctx: click.Context,
    paths: tuple[Path, ...],
    moderators: tuple[str, ...],
    mapping: str | None,
    project_name: str | None,
    as_json: bool,
) -> None:
    """Add the research files at PATHS (files or folders) to the project.

    Formats: Zoom and Teams .vtt, .srt, Teams and Google Meet .docx, Otter
    .txt, markdown notes, .pdf, survey .csv (Qualtrics, SurveyMonkey, Google
    Forms) and reviews or tickets .csv (--map once). Every file is read
    before anything is stored: one that cannot be read stops them all.

    \b
    Example:
      design-agent evidence add ./interviews/ qualtrics.csv
    """
    from design_agent.evidence.ingest import add_evidence

    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    added = add_evidence(memory, project.id, list(paths), moderators, mapping)
    if as_json:
        print_json(added)
        return
    for item in added:
        echo(_added_line(item.session, item.duplicate))


def _added_line(session: EvidenceSession, duplicate: bool) -> str:
    if duplicate:
        return f"{session.source}: already here as {session.code}; nothing changed."
    people = ", ".join(session.participants[:8]) + ("…" if len(session.participants) > 8 else "")
    rows = f", {session.responses} responses" if session.responses else ""
    return (
        f"{session.code} {session.source} ({session.format}, {session.language or '?'}): "
        f"{session.segments} segments{rows}; participants {people or '-'}"
    )


@evidence.command("list")
@project_option
@json_option
@click.pass_context
def evidence_list(ctx: click.Context, project_name: str | None, as_json: bool) -> None:
    """List the project's evidence sessions.

    \b
    Example:
      design-agent evidence list --json
    """
    memory = app_of(ctx).memory
    found = memory.evidence.sessions(memory.resolve_project(project_name).id)
    if as_json:
        print_json(found)
        return
    rows = [
        [
            s.code,
            s.source,
            s.kind,
            s.format,
            s.language or "?",
            str(s.segments),
            str(s.responses),
            " ".join(s.participants[:6]),
        ]
        for s in found
    ]
    heads = ["session", "file", "kind", "format", "lang", "segments", "rows", "participants"]
    print_table(None, heads, rows)


@evidence.command("show")
@click.argument("session")
@click.option("--by", metavar="QUESTION", help="A survey's cross-tab by this question.")
@project_option
@json_option
@click.pass_context
def evidence_show(
    ctx: click.Context, session: str, by: str | None, project_name: str | None, as_json: bool
) -> None:
    """Show one session: its segments with who and when, or a survey's statistics.

    \b
    Examples:
      design-agent evidence show S03
      design-agent evidence show S13 --by "device"
    """
    from design_agent.evidence.facts import survey_lines

    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    found = memory.evidence.session(project.id, session)
    segments = memory.evidence.segments(found.id)
    stats = None
    if found.kind == "survey":
        from design_agent.evidence.stats import survey_stats

        stats = survey_stats(*memory.evidence.survey(found.id), by=by)
    if as_json:
        print_json({"session": found, "segments": segments, "statistics": stats})
        return
    echo(_added_line(found, False))
    for line in survey_lines(stats) if stats else []:
        echo(line)
    for segment in segments:
        echo(segment_line(segment))


def segment_line(segment: EvidenceSegment) -> str:
    """`S03.T047 P3 (12:04): text`."""
    from design_agent.evidence.quotes import when

    at = f" ({when(segment.start)})" if segment.start is not None else ""
    return f"{segment.code} {segment.participant}{at}: {segment.text}"


@evidence.command("search")
@click.argument("query")
@click.option("-n", "count", type=WholeNumber(), default=20, show_default=True, help="How many.")
@project_option
@json_option
@click.pass_context
def evidence_search(
    ctx: click.Context, query: str, count: int, project_name: str | None, as_json: bool
) -> None:
    """Find the segments that speak of QUERY (English or Spanish), best first.

    \b
    Example:
      design-agent evidence search "reminder email"
    """
    memory = app_of(ctx).memory
    hits = memory.evidence.search(memory.resolve_project(project_name).id, query, count)
    if as_json:
        print_json(hits)
        return
    for hit in hits:
        echo(f"{hit.segment.code} {hit.segment.participant}: {hit.snippet}")


@evidence.command("remove")
@click.argument("session")
@click.option("--yes", "-y", is_flag=True, help="Remove without asking.")
@project_option
@click.pass_context
def evidence_remove(ctx: click.Context, session: str, yes: bool, project_name: str | None) -> None:
    """Remove one session (its segments and rows); its code is never given again.

    \b
    Example:
      design-agent evidence remove S04 --yes
    """
    memory = app_of(ctx).memory
    project = memory.resolve_project(project_name)
    found = memory.evidence.session(project.id, session)
    if not yes and not click.confirm(
        f"Remove {found.code} {found.source} ({found.segments} segments)?", default=False
    ):
        echo("Nothing removed.")
        return
    memory.evidence.remove(project.id, found.code)
    echo(f"Removed {found.code} {found.source} ({found.segments} segments).")
