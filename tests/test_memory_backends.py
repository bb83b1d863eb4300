"""One memory, two stores: a designer's SQLite file and a team's PostgreSQL behave the same,
and a whole home moves from one to the other and back unchanged.

The memory suite (tests/test_memory_*.py) runs on both stores through `memory_target`;
these tests are about what only two stores have: the same schema at the same version,
PostgreSQL's migrations (once, whole, or not at all), search in two languages on both,
`db copy` and `db status` / `db migrate`, and the SQLite path never loading psycopg.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from design_agent.core.errors import ConfigError, ExitCode, UsageError
from design_agent.memory import Memory, ProjectState, StateDecision
from design_agent.memory.faults import DatabaseUnavailableError, MigrationError
from design_agent.memory.schema import LATEST_VERSION
from design_agent.memory.tables import TABLES, Checksum, select
from design_agent.memory.url import DatabaseUrl
from design_agent.memory.usage import TurnFigures, record_figures


def fresh_database(postgres_admin: Any, postgres_cluster: Any, name: str) -> str:
    """An empty database (not from the template: nothing migrated yet)."""
    postgres_admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    postgres_admin.execute(f"CREATE DATABASE {name}")
    return str(postgres_cluster.url(name))


def pg(url: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql)
        return cursor.fetchall() if cursor.description else []


# -- One schema, one version number ----------------------------------------------------


def test_both_stores_have_every_table_and_column_the_copy_moves(tmp_path, postgres_url):
    from design_agent.memory.postgres.schema import LATEST_VERSION as POSTGRES_LATEST

    assert POSTGRES_LATEST == LATEST_VERSION == 11
    with Memory.open(tmp_path / "design-agent.db") as memory:
        for table in TABLES:
            found = {r[1] for r in memory.db.execute(f"PRAGMA table_info({table.name})")}
            assert found == set(table.columns), table.name
    for table in TABLES:
        found = pg(
            postgres_url,
            "SELECT column_name FROM information_schema.columns "
            f"WHERE table_name = '{table.name}' AND is_generated = 'NEVER'",
        )
        assert {r[0] for r in found} == set(table.columns), table.name


def test_four_processes_starting_at_once_migrate_once(postgres_admin, postgres_cluster):
    url = fresh_database(postgres_admin, postgres_cluster, "migrate_race")
    code = (
        "import sys\n"
        "from design_agent.memory.postgres.connection import migrate_database\n"
        "from design_agent.memory.url import DatabaseUrl\n"
        "print(*migrate_database(DatabaseUrl.parse(sys.argv[1])))\n"
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", code, url], stdout=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outputs = sorted(run.communicate(timeout=60)[0].strip() for run in runs)
    assert [run.returncode for run in runs] == [0] * 4
    assert outputs == ["0 11", "11 11", "11 11", "11 11"]  # one migrated; three found it done
    assert pg(url, "SELECT version FROM design_agent_schema") == [(11,)]


def test_a_failed_migration_names_its_statement_and_leaves_nothing(
    postgres_admin, postgres_cluster, monkeypatch, run_cli
):
    from design_agent.memory.postgres import migrate, schema

    url = fresh_database(postgres_admin, postgres_cluster, "migrate_fails")
    broken = (*schema.V8[:5], "CREATE INDEX broken ON no_such_table (id)", *schema.V8[5:])
    monkeypatch.setitem(migrate.MIGRATIONS, 8, broken)
    with pytest.raises(MigrationError, match=r"migration 8 of .* failed at: CREATE INDEX broken"):
        Memory.open(url)
    assert pg(url, "SELECT to_regclass('projects'), to_regclass('design_agent_schema')") == [
        (None, None)  # version 7 went too: one transaction for the whole way
    ]
    monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", url)
    failed = run_cli("db", "migrate")
    assert failed.exit_code == ExitCode.INVALID_CONFIG == 3
    assert failed.output.count("\n") == 1 and "no_such_table" in failed.output
    monkeypatch.setitem(migrate.MIGRATIONS, 8, schema.V8)
    assert "from schema version 0 to 11" in run_cli("db", "migrate").output
    assert "nothing to do" in run_cli("db", "migrate").output


def test_a_newer_or_a_foreign_postgres_database_is_refused_untouched(
    postgres_admin, postgres_cluster, postgres_url
):
    pg(postgres_url, "UPDATE design_agent_schema SET version = 99")
    with pytest.raises(ConfigError, match=r"newer design-agent .*version 99"):
        Memory.open(postgres_url)
    foreign = fresh_database(postgres_admin, postgres_cluster, "someone_elses")
    pg(foreign, "CREATE TABLE projects (code text)")
    with pytest.raises(ConfigError, match="not design-agent's"):
        Memory.open(foreign)
    assert pg(foreign, "SELECT to_regclass('conversations')") == [(None,)]


def test_without_the_postgres_extra_a_server_url_says_how_to_install_it(monkeypatch, run_cli):
    monkeypatch.setitem(sys.modules, "psycopg_pool", None)  # as if not installed
    with pytest.raises(ConfigError, match=r"pip install 'design-agent\[postgres\]'"):
        Memory.open("postgresql://design@db.example.com/design")
    monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", "postgresql://design@db.example.com/d")
    refused = run_cli("db", "status")
    assert refused.exit_code == ExitCode.INVALID_CONFIG and "[postgres]" in refused.output


def test_a_server_out_of_reach_is_said_in_one_line_with_its_own_exit_code(
    tmp_path, monkeypatch, run_cli
):
    pytest.importorskip("psycopg")
    url = f"postgresql://ana:s3cret@/design?host={tmp_path}&connect_timeout=2"
    with pytest.raises(DatabaseUnavailableError) as raised:
        Memory.open(url)
    assert "s3cret" not in raised.value.message and "cannot reach" in raised.value.message
    monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", url)
    listed = run_cli("projects", "list")
    assert listed.exit_code == ExitCode.DATABASE_UNAVAILABLE == 9
    assert listed.output.startswith("Error: cannot reach the database postgresql://ana@/design")


# -- The same answers from both ----------------------------------------------------------


def test_search_folds_accents_and_stems_in_both_languages(memory_target):
    with Memory.open(memory_target) as memory:
        project = memory.create_project("Investigación").id
        memory.add_turn(project, "user", "Revisamos el diseño de la entrevista con el equipo")
        memory.add_decision(project, "Una entrevista por semana", "el diseño cambia rápido")
        memory.add_turn(project, "user", "The interviews showed users hesitate at payment")
        for query in ("diseno", "entrevistas", "DISEÑO", "interview"):
            assert memory.search(query, project).total >= 1, query
        assert memory.search_decisions(project, "entrevistas")[0].item.decision.startswith("Una")
        assert memory.search_decisions(project, "por qué el diseno")  # accents, stop words
        assert memory.search("payments", project).total == 1


def test_every_searchable_row_keeps_its_language(memory_target):
    with Memory.open(memory_target) as memory:
        project = memory.create_project("Languages").id
        english = memory.add_turn(project, "user", "Plan a usability test for the checkout")
        spanish = memory.add_turn(project, "user", "Necesitamos un mapa de viaje del usuario")
        told = memory.add_turn(project, "user", "ok", language="es")
        answer = memory.add_turn(project, "agent", "")
        memory.update_turn(answer.id, message="Las entrevistas con los usuarios")
        memory.add_decision(project, "Moderated testing", "we need to hear why")
        stored = dict(memory.db.execute("SELECT id, language FROM conversations").fetchall())
        assert [stored[t.id] for t in (english, spanish, told, answer)] == ["en", "es", "es", "es"]
        assert memory.db.execute("SELECT language FROM project_decisions").fetchall() == [("en",)]


def test_user_input_never_reaches_either_store_as_syntax(memory_target):
    with Memory.open(memory_target) as memory:
        project = memory.create_project("Syntax").id
        memory.add_turn(project, "user", "checkout AND payment -- 'quoted' \"x\" :* & | !")
        for query in (
            "AND OR NOT",
            "'; DROP TABLE projects; --",
            '"unterminated',
            "a:* & b",
            "?:x",
        ):
            memory.search(query, project)
            memory.search(query, all_projects=True)
            memory.search_decisions(project, query)
            memory.search_process_memory(query)
        assert memory.search("checkout payment", project).total == 1


def test_a_nested_block_that_fails_is_undone_alone_on_both(memory_target):
    from design_agent.memory.connection import INTEGRITY_ERRORS

    with Memory.open(memory_target) as memory:
        with memory.transaction():
            memory.create_project("Atlas")
            with pytest.raises(RuntimeError), memory.transaction():
                memory.create_project("Borealis")
                raise RuntimeError("the caller changed its mind")
            with pytest.raises(INTEGRITY_ERRORS), memory.transaction():
                memory.add_turn("atlas", "user", "kept?")
                memory.db.execute(  # refused by the database itself: PostgreSQL recovers
                    "INSERT INTO projects (id, name, name_key, search_key, created_at, "
                    "last_accessed) VALUES ('atlas', 'x', 'x', 99, '2026-01-01', '2026-01-01')"
                )
            memory.create_project("Cygnus")
        assert sorted(p.name for p in memory.list_projects()) == ["Atlas", "Cygnus"]
        assert memory.recent_turns("atlas") == []


def test_writers_of_one_project_take_turns_on_postgres(postgres_url):
    with Memory.open(postgres_url) as memory:
        project = memory.create_project("Busy").id

    def write(n: int) -> None:
        with Memory.open(postgres_url) as mine:
            for k in range(15):
                mine.add_turn(project, "user", f"writer {n} turn {k}")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with Memory.open(postgres_url) as memory:
        turns = memory.recent_turns(project, 100)
        assert len(turns) == 60
        # One line, in order: each turn follows the one saved just before it.
        assert [t.parent_id for t in turns] == [None, *(t.id for t in turns[:-1])]
        assert len(memory.branches(project)) == 1


def test_usage_adds_up_the_same_on_both(memory_target):
    from datetime import UTC, datetime

    from design_agent.memory.usage import UsageQuery, month_spend, usage_report

    days = iter(datetime(2026, 5, d, 23, 30, tzinfo=UTC) for d in range(1, 40))
    with Memory.open(memory_target, clock=lambda: next(days)) as memory:
        project = memory.create_project("Costs").id
        for provider, cost, total_ms in (("claude", 0.5, 1000), ("claude", 0.25, 3000),
                                         ("gemini", None, None)):  # fmt: skip
            turn = memory.add_turn(project, "agent", "an answer", provider=provider, cost=cost)
            record_figures(memory.db, turn.id, TurnFigures(tokens_in=10, total_ms=total_ms))
        by_day = usage_report(memory.db, UsageQuery(by="day"))
        by_provider = usage_report(memory.db, UsageQuery(by="provider", project_id=project))
        spent = month_spend(memory.db, project, datetime(2026, 5, 31, tzinfo=UTC))
    assert [r.group for r in by_day.rows] == ["2026-05-02", "2026-05-03", "2026-05-04"]
    claude, gemini = by_provider.rows
    assert (claude.turns, claude.cost_usd, claude.tokens_in, claude.p50_total_ms) == (
        2, 0.75, 20, 2000.0
    )  # fmt: skip
    assert (gemini.cost_usd, gemini.cost_reported, by_provider.total.turns) == (None, 0, 3)
    assert spent == 0.75


def test_a_memory_holds_no_pooled_connection_between_its_operations(postgres_url, monkeypatch):
    from design_agent.memory.postgres import connection

    monkeypatch.setattr(connection, "POOL_SIZE", 1)  # one connection for the whole process
    monkeypatch.setattr(connection, "WAIT_SECONDS", 2.0)
    with Memory.open(postgres_url) as first, Memory.open(postgres_url) as second:
        project = first.create_project("Shared").id
        asked = first.add_turn(project, "user", "plan a diary study")  # a turn is open...
        second.add_turn(project, "agent", "A diary study plan.", parent_id=asked.id)
        assert first.search("diary", project).total == 2  # ...and both go on, turn about
        assert second.project_context(project).recent_turns[-1].message.startswith("A diary")


def test_postgres_keeps_a_nul_as_the_replacement_character(postgres_url):
    with Memory.open(postgres_url) as memory:
        project = memory.create_project("Nul").id
        turn = memory.add_turn(project, "user", "before\x00after", validation={"x": "a\x00b"})
        assert memory.get_turn(turn.id).message == "before\ufffdafter"
        assert memory.get_turn(turn.id).validation == {"x": "a\ufffdb"}


def test_the_sqlite_path_never_loads_psycopg(tmp_path):
    code = (
        "import sys\n"
        "from design_agent.memory import Memory\n"
        f"with Memory.open({str(tmp_path / 'design-agent.db')!r}) as m:\n"
        "    p = m.create_project('P').id\n"
        "    m.add_turn(p, 'user', 'hola, diseño')\n"
        "    m.search('diseno', p); m.search_decisions(p, 'x'); m.lookup_project('pp')\n"
        "print(sorted(n for n in sys.modules if n.startswith(('psycopg', "
        "'design_agent.memory.postgres'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# -- db copy ------------------------------------------------------------------------------


def rich_home(memory: Memory, tmp_path: Path) -> None:
    """A home with something in every table: a forked tree with named branches and states,
    files, decisions replaced and retired, metadata, agent memory and state, usage."""
    project = memory.create_project("Mobile Checkout").id
    memory.switch_project(project)
    ask = memory.add_turn(project, "user", "Plan a usability test for the payment step")
    made = memory.add_decision(project, "Moderated testing", "we need to hear why", ask.id)
    state = ProjectState(
        decisions=[StateDecision(id=made.id, decision=made.decision)],
        task_id="usability_test_plan",
        metadata={"goal": "fewer abandoned carts", "budget": 1.0, "big": 1e16},
    )
    answer = memory.add_turn(
        project, "agent", "Five moderated sessions.", parent_id=ask.id, state=state,
        provider="claude", model="sonnet", tokens=900, cost=0.0123, validation={"score": 0.8},
    )  # fmt: skip
    record_figures(memory.db, answer.id, TurnFigures(tokens_in=700, tokens_out=200, total_ms=1500))
    memory.fork(ask.id, "Unmoderated")
    memory.add_turn(project, "agent", "Use an unmoderated tool.", parent_id=ask.id)
    newer = memory.supersede_decision(made.id, "Moderated testing, six sessions", node_id=answer.id)
    memory.retire_decision(memory.add_decision(project, "Guest checkout", "").id, "dropped")
    memory.set_metadata(project, "users", ["first-time buyers", "returning buyers"])
    brief = tmp_path / "brief.md"
    brief.write_text("# Brief\nEl diseño del pago, para compradores nuevos", encoding="utf-8")
    memory.add_file(project, brief)
    evidence = Path(__file__).parent / "data" / "evidence"
    from design_agent.evidence.ingest import add_evidence

    add_evidence(memory, project, [evidence / "transcripts" / "09_zoom_es.vtt",
                                   evidence / "surveys" / "google_forms_es.csv"])  # fmt: skip
    team(memory, project)
    other = memory.create_project("Investigación de usuarios").id
    memory.add_turn(other, "user", "Necesitamos entrevistas con usuarios en México")
    memory.add_process_memory("Mobile Checkout", "moderated", "why", lessons="recruit early",
                              project_id=project)  # fmt: skip
    memory.add_process_memory("general", "offline first")
    memory.set_state("last_provider", {"name": "claude", "decision": newer.id})


def team(memory: Memory, project: str) -> None:
    """People (one with a password, one disabled), a member, a token, what a person made,
    audit lines; and an invite and a session, which a copy leaves behind."""
    from design_agent.memory.passwords import hash_password

    ana, ben = memory.add_person("Ana", is_admin=True), memory.add_person("Bén Ortiz")
    memory.accept_invite(memory.invite_person(ana.id), hash_password("a long passphrase"))
    memory.share_project(project, ben.id, "editor")
    memory.new_api_token(ben.id, "laptop")
    memory.act_as(ben)
    asked = memory.add_turn(project, "user", "¿Y los compradores invitados?")
    memory.add_decision(project, "Keep guest checkout", "half the buyers use it", asked.id)
    memory.act_as(None)
    memory.disable_person(memory.add_person("Carla").id)
    memory.invite_person(ben.id), memory.new_session(ana.id)


def table_rows(target: Path | str) -> dict[str, list[bytes]]:
    """Every table's canonical rows (tables.py), in key order."""
    from design_agent.memory.tables import canonical

    with Memory.open(target) as memory:
        return {
            t.name: [canonical(t, r) for r in memory.db.execute(select(t)).fetchall()]
            for t in TABLES
        }


