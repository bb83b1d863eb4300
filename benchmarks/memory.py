"""Benchmark of design-agent's memory on a realistic database.

Builds (once, cached under benchmarks/.cache/) a database of 50 projects and
1,000,000 turns of about 60 words drawn with a Zipf distribution from an
English/Spanish design vocabulary, then prints: insert throughput, size on
disk, project-scoped and cross-project search p50/p95 over 200 queries
(query words Zipf-drawn too, so common words are searched), time to save one
turn, and time to open the database and load a project's context.

    python benchmarks/memory.py                # 1M turns, cached
    python benchmarks/memory.py --turns 20000  # a quick run
    python benchmarks/memory.py --regenerate   # rebuild the cached database

Other benchmarks reuse the database: `from benchmarks.memory import get_database`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from design_agent.memory import Memory
from design_agent.memory.db import stamp

CACHE = Path(__file__).resolve().parent / ".cache"
GENERATOR_VERSION = 2  # bump when the generated data changes, to invalidate caches
PROJECTS = 50
BATCH = 20_000


def _words(text: str) -> list[str]:
    return text.split()


STOP = _words("""
the of and to a in is that for it as with on be this are we was by at or from have an not they
but you can will their which our should if more so about when what there all also do how than
them its into de la que el en y los del se las por un para con una su al lo como más pero sus
le ya o este
""")
DESIGN = _words("""
user users design research testing usability interview persona journey map flow checkout mobile
payment onboarding prototype feedback insight survey task participant screen button navigation
accessibility metric conversion experience product feature goal problem solution hypothesis
moderated unmoderated session study data analysis pattern component system brand content visual
layout information architecture card sorting tree wireframe sketch stakeholder workshop
requirement scope roadmap priority backlog story sprint release launch iteration concept idea
opportunity pain point need behavior motivation context scenario cart order shipping account
login signup search filter results page home dashboard settings notification email message
error state empty loading success form field label input validation copy tone voice style guide
token color typography spacing grid icon image illustration animation interaction gesture
desktop tablet web app platform android ios usuario usuarios diseño investigación prueba
pruebas entrevista mapa flujo pago compra experiencia producto objetivo problema solución
hipótesis sesión estudio datos análisis patrón componente sistema marca contenido tarjeta
requisito alcance prioridad lanzamiento oportunidad necesidad comportamiento contexto carrito
pedido envío cuenta búsqueda página inicio panel ajustes notificación correo estado formulario
campo etiqueta validación texto tono estilo color tipografía test tests tested designs designer
designers personas interviews maps mapping flows prototypes prototyping screens buttons tasks
participants sessions studies patterns components cards stories features goals problems solutions
entrevistas mapas flujos tarjetas sesiones estudios
""")
# Invented words are syllables (onset + vowel + optional coda); like English and
# Spanish, a word has a few inflected forms, so prefix matching expands "test"
# to a handful of words, not to dozens.
ONSETS = _words("b c d f g k l m n p r s t v z ch tr pl")
VOWELS = _words("a e i o u")
CODAS = ["", "", "", "n", "r", "s", "l"]
INFLECTIONS = [("s", 0.6), ("ing", 0.25), ("ed", 0.25), ("er", 0.1)]
QUESTIONS = [
    "why did we choose {}",
    "what did we decide about {}",
    "{}",
    "por qué decidimos {}",
    "{}",
    "{} results",
]


def vocabulary(size: int = 30_000, seed: int = 7) -> list[str]:
    """Words in frequency rank order: function words, design words, then rarer words."""
    rnd = random.Random(seed)
    words = list(dict.fromkeys(STOP + DESIGN))
    seen = set(words)
    while len(words) < size:
        syllables = rnd.choices([2, 3, 4], weights=[25, 55, 20])[0]
        base = "".join(
            rnd.choice(ONSETS) + rnd.choice(VOWELS) + rnd.choice(CODAS) for _ in range(syllables)
        )
        family = [base] + [base + end for end, p in INFLECTIONS if rnd.random() < p]
        for word in family:
            if word not in seen:
                seen.add(word)
                words.append(word)
    return words[:size]


def zipf_weights(n: int, s: float = 1.05) -> list[float]:
    """Cumulative Zipf weights for ranks 1..n (for random.choices)."""
    return list(itertools.accumulate(1.0 / rank**s for rank in range(1, n + 1)))


def database_path(turns: int) -> Path:
    """Where the cached database of `turns` turns lives."""
    return CACHE / f"memory-v{GENERATOR_VERSION}-{turns}.db"


def get_database(turns: int = 1_000_000, regenerate: bool = False) -> Path:
    """The cached benchmark database of `turns` turns, built if missing (or asked to)."""
    path = database_path(turns)
    if regenerate or not path.exists():
        build_database(path, turns)
    return path


def build_database(path: Path, turns: int, seed: int = 1) -> dict[str, Any]:
    """Build the database at `path` (via a temporary file, so a crash leaves no half cache)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    for leftover in (partial, *_siblings(partial), path, *_siblings(path)):
        leftover.unlink(missing_ok=True)
    started = time.perf_counter()
    with Memory.open(partial) as memory:
        stats = _fill(memory, turns, random.Random(seed))
        # A bulk load leaves each index in many segments; a user's sessions do not
        # (Memory.close merges what the session wrote), so measure the maintained state.
        tidied = time.perf_counter()
        memory.optimize()
        stats["optimize_seconds"] = time.perf_counter() - tidied
        memory.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    stats["build_seconds"] = time.perf_counter() - started
    partial.rename(path)
    for sibling in _siblings(partial):
        sibling.unlink(missing_ok=True)
    path.with_suffix(".json").write_text(json.dumps(stats, indent=2), encoding="utf-8")
    return stats


