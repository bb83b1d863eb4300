"""The newcomer's story (issue 29, done when): a folder of transcripts and a survey export
added, "make an affinity map of what participants said about booking" asked in English or
Spanish of a fake Claude Code, and the answer's every quote checked: the participants' own
words with who and when, counts that add up, a coverage line; a quote the fake CLI invented
is removed and said so, a misattributed one re-pointed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures.fakes import claude_run, install_fake, invoke

DATA = Path(__file__).parent / "data" / "evidence"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
SEGMENTS = {
    code: {**seg, "session": s["code"], "language": s["language"]}
    for s in EXPECTED["sessions"]
    for code, seg in s["segments"].items()
}
WHO = EXPECTED["participants"]
INVENTED = {
    "en": "I always book my sessions on Sunday evenings after I have planned the whole week ahead.",
    "es": "Siempre reservo mis sesiones el domingo por la noche después de organizar toda "
    "la semana.",
}
ASKED = {
    "en": "make an affinity map of what participants said about booking",
    "es": "haz un mapa de afinidad de lo que dijeron los participantes sobre reservar",
}


def booking(language: str) -> list[str]:
    """The participant segments about booking in `language`'s sessions, in order."""
    return [
        code
        for code, seg in SEGMENTS.items()
        if seg["language"] == language and seg["topic"] == "booking" and seg["role"] != "moderator"
    ]


def quote_of(code: str) -> str:
    """A participant's core sentence, as a model would quote it (fillers and tails cut)."""
    text = SEGMENTS[code]["text"]
    sentences = [s for s in text.replace("?", ".").split(". ") if len(s.split()) >= 6]
    return max(sentences, key=len).strip(" .")


def answer_text(language: str) -> tuple[str, dict[str, str]]:
    """The fake model's affinity map: real quotes under two themes, one misattributed (the
    right words, another participant's id), one invented; and what each should become."""
    codes = booking(language)
    first, second, moved, other = codes[0], codes[1], codes[2], codes[3]
    wrong = next(c for c in codes[4:] if SEGMENTS[c]["speaker"] != SEGMENTS[moved]["speaker"])
    lines = [
        "## Finding and choosing a slot",
        f'- "{quote_of(first)}" [{first}]',
        f'- "{quote_of(second)}" [{second}]',
        "## Booking gets in the way",
        f'- "{quote_of(moved)}" [{wrong}]',
        f'- "{INVENTED[language]}" [{other}]',
        f'- "{quote_of(other)}" [{other}]',
        "",
        "Confidence: medium. Limitations: twelve interviews.",
    ]
    expected = {first: "verified", second: "verified", moved: "misattributed", other: "verified"}
    return "\n".join(lines), expected


