"""Research evidence in the memory: sessions, speakers, segments and survey rows.

A session's code (S03) comes from its project's counter and is never given again, so a
segment id (S03.T047) cited by an old answer never comes to mean another segment. A
speaker keeps one code per name across the project's sessions (Dana in S01 and S04 is P2
in both); moderators are M1, M2..., a survey's respondents R1..., a reviews file's authors
C1.... Adding the same bytes twice returns the session already stored. Every write of one
`add` is one transaction (`store` takes several files at once, all or nothing).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from design_agent.core.errors import NotFoundError
from design_agent.core.evidence import (
    AddedEvidence,
    EvidenceSegment,
    EvidenceSession,
    Parsed,
    SegmentHit,
    SurveyQuestion,
)
from design_agent.core.text import fold
from design_agent.memory import projects
from design_agent.memory.connection import Connection, is_postgres
from design_agent.memory.db import inserted_id, one, rows, scalar, transaction
from design_agent.memory.text import guess_language

SESSION_COLUMNS = (
    "s.id, s.project_id, s.code, s.title, s.source, s.format, s.kind, s.language, "
    "s.added_at, s.sha256"
)
SEGMENT_COLUMNS = (
    "g.id, g.session_id, s.code AS session, g.code, g.seq, p.name AS speaker, "
    "p.participant, p.role, g.start_seconds AS start, g.text, g.language"
)
SEGMENT_FROM = (
    "evidence_segments g JOIN evidence_sessions s ON s.id = g.session_id "
    "JOIN evidence_speakers p ON p.id = g.speaker_id"
)
PREFIX = {"interview": "P", "survey": "R", "reviews": "C"}


def add(db: Connection, project_id: str, parsed: Parsed, sha256: str, now: str) -> AddedEvidence:
    """Store one parsed file in a project (or find the same bytes already there)."""
    with transaction(db):
        projects.lock(db, project_id)
        found = one(
            db,
            f"SELECT {SESSION_COLUMNS} FROM evidence_sessions s "
            "WHERE s.project_id = ? AND s.sha256 = ?",
            [project_id, sha256],
        )
        if found is not None:
            return AddedEvidence(session=_session(db, found), duplicate=True)
        if not is_postgres(db):
            from design_agent.memory.search_index import ensure_evidence_index

            ensure_evidence_index(db, project_id)
        session_id, code = _new_session(db, project_id, parsed, sha256, now)
        speakers = _speakers(db, project_id, session_id, parsed)
        _segments(db, project_id, session_id, code, parsed, speakers)
        _responses(db, project_id, session_id, parsed)
        projects.touch(db, project_id, now)
    return AddedEvidence(session=get_session(db, project_id, code))


def _new_session(
    db: Connection, project_id: str, parsed: Parsed, sha256: str, now: str
) -> tuple[int, str]:
    number = scalar(
        db, "SELECT next_session FROM evidence_counters WHERE project_id = ?", [project_id]
    )
    number = int(number or 1)
    db.execute(
        "INSERT INTO evidence_counters (project_id, next_session) VALUES (?, ?) "
        "ON CONFLICT (project_id) DO UPDATE SET next_session = excluded.next_session",
        [project_id, number + 1],
    )
    code = f"S{number:02d}"
    questions = json.dumps([q.model_dump() for q in parsed.questions], ensure_ascii=False)
    session_id = inserted_id(
        db,
        "INSERT INTO evidence_sessions (project_id, code, title, source, format, kind, "
        "language, sha256, questions, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "RETURNING id",
        [
            project_id,
            code,
            parsed.title,
            parsed.source,
            parsed.format,
            parsed.kind,
            parsed.language,
            sha256,
            questions,
            now,
        ],
    )
    return session_id, code


def _speakers(db: Connection, project_id: str, session_id: int, parsed: Parsed) -> dict[str, int]:
    """Each speaker of the file, with the code its name already has in the project."""
    moderators = {fold(m) for m in parsed.moderators}
    known = {
        (r["name_key"], r["role"]): r["participant"]
        for r in rows(
            db,
            "SELECT DISTINCT name_key, role, participant FROM evidence_speakers "
            "WHERE project_id = ?",
            [project_id],
        )
    }
    last = _last_codes(known.values())
    ids: dict[str, int] = {}
    for name in dict.fromkeys(s.speaker for s in parsed.segments):
        key = fold(name)
        role = "moderator" if key in moderators else "participant"
        code = known.get((key, role))
        if code is None:
            prefix = "M" if role == "moderator" else PREFIX[parsed.kind]
            last[prefix] = last.get(prefix, 0) + 1
            code = known[(key, role)] = f"{prefix}{last[prefix]}"
        ids[name] = inserted_id(
            db,
            "INSERT INTO evidence_speakers (session_id, project_id, name, name_key, role, "
            "participant) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            [session_id, project_id, name, key, role, code],
        )
    return ids


def _last_codes(codes: Iterable[str]) -> dict[str, int]:
    """The highest number given so far per prefix (P, M, R, C)."""
    last: dict[str, int] = {}
    for code in codes:
        if code[1:].isdigit():
            last[code[0]] = max(last.get(code[0], 0), int(code[1:]))
    return last


def _segments(
    db: Connection,
    project_id: str,
    session_id: int,
    code: str,
    parsed: Parsed,
    speakers: dict[str, int],
) -> None:
    language = parsed.language
    values = [
        [
            session_id,
            project_id,
            speakers[s.speaker],
            n,
            f"{code}.T{n:03d}",
            s.start,
            s.text,
            language or guess_language(s.text),
        ]
        for n, s in enumerate(parsed.segments, start=1)
    ]
    db.executemany(
        "INSERT INTO evidence_segments (session_id, project_id, speaker_id, seq, code, "
        "start_seconds, text, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        values,
    )


def _responses(db: Connection, project_id: str, session_id: int, parsed: Parsed) -> None:
    if not parsed.rows:
        return
    db.executemany(
        "INSERT INTO evidence_responses (session_id, project_id, respondent, answers) "
        "VALUES (?, ?, ?, ?)",
        [
            [session_id, project_id, f"R{n}", json.dumps(row, ensure_ascii=False)]
            for n, row in enumerate(parsed.rows, start=1)
        ],
    )


def _session(db: Connection, row: dict[str, Any]) -> EvidenceSession:
    counted = one(
        db,
        "SELECT (SELECT count(*) FROM evidence_segments WHERE session_id = :id) AS segments, "
        "(SELECT count(*) FROM evidence_responses WHERE session_id = :id) AS responses",
        {"id": row["id"]},
    )
    people = rows(
        db,
        "SELECT participant FROM evidence_speakers WHERE session_id = ? AND role = "
        "'participant' ORDER BY id",
        [row["id"]],
    )
    added = row["added_at"]
    return EvidenceSession(
        **{**row, "added_at": added if isinstance(added, str) else added.isoformat()},
        segments=int(counted["segments"]) if counted else 0,
        responses=int(counted["responses"]) if counted else 0,
        participants=[p["participant"] for p in people],
    )


def sessions(db: Connection, project_id: str) -> list[EvidenceSession]:
    """A project's sessions, in the order they were added."""
    found = rows(
        db,
        f"SELECT {SESSION_COLUMNS} FROM evidence_sessions s WHERE s.project_id = ? ORDER BY s.id",
        [project_id],
    )
    return [_session(db, r) for r in found]