def _siblings(path: Path) -> list[Path]:
    return [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm")]


def _fill(memory: Memory, turns: int, rnd: random.Random) -> dict[str, Any]:
    words = vocabulary()
    weights = zipf_weights(len(words))
    ids = [memory.create_project(f"Project {n:02d} {words[100 + n]}").id for n in range(PROJECTS)]
    memory.switch_project(ids[0])
    started = time.perf_counter()
    clock = datetime(2024, 1, 1, tzinfo=UTC)
    for done in range(0, turns, BATCH):
        rows = []
        for n in range(done, min(turns, done + BATCH)):
            text = " ".join(rnd.choices(words, cum_weights=weights, k=rnd.randint(40, 80)))
            role = "user" if n % 2 == 0 else "agent"
            rows.append(
                (
                    ids[rnd.randrange(PROJECTS)],
                    stamp(clock + timedelta(seconds=n)),
                    role,
                    text,
                    f"task_{rnd.randrange(80)}",
                )
            )
        with memory.transaction():
            memory.db.executemany(
                "INSERT INTO conversations (project_id, timestamp, role, message, task_id) "
                "VALUES (?, ?, ?, ?, ?)",
                rows,
            )
        print(f"  {done + len(rows):,} turns", end="\r", flush=True)
    seconds = time.perf_counter() - started
    _extras(memory, ids, words, weights, rnd)
    return {"turns": turns, "insert_seconds": seconds, "turns_per_second": turns / seconds}


def _extras(
    memory: Memory, ids: list[str], words: list[str], weights: list[float], rnd: random.Random
) -> None:
    """Decisions and metadata per project, so context loads look like real ones."""
    for project_id in ids:
        memory.set_metadata(project_id, "goals", " ".join(rnd.choices(words[40:400], k=12)))
        for _ in range(20):
            memory.add_decision(
                project_id,
                " ".join(rnd.choices(words[60:], cum_weights=weights[60:], k=5)),
                " ".join(rnd.choices(words, cum_weights=weights, k=25)),
            )


def queries(n: int = 200, seed: int = 3) -> list[str]:
    """Search queries whose words are Zipf-drawn from the content vocabulary."""
    rnd = random.Random(seed)
    words = vocabulary()
    content = [w for w in words if w not in STOP]
    weights = zipf_weights(len(content))
    out = []
    for _ in range(n):
        picked = " ".join(rnd.choices(content, cum_weights=weights, k=rnd.randint(1, 3)))
        out.append(rnd.choice(QUESTIONS).format(picked))
    return out


def timed(action: Callable[[], Any], repeat: int) -> list[float]:
    """Milliseconds per call of `action`, `repeat` times."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return times


def percentiles(times: list[float]) -> str:
    """ "p50 x ms, p95 y ms"."""
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return f"p50 {cuts[49]:7.2f} ms   p95 {cuts[94]:7.2f} ms   max {max(times):7.2f} ms"


def run(path: Path, rnd: random.Random) -> Iterator[tuple[str, str]]:
    """Measure everything on the database at `path`; yields (label, figure)."""
    size = sum(p.stat().st_size for p in (path, *_siblings(path)) if p.exists())
    yield "size on disk", f"{size / 1_048_576:,.0f} MB"
    with Memory.open(path) as memory:
        ids = [p.id for p in memory.list_projects()]
        asked = queries()
        scoped = iter([(q, rnd.choice(ids)) for q in asked])
        yield (
            "scoped search (200 queries)",
            percentiles(timed(lambda: memory.search(*next(scoped)), len(asked))),
        )
        every = iter(asked)
        yield (
            "cross-project search (200)",
            percentiles(timed(lambda: memory.search(next(every), all_projects=True), len(asked))),
        )
        yield "save one turn (200)", percentiles(_save_turns(memory, ids[0], 200))
    yield "open + load context (50)", percentiles(timed(lambda: _open_and_load(path), 50))


def _save_turns(memory: Memory, project_id: str, n: int) -> list[float]:
    text = " ".join(vocabulary()[:60])
    saved: list[int] = []
    times = timed(lambda: saved.append(memory.add_turn(project_id, "user", text).id), n)
    with memory.transaction():  # leave the cached database as it was
        memory.db.executemany("DELETE FROM conversations WHERE id = ?", [(i,) for i in saved])
    return times


def _open_and_load(path: Path) -> None:
    with Memory.open(path) as memory:
        memory.project_context(memory.resolve_project().id)


def main() -> None:
    """Build or reuse the database, then print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1_000_000, help="turns to generate")
    parser.add_argument("--regenerate", action="store_true", help="rebuild the cached database")
    args = parser.parse_args()
    path = database_path(args.turns)
    if args.regenerate or not path.exists():
        print(f"building {path.name} ({args.turns:,} turns, {PROJECTS} projects)...")
        get_database(args.turns, regenerate=True)
        print()
    stats = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    print(f"database: {path} ({args.turns:,} turns, {PROJECTS} projects)")
    print(
        f"{'insert throughput':30} {stats['turns_per_second']:,.0f} turns/s "
        f"(bulk, through the index triggers; built in {stats['build_seconds']:.0f} s)"
    )
    for label, figure in run(path, random.Random(5)):
        print(f"{label:30} {figure}", flush=True)


if __name__ == "__main__":
    main()