def exports(target: Path | str) -> list[dict[str, Any]]:
    with Memory.open(target) as memory:
        return [
            memory.export_project(p.id).model_dump(exclude={"exported_at"})
            for p in memory.list_projects()
        ]


def test_db_copy_moves_a_home_to_postgres_and_back_unchanged(tmp_path, postgres_url, run_cli):
    laptop, back = tmp_path / "laptop.db", tmp_path / "back.db"
    with Memory.open(laptop) as memory:
        rich_home(memory, tmp_path)
    there = run_cli("db", "copy", str(laptop), postgres_url, "--json")
    assert there.exit_code == 0, there.output
    tables = json.loads(there.output)["tables"]
    assert all(tables[t.name]["rows"] for t in TABLES)  # something in every table
    again = run_cli("db", "copy", postgres_url, f"sqlite:///{back}", "--json")
    assert json.loads(again.output)["tables"] == tables  # the same counts and checksums
    assert table_rows(back) == table_rows(laptop) == table_rows(postgres_url)
    assert exports(back) == exports(laptop) == exports(postgres_url)
    for target in (postgres_url, back):  # indexes made, ids go on after the copied ones
        with Memory.open(target) as memory:
            project = memory.find_project("mobile checkout").id
            assert memory.search("diseno pago", project).total == 1
            assert memory.search_decisions(project, "six sessions")
            assert memory.active_project() is not None
            answer = memory.find_branch(project, 2).tip_id  # the line the answer is on
            assert memory.state_at(answer).task_id == "usability_test_plan"
            added = memory.add_turn(project, "user", "one more")
            assert added.id == max(t.id for t in memory.recent_turns(project, 50))


