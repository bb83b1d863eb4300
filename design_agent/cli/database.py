"""`design-agent db`: which database the memory is in, its schema, and moving a whole home
between SQLite and PostgreSQL (design_agent/memory/status.py and copy.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from design_agent.cli.options import app_of, json_option
from design_agent.cli.output import echo, print_json, print_table

if TYPE_CHECKING:
    from design_agent.memory.copy import Copied
    from design_agent.memory.status import DatabaseStatus


@click.group("db")
def db() -> None:
    """The memory's database: status, migrate, and copy a home between SQLite and PostgreSQL.

    The database is DESIGN_AGENT_DATABASE_URL, else the `database.url` setting,
    else the home's own SQLite file: sqlite:///PATH or postgresql://USER@HOST/DB
    (a unix socket: postgresql://USER@/DB?host=/var/run/postgresql). PostgreSQL
    needs the extra: pip install 'design-agent[postgres]'.

    \b
    Examples:
      design-agent db status
      design-agent config set database.url postgresql://design@db.example.com/design
      design-agent db copy ~/.config/design-agent/design-agent.db postgresql://design@db/design
    """


@db.command("status")
@json_option
@click.pass_context
def db_status(ctx: click.Context, as_json: bool) -> None:
    """Show the backend, the database (no password), its schema version and rows per table.

    Nothing is changed: the schema is not migrated, no file is made.

    \b
    Example:
      design-agent db status --json
    """
    from design_agent.memory.status import status

    found = status(app_of(ctx).database)
    if as_json:
        print_json(_status_json(found))
        return
    echo(f"backend   {found.backend}")
    echo(f"database  {found.location}")
    if not found.exists:
        echo("schema    none yet (the database is made on first use)")
        return
    echo(f"schema    version {found.version}{_behind(found)}")
    print_table(None, ["table", "rows"], [[name, f"{n:,}"] for name, n in found.counts.items()])


def _status_json(found: DatabaseStatus) -> dict[str, Any]:
    return {
        "backend": found.backend,
        "database": found.location,
        "exists": found.exists,
        "schema_version": found.version,
        "latest_version": found.latest,
        "tables": found.counts,
    }


def _behind(found: DatabaseStatus) -> str:
    if found.version >= found.latest:
        return " (current)"
    return f" (this design-agent has {found.latest}: design-agent db migrate)"


@db.command("migrate")
@json_option
@click.pass_context
def db_migrate(ctx: click.Context, as_json: bool) -> None:
    """Bring the database to this design-agent's schema (made if it does not exist yet).

    Opening the database does the same on first use; run this to do it at a chosen
    moment, e.g. before starting a team's servers. On PostgreSQL it runs once
    however many processes start together, and a migration that fails is rolled
    back whole and names the statement that failed (exit 3).

    \b
    Example:
      DESIGN_AGENT_DATABASE_URL=postgresql://design@db/design design-agent db migrate
    """
    from design_agent.memory.status import migrate

    url = app_of(ctx).database
    before, after = migrate(url)
    if as_json:
        print_json({"database": str(url), "from_version": before, "to_version": after})
    elif before == after:
        echo(f"{url} is at schema version {after}: nothing to do.")
    else:
        echo(f"Migrated {url} from schema version {before} to {after}.")


@db.command("copy")
@click.argument("source")
@click.argument("target")
@click.option(
    "--replace",
    is_flag=True,
    help="Copy into a TARGET that already holds a home: everything there is deleted first.",
)
@json_option
def db_copy(source: str, target: str, replace: bool, as_json: bool) -> None:
    """Copy a whole home from SOURCE to TARGET and check every table (count and checksum).

    SOURCE and TARGET are database URLs (sqlite:///PATH or postgresql://...) or
    the path of an SQLite file. Everything moves: projects, the conversation tree
    and its state snapshots, files, decisions with their history, metadata, agent
    memory and state, usage. TARGET is written in one transaction: if anything
    differs or fails, it is left as it was. A TARGET that is not empty is refused
    (exit 2) unless --replace.

    \b
    Examples:
      design-agent db copy ~/.config/design-agent/design-agent.db postgresql://design@db/design
      design-agent db copy postgresql://design@db/design sqlite:///backup.db --replace
    """
    from design_agent.memory.copy import copy_database
    from design_agent.memory.url import DatabaseUrl

    origin, destination = DatabaseUrl.parse(source), DatabaseUrl.parse(target)

    def done(table: Copied) -> None:
        if not as_json:
            echo(f"copied {table.table}: {table.rows:,} rows", err=True)

    copied = copy_database(origin, destination, replace, done)
    if as_json:
        print_json(
            {
                "source": str(origin),
                "target": str(destination),
                "tables": {c.table: {"rows": c.rows, "checksum": c.checksum} for c in copied},
            }
        )
        return
    rows = [[c.table, f"{c.rows:,}", c.checksum[:16]] for c in copied]
    print_table(None, ["table", "rows", "checksum (same on both)"], rows)
    echo(f"Copied {origin} to {destination}: every table checked.")
