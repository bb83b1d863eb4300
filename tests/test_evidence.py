"""Research evidence in (issue 29 §1): every export format read from a real file of its own,
stored with stable ids on both stores, searched in both languages; bad input in one line
with nothing half-stored; survey statistics equal to reference values."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest
from fixtures.fakes import invoke

from design_agent.core.errors import EvidenceInputError, ExitCode
from design_agent.evidence.formats import ReadOptions, parse_file
from design_agent.evidence.ingest import add_evidence
from design_agent.evidence.stats import survey_stats
from design_agent.memory import Memory

DATA = Path(__file__).parent / "data" / "evidence"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
SESSIONS = {s["file"]: s for s in EXPECTED["sessions"]}


def parsed(path: Path, **options: object):  # type: ignore[no-untyped-def]
    return parse_file(path, path.read_bytes(), ReadOptions(**options))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_each_export_format_is_read_turn_by_turn_with_who_and_when(name):
    session = SESSIONS[name]
    found = parsed(DATA / "transcripts" / name)
    assert found.format == session["format"].replace("notes_md", "markdown")
    assert found.language == session["language"]
    want = list(session["segments"].values())
    assert [s.text for s in found.segments] == [w["text"] for w in want]
    assert [s.speaker for s in found.segments] == [w["speaker"] for w in want]
    moderators = {w["speaker"] for w in want if w["role"] == "moderator"}
    assert set(found.moderators) == moderators
    if session["format"] != "meet_docx":  # Meet writes a time every few turns only
        assert [int(s.start or 0) for s in found.segments] == [int(w["start"]) for w in want]


def test_a_zoom_turn_split_across_cues_is_one_segment(tmp_path):
    path = tmp_path / "split.vtt"
    path.write_text(
        "WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.000\nAna Ruiz: How did you book\n\n"
        "2\n00:00:03.000 --> 00:00:05.000\nAna Ruiz: your last visit?\n\n"
        "3\n00:00:06.000 --> 00:00:09.000\nTom Lee: On the bus, on my phone, as always.\n",
        encoding="utf-8",
    )
    found = parsed(path)
    assert [s.text for s in found.segments] == [
        "How did you book your last visit?",
        "On the bus, on my phone, as always.",
    ]
    assert found.moderators == ["Ana Ruiz"] and found.segments[1].start == 6.0


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("notes.xlsx", b"PK", "unknown format '.xlsx'"),
        ("plain.txt", b"We talked about booking and it went fine.\n", "no speaker labels"),
        ("pair.txt", b"Ana  0:01\nI liked it.\n\nTom  0:05\nMe too, really.\n", "moderator"),
        ("broken.docx", b"not a zip", "not a readable Word"),
    ],
)
def test_bad_input_is_one_line_naming_the_file(tmp_path, name, content, says):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(EvidenceInputError, match=says) as caught:
        parsed(path)
    assert name in caught.value.message and "\n" not in caught.value.message


def test_a_folder_with_one_bad_file_stores_nothing(tmp_path, home):
    folder = tmp_path / "interviews"
    folder.mkdir()
    for name in ("01_zoom_en.vtt", "04_otter_en.txt"):
        (folder / name).write_bytes((DATA / "transcripts" / name).read_bytes())
    (folder / "zz_plain.txt").write_text("just some words with nobody named\n", encoding="utf-8")
    invoke(home, "projects", "create", "Booking")
    failed = invoke(home, "evidence", "add", str(folder))
    assert failed.returncode == ExitCode.USAGE == 2
    assert failed.stderr.count("\n") == 1 and "zz_plain.txt:1: no speaker labels" in failed.stderr
    assert "S01" not in invoke(home, "evidence", "list").stdout
    (folder / "zz_plain.txt").unlink()
    added = invoke(home, "evidence", "add", str(folder))
    assert added.returncode == 0 and "S01 01_zoom_en.vtt" in added.stdout
    again = invoke(home, "evidence", "add", str(folder / "01_zoom_en.vtt"))
    assert "already here as S01; nothing changed" in again.stdout


def test_a_moderator_named_by_the_user_settles_who_asks(tmp_path):
    path = tmp_path / "pair.txt"
    path.write_text("Ana  0:01\nI liked it a lot.\n\nTom  0:05\nMe too, really.\n", "utf-8")
    assert parsed(path, moderators=["Tom"]).moderators == ["Tom"]
    assert parsed(path, moderators=["none"]).moderators == []


def test_stored_with_stable_ids_and_searched_in_both_languages(tmp_path, memory_target):
    with Memory.open(memory_target) as memory:
        project = memory.create_project("Booking").id
        add_evidence(memory, project, [DATA / "transcripts"])
        store = memory.evidence
        sessions = store.sessions(project)
        assert [s.code for s in sessions] == [f"S{n:02d}" for n in range(1, 13)]
        assert [s.participants for s in sessions[:3]] == [["P1"], ["P2"], ["P3", "P4"]]
        segment = store.by_code(project, ["S03.T004"])["S03.T004"]
        assert segment.text == SESSIONS["03_teams_en.docx"]["segments"]["S03.T004"]["text"]
        english = [h.segment.code for h in store.search(project, "reminders emails", 10)]
        spanish = [h.segment.code for h in store.search(project, "recordatorios correo", 10)]
        assert english and all(int(c[1:3]) <= 6 for c in english[:3])
        assert spanish and all(int(c[1:3]) >= 7 for c in spanish[:3])
        removed = store.remove(project, "S12")
        assert removed.code == "S12"
        path = DATA / "transcripts" / "12_notas_es.md"
        again = parsed(path)
        readded = store.add(project, again, hashlib.sha256(path.read_bytes()).hexdigest())
        assert readded.session.code == "S13"  # a removed session's code is never given again
        assert readded.session.participants == ["P14"]  # the same person keeps their id


def test_a_search_finds_one_projects_segments_only_even_with_a_look_alike_id(memory_target):
    """Two projects whose ids share a beginning ("booking", "booking-2") hold the same words:
    each one's search (a word, and a word's prefix) returns its own segments, on both stores
    (PostgreSQL: through the index of its words with the project in front, version 11)."""
    with Memory.open(memory_target) as memory:
        first = memory.create_project("Booking").id
        second = memory.create_project("Booking 2").id
        assert second.startswith(first)
        add_evidence(memory, first, [DATA / "transcripts" / "01_zoom_en.vtt"])
        add_evidence(memory, second, [DATA / "transcripts" / "01_zoom_en.vtt"])
        for project in (first, second):
            for query in ("physio", "privac", "privacy notice"):
                hits = memory.evidence.search(project, query, 50)
                assert hits, (project, query)
                mine = {s.id for s in memory.evidence.sessions(project)}
                assert {h.segment.session_id for h in hits} <= mine
                assert all(h.snippet for h in hits)
        if isinstance(memory_target, str):  # PostgreSQL: the plan reads the scoped index
            plan = memory.db.execute(
                "EXPLAIN SELECT id FROM evidence_segments WHERE evidence_scoped(project_id, "
                "search) @@ evidence_scoped_query(?, to_tsquery('simple', 'privac:*'))",
                [first],
            ).fetchall()
            assert "evidence_segments_scoped" in " ".join(str(r[0]) for r in plan)


@pytest.mark.parametrize("name", ["qualtrics_en.csv", "surveymonkey_en.csv", "google_forms_es.csv"])
def test_survey_statistics_equal_the_reference_values(name):
    found = parsed(DATA / "surveys" / name)
    want = EXPECTED["surveys"][name]
    stats = survey_stats(found.questions, found.rows)
    nps = next(q for q in stats.questions if q.kind == "nps")
    assert (nps.nps, nps.promoters, nps.detractors) == (
        want["nps"],
        want["promoters"],
        want["detractors"],
    )
    assert {d: cell[nps.key] for d, cell in stats.crosstab.items()} == want["nps_by_device"]
    likert = [q for q in stats.questions if q.kind == "likert"]
    if likert:
        assert likert[0].top_two_box == want["top_two_box"]
        assert likert[0].counts == {k: v for k, v in want["likert_counts"].items() if v}
    if name == "qualtrics_en.csv":
        assert stats.sus_mean == want["sus_mean"]
    if name == "surveymonkey_en.csv":
        multi = next(q for q in stats.questions if q.kind == "multi")
        assert multi.counts == want["features"]


def test_a_reviews_csv_asks_for_its_columns_once(tmp_path, home):
    invoke(home, "projects", "create", "Reviews")
    source = DATA / "reviews" / "app_reviews.csv"
    asked = invoke(home, "evidence", "add", str(source))
    assert asked.returncode == 2 and "header not recognised" in asked.stderr
    assert "--map" in asked.stderr and asked.stderr.count("\n") == 1
    mapped = invoke(
        home,
        "evidence",
        "add",
        str(source),
        "--map",
        "text=Review text,author=Reviewer,rating=Stars",
    )
    assert mapped.returncode == 0 and "8 segments" in mapped.stdout
    later = tmp_path / "more_reviews.csv"
    with later.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["Review ID", "Posted", "Stars", "Review text", "Reviewer"])
        out.writerow(["RV-9", "2026-10-01", "3", "The reminder came too late for me again.", "x"])
    kept = invoke(home, "evidence", "add", str(later))  # the same columns: not asked again
    assert kept.returncode == 0 and "1 segments" in kept.stdout


def test_evidence_show_list_and_remove_tell_who_and_when(home):
    invoke(home, "projects", "create", "Booking")
    invoke(home, "evidence", "add", str(DATA / "transcripts" / "01_zoom_en.vtt"),
           str(DATA / "surveys" / "qualtrics_en.csv"))  # fmt: skip
    shown = invoke(home, "evidence", "show", "S01").stdout
    assert "S01.T002 P1 (0:11): Sure, I'm Sam Ortiz" in shown
    survey = invoke(home, "evidence", "show", "S02").stdout
    assert "NPS -47.5" in survey and "SUS: mean 66.3" in survey
    listed = json.loads(invoke(home, "evidence", "list", "--json").stdout)
    assert [s["code"] for s in listed] == ["S01", "S02"] and listed[1]["responses"] == 40
    gone = invoke(home, "evidence", "remove", "S01", "--yes")
    assert "Removed S01" in gone.stdout
    missing = invoke(home, "evidence", "show", "S01")
    assert missing.returncode == ExitCode.NOT_FOUND and "sessions: S02" in missing.stderr


def test_names_become_participant_ids_when_anonymised():
    from design_agent.evidence.anonymise import anonymise

    names = {"Sam Ortiz": "P1", "Leo Martin": "M1", "Grace Lee": "P2"}
    text = "Sure, I'm Sam Ortiz; Sam said Leo asked Grace Lee and Samuel came."
    assert anonymise(text, names) == "Sure, I'm P1; P1 said M1 asked P2 and Samuel came."


def test_in_a_team_a_viewer_reads_the_evidence_and_only_editors_add_it(memory_target):
    from design_agent.core.errors import NotAllowedError, NotFoundError

    with Memory.open(memory_target) as memory:
        project = memory.create_project("Booking").id
        editor, viewer = memory.add_person("Ana"), memory.add_person("Ben")
        stranger = memory.add_person("Cy")
        memory.share_project(project, editor.id, "editor")
        memory.share_project(project, viewer.id, "viewer")
        memory.act_as(editor)
        add_evidence(memory, project, [DATA / "transcripts" / "01_zoom_en.vtt"])
        memory.act_as(viewer)
        assert [s.code for s in memory.evidence.sessions(project)] == ["S01"]
        assert memory.evidence.search(project, "receptionist", 5)
        with pytest.raises(NotAllowedError):
            add_evidence(memory, project, [DATA / "transcripts" / "04_otter_en.txt"])
        with pytest.raises(NotAllowedError):
            memory.evidence.remove(project, "S01")
        memory.act_as(stranger)
        with pytest.raises(NotFoundError):
            memory.evidence.sessions(project)


def test_a_project_older_than_evidence_gets_its_index_and_deleting_it_leaves_nothing(tmp_path):
    from design_agent.memory.search_index import evidence_index

    with Memory.open(tmp_path / "home.db") as memory:
        project = memory.create_project("Old one")
        db = memory.db
        key = db.execute("SELECT search_key FROM projects WHERE id = ?", [project.id]).fetchone()[0]
        table = evidence_index(key)
        for event in ("insert", "delete", "update"):  # as a project made before version 10
            db.execute(f"DROP TRIGGER {table}_{event}")
        db.execute(f"DROP TABLE {table}")
        assert memory.evidence.search(project.id, "receptionist") == []
        add_evidence(memory, project.id, [DATA / "transcripts" / "01_zoom_en.vtt"])
        assert memory.evidence.search(project.id, "receptionist", 5)
        memory.delete_project(memory.deletion_report(project.id))
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        assert table not in names
        for name in ("evidence_sessions", "evidence_speakers", "evidence_segments"):
            assert db.execute(f"SELECT count(*) FROM {name}").fetchone()[0] == 0


def test_the_evidence_block_sends_whole_sessions_retrieved_segments_or_two_stages(tmp_path):
    from design_agent.evidence.block import plan

    with Memory.open(tmp_path / "home.db") as memory:
        project = memory.create_project("Booking").id
        add_evidence(memory, project, [DATA / "transcripts", DATA / "surveys" / "qualtrics_en.csv"])
        whole = plan(memory.evidence, project, "make an affinity map", 200_000)
        assert whole is not None and whole.mode == "whole"
        text = whole.render()
        assert "S01.T002 P1 0:11: Sure, I'm Sam Ortiz" in text and '<facts session="S13"' in text
        asked = plan(memory.evidence, project, "what did participants say about reminders?", 3000)
        assert asked is not None and asked.mode == "retrieved"
        kept = [s for found in asked.segments.values() for s in found]
        assert kept and sum("remind" in s.text.lower() for s in kept) >= len(kept) // 2
        spanish = plan(memory.evidence, project, "qué comentaron los usuarios de las citas", 3000)
        assert spanish is not None and spanish.mode == "retrieved"  # a question, no keyword
        staged = plan(memory.evidence, project, "make an affinity map", 3000)
        assert staged is not None and staged.mode == "two_stage"
        hidden = plan(memory.evidence, project, "make an affinity map", 200_000, anonymous=True)
        assert hidden is not None and "Sam Ortiz" not in hidden.render()