def test_db_copy_refuses_a_home_over_another_unless_replace(tmp_path, postgres_url, run_cli):
    laptop = tmp_path / "laptop.db"
    with Memory.open(laptop) as memory:
        rich_home(memory, tmp_path)
    with Memory.open(postgres_url) as team:
        team.create_project("Team's own")
    refused = run_cli("db", "copy", str(laptop), postgres_url)
    assert refused.exit_code == ExitCode.USAGE and "not empty (1 projects" in refused.output
    assert refused.output.strip().splitlines()[-1].startswith("Error:")
    replaced = run_cli("db", "copy", str(laptop), postgres_url, "--replace")
    assert replaced.exit_code == 0, replaced.output
    with Memory.open(postgres_url) as team:
        assert [p.name for p in team.list_projects()] == [
            "Investigación de usuarios",
            "Mobile Checkout",
        ]
    missing = run_cli("db", "copy", str(tmp_path / "nothing.db"), postgres_url)
    assert missing.exit_code == ExitCode.NOT_FOUND
    same = run_cli("db", "copy", str(laptop), f"sqlite:///{laptop}")
    assert same.exit_code == ExitCode.USAGE and "same database" in same.output


@pytest.mark.parametrize("into", ["sqlite", "postgresql"])
def test_a_team_home_replaced_by_a_copy_keeps_its_audit_log_append_only(
    tmp_path, request, into, run_cli
):
    laptop = tmp_path / "laptop.db"
    with Memory.open(laptop) as memory:
        rich_home(memory, tmp_path)
    target = request.getfixturevalue("postgres_url") if into == "postgresql" else None
    target = target or str(tmp_path / "target.db")
    with Memory.open(target) as memory:  # a team there already: people, audit lines, sessions
        memory.create_project("Kept")
        memory.new_session(memory.add_person("Dora").id)
    replaced = run_cli("db", "copy", str(laptop), target, "--replace", "--json")
    assert replaced.exit_code == 0, replaced.output
    assert table_rows(target) == table_rows(laptop)
    with Memory.open(target) as memory:
        assert [p.name for p in memory.list_people()] == ["Ana", "Bén Ortiz", "Carla"]
        logged = [e.action for e in memory.audit_log()]
        assert "person.added" in logged and "decision.recorded" in logged
        for statement in ("UPDATE audit_log SET actor = 'x'", "DELETE FROM audit_log"):
            with pytest.raises(Exception, match="append-only"), memory.transaction():
                memory.db.execute(statement)
        assert len(memory.audit_log()) == len(logged)


