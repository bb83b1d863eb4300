"""What a research file needs is asked in the conversation (issue 29 §1): "here are my
transcripts: ./x/" - "Which speaker is the moderator in interview-3.vtt: Ana or P1?" -
"Ana" / "la primera"; a transcript without speaker labels is one participant's notes or
left out; a reviews CSV whose header is not a survey's says which column is the text. Each
answer holds for the rest of the folder (and a header's columns for later files); nothing
is stored before every file reads, so "cancel" leaves nothing. The shell runs as a person
meets it (the installed program, a script on its standard input); `ask` as a command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fixtures.fakes import invoke

BIN = Path(sys.executable).parent / "design-agent"


def vtt(*turns: tuple[str, str]) -> str:
    cues = [
        f"{n}\n00:00:{2 * n:02d}.000 --> 00:00:{2 * n + 1:02d}.000\n{who}: {text}\n"
        for n, (who, text) in enumerate(turns, 1)
    ]
    return "WEBVTT\n\n" + "\n".join(cues)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return research_folder(tmp_path)


def research_folder(tmp_path: Path) -> Path:
    """Two interviews where nobody is labelled a moderator and nobody mostly asks (Ana runs
    both), one transcript without labels, and a reviews export with its own columns."""
    made = tmp_path / "x"
    made.mkdir()
    (made / "interview-3.vtt").write_text(
        vtt(
            ("Ana", "Tell me about the last time you booked the physio."),
            ("P1", "I booked the physio on my phone yesterday evening after work."),
            ("Ana", "That sounds like the reminder helped you a lot there."),
            ("P1", "The reminder came a day before the session, which helped me plan."),
        ),
        encoding="utf-8",
    )
    (made / "interview-4.vtt").write_text(
        vtt(
            ("Ana", "Walk me through cancelling an appointment last month."),
            ("P2", "I kept losing the booking page whenever the app logged me out."),
        ),
        encoding="utf-8",
    )
    (made / "notes-7.txt").write_text(
        "Booked on the phone, it was easy enough for her this time.\n\n"
        "The reminder arrived the day before, which helped her a lot.\n",
        encoding="utf-8",
    )
    (made / "reviews.csv").write_text(
        "Stars,Comment,Posted by,When\n"
        '5,"Booking was quick and the reminders really help me",Sam,2026-10-01\n'
        '2,"The app logs me out every time I try to book a session",Lee,2026-10-02\n',
        encoding="utf-8",
    )
    return made


def listed(home: Path) -> str:
    done = invoke(home, "evidence", "list")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_shell_asks_what_each_file_needs_once_per_folder(home, folder):
    script = "\n".join(
        [
            "create a project called Booking",
            "skip",
            "skip",
            "skip",
            f"here are my transcripts: {folder}/",
            "Ana",  # interview-3.vtt; interview-4.vtt is Ana's too: not asked again
            "yes",  # notes-7.txt: one participant's notes
            "Comment",  # reviews.csv: the text column, by its name
            "exit",
        ]
    )
    env = {"DESIGN_AGENT_HOME": str(home), "DESIGN_AGENT_PROVIDER": "offline", "PATH": ""}
    done = subprocess.run(
        [str(BIN)], input=script, capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    shown = done.stdout
    assert "Which speaker is the moderator in interview-3.vtt: Ana or P1?" in shown
    assert "interview-4.vtt" not in shown.split("Added")[0].split("interview-3.vtt", 2)[-1]
    assert "notes-7.txt has no speaker labels" in shown
    assert "Which column of reviews.csv holds the text" in shown and "2. Comment" in shown
    assert "Added 4 evidence file(s) to 'Booking'" in shown
    first = invoke(home, "evidence", "show", "S01").stdout
    assert "M1 (0:02): Tell me about" in first and "P1 (0:04): I booked" in first
    second = invoke(home, "evidence", "show", "S02").stdout
    assert "(0:02): Walk me through" in second and "M" in second.split("(0:02)")[0][-4:]
    notes = invoke(home, "evidence", "show", "S03").stdout
    assert "The reminder arrived the day before" in notes
    reviews = invoke(home, "evidence", "show", "S04").stdout
    assert "The app logs me out every time" in reviews and "Stars" not in reviews


def test_ask_in_spanish_the_first_one_and_a_cancel_that_leaves_nothing(home, folder, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Reservas")
    asked = invoke(home, "ask", f"aquí tienes mis transcripciones: {folder}/").stdout
    assert "¿Quién modera en interview-3.vtt: Ana o P1?" in asked
    asked = invoke(home, "ask", "la primera").stdout
    assert "notes-7.txt no dice quién habla" in asked
    dropped = invoke(home, "ask", "cancelar")
    assert dropped.returncode == 0
    assert "S01" not in listed(home)  # nothing half-stored
    invoke(home, "ask", f"aquí tienes mis transcripciones: {folder}/")
    invoke(home, "ask", "1")
    left_out = invoke(home, "ask", "no").stdout  # notes-7.txt is left out
    assert "¿Qué columna de reviews.csv" in left_out
    added = invoke(home, "ask", "la segunda").stdout
    assert "He añadido 3 archivo(s) de evidencia" in added, added
    assert "notes-7.txt" not in listed(home)


def test_a_header_said_once_holds_for_later_files(home, folder, tmp_path, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Reviews")
    invoke(home, "ask", f"here are the reviews: {folder / 'reviews.csv'}")
    assert "Added 1 evidence file(s)" in invoke(home, "ask", "2").stdout
    later = tmp_path / "later.csv"
    later.write_text(
        'Stars,Comment,Posted by,When\n4,"Rescheduling took two taps and felt easy",Ivy,2026\n',
        encoding="utf-8",
    )
    again = invoke(home, "ask", f"here are more reviews: {later}").stdout
    assert "Added 1 evidence file(s)" in again, again  # not asked again
    shown = invoke(home, "evidence", "show", "S02").stdout
    assert "Rescheduling took two taps" in shown


def test_a_reply_that_is_not_an_answer_puts_the_question_again(home, folder, monkeypatch):
    monkeypatch.setenv("DESIGN_AGENT_PROVIDER", "offline")
    invoke(home, "projects", "create", "Booking")
    invoke(home, "ask", f"here are my transcripts: {folder}/")
    again = invoke(home, "ask", "Bob").stdout
    assert "Ana or P1" in again
    assert "S01" not in listed(home)