def get_session(db: Connection, project_id: str, code: str) -> EvidenceSession:
    """A session by its code (S03, s3, 3) or its file name; NotFoundError naming the codes."""
    wanted = code.strip().upper().lstrip("S")
    key = f"S{int(wanted):02d}" if wanted.isdigit() else code.strip()
    found = one(
        db,
        f"SELECT {SESSION_COLUMNS} FROM evidence_sessions s WHERE s.project_id = ? "
        "AND (s.code = ? OR s.source = ?)",
        [project_id, key, code.strip()],
    )
    if found is None:
        have = [
            s["code"]
            for s in rows(
                db,
                "SELECT code FROM evidence_sessions WHERE project_id = ? ORDER BY id",
                [project_id],
            )
        ]
        listed = ", ".join(have) if have else "none yet (design-agent evidence add PATH)"
        raise NotFoundError(f"no evidence session '{code}' in this project; sessions: {listed}")
    return _session(db, found)


def remove(db: Connection, project_id: str, code: str) -> EvidenceSession:
    """Delete a session, its speakers, segments and rows; the session as it was."""
    with transaction(db):
        session = get_session(db, project_id, code)
        db.execute("DELETE FROM evidence_sessions WHERE id = ?", [session.id])
    return session


def segments_of(db: Connection, session_id: int) -> list[EvidenceSegment]:
    """A session's segments, in order."""
    found = rows(
        db,
        f"SELECT {SEGMENT_COLUMNS} FROM {SEGMENT_FROM} WHERE g.session_id = ? ORDER BY g.seq",
        [session_id],
    )
    return [EvidenceSegment.model_validate(r) for r in found]


