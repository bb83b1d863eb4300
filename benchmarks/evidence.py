"""Benchmark of research evidence (issue 29 §3) on the seeded set in tests/data/evidence/.

    python benchmarks/evidence.py                    # everything; retrieval at 1M segments
    python benchmarks/evidence.py --segments 200000  # a smaller retrieval corpus
    python benchmarks/evidence.py --postgres 0       # SQLite only (no PostgreSQL here)

Prints: quote verification (precision of "verified", recall of true quotes, misattributions
caught, inventions and paraphrases kept out), counts against a recount from the stored
links, survey statistics against the reference values, ingestion rates, and project-scoped
retrieval (top 50 with snippets) p50/p95 on SQLite and on a throwaway PostgreSQL (as many
segments as SQLite's, unless told), each with the machine's load average while it ran.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "evidence"
TRUE_KINDS = ("exact", "punctuation", "elided", "small_change")


def load_set(memory: Any, project_id: str) -> None:
    """The twelve transcripts, the three surveys (in file-name order: S01..S15)."""
    from design_agent.evidence.ingest import add_evidence

    add_evidence(memory, project_id, [DATA / "transcripts", DATA / "surveys"])


def labelled() -> list[dict[str, Any]]:
    lines = (DATA / "quotes.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def verification(memory: Any, project_id: str) -> dict[str, float]:
    from design_agent.evidence.quotes import Quote
    from design_agent.evidence.verify import check_quote

    store = memory.evidence
    quotes = labelled()
    cited = store.by_code(project_id, [q["cited"] for q in quotes])
    results = []
    for q in quotes:
        found = check_quote(
            store, project_id, Quote(q["quote"], q["cited"], "", 0), cited.get(q["cited"])
        )
        results.append((q, found))
    verified = [(q, r) for q, r in results if r.status == "verified"]
    true = [(q, r) for q, r in results if q["kind"] in TRUE_KINDS]
    moved = [(q, r) for q, r in results if q["kind"] == "misattributed"]
    wrong = [(q["id"], q["kind"], r.score) for q, r in verified if q["kind"] not in TRUE_KINDS]
    return {
        "quotes": len(results),
        "precision_verified": sum(q["kind"] in TRUE_KINDS for q, _ in verified) / len(verified),
        "recall_verified": sum(r.status == "verified" for _, r in true) / len(true),
        "recall_verified_or_check": sum(r.status in ("verified", "check") for _, r in true)
        / len(true),
        "misattributions_caught": sum(
            r.status == "misattributed" and r.segment == q["source"] for q, r in moved
        )
        / len(moved),
        "inventions_removed": _share(results, "invented", ("unsupported",)),
        "paraphrases_not_verified": _share(results, "paraphrase", ("check", "unsupported")),
        "moderator_and_short_excluded": _share(results, ("moderator", "short"), ("not_evidence",)),
        "wrongly_verified": wrong[:10],  # type: ignore[dict-item]
    }


def _share(results: list[Any], kinds: Any, statuses: tuple[str, ...]) -> float:
    kinds = (kinds,) if isinstance(kinds, str) else kinds
    mine = [r for q, r in results if q["kind"] in kinds]
    return sum(r.status in statuses for r in mine) / len(mine)


def counts(memory: Any, project_id: str) -> float:
    """Themes made from the labelled true quotes by topic; 'n of N' against a recount of
    distinct participants from the stored segments' own speaker links."""
    from design_agent.evidence.verify import check_answer

    expected = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
    topics: dict[str, list[str]] = {}
    for session in expected["sessions"]:
        for code, seg in session["segments"].items():
            if seg["topic"]:
                topics.setdefault(seg["topic"], []).append(code)
    rng, answers = random.Random(7), []
    for _ in range(40):
        lines = []
        for topic, codes in topics.items():
            lines.append(f"## {topic}")
            for code in rng.sample(codes, min(len(codes), rng.randint(1, 6))):
                text = _segment_text(expected, code)
                lines.append(f'- "{text}" [{code}]')
        answers.append("\n".join(lines))
    equal = 0
    for answer in answers:
        report = check_answer(memory.evidence, project_id, answer)
        assert report is not None
        recount = _recount(memory, project_id, report)
        equal += [(t.theme, t.count) for t in report.themes] == recount
    return equal / len(answers)


def _segment_text(expected: dict[str, Any], code: str) -> str:
    for session in expected["sessions"]:
        if code in session["segments"]:
            return str(session["segments"][code]["text"])
    raise KeyError(code)


def _recount(memory: Any, project_id: str, report: Any) -> list[tuple[str, int]]:
    """Distinct participant speakers of the verified segments, read by SQL from the links."""
    out = []
    for theme in report.themes:
        codes = [
            q.segment
            for q in report.quotes
            if q.theme == theme.theme and q.status in ("verified", "misattributed")
        ]
        marks = ", ".join("?" for _ in codes) or "''"
        found = memory.db.execute(
            "SELECT count(DISTINCT p.participant) FROM evidence_segments g JOIN evidence_speakers "
            "p ON p.id = g.speaker_id JOIN evidence_sessions s ON s.id = g.session_id WHERE "
            f"g.project_id = ? AND p.role = 'participant' AND s.kind = 'interview' AND g.code IN "
            f"({marks})",
            [project_id, *codes],
        ).fetchone()[0]
        out.append((theme.theme, int(found)))
    return out


