"""The commands that go to the team's server while this home is logged in to one: the same
output as their local selves, from the server's answers (cli/team.py has the client).

`projects list|switch|create`, `history` (and `--tree`), `search`, `decisions
add|list|search|edit|retire`; `ask` and the shell are cli/ask.py's and cli/team_shell.py's.
"""

from __future__ import annotations

from typing import Any

import click

from design_agent.cli.history_view import print_history
from design_agent.cli.output import console, echo, print_json, print_table
from design_agent.cli.projects import when
from design_agent.cli.stdin import interactive
from design_agent.cli.team import Team
from design_agent.core.errors import NotFoundError
from design_agent.core.text import clean_text
from design_agent.memory.models import Decision, ListedDecision, Turn


def _moment(text: str | None) -> Any:
    from datetime import datetime

    return None if not text else datetime.fromisoformat(text)


# -- projects ------------------------------------------------------------------------------


def projects_list(team: Team, as_json: bool) -> None:
    items = team.call("GET", "/projects")["projects"]
    if as_json:
        print_json(items)
        return
    if not items:
        echo(
            f"No project is shared with you on {team.url} yet. Create one: "
            'design-agent projects create "My product"'
        )
        return
    rows = [
        [
            "*" if p.get("active") else "",
            p["name"],
            p["id"],
            p.get("role") or "-",
            str(p.get("turns", 0)),
            str(p.get("files", 0)),
            str(p.get("decisions", 0)),
            when(_moment(p.get("last_accessed"))),
        ]
        for p in items
    ]
    columns = ["", "name", "id", "your role", "turns", "files", "decisions", "last used"]
    print_table(None, columns, rows)


def projects_create(team: Team, name: str, as_json: bool) -> None:
    project = team.call("POST", "/projects", {"name": name})
    if as_json:
        print_json(project)
        return
    echo(
        f"Created project '{project['name']}' (id {project['id']}) on {team.url}; you own it "
        "and it is now your active one."
    )


def projects_switch(team: Team, name: str, yes: bool, as_json: bool) -> None:
    from design_agent.cli.team import find_project

    projects = team.call("GET", "/projects")["projects"]
    try:
        target = find_project(projects, name)
    except NotFoundError:
        raise
    if target["name"].casefold() != name.casefold() and target["id"] != name and not yes:
        question = f"Switch to '{target['name']}'?"
        if not interactive() or not click.confirm(clean_text(question), default=True):
            raise NotFoundError(
                f"no project named '{name}'. Did you mean: {target['name']}? (add --yes)"
            )
    project = team.call("POST", team.path(target, "/activate"))
    if as_json:
        print_json(project)
        return
    echo(f"Active project: {project['name']}")


# -- history and search ------------------------------------------------------------------------


def history(team: Team, project_name: str | None, count: int, as_tree: bool, as_json: bool) -> None:
    project = team.project(project_name)
    if as_tree:
        tree = team.call("GET", team.path(project, "/tree"))
        if as_json:
            print_json({k: v for k, v in tree.items() if k != "text"})
        else:
            echo(str(tree.get("text") or ""))
        return
    found = team.call("GET", team.path(project, f"/history?limit={count}"))["turns"]
    if as_json:
        print_json(found)
        return
    turns = [Turn.model_validate(_fields(t, Turn)) for t in found]
    print_history(turns, project["name"])


def _fields(row: dict[str, Any], model: type[Any]) -> dict[str, Any]:
    """The row's keys the model has (the server adds names and numbers for the page)."""
    return {k: v for k, v in row.items() if k in model.model_fields}


