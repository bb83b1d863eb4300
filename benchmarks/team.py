"""Benchmark of a team's memory on PostgreSQL (issue 28, the memory's side), printed, never
asserted.

1. Writers: 20 processes on 20 projects, 500 turns each (every answer saves the project
   state with it, as a turn does) and 50 decision edits, all through `Memory`: append
   latency p50/p95/p99, then the proof that nothing was lost or duplicated: every turn
   once, one line per project, no parent in another project, every decision edit and
   every state kept. The same on one SQLite file, for comparison.
2. Search: a corpus of --turns turns on 20 projects, half English and half Spanish,
   built in SQLite (cached under benchmarks/.cache), moved to PostgreSQL with `db copy`
   (timed); then 200 Zipf-drawn questions, each scoped to a project: p50/p95 on both
   stores, p95 with 20 searchers at once on PostgreSQL, and how much of SQLite's top 10
   PostgreSQL's top 10 holds.
   Then 20 searchers at once asking across the projects of one member (5 of the 20: the
   search is scoped to them, as a team's server scopes a person's).
3. One branch point: 5 writers on one project, each starting a turn as a server does
   (claimed in turn_runs: a second at once is 409) and saving it as a child of the same
   turn: how many were refused, and that every saved one is there once, on its own branch.
4. SSE across two `serve --team` processes: 200 clients on 50 projects (2 on each process
   per project) follow turns that a slow fake Claude streams; the delivery of each event
   (appended by the pipeline -> read by the client), for followers on the turn's own
   process and on the other one, and the pools' connections lent out while they stream.
5. Start-up on SQLite: `--version`, `--help` and an offline `ask`, against --baseline (a
   git revision: the same commands from that tree), and that `ask` loads no psycopg.

PostgreSQL is a throwaway cluster (tests/pg_cluster.py: Debian's binaries, a unix socket,
durability off), or your server with --admin-url (a database there from which this may
CREATE and DROP its own databases).

    python benchmarks/team.py                     # 100,000 turns
    python benchmarks/team.py --turns 1000000     # the issue's scale (a long build)
    python benchmarks/team.py --skip-writers --skip-startup
    python benchmarks/team.py --baseline d8ed84d^ --skip-search   # start-up against a tree
"""

from __future__ import annotations

import argparse
import itertools
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from multiprocessing import get_context
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # benchmarks.startup, tests/pg_cluster.py

from benchmarks.startup import ASK, command_env, median_ms  # noqa: E402
from design_agent.memory import Memory, ProjectState, StateDecision  # noqa: E402
from design_agent.memory.db import rows, stamp  # noqa: E402
from design_agent.memory.url import DatabaseUrl  # noqa: E402

CACHE = ROOT / "benchmarks" / ".cache"
# A server sized as a team's would be for this corpus (the tests' cluster is kept small).
SERVER = "-c shared_buffers=1GB -c effective_cache_size=4GB -c work_mem=16MB"
GENERATOR_VERSION = 1
PROJECTS = 20
BATCH = 20_000


def _split(text: str) -> list[str]:
    return text.split()


EN_STOP = _split("the of and to a in is that for it as with on be this are we was by at or")
ES_STOP = _split("de la que el en y los del se las por un para con una su al lo como más")
EN_WORDS = _split("""user users research test tests testing tested usability interview interviews
persona journey map maps flow checkout payment payments onboarding prototype prototypes
feedback insight survey task tasks participant participants screen navigation session
sessions study studies design designs designer accessibility metric conversion experience
product feature goal problem solution hypothesis moderated unmoderated pattern component
card sorting wireframe stakeholder workshop requirement roadmap priority release launch""")
ES_WORDS = _split("""usuario usuarios investigación prueba pruebas entrevista entrevistas persona
mapa mapas viaje flujo flujos pago pagos incorporación prototipo prototipos comentarios
hallazgo encuesta tarea tareas participante participantes pantalla navegación sesión
sesiones estudio estudios diseño diseños diseñadora accesibilidad métrica conversión
experiencia producto función objetivo problema solución hipótesis moderada moderadas
patrón componente tarjeta tarjetas requisito prioridad lanzamiento necesidad contexto""")
TEMPLATES = {
    "en": ["why did we choose {}", "what did we decide about {}", "{}", "{} results"],
    "es": ["por qué decidimos {}", "qué hicimos con {}", "{}", "resultados de {}"],
}