@pytest.fixture
def story(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A home with a project, the twelve transcripts and the Qualtrics export, and a fake
    claude that logs what it was sent."""
    folder = tmp_path / "interviews"
    folder.mkdir()
    for path in (DATA / "transcripts").iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    binary = install_fake(tmp_path / "bin", "claude")
    monkeypatch.setenv("DESIGN_AGENT_CLAUDE_BIN", str(binary))
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "claude")
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "sent.json"))
    assert invoke(home, "projects", "create", "Booking").returncode == 0
    added = invoke(home, "evidence", "add", str(folder), str(DATA / "surveys" / "qualtrics_en.csv"))
    assert added.returncode == 0, added.stderr
    assert "S13 qualtrics_en.csv" in added.stdout
    return tmp_path


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_quote_is_checked_and_the_invented_one_removed(story, home, monkeypatch, language):
    text, expected = answer_text(language)
    monkeypatch.setenv("FAKE_RECORDING", str(claude_run(story / "run.json", text)))
    done = invoke(home, "ask", "--json", ASKED[language])
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["task"] == "affinity_diagramming" and answer["language"] == language
    quotes = answer["evidence"]["quotes"]
    by_segment = {q["segment"]: q for q in quotes if q["status"] != "unsupported"}
    for code, status in expected.items():
        found = by_segment[code]
        assert found["status"] == status
        assert found["participant"] == WHO[SEGMENTS[code]["speaker"]]
        start = int(SEGMENTS[code]["start"])
        if SEGMENTS[code]["session"] != "S07":  # Google Meet writes a time every few turns
            assert found["when"] == f"{start // 60}:{start % 60:02d}"
        assert found["text"] in SEGMENTS[code]["text"]  # the source's own words
    removed = [q for q in quotes if q["status"] == "unsupported"]
    assert [q["quote"] for q in removed] == [INVENTED[language]]
    themes = answer["evidence"]["themes"]
    for theme in themes:  # the counts are a recount of the verified quotes' speakers
        people = {
            q["participant"]
            for q in quotes
            if q["theme"] == theme["theme"] and q["status"] in ("verified", "misattributed")
        }
        assert theme["count"] == len(people) and theme["total"] == 14
    coverage = answer["evidence"]["coverage"]
    cited = sorted({SEGMENTS[c]["session"] for c in expected})
    assert coverage["cited"] == cited and "S13" in coverage["not_cited"]
    sent = json.loads((story / "sent.json").read_text(encoding="utf-8"))["stdin"]
    assert "<evidence>" in sent and '<facts session="S13"' in sent and "NPS -47.5" in sent
    assert f"{next(iter(expected))} " in sent  # each segment as a line the model can cite


def test_the_terminal_says_what_was_removed_and_who_said_what(story, home, monkeypatch):
    text, expected = answer_text("en")
    monkeypatch.setenv("FAKE_RECORDING", str(claude_run(story / "run.json", text)))
    shown = invoke(home, "ask", ASKED["en"]).stdout
    assert "Evidence check" in shown and "removed:" in shown and INVENTED["en"] in shown
    moved = next(c for c, s in expected.items() if s == "misattributed")
    assert f"said in {moved} (" in shown
    assert "Coverage: 1 of 13 sessions cited (S01); not cited: S02, S03" in shown
    assert "of 14 participants" in shown


def test_offline_says_draft_groups_and_quotes_only_real_words(home, tmp_path, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Booking")
    invoke(home, "evidence", "add", str(DATA / "transcripts"), str(DATA / "surveys"))
    answer = json.loads(invoke(home, "ask", "--json", ASKED["en"]).stdout)
    assert "Draft groups (offline)" in answer["text"] and "not themes" in answer["text"]
    assert "NPS -47.5" in answer["text"]  # the survey statistics, computed
    quotes = [q for q in answer["evidence"]["quotes"] if q["cited"]]
    assert quotes and all(q["status"] == "verified" for q in quotes)


def test_evidence_added_by_talking(home, tmp_path, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    folder = tmp_path / "entrevistas"
    folder.mkdir()
    for name in ("07_meet_es.docx", "08_subtitulos_es.srt"):
        (folder / name).write_bytes((DATA / "transcripts" / name).read_bytes())
    invoke(home, "projects", "create", "Reservas")
    said = invoke(home, "ask", f"aquí tienes las transcripciones de las entrevistas: {folder}/")
    assert "He añadido 2 archivo(s) de evidencia" in said.stdout, said.stdout + said.stderr
    assert "S01 07_meet_es.docx" in said.stdout and "S02 08_subtitulos_es.srt" in said.stdout


def test_two_stages_when_the_sessions_do_not_fit(story, home, monkeypatch):
    """A provider with a small window reads each session first (its highlights), then
    writes the synthesis from the highlights: the same fake CLI, once per session, then
    once more."""
    adapters = home / "adapters"
    adapters.mkdir(parents=True, exist_ok=True)
    from design_agent.core.paths import bundled_root

    spec = (bundled_root() / "adapters" / "claude.yaml").read_text(encoding="utf-8")
    (adapters / "claude.yaml").write_text(
        spec.replace("context_limit: 200000", "context_limit: 12000"), encoding="utf-8"
    )
    code = booking("en")[0]
    highlight = claude_run(story / "stage.json", f'- "{quote_of(code)}" [{code}]: the slot')
    final = claude_run(story / "final.json", f'## Slots\n- "{quote_of(code)}" [{code}]')
    monkeypatch.setenv("FAKE_SEQUENCE", ":".join([str(highlight)] * 13 + [str(final)]))
    done = invoke(home, "ask", "--json", "make an affinity map of the interviews")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert [q["status"] for q in answer["evidence"]["quotes"]] == ["verified"]
    calls = int((story / "stage.json.count").read_text())
    assert calls == 14  # twelve interviews and the survey's open answers, then the synthesis
    sent = json.loads((story / "sent.json").read_text(encoding="utf-8"))["stdin"]
    assert f'"{quote_of(code)}" [{code}]: the slot' in sent  # stage two reads stage one


def test_the_report_gains_an_evidence_appendix(story, home, monkeypatch):
    text, expected = answer_text("en")
    monkeypatch.setenv("FAKE_RECORDING", str(claude_run(story / "run.json", text)))
    assert invoke(home, "ask", ASKED["en"]).returncode == 0
    out = story / "booking-report.md"
    made = invoke(home, "projects", "report", "Booking", "-o", str(out))
    assert made.returncode == 0, made.stderr
    report = out.read_text(encoding="utf-8")
    appendix = report.split("## Evidence appendix", 1)[1]
    assert "- [Evidence appendix](#evidence-appendix)" in report
    assert "Finding and choosing a slot: 1 of 14 participants" in appendix.replace("\\", "")
    first = next(iter(expected))
    assert f"{first})" in appendix and "1 quote(s) removed: not found in any session." in appendix
    assert INVENTED["en"] not in appendix  # a removed quote is not evidence of anything
    assert "Coverage: 1 of 13 sessions cited (S01); not cited: S02" in appendix


def test_anonymised_evidence_sends_participant_ids_not_names(story, home, monkeypatch):
    text, _ = answer_text("en")
    monkeypatch.setenv("FAKE_RECORDING", str(claude_run(story / "run.json", text)))
    assert invoke(home, "config", "set", "evidence.anonymise", "on").returncode == 0
    assert invoke(home, "ask", ASKED["en"]).returncode == 0
    sent = json.loads((story / "sent.json").read_text(encoding="utf-8"))["stdin"]
    assert "S01.T002 P1" in sent and "I'm P1, I work in" in sent
    assert not any(name in sent for name in WHO)  # nobody's name reaches the provider
    refused = invoke(home, "config", "set", "evidence.anonymise", "maybe")
    assert refused.returncode == 2 and "say on or off" in refused.stderr