def search(
    team: Team, query: str, all_projects: bool, limit: int, project_name: str | None, as_json: bool
) -> None:
    from urllib.parse import quote

    where = "all=1" if all_projects else f"project={quote(str(team.project(project_name)['id']))}"
    results = team.call("GET", f"/search?q={quote(query)}&{where}&limit={limit}")["results"]
    if as_json:
        print_json(results)
        return
    if not results.get("groups"):
        echo(f"Nothing found for: {' '.join(results.get('terms') or []) or query}")
        return
    out = console()
    for group in results["groups"]:
        out.print(clean_text(group["project"]["name"], one_line=True), markup=False, style="bold")
        for hit in group["hits"]:
            moment = when(_moment(hit.get("timestamp")))
            title = clean_text(f"{hit['kind']} · {moment} · {hit['title']}", one_line=True)
            out.print(f"  {title}", markup=False)
            out.print(f"    {clean_text(hit['snippet'], one_line=True)}", markup=False)


# -- decisions -------------------------------------------------------------------------------


def decisions_add(
    team: Team, project_name: str | None, decision: str, rationale: str, as_json: bool
) -> None:
    project = team.project(project_name)
    body = {"decision": decision, "rationale": rationale}
    recorded = team.call("POST", team.path(project, "/decisions"), body)
    if as_json:
        print_json(recorded)
        return
    echo(f"Recorded decision {recorded['id']} in '{project['name']}' (by {recorded['author']}).")


def decisions_list(
    team: Team,
    project_name: str | None,
    limit: int | None,
    all_branches: bool,
    history: bool,
    as_json: bool,
) -> None:
    from design_agent.cli.decisions import print_listing
    from design_agent.memory.models import DecisionCounts

    project = team.project(project_name)
    query = f"?all_branches={int(all_branches)}&history={int(history)}"
    found = team.call("GET", team.path(project, "/decisions" + query))
    rows = found["decisions"][:limit] if limit else found["decisions"]
    if as_json:
        print_json(rows)
        return
    listed = [ListedDecision.model_validate(_fields(d, ListedDecision)) for d in rows]
    counts = DecisionCounts.model_validate(found["counts"])
    newer = _replacements(team, project) if history else {}
    print_listing(newer.get, project["name"], listed, counts if not history else None, "en")


def _replacements(team: Team, project: dict[str, Any]) -> dict[int, Decision]:
    """Each replaced decision's newer version, from the project's whole history."""
    every = team.call("GET", team.path(project, "/decisions?all_branches=1&history=1"))
    versions = [Decision.model_validate(_fields(d, Decision)) for d in every["decisions"]]
    return {d.replaces_id: d for d in versions if d.replaces_id is not None}


def decisions_search(team: Team, project_name: str | None, query: str, as_json: bool) -> None:
    from urllib.parse import quote

    from design_agent.cli.decisions import status_cell

    project = team.project(project_name)
    found = team.call("GET", team.path(project, f"/decisions?q={quote(query)}"))["decisions"]
    if as_json:
        print_json(found)
        return
    decisions = [Decision.model_validate(_fields(d, Decision)) for d in found]
    newer = _replacements(team, project)
    rows = [
        [str(d.id), d.author or "-", d.decision, d.rationale or "-", status_cell(newer.get, d)]
        for d in decisions
    ]
    print_table(None, ["id", "by", "decision", "why", "status"], rows)


def decisions_edit(
    team: Team,
    project_name: str | None,
    decision_id: int,
    text: str,
    rationale: str | None,
    as_json: bool,
) -> None:
    project = team.project(project_name)
    body: dict[str, Any] = {"decision": text}
    if rationale is not None:
        body["rationale"] = rationale
    done = team.call("PATCH", team.path(project, f"/decisions/{decision_id}"), body)
    if as_json:
        print_json(done)
        return
    new = done["decision"]
    echo(
        f"Decision {decision_id} of '{project['name']}' is replaced by {new['id']}: "
        f"{new['decision']}. Why: {new['rationale'] or '-'}"
    )


def decisions_retire(
    team: Team, project_name: str | None, decision_id: int, reason: str, as_json: bool
) -> None:
    project = team.project(project_name)
    body = {"rationale": reason}
    done = team.call("POST", team.path(project, f"/decisions/{decision_id}/retire"), body)
    if as_json:
        print_json(done)
        return
    echo(f"Retired decision {decision_id} of '{project['name']}': {done['decision']['decision']}")