@pytest.mark.parametrize("into", ["sqlite", "postgresql"])
def test_a_copy_that_fails_leaves_the_target_as_it_was(tmp_path, request, into, monkeypatch):
    from design_agent.memory import copy

    laptop = tmp_path / "laptop.db"
    with Memory.open(laptop) as memory:
        rich_home(memory, tmp_path)
    target = request.getfixturevalue("postgres_url") if into == "postgresql" else None
    target = target or str(tmp_path / "target.db")
    with Memory.open(target) as memory:
        memory.create_project("Kept")
    real = copy._write

    def failing(db: Any, table: Any, batch: Any) -> None:
        real(db, table, batch)
        if table.name == "project_files":
            raise RuntimeError("the network went away")

    monkeypatch.setattr(copy, "_write", failing)
    with pytest.raises(RuntimeError, match="network"):
        copy.copy_database(DatabaseUrl.parse(str(laptop)), DatabaseUrl.parse(target), True)
    with Memory.open(target) as memory:
        assert [p.name for p in memory.list_projects()] == ["Kept"]
        assert memory.search("payment", memory.find_project("kept").id).total == 0


def test_checksums_do_not_depend_on_how_each_store_writes_a_row():
    table = next(t for t in TABLES if t.name == "state_snapshots")
    sqlite_row = (1, "keyframe", 0, '{"b":1e+16,"a":[1.0,"x"]}')
    postgres_row = (1, "keyframe", 0, '{"a": [1.0, "x"], "b": 10000000000000000}')
    sums = []
    for row in (sqlite_row, postgres_row):
        checksum = Checksum(table)
        checksum.add(row)
        sums.append(checksum.hexdigest)
    assert sums[0] == sums[1]


