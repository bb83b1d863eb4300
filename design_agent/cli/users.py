"""`design-agent users` and `design-agent audit`: a team's people, and what they did.

These act on the database directly (DESIGN_AGENT_DATABASE_URL, or database.url), as the
team's admin at the server's shell does: there is no open sign-up, and the first admin is
made here. The audit log's lines name this command line as "command line (USER)".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from design_agent.cli.options import WholeNumber, app_of, json_option
from design_agent.cli.output import echo, print_json, print_table
from design_agent.cli.projects import when
from design_agent.core.errors import UsageError

if TYPE_CHECKING:
    from design_agent.memory import Memory
    from design_agent.memory.models import Person

# Where `serve --team` says the team's address is (its --public-url, else its own).
TEAM_URL_KEY = "team.url"


@click.group()
def users() -> None:
    """Add, list and disable the people of a team, and give them invite links and tokens.

    A team's server is `design-agent serve --team` on this database. There is no
    open sign-up: `users add NAME` prints a single-use invite link (valid 7 days),
    where the person sets their password; the first admin is added here with
    --admin. Disabling a person ends their sessions and tokens; their turns,
    decisions and files keep their name.

    \b
    Examples:
      design-agent users add ana --admin
      design-agent users add ben --url https://design.example.com
      design-agent users list
      design-agent users token ben
      design-agent users disable ben
    """


url_option = click.option(
    "--url",
    metavar="URL",
    help="The team server's address for the link (default: the one `serve --team` "
    "recorded, its --public-url or its own address).",
)


@users.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="An instance admin: sees and may do everything.")
@url_option
@json_option
@click.pass_context
def users_add(ctx: click.Context, name: str, admin: bool, url: str | None, as_json: bool) -> None:
    """Add person NAME to the team and print their single-use invite link.

    \b
    Example:
      design-agent users add ana --admin
    """
    memory = app_of(ctx).memory
    base = _team_url(memory, url)  # before anything is written: a link needs it
    person = memory.add_person(name, admin)
    link = invite_link(base, memory.invite_person(person.id))
    if as_json:
        print_json({"person": _person_json(person), "invite_url": link})
        return
    role = "an admin" if admin else "a member"
    echo(f"Added {person.name} as {role} of the team. Their invite link (single use, 7 days):")
    click.echo(link)


@users.command("invite")
@click.argument("name")
@url_option
@json_option
@click.pass_context
def users_invite(ctx: click.Context, name: str, url: str | None, as_json: bool) -> None:
    """Print a new invite link for NAME (an expired one, or a forgotten password): the
    person sets a new password there; their earlier unused links stop working.

    \b
    Example:
      design-agent users invite ben
    """
    memory = app_of(ctx).memory
    base = _team_url(memory, url)
    person = memory.find_person(name)
    link = invite_link(base, memory.invite_person(person.id))
    if as_json:
        print_json({"person": _person_json(person), "invite_url": link})
        return
    echo(f"A new invite link for {person.name} (single use, 7 days):")
    click.echo(link)


@users.command("list")
@json_option
@click.pass_context
def users_list(ctx: click.Context, as_json: bool) -> None:
    """List the team's people: admin or not, invited, active or disabled.

    \b
    Example:
      design-agent users list --json
    """
    people = app_of(ctx).memory.list_people()
    if as_json:
        print_json({"people": [_person_json(p) for p in people]})
        return
    if not people:
        echo("Nobody yet. Add the first admin: design-agent users add NAME --admin")
        return
    rows = [[p.name, "admin" if p.is_admin else "", _state(p), when(p.created_at)] for p in people]
    print_table(None, ["name", "", "state", "added"], rows)


@users.command("disable")
@click.argument("name")
@json_option
@click.pass_context
def users_disable(ctx: click.Context, name: str, as_json: bool) -> None:
    """Disable NAME: they can no longer sign in; their sessions and tokens end now.

    \b
    Example:
      design-agent users disable ben
    """
    memory = app_of(ctx).memory
    person = memory.disable_person(memory.find_person(name).id)
    if as_json:
        print_json({"person": _person_json(person)})
        return
    echo(f"Disabled {person.name}: their sessions and tokens no longer work.")


@users.command("token")
@click.argument("name")
@click.option("--label", default="users token", show_default=True, help="What it is for.")
@json_option
@click.pass_context
def users_token(ctx: click.Context, name: str, label: str, as_json: bool) -> None:
    """Make a personal API token for NAME and print it once (it is stored hashed).

    Use it as `Authorization: Bearer TOKEN`, or with `design-agent login URL
    --token-stdin`. It works until NAME is disabled.

    \b
    Example:
      design-agent users token ben --label "CI bot"
    """
    memory = app_of(ctx).memory
    person = memory.find_person(name)
    token = memory.new_api_token(person.id, label)
    if as_json:
        print_json({"person": _person_json(person), "token": token})
        return
    echo(f"A personal API token for {person.name} (shown once; keep it secret):", err=True)
    click.echo(token)


@click.command()
@click.option("--project", "-p", "project_name", metavar="NAME", help="One project's lines.")
@click.option(
    "-n", "limit", type=WholeNumber(1, 1000), default=50, show_default=True,
    help="How many of the newest lines.",
)  # fmt: skip
@json_option
@click.pass_context
def audit(ctx: click.Context, project_name: str | None, limit: int, as_json: bool) -> None:
    """Show the team's audit log, newest first: who shared, deleted, decided, changed roles.

    The log only grows (the database refuses to change or delete a line); a
    deleted project's lines stay. A one-person home has none.

    \b
    Examples:
      design-agent audit
      design-agent audit --project "Mobile Checkout" --json
    """
    memory = app_of(ctx).memory
    project = memory.find_project(project_name).id if project_name else None
    entries = memory.audit_log(project, limit)
    if as_json:
        print_json({"entries": entries})
        return
    if not entries:
        echo("The audit log is empty.")
        return
    for e in entries:  # one line each, never cut: a log is read and grepped
        where = f" [{e.project_id}]" if e.project_id else ""
        echo(f"{when(e.at)}  {e.actor}  {e.action}{where}  {_detail(e.detail)}".rstrip())


def _detail(detail: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in detail.items() if v not in (None, ""))


def _state(person: Person) -> str:
    if not person.active:
        return "disabled"
    return "active" if person.has_password else "invited"


def _person_json(person: Person) -> dict[str, Any]:
    return {**person.model_dump(mode="json"), "state": _state(person)}


def invite_link(base: str, token: str) -> str:
    """The link a person opens to set their password: the token in the fragment, which no
    browser sends to a server, a proxy's log or a Referer."""
    return f"{base.rstrip('/')}/invite#{token}"


def _team_url(memory: Memory, given: str | None) -> str:
    url = given or memory.get_state(TEAM_URL_KEY)
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise UsageError(
            "say where the team's server is for the link: --url https://design.example.com "
            "(after `design-agent serve --team` has run once on this database, it knows)"
        )
    return url