def survey_figures() -> float:
    """Share of the reference statistics (expected.json) the code computes exactly."""
    from design_agent.evidence.formats import ReadOptions, parse_file
    from design_agent.evidence.stats import survey_stats

    expected = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))["surveys"]
    checked = right = 0
    for name, want in expected.items():
        path = DATA / "surveys" / name
        parsed = parse_file(path, path.read_bytes(), ReadOptions())
        stats = survey_stats(parsed.questions, parsed.rows)
        nps = next(q for q in stats.questions if q.kind == "nps")
        pairs = [
            (nps.nps, want["nps"]),
            (nps.promoters, want["promoters"]),
            (nps.detractors, want["detractors"]),
        ]
        pairs += [(stats.crosstab[d][nps.key], v) for d, v in want["nps_by_device"].items()]
        if stats.sus_mean is not None:
            pairs.append((stats.sus_mean, want["sus_mean"]))
        for q in stats.questions:
            if q.kind == "likert":
                pairs.append(
                    (
                        {k: v for k, v in q.counts.items() if v},
                        {k: v for k, v in want["likert_counts"].items() if v},
                    )
                )
                pairs.append((q.top_two_box, want["top_two_box"]))
            if q.kind == "multi":
                pairs.append((q.counts, want["features"]))
        checked += len(pairs)
        right += sum(a == b for a, b in pairs)
    return right / checked


def hour_transcript(rng: random.Random, index: int) -> str:
    """A one-hour Zoom transcript (~9,000 words, ~360 turns) from the seeded sentences."""
    import yaml

    bank = yaml.safe_load((DATA / "source" / "bank_en.yaml").read_text(encoding="utf-8"))
    sentences = [s for items in bank["participant"].values() for s in items]
    lines, clock = ["WEBVTT", ""], 0.0
    for turn in range(360):
        speaker = "Dana Brooks" if turn % 2 == 0 else f"Person {index}"
        text = (
            "Can you tell me more about that?"
            if turn % 2 == 0
            else " ".join(rng.sample(sentences, 3))
        )
        end = clock + 10
        lines += [f"{turn + 1}", f"{_stamp(clock)} --> {_stamp(end)}", f"{speaker}: {text}", ""]
        clock = end
    return "\n".join(lines)


def _stamp(seconds: float) -> str:
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}.000"


def ingestion(folder: Path) -> dict[str, float]:
    from design_agent.evidence.ingest import add_evidence
    from design_agent.memory import Memory

    rng = random.Random(3)
    hours = folder / "hours"
    hours.mkdir()
    for i in range(20):
        (hours / f"hour_{i:02d}.vtt").write_text(hour_transcript(rng, i), encoding="utf-8")
    survey = folder / "big_survey.csv"
    _big_survey(survey, 10_000)
    with Memory.open(folder / "ingest.db") as memory:
        project = memory.create_project("Ingest").id
        start = time.perf_counter()
        add_evidence(memory, project, [hours])
        per_second = 20 / (time.perf_counter() - start)
        start = time.perf_counter()
        add_evidence(memory, project, [survey])
        survey_seconds = time.perf_counter() - start
    return {"transcripts_per_second": per_second, "survey_10k_rows_seconds": survey_seconds}


def _big_survey(path: Path, rows: int) -> None:
    import csv

    rng = random.Random(5)
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(
            [
                "Timestamp",
                "How likely are you to recommend us to a friend?",
                "Booking was easy",
                "Device",
                "Anything else?",
            ]
        )
        scale = [
            "Strongly disagree",
            "Disagree",
            "Neither agree nor disagree",
            "Agree",
            "Strongly agree",
        ]
        for i in range(rows):
            out.writerow(
                [
                    f"2026/10/03 10:{i % 60:02d}:00",
                    rng.randint(0, 10),
                    rng.choice(scale),
                    rng.choice(["iPhone", "Android", "Web"]),
                    rng.choice(
                        [
                            "",
                            "",
                            "The reminders are great and arrive on time",
                            "Booking on the phone keeps logging me out",
                        ]
                    ),
                ]
            )