def segments_by_code(
    db: Connection, project_id: str, codes: Sequence[str]
) -> dict[str, EvidenceSegment]:
    """The segments with these ids in a project (ids not there are left out)."""
    wanted = sorted({c for c in codes if c})
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    found = rows(
        db,
        f"SELECT {SEGMENT_COLUMNS} FROM {SEGMENT_FROM} WHERE g.project_id = ? "
        f"AND g.code IN ({marks})",
        [project_id, *wanted],
    )
    return {r["code"]: EvidenceSegment.model_validate(r) for r in found}


def segments_by_id(db: Connection, ids: Sequence[int]) -> dict[int, EvidenceSegment]:
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    found = rows(
        db, f"SELECT {SEGMENT_COLUMNS} FROM {SEGMENT_FROM} WHERE g.id IN ({marks})", list(ids)
    )
    return {int(r["id"]): EvidenceSegment.model_validate(r) for r in found}


def survey(db: Connection, session_id: int) -> tuple[list[SurveyQuestion], list[dict[str, Any]]]:
    """A survey session's questions and rows."""
    raw = scalar(db, "SELECT questions FROM evidence_sessions WHERE id = ?", [session_id])
    questions = json.loads(raw) if isinstance(raw, str) else (raw or [])
    answers = [
        r["answers"] if isinstance(r["answers"], dict) else json.loads(r["answers"])
        for r in rows(
            db,
            "SELECT answers FROM evidence_responses WHERE session_id = ? ORDER BY id",
            [session_id],
        )
    ]
    return [SurveyQuestion.model_validate(q) for q in questions], answers


def participants(db: Connection, project_id: str, kind: str = "interview") -> list[str]:
    """The distinct participant codes of a project's sessions of one kind."""
    found = rows(
        db,
        "SELECT DISTINCT p.participant FROM evidence_speakers p JOIN evidence_sessions s "
        "ON s.id = p.session_id WHERE p.project_id = ? AND p.role = 'participant' "
        "AND s.kind = ?",
        [project_id, kind],
    )
    return sorted((r["participant"] for r in found), key=lambda c: (c[0], int(c[1:] or 0)))


def names(db: Connection, project_id: str) -> dict[str, str]:
    """Every speaker's name -> code in a project (for anonymising what is sent)."""
    found = rows(
        db,
        "SELECT DISTINCT name, participant FROM evidence_speakers WHERE project_id = ?",
        [project_id],
    )
    return {r["name"]: r["participant"] for r in found}


def search(db: Connection, project_id: str, query: str, limit: int = 50) -> list[SegmentHit]:
    """The project's segments that best match `query`, with snippets, best first."""
    if is_postgres(db):
        from design_agent.memory.postgres import evidence_search

        found = evidence_search.ranked(db, project_id, query, limit)
    else:
        from design_agent.memory import evidence_search  # type: ignore[no-redef]

        found = evidence_search.ranked(db, project_id, query, limit)
    return evidence_search_hits(db, found, query)


def evidence_search_hits(
    db: Connection, found: list[tuple[int, float]], query: str
) -> list[SegmentHit]:
    from design_agent.memory.text import query_terms, search_terms, snippet

    terms = search_terms(query_terms(query))
    loaded = segments_by_id(db, [i for i, _ in found])
    return [
        SegmentHit(segment=loaded[i], score=score, snippet=snippet(loaded[i].text, terms))
        for i, score in found
        if i in loaded
    ]