# -- db status, db migrate, the URL ------------------------------------------------------


def test_db_status_says_which_database_without_its_password(run_cli, cli_store, monkeypatch, home):
    run_cli("projects", "create", "Checkout")
    shown = json.loads(run_cli("db", "status", "--json").output)
    assert shown["schema_version"] == shown["latest_version"] == LATEST_VERSION
    assert shown["tables"]["projects"] == 1 and shown["tables"]["conversations"] == 0
    if isinstance(cli_store, str):
        assert shown["backend"] == "postgresql" and shown["database"] == cli_store
        with_password = cli_store.replace("postgres@", "postgres:hunter2@")
        monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", with_password)
        text = run_cli("db", "status").output
        assert "hunter2" not in text and "backend   postgresql" in text
        assert "hunter2" not in run_cli("config", "show", "--json").output
    else:
        assert shown == {**shown, "backend": "sqlite", "database": f"sqlite:///{cli_store}"}


def test_a_home_that_has_no_database_yet_says_so_and_stays_without_one(run_cli, home):
    shown = run_cli("db", "status")
    assert "none yet" in shown.output and not (home / "design-agent.db").exists()


def test_db_migrate_brings_an_older_sqlite_home_forward(run_cli, home):
    from test_memory_durability import build_version_1

    home.mkdir()
    build_version_1(home / "design-agent.db")
    before = json.loads(run_cli("db", "status", "--json").output)
    assert before["schema_version"] == 1 and "branches" not in before["tables"]
    assert "from schema version 1 to 11" in run_cli("db", "migrate").output
    with sqlite3.connect(home / "design-agent.db") as db:
        assert db.execute("SELECT language FROM conversations").fetchall() == [("en",)]