# -- Figures -------------------------------------------------------------------------------


def cuts(values: list[float]) -> str:
    """ "p50 x ms  p95 y ms  p99 z ms" of seconds."""
    found = statistics.quantiles([v * 1000 for v in values], n=100, method="inclusive")
    return f"p50 {found[49]:7.2f} ms   p95 {found[94]:7.2f} ms   p99 {found[98]:7.2f} ms"


def line(label: str, figure: str) -> None:
    print(f"  {label:<40} {figure}", flush=True)


# -- PostgreSQL ----------------------------------------------------------------------------


class Server:
    """Where the benchmark's databases are made: a throwaway cluster, or --admin-url."""

    def __init__(self, admin_url: str | None) -> None:
        self._folder: Path | None = None
        if admin_url is None:
            import pg_cluster

            reason = pg_cluster.unavailable()
            if reason:
                sys.exit(f"no PostgreSQL: {reason} (or give --admin-url)")
            self._folder = Path(tempfile.mkdtemp(prefix="design-agent-bench-"))
            admin_url = pg_cluster.start(self._folder, SERVER).url("postgres")
        self.admin_url = admin_url

    def database(self, name: str) -> str:
        """A new, empty database (an older one of that name is dropped first)."""
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            admin.execute(f"CREATE DATABASE {name}")
        parts = urlsplit(self.admin_url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    def stop(self) -> None:
        if self._folder is not None:
            import pg_cluster

            pg_cluster.stop(self._folder)
            shutil.rmtree(self._folder, ignore_errors=True)


# -- 1. Writers ----------------------------------------------------------------------------


def sentence(rnd: random.Random, words: int) -> str:
    language = rnd.choice(("en", "es"))
    stop, content = (EN_STOP, EN_WORDS) if language == "en" else (ES_STOP, ES_WORDS)
    return " ".join(rnd.choice(stop if rnd.random() < 0.4 else content) for _ in range(words))


def writer(target: str, project_id: str, turns: int, edits: int, seed: int) -> dict[str, Any]:
    """One writer's session: its turns (an answer saves the state) and decision edits."""
    from design_agent.memory.postgres import connection

    connection.POOL_SIZE = 2
    rnd, appends, changes, cpu = random.Random(seed), [], [], 0.0
    every = max(1, turns // max(1, edits))
    state, decision = ProjectState(), None
    with Memory.open(target) as memory:
        for n in range(turns):
            started, used = time.perf_counter(), time.process_time()
            if n % 2:
                memory.add_turn(project_id, "agent", sentence(rnd, 60), provider="claude",
                                state=state, keyframe_every=20)  # fmt: skip
            else:
                memory.add_turn(project_id, "user", sentence(rnd, 15))
            appends.append(time.perf_counter() - started)
            cpu += time.process_time() - used
            if n % every == every - 1 and len(changes) < edits:
                started = time.perf_counter()
                decision = _edit(memory, project_id, decision, rnd)
                changes.append(time.perf_counter() - started)
                made = StateDecision(id=decision.id, decision=decision.decision)
                state = state.model_copy(update={"decisions": [made], "task_id": f"t{n}"})
    return {"appends": appends, "edits": changes, "cpu": cpu}


def _edit(memory: Memory, project_id: str, decision: Any, rnd: random.Random) -> Any:
    text = sentence(rnd, 6)
    if decision is None:
        return memory.add_decision(project_id, text, sentence(rnd, 12))
    return memory.supersede_decision(decision.id, text)


def run_writers(target: str, writers: int, turns: int, edits: int) -> None:
    """`writers` processes at once, one project each; latencies, then the checks."""
    with Memory.open(target) as memory:
        ids = [memory.create_project(f"Writer {n:02d}").id for n in range(writers)]
    started = time.perf_counter()
    spawn = get_context("spawn")
    with ProcessPoolExecutor(max_workers=writers, mp_context=spawn) as pool:
        done = list(pool.map(writer, [target] * writers, ids, [turns] * writers,
                             [edits] * writers, range(writers)))  # fmt: skip
    wall = time.perf_counter() - started
    appends = [x for d in done for x in d["appends"]]
    line("append (add_turn)", cuts(appends))
    line("decision edit (add / supersede)", cuts([x for d in done for x in d["edits"]]))
    line("throughput", f"{len(appends) / wall:,.0f} turns/s with {writers} writers")
    cpu = sum(d["cpu"] for d in done) / len(appends) * 1000
    line("writer's own CPU per append", f"{cpu:.2f} ms (Python: the memory code, psycopg)")
    with Memory.open(target) as memory:
        for label, figure in check_writers(memory, writers, turns, edits):
            line(label, figure)


CHECKS = {
    "turns, distinct ids": "SELECT count(*) AS n, count(DISTINCT id) AS d FROM conversations",
    "parent in another project": """SELECT count(*) AS n FROM conversations c
        JOIN conversations p ON p.id = c.parent_id WHERE p.project_id <> c.project_id""",
    "not after the turn before it": """SELECT count(*) AS n FROM (SELECT parent_id,
        lag(id) OVER (PARTITION BY project_id ORDER BY id) AS before FROM conversations) t
        WHERE parent_id IS NOT NULL AND parent_id <> before""",
    "decisions, current": """SELECT count(*) AS n,
        count(CASE WHEN status = 'current' THEN 1 END) AS d FROM project_decisions""",
    "states saved": "SELECT count(*) AS n FROM state_snapshots",
}


def check_writers(memory: Memory, writers: int, turns: int, edits: int) -> Iterator[Any]:
    """What the writers left, against what they wrote."""
    expected = {
        "turns, distinct ids": (writers * turns, writers * turns),
        "parent in another project": (0, None),
        "not after the turn before it": (0, None),
        "decisions, current": (writers * edits, writers),
        "states saved": (writers * (turns // 2), None),
    }
    for label, sql in CHECKS.items():
        found = rows(memory.db, sql)[0]
        got = (found["n"], found.get("d"))
        verdict = "ok" if got == expected[label] else f"WRONG (expected {expected[label]})"
        yield (
            label,
            f"{got[0]:,}" + (f", {got[1]:,}" if got[1] is not None else "") + f"  {verdict}",
        )


# -- 2. Search -----------------------------------------------------------------------------


def vocabulary(language: str, size: int, rnd: random.Random) -> list[str]:
    """Words in frequency order: function words, design words, then invented ones (with
    the endings the language inflects with)."""
    stop, content = (EN_STOP, EN_WORDS) if language == "en" else (ES_STOP, ES_WORDS)
    endings = ["s", "ing", "ed"] if language == "en" else ["s", "es", "ado", "ción"]
    words = list(dict.fromkeys(stop + content))
    while len(words) < size:
        base = "".join(rnd.choice("bcdfglmnprstvz") + rnd.choice("aeiou") for _ in range(3))
        words += [base, base + rnd.choice(endings)]
    return words[:size]


def zipf(n: int) -> list[float]:
    return list(itertools.accumulate(1.0 / rank**1.05 for rank in range(1, n + 1)))


def corpus(turns: int, regenerate: bool) -> Path:
    """The cached SQLite corpus of `turns` turns (built when missing)."""
    path = CACHE / f"team-v{GENERATOR_VERSION}-{turns}.db"
    CACHE.mkdir(parents=True, exist_ok=True)
    CACHE.chmod(0o700)  # a private folder, as a home is (else the memory warns)
    if path.exists() and not regenerate:
        return path
    partial = path.with_name(path.name + ".partial")
    for old in (partial, path):
        for suffix in ("", "-wal", "-shm"):
            old.with_name(old.name + suffix).unlink(missing_ok=True)
    with Memory.open(partial) as memory:
        _fill(memory, turns, random.Random(1))
        memory.optimize()
        memory.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    partial.rename(path)
    return path


def _fill(memory: Memory, turns: int, rnd: random.Random) -> None:
    words = {lang: vocabulary(lang, 20_000, random.Random(lang)) for lang in ("en", "es")}
    weights = zipf(20_000)
    ids = [memory.create_project(f"Project {n:02d}").id for n in range(PROJECTS)]
    clock = datetime(2025, 1, 1, tzinfo=UTC)
    for done in range(0, turns, BATCH):
        batch = []
        for n in range(done, min(turns, done + BATCH)):
            language = "en" if n % 2 else "es"
            text = " ".join(
                rnd.choices(words[language], cum_weights=weights, k=rnd.randint(30, 80))
            )
            role = "user" if n % 4 < 2 else "agent"
            when = stamp(clock + timedelta(seconds=n))
            batch.append((rnd.choice(ids), when, role, text, language))
        with memory.transaction():
            memory.db.executemany(
                "INSERT INTO conversations (project_id, timestamp, role, message, language) "
                "VALUES (?, ?, ?, ?, ?)",
                batch,
            )
        print(f"  built {done + len(batch):,} turns", end="\r", flush=True)
    print(" " * 40, end="\r")


def questions(n: int = 200) -> list[str]:
    """Questions whose words are Zipf-drawn from the content words of either language."""
    rnd, found = random.Random(3), []
    for _ in range(n):
        language = rnd.choice(("en", "es"))
        words = vocabulary(language, 20_000, random.Random(language))
        stop = set(EN_STOP if language == "en" else ES_STOP)
        content = [w for w in words if w not in stop]
        picked = " ".join(rnd.choices(content, cum_weights=zipf(len(content)), k=rnd.randint(1, 3)))
        found.append(rnd.choice(TEMPLATES[language]).format(picked))
    return found


def top10(memory: Memory, query: str, project_id: str) -> list[int]:
    found = memory.search(query, project_id, limit=10)
    return [hit.id for group in found.groups for hit in group.hits if hit.kind == "turn"]


Asked = list[tuple[str, str]]


def searched(target: str | Path, asked: Asked) -> tuple[list[float], list[list[int]]]:
    """Latency and top 10 of each question, one after the other (a "person:ID" scope:
    across that person's projects, as they)."""
    times, tops = [], []
    with Memory.open(target) as memory:
        for query, project_id in asked:
            started = time.perf_counter()
            if project_id.startswith("person:"):
                memory.act_as(memory.get_person(int(project_id.partition(":")[2])))
                found = memory.search(query, all_projects=True, limit=10)
                tops.append([hit.id for group in found.groups for hit in group.hits])
            else:
                tops.append(top10(memory, query, project_id))
            times.append(time.perf_counter() - started)
    return times, tops


def _search_times(target: str, asked: Asked) -> list[float]:
    """A searcher process's latencies, after one untimed question (its pool made, the
    schema checked, the word statistics read: what a server process has done already)."""
    searched(target, asked[:1])
    return searched(target, asked)[0]


def concurrently(target: str, asked: Asked, searchers: int) -> list[float]:
    """Latencies with `searchers` processes asking at once (as server processes would)."""
    shares = [asked[n::searchers] for n in range(searchers)]
    spawn = get_context("spawn")
    with ProcessPoolExecutor(max_workers=searchers, mp_context=spawn) as pool:
        found = pool.map(_search_times, [target] * searchers, shares)
        return [t for times in found for t in times]


def overlap(sqlite: list[list[int]], postgres: list[list[int]]) -> tuple[float, int]:
    """The mean share of SQLite's top 10 in PostgreSQL's, over questions SQLite answers."""
    shares = [len(set(s) & set(p)) / len(s) for s, p in zip(sqlite, postgres, strict=True) if s]
    return (statistics.mean(shares) if shares else 0.0), len(shares)


def run_search(server: Server, turns: int, regenerate: bool) -> None:
    from design_agent.memory.copy import copy_database

    started = time.perf_counter()
    path = corpus(turns, regenerate)
    line(
        "SQLite corpus",
        f"{turns:,} turns, {PROJECTS} projects ({time.perf_counter() - started:.0f} s)",
    )
    target = server.database("bench_search")
    started = time.perf_counter()
    copy_database(DatabaseUrl.parse(path), DatabaseUrl.parse(target))
    with Memory.open(target) as memory:
        memory.optimize()  # ANALYZE
    line("db copy SQLite -> PostgreSQL", f"{time.perf_counter() - started:.1f} s, checked")
    with Memory.open(path) as memory:
        ids = [p.id for p in memory.list_projects()]
    rnd = random.Random(5)
    asked = [(q, rnd.choice(ids)) for q in questions()]
    searched(target, asked[:20])  # warm the caches of both
    sqlite_times, sqlite_tops = searched(path, asked)
    pg_times, pg_tops = searched(target, asked)
    line("scoped search, SQLite (200)", cuts(sqlite_times))
    line("scoped search, PostgreSQL (200)", cuts(pg_times))
    line("same, 20 searchers at once (PostgreSQL)", cuts(concurrently(target, asked, 20)))
    share, answered = overlap(sqlite_tops, pg_tops)
    line("top-10 overlap with SQLite", f"{share:.0%} over the {answered} questions SQLite answers")
    member = _member(target, ids[:5])
    asked_all = [(q, member) for q, _ in asked]
    line("a member's 5 projects, 20 at once (PG)", cuts(concurrently(target, asked_all, 20)))


def _member(target: str, projects: list[str]) -> str:
    """A person who is a member of `projects` only: their searches are scoped to them."""
    with Memory.open(target) as memory:
        person = memory.add_person("Searcher")
        for project_id in projects:
            memory.share_project(project_id, person.id, "viewer")
    return f"person:{person.id}"


# -- 3. One branch point ---------------------------------------------------------------------


def branch_writer(target: str, project_id: str, parent: int, tries: int, seed: int) -> dict:
    """Start turns on the project as a server process does (claimed in turn_runs, 409 when
    one runs), each saved as a child of `parent`, then ended."""
    from design_agent.memory.postgres import turn_log
    from design_agent.memory.postgres.connection import PgConnection

    rnd, saved, refused, times = random.Random(seed), [], 0, []
    with Memory.open(target) as memory:
        db = PgConnection(DatabaseUrl.parse(target))
        for n in range(tries):
            turn_id = f"w{seed}x{n}"
            try:
                turn_log.claim(db, turn_id, project_id, None, "go", f"bench:{seed}",
                               datetime.now(UTC))  # fmt: skip
            except turn_log.Busy:
                refused += 1  # what POST /turns answers 409
                time.sleep(rnd.uniform(0.001, 0.01))
                continue
            started = time.perf_counter()
            saved.append(
                memory.add_turn(project_id, "user", sentence(rnd, 12), parent_id=parent).id
            )
            times.append(time.perf_counter() - started)
            turn_log.finish(db, turn_id, "complete", 0, None, datetime.now(UTC))
    return {"saved": saved, "refused": refused, "times": times}


def run_branch_point(server: Server, writers: int, tries: int) -> None:
    target = server.database("bench_branch")
    with Memory.open(target) as memory:
        project = memory.create_project("Branch point").id
        root = memory.add_turn(project, "user", "where every writer branches from").id
    spawn = get_context("spawn")
    with ProcessPoolExecutor(max_workers=writers, mp_context=spawn) as pool:
        done = list(pool.map(branch_writer, [target] * writers, [project] * writers,
                             [root] * writers, [tries] * writers, range(writers)))  # fmt: skip
    saved = [i for d in done for i in d["saved"]]
    refused = sum(d["refused"] for d in done)
    line("turns saved / refused (409)", f"{len(saved):,} / {refused:,} of {writers * tries:,}")
    line("append on the branch point", cuts([t for d in done for t in d["times"]]))
    with Memory.open(target) as memory:
        children = memory.children(root)
        kept = [t.id for t in children]
        ok = sorted(kept) == sorted(saved) and len(set(kept)) == len(kept)
        branches = len(memory.branches(project))
    line("each saved turn once, a child of it", "ok" if ok else f"WRONG ({len(kept)} kept)")
    line("branches", f"{branches:,} (one per saved turn: each a new line from the point)")


# -- 4. SSE across two server processes ------------------------------------------------------


def run_sse(server: Server, clients: int, projects: int, words: int, delay: float) -> None:
    import threading

    from fixtures.fakes import claude_run, install_fake
    from fixtures.team_servers import Process

    target = server.database("bench_sse")
    with Memory.open(target) as memory:
        token = memory.new_api_token(memory.add_person("Ana", is_admin=True).id, "bench")
        ids = [memory.create_project(f"Stream {n:02d}").id for n in range(projects)]
    folder = Path(tempfile.mkdtemp(prefix="design-agent-sse-"))
    fake = install_fake(folder / "bin", "claude")
    answer = claude_run(folder / "answer.json", *[f"word{i} " for i in range(words)], sleep=3.0)
    env = {
        **{k: v for k, v in __import__("os").environ.items() if not k.startswith("DESIGN_AGENT_")},
        "DESIGN_AGENT_HOME": str(folder / "home"),
        "DESIGN_AGENT_DATABASE_URL": target,
        "DESIGN_AGENT_PROVIDER": "claude",
        "DESIGN_AGENT_CLAUDE_BIN": str(fake),
        "DESIGN_AGENT_ENV_PASSTHROUGH": "FAKE_*",
        "FAKE_RECORDING": str(answer),
        "FAKE_DELAY": str(delay),
    }
    (folder / "home").mkdir(mode=0o700)
    pair = [Process(env, folder / "a.log"), Process(env, folder / "b.log")]
    try:
        turns = {}
        for n, project in enumerate(ids):  # half the turns on each process
            status, body = pair[n % 2].request(token, "POST", f"/api/v1/projects/{project}/turns",
                                               {"message": "plan a usability test"})  # fmt: skip
            assert status == 202, body
            turns[project] = (n % 2, body["turn_id"])
        results: list[dict] = []
        lock = threading.Lock()
        pools: list[int] = []
        stop = threading.Event()

        def follow(runner: int, reader: int, turn_id: str) -> None:
            got = _follow(pair[reader], token, turn_id)
            with lock:
                results.append({**got, "local": runner == reader})

        def sample() -> None:
            while not stop.is_set():
                for process in pair:
                    status = process.request(token, "GET", "/api/v1/status")[1]
                    pools.append(int(status["pool"]["in_use"]))
                stop.wait(0.1)

        threads = [
            threading.Thread(target=follow, args=(runner, (runner + k) % 2, turn_id))
            for runner, turn_id in turns.values() for k in range(clients // projects)
        ]  # fmt: skip
        sampler = threading.Thread(target=sample)
        started = time.perf_counter()
        for thread in [*threads, sampler]:
            thread.start()
        for thread in threads:
            thread.join(300)
        stop.set()
        sampler.join(5)
        _report_sse(results, pools, time.perf_counter() - started)
    finally:
        for process in pair:
            process.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _follow(process: Any, token: str, turn_id: str) -> dict:
    """One SSE client: each event's delivery (read here - appended by the pipeline, both on
    this machine's monotonic clock), ids in order, and whether `end` came."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", process.port, timeout=300)
    conn.request("GET", f"/api/v1/turns/{turn_id}/events",
                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    response = conn.getresponse()
    connected = time.monotonic_ns()
    delays, ids, appended, ended = [], [], 0, False
    for raw in iter(response.readline, b""):
        text = raw.decode().rstrip("\n")
        if text.startswith(": t="):
            appended = int(text.split("a=")[1])
            now = time.monotonic_ns()
            if appended >= connected:  # a live event, not one replayed to a late client
                delays.append((now - appended) / 1e9)
        elif text.startswith("id: "):
            ids.append(int(text[4:]))
        elif text.startswith("event: end"):
            ended = True
            break
    conn.close()
    return {"delays": delays, "ordered": ids == list(range(1, len(ids) + 1)), "ended": ended,
            "events": len(ids)}  # fmt: skip


def _report_sse(results: list[dict], pools: list[int], wall: float) -> None:
    for label, local in (("on the turn's own process", True), ("on the other process", False)):
        delays = [d for r in results if r["local"] == local for d in r["delays"]]
        if delays:
            line(f"delivery {label}", cuts(delays) + f"  ({len(delays):,} events)")
    everything = [d for r in results for d in r["delays"]]
    line(f"delivery, all {len(results)} clients", cuts(everything))
    complete = sum(r["ended"] and r["ordered"] for r in results)
    counts = {r["events"] for r in results}
    line("clients with every event, in order, to end", f"{complete} of {len(results)} "
         f"(events per turn: {sorted(counts)})")  # fmt: skip
    if pools:
        idle = sum(1 for p in pools if p == 0) / len(pools)
        line("pool connections lent while streaming", f"max {max(pools)}, 0 in {idle:.0%} of "
             f"{len(pools)} samples (both processes, every 100 ms)")  # fmt: skip
    line("wall", f"{wall:.1f} s")


# -- 5. Start-up ---------------------------------------------------------------------------

LOADED_AT_EXIT = """
import atexit, sys
atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith("psycopg"))))
sys.argv = ["design-agent", *sys.argv[1:]]
from design_agent.launch.entry import main
main()
"""


FROM_TREE = """
import sys
sys.path.insert(0, sys.argv.pop(1))
sys.argv = ["design-agent", *sys.argv[1:]]
from design_agent.launch.entry import main
main()
"""


def run_startup(runs: int, baseline: str | None) -> None:
    """`--version`, `--help` and an offline `ask` from this tree (and the baseline's), each
    run as the console script runs it, on a home of its own; the two trees take turns run
    by run, so a machine that gets busier slows both alike."""
    trees = [("this tree", ROOT)]
    folder = Path(tempfile.mkdtemp(prefix="design-agent-startup-"))
    try:
        if baseline:
            old = folder / "baseline"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", baseline],
                                     capture_output=True, check=True).stdout  # fmt: skip
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            trees.append((f"baseline {baseline}", old))
        commands = (("--version", ["--version"]), ("--help", ["--help"]), ("ask (SQLite)", ASK))
        for n, (label, args) in enumerate(commands):
            found: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
            for round_ in range(runs + 2):  # the first two warm the caches, uncounted
                for t, (name, tree) in enumerate(trees):
                    home = folder / f"home-{n}-{t}"
                    home.mkdir(exist_ok=True)
                    argv = [sys.executable, "-c", FROM_TREE, str(tree), *args]
                    timed = median_ms(argv, 1, command_env(str(home)))
                    if round_ >= 2:
                        found[name].append(timed)
            medians = {
                name: (statistics.median(w for w, _ in got), statistics.median(c for _, c in got))
                for name, got in found.items()
            }
            for name, (wall, cpu) in medians.items():
                line(f"{label}, {name}", f"median {wall:6.1f} ms wall, {cpu:6.1f} ms CPU")
            if baseline:
                ours, theirs = medians["this tree"], medians[trees[1][0]]
                line(f"{label}, delta", f"{ours[0] - theirs[0]:+.1f} ms wall, "
                     f"{ours[1] - theirs[1]:+.1f} ms CPU")  # fmt: skip
        home = folder / "home-loaded"
        home.mkdir()
        argv = [sys.executable, "-c", LOADED_AT_EXIT, *ASK]
        done = subprocess.run(argv, env=command_env(str(home)), capture_output=True, text=True)
        line("psycopg modules loaded by ask (SQLite)", done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- Main ----------------------------------------------------------------------------------


@contextmanager
def section(title: str) -> Iterator[None]:
    print(title, flush=True)
    started = time.perf_counter()
    yield
    print(f"  ({time.perf_counter() - started:.0f} s)\n", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000, help="turns in the search corpus")
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--writer-turns", type=int, default=500)
    parser.add_argument("--edits", type=int, default=50, help="decision edits per writer")
    parser.add_argument("--admin-url", help="a PostgreSQL database to CREATE databases from")
    parser.add_argument("--regenerate", action="store_true", help="rebuild the cached corpus")
    parser.add_argument("--runs", type=int, default=10, help="runs of each start-up command")
    parser.add_argument("--baseline", help="a git revision whose start-up to compare with")
    parser.add_argument("--clients", type=int, default=200, help="SSE clients")
    parser.add_argument("--projects", type=int, default=50, help="projects the SSE clients follow")
    parser.add_argument("--words", type=int, default=200, help="words each streamed answer has")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds between its lines")
    for part in ("writers", "branch", "search", "sse", "startup"):
        parser.add_argument(f"--skip-{part}", action="store_true")
    args = parser.parse_args()
    server = Server(args.admin_url)
    try:
        _run(args, server)
    finally:
        server.stop()


def _run(args: argparse.Namespace, server: Server) -> None:
    title = f"{args.writers} writers x {args.writer_turns} turns + {args.edits} decision edits"
    steps: list[tuple[bool, str, Callable[[], None]]] = [
        (args.skip_writers, f"{title}, PostgreSQL",
         lambda: run_writers(server.database("bench_writers"), args.writers,
                             args.writer_turns, args.edits)),
        (args.skip_writers, f"{title}, one SQLite file",
         lambda: _sqlite_writers(args)),
        (args.skip_branch, "5 writers on one branch point, PostgreSQL",
         lambda: run_branch_point(server, 5, args.writer_turns)),
        (args.skip_search, f"Search, {args.turns:,} turns",
         lambda: run_search(server, args.turns, args.regenerate)),
        (args.skip_sse, f"SSE: {args.clients} clients on {args.projects} projects, two processes",
         lambda: run_sse(server, args.clients, args.projects, args.words, args.delay)),
        (args.skip_startup, "Start-up on SQLite",
         lambda: run_startup(args.runs, args.baseline)),
    ]  # fmt: skip
    for skipped, label, step in steps:
        if not skipped:
            with section(label):
                step()


def _sqlite_writers(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="design-agent-writers-") as folder:
        target = str(Path(folder) / "design-agent.db")
        run_writers(target, args.writers, args.writer_turns, args.edits)


if __name__ == "__main__":
    main()