def retrieval(
    folder: Path, total: int, target: str | None = None, rounds: int = 3
) -> dict[str, float]:
    """p50/p95 of a project-scoped top-50 search with snippets at `total` segments (50
    projects), over `rounds` of 200 queries of the banks' words (each round's p95; their
    median, min and max); on SQLite, or the PostgreSQL `target`."""
    from design_agent.memory import Memory

    path = target or folder / "retrieval.db"
    words = _vocabulary()
    rng = random.Random(11)
    with Memory.open(path) as memory:
        projects = [memory.create_project(f"Project {i}").id for i in range(50)]
        start = time.perf_counter()
        _fill(memory, projects, words, total, rng)
        memory.optimize()
        built = time.perf_counter() - start
        memory.evidence.search(projects[0], words[0], 50)  # the process's first: lexicon read
        measured = [_round(memory, projects, words, rng) for _ in range(rounds)]
    p95s = sorted(p95 for _, p95 in measured)
    return {
        "segments": total,
        "build_seconds": built,
        "load_average_1min": os.getloadavg()[0],
        "p50_ms": statistics.median(p50 for p50, _ in measured),
        "p95_ms": statistics.median(p95s),
        "p95_min_ms": p95s[0],
        "p95_max_ms": p95s[-1],
    }


def _round(memory: Any, projects: list[str], words: list[str], rng: Any) -> tuple[float, float]:
    timings = []
    for _ in range(200):
        query = " ".join(rng.sample(words[:400], 2))
        project = rng.choice(projects)
        begin = time.perf_counter()
        memory.evidence.search(project, query, 50)
        timings.append((time.perf_counter() - begin) * 1000)
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def _vocabulary() -> list[str]:
    import yaml

    counts: dict[str, int] = {}
    for name in ("bank_en.yaml", "bank_es.yaml"):
        bank = yaml.safe_load((DATA / "source" / name).read_text(encoding="utf-8"))
        for items in bank["participant"].values():
            for sentence in items:
                for word in sentence.lower().replace(",", "").replace(".", "").split():
                    counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda w: -counts[w])


def _fill(memory: Any, projects: list[str], words: list[str], total: int, rng: Any) -> None:
    """Sessions of 1,000 segments of ~25 Zipf-drawn words, written straight to the tables
    (the same statements evidence.add runs, batched)."""
    db = memory.db
    weights = [1 / (rank + 1) for rank in range(len(words))]
    per_session = 1000
    for n in range(total // per_session):
        project = projects[n % len(projects)]
        with memory.transaction():
            session = db.execute(
                "INSERT INTO evidence_sessions (project_id, code, title, source, format, kind, "
                "sha256, added_at) VALUES (?, ?, 't', 's.vtt', 'zoom_vtt', 'interview', ?, "
                "'2026-11-01T00:00:00Z') RETURNING id",
                [project, f"S{n:05d}", f"{n:064x}"],
            ).fetchone()[0]
            speaker = db.execute(
                "INSERT INTO evidence_speakers (session_id, project_id, name, name_key, role, "
                "participant) VALUES (?, ?, 'P', 'p', 'participant', 'P1') RETURNING id",
                [session, project],
            ).fetchone()[0]
            db.executemany(
                "INSERT INTO evidence_segments (session_id, project_id, speaker_id, seq, code, "
                "start_seconds, text, language) VALUES (?, ?, ?, ?, ?, ?, ?, 'en')",
                [
                    [
                        session,
                        project,
                        speaker,
                        i,
                        f"S{n:05d}.T{i:04d}",
                        float(i),
                        " ".join(rng.choices(words, weights, k=25)),
                    ]
                    for i in range(per_session)
                ],
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--segments", type=int, default=1_000_000)
    parser.add_argument(
        "--postgres",
        type=int,
        default=None,
        metavar="N",
        help="retrieval on a throwaway PostgreSQL at N segments (default: --segments; 0: none)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of 200 searches per store")
    args = parser.parse_args()
    if args.postgres is None:
        args.postgres = args.segments
    sys.path.insert(0, str(ROOT))
    from design_agent.memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with Memory.open(folder / "set.db") as memory:
            project = memory.create_project("Booking").id
            load_set(memory, project)
            figures = verification(memory, project)
            wrong = figures.pop("wrongly_verified")
            for name, value in figures.items():
                print(
                    f"verification  {name:32s} {value:.3f}"
                    if isinstance(value, float)
                    else f"verification  {name:32s} {value}"
                )
            print(f"verification  wrongly verified (id, kind, score): {wrong}")
            print(
                f"counts        'n of N' equal to the recount       {counts(memory, project):.0%}"
            )
        print(f"surveys       figures equal to the reference values {survey_figures():.0%}")
        for name, value in ingestion(folder).items():
            print(f"ingestion     {name:32s} {value:.2f}")
        for name, value in retrieval(folder, args.segments, None, args.rounds).items():
            print(f"retrieval     {name:32s} {value:.1f}")
        if args.postgres:
            postgres_retrieval(folder, args.postgres, args.rounds)


def postgres_retrieval(folder: Path, total: int, rounds: int) -> None:
    """The same retrieval on a throwaway PostgreSQL cluster (benchmarks/team.py's)."""
    sys.path[:0] = [str(ROOT / "tests")]
    from benchmarks.team import Server

    server = Server(None)
    try:
        url = server.database("evidence_bench")
        for name, value in retrieval(folder, total, url, rounds).items():
            print(f"retrieval pg  {name:32s} {value:.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