@pytest.mark.parametrize(
    ("given", "dialect", "where"),
    [
        ("sqlite:////srv/home/design-agent.db", "sqlite", "/srv/home/design-agent.db"),
        ("sqlite:///design-agent.db", "sqlite", "design-agent.db"),
        ("/srv/home/design-agent.db", "sqlite", "/srv/home/design-agent.db"),
        ("postgresql://design@db.example.com/design", "postgresql", ""),
        ("postgres://design@/design?host=/var/run/postgresql", "postgresql", ""),
    ],
)
def test_a_database_url_names_a_file_or_a_server(given, dialect, where):
    url = DatabaseUrl.parse(given)
    assert url.dialect == dialect and str(url.path or "") == where


@pytest.mark.parametrize(
    "given", ["mysql://x@y/z", "sqlite://", "sqlite:///", "postgresql://db.example.com"]
)
def test_a_database_url_of_another_kind_is_refused_with_the_forms_allowed(given):
    with pytest.raises(UsageError, match="sqlite:///PATH or postgresql://"):
        DatabaseUrl.parse(given)


def test_the_setting_and_the_environment_name_the_database(run_cli, home, monkeypatch):
    set_it = run_cli("config", "set", "database.url", "postgresql://ana:pw@db.example.com/d")
    assert set_it.exit_code == 0
    shown = run_cli("config", "show").output
    assert "postgresql://ana@db.example.com/d" in shown and ":pw@" not in shown
    assert run_cli("config", "set", "database.url", "mysql://x").exit_code == ExitCode.USAGE
    monkeypatch.setenv("DESIGN_AGENT_DATABASE_URL", f"sqlite:///{home / 'other.db'}")
    run_cli("projects", "create", "Elsewhere")
    assert (home / "other.db").exists() and not (home / "design-agent.db").exists()
