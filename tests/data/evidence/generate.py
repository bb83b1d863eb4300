"""Build the seeded evidence test set (run once; its output is committed beside it).

    python tests/data/evidence/generate.py

Written before design-agent's quote verifier, from the sentence banks in source/ (words
are data): twelve synthetic interviews about booking physiotherapy, six in English and
six in Spanish, each in the format people export (Zoom and Teams WebVTT, Teams and Google
Meet Word files, SubRip, Otter text, markdown notes, a PDF), three survey exports
(Qualtrics, SurveyMonkey, Google Forms), a reviews CSV, and quotes.jsonl: the labelled
quotes a model might write about them, each with what a verifier should find.

This script knows nothing of design-agent's code: segment ids are computed here from the
turns it writes (sessions S01..S12 in file-name order, turns numbered from 1 in each,
consecutive cues of one speaker being one turn), participants P1.. in order of first
words across the sessions, as the issue defines them. Reference survey statistics are
computed here too (expected.json).
"""

from __future__ import annotations

import csv
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SEED = 29
NAMES = {
    "en": {
        "moderators": ["Dana Brooks", "Leo Martin"],
        "participants": [
            "Sam Ortiz", "Priya Shah", "Tom Becker", "Grace Lee", "Omar Haddad",
            "Nina Kowalski", "Ruth Adams",
        ],
    },
    "es": {
        "moderators": ["Laura Méndez", "Javier Soto"],
        "participants": [
            "Carmen Ruiz", "Diego Navarro", "Lucía Romero", "Pablo Iglesias", "Marta Gil",
            "Andrés Vidal", "Sofía Castro",
        ],
    },
}  # fmt: skip
# (file name, language, format, participants in the session)
SESSIONS = [
    ("01_zoom_en.vtt", "en", "zoom_vtt", 1),
    ("02_teams_en.vtt", "en", "teams_vtt", 1),
    ("03_teams_en.docx", "en", "teams_docx", 2),
    ("04_otter_en.txt", "en", "otter_txt", 1),
    ("05_notes_en.md", "en", "notes_md", 1),
    ("06_interview_en.pdf", "en", "pdf", 1),
    ("07_meet_es.docx", "es", "meet_docx", 1),
    ("08_subtitulos_es.srt", "es", "srt", 2),
    ("09_zoom_es.vtt", "es", "zoom_vtt", 1),
    ("10_teams_es.vtt", "es", "teams_vtt", 1),
    ("11_otter_es.txt", "es", "otter_txt", 1),
    ("12_notas_es.md", "es", "notes_md", 1),
]
INTRO = {
    "en": (
        "Thanks for joining today. Could you start by telling me a little about yourself?",
        "Sure, I'm {name}, I work in {job} and I go to physio about twice a month.",
    ),
    "es": (
        "Gracias por venir hoy. ¿Puedes empezar contándome un poco sobre ti?",
        "Claro, soy {name}, trabajo en {job} y voy al fisio unas dos veces al mes.",
    ),
}
JOBS = {
    "en": ["logistics", "a school", "accounting", "retail", "a hospital", "marketing", "design"],
    "es": ["logística", "un colegio", "contabilidad", "una tienda", "un hospital", "marketing",
           "diseño"],
}  # fmt: skip
SHORT = {"en": ["Yes, exactly.", "Not really.", "I think so."], "es": ["Sí, exacto.", "No mucho.",
         "Creo que sí."]}  # fmt: skip
CLOSE = {
    "en": ("That's everything from me, thank you so much for your time.", "Thank you, bye."),
    "es": ("Eso es todo por mi parte, muchísimas gracias por tu tiempo.", "Gracias, adiós."),
}


@dataclass
class Turn:
    speaker: str
    role: str  # moderator | participant
    text: str
    start: float
    core: str = ""  # the bank sentence inside a participant's turn ("" for the rest)
    topic: str = ""
    segment: str = ""  # S01.T004


@dataclass
class Session:
    file: str
    language: str
    format: str
    code: str
    turns: list[Turn] = field(default_factory=list)


def load(name: str) -> dict:
    return yaml.safe_load((HERE / "source" / name).read_text(encoding="utf-8"))


def build_sessions(rng: random.Random) -> list[Session]:
    banks = {lang: load(f"bank_{lang}.yaml") for lang in ("en", "es")}
    pools = {lang: _pool(banks[lang], rng) for lang in banks}
    names = {lang: list(NAMES[lang]["participants"]) for lang in NAMES}
    per_language = {"en": 6, "es": 6}
    sessions = []
    for index, (file, language, fmt, people) in enumerate(SESSIONS, start=1):
        session = Session(file, language, fmt, f"S{index:02d}")
        left = len(pools[language])
        share = left // per_language[language]
        per_language[language] -= 1
        cores = [pools[language].pop() for _ in range(share)]
        speakers = [names[language].pop(0) for _ in range(people)]
        moderator = NAMES[language]["moderators"][index % 2]
        session.turns = _interview(banks[language], language, moderator, speakers, cores, rng)
        for number, turn in enumerate(session.turns, start=1):
            turn.segment = f"{session.code}.T{number:03d}"
        sessions.append(session)
    return sessions


def _pool(bank: dict, rng: random.Random) -> list[tuple[str, str]]:
    pool = [(topic, s) for topic, items in bank["participant"].items() for s in items]
    rng.shuffle(pool)
    return pool


def _interview(bank, language, moderator, speakers, cores, rng) -> list[Turn]:
    clock = rng.uniform(2, 8)
    turns: list[Turn] = []

    def say(speaker: str, role: str, text: str, core: str = "", topic: str = "") -> None:
        nonlocal clock
        turns.append(Turn(speaker, role, text, round(clock, 1), core, topic))
        clock += len(text.split()) * rng.uniform(0.35, 0.5) + rng.uniform(1, 4)

    question, answer = INTRO[language]
    say(moderator, "moderator", question)
    for name in speakers:
        job = rng.choice(JOBS[language])
        say(name, "participant", answer.format(name=name, job=job))
    for i, (topic, core) in enumerate(cores):
        asked = rng.choice(bank["moderator"][topic] if i % 3 else bank["moderator"]["followup"])
        say(moderator, "moderator", asked)
        speaker = speakers[i % len(speakers)]
        text = core
        if rng.random() < 0.3:
            text = f"{rng.choice(bank['fillers'])} {text[0].lower()}{text[1:]}"
        if rng.random() < 0.3:
            text = f"{text} {rng.choice(bank['tails'])}"
        say(speaker, "participant", text, core, topic)
        if rng.random() < 0.2:
            say(moderator, "moderator", rng.choice(bank["moderator"]["followup"]))
            say(speaker, "participant", rng.choice(SHORT[language]))
    closing, bye = CLOSE[language]
    say(moderator, "moderator", closing)
    say(speakers[0], "participant", bye)
    return turns


def participants(sessions: list[Session]) -> dict[str, str]:
    """Name -> P1.. in order of first words (moderators are not participants)."""
    found: dict[str, str] = {}
    for session in sessions:
        for turn in session.turns:
            if turn.role == "participant" and turn.speaker not in found:
                found[turn.speaker] = f"P{len(found) + 1}"
    return found


# -- writing each format ----------------------------------------------------------------------


def stamp(seconds: float, comma: bool = False, hours: bool = True) -> str:
    h, rest = divmod(int(seconds * 1000), 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    text = f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}" if hours else f"{m:02d}:{s:02d}.{ms:03d}"
    return text.replace(".", ",") if comma else text


def clock(seconds: float) -> str:
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{s:02d}"


def short_clock(seconds: float) -> str:
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def cues(turn: Turn, rng: random.Random) -> list[tuple[float, float, str]]:
    """One turn as caption cues: a long turn is split across two or three (as Zoom does)."""
    words = turn.text.split()
    pieces = [words]
    if len(words) > 14:
        cut = rng.randint(6, len(words) - 6)
        pieces = [words[:cut], words[cut:]]
    out, start = [], turn.start
    for piece in pieces:
        end = start + len(piece) * 0.4
        out.append((start, end, " ".join(piece)))
        start = end
    return out


def write_zoom(session: Session, rng: random.Random) -> str:
    lines, n = ["WEBVTT", ""], 1
    for turn in session.turns:
        for start, end, text in cues(turn, rng):
            lines += [str(n), f"{stamp(start)} --> {stamp(end)}", f"{turn.speaker}: {text}", ""]
            n += 1
    return "\n".join(lines)


def write_teams_vtt(session: Session, rng: random.Random) -> str:
    lines, n = ["WEBVTT", ""], 0
    for turn in session.turns:
        for start, end, text in cues(turn, rng):
            ident = f"{rng.getrandbits(32):08x}-{rng.getrandbits(16):04x}/{n}-0"
            lines += [
                ident,
                f"{stamp(start)} --> {stamp(end)}",
                f"<v {turn.speaker}>{text}</v>",
                "",
            ]
            n += 1
    return "\n".join(lines)


def write_srt(session: Session, rng: random.Random) -> str:
    lines, n = [], 1
    for turn in session.turns:
        for i, (start, end, text) in enumerate(cues(turn, rng)):
            label = f"{turn.speaker}: " if i == 0 else ""  # continuation cues carry no name
            stamps = f"{stamp(start, comma=True)} --> {stamp(end, comma=True)}"
            lines += [str(n), stamps, f"{label}{text}", ""]
            n += 1
    return "\n".join(lines)


def write_otter(session: Session, rng: random.Random) -> str:
    blocks = [f"{t.speaker}  {short_clock(t.start)}\n{t.text}" for t in session.turns]
    return "\n\n".join(blocks) + "\n"


def write_notes(session: Session, rng: random.Random) -> str:
    title = "Notas de la entrevista" if session.language == "es" else "Interview notes"
    lines = [f"# {title}", ""]
    lines += [f"- **{t.speaker}** ({clock(t.start)}): {t.text}" for t in session.turns]
    return "\n".join(lines) + "\n"


def write_docx(session: Session, path: Path) -> None:
    from docx import Document

    document = Document()
    if session.format == "teams_docx":
        document.add_paragraph("Transcript")
        for turn in session.turns:
            document.add_paragraph(f"{turn.speaker}  {clock(turn.start)}")
            document.add_paragraph(turn.text)
    else:  # Google Meet: a timestamp paragraph every few turns, then "Name: text"
        document.add_paragraph("Transcripción de la reunión")
        for i, turn in enumerate(session.turns):
            if i % 4 == 0:
                document.add_paragraph(clock(turn.start))
            document.add_paragraph(f"{turn.speaker}: {turn.text}")
    document.save(str(path))


def write_pdf(session: Session, path: Path) -> None:
    lines = ["Interview transcript", ""]
    for turn in session.turns:
        wrapped = _wrap(f"{turn.speaker} ({clock(turn.start)}): {turn.text}", 88)
        lines += [*wrapped, ""]
    pages = [lines[i : i + 48] for i in range(0, len(lines), 48)]
    path.write_bytes(_pdf(pages))


def _wrap(text: str, width: int) -> list[str]:
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*out, line] if line else out


def _pdf(pages: list[list[str]]) -> bytes:
    """A real PDF: Helvetica (WinAnsi), one text line per Tj, with its cross-reference table."""
    objects: list[bytes] = []
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(pages)))
    font = 3 + 2 * len(pages)
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    for i, lines in enumerate(pages):
        body = ["BT", "/F1 10 Tf", "14 TL", "50 800 Td"]
        for line in lines:
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            body.append(f"({escaped}) Tj T*")
        body.append("ET")
        stream = "\n".join(body).encode("cp1252")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    )
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


WRITERS = {
    "zoom_vtt": write_zoom,
    "teams_vtt": write_teams_vtt,
    "srt": write_srt,
    "otter_txt": write_otter,
    "notes_md": write_notes,
}


def write_sessions(sessions: list[Session], rng: random.Random) -> None:
    folder = HERE / "transcripts"
    folder.mkdir(exist_ok=True)
    for session in sessions:
        path = folder / session.file
        if session.format in WRITERS:
            path.write_text(WRITERS[session.format](session, rng), encoding="utf-8")
        elif session.format == "pdf":
            write_pdf(session, path)
        else:
            write_docx(session, path)


# -- the labelled quotes --------------------------------------------------------------------


def quotes(sessions: list[Session], rng: random.Random) -> list[dict]:
    swaps = load("paraphrase.yaml")
    banks = {lang: load(f"bank_{lang}.yaml") for lang in ("en", "es")}
    said = [(s, t) for s in sessions for t in s.turns if t.core]
    out: list[dict] = []

    def add(kind, expected, quote, cited, source=None, note=""):
        out.append({
            "id": len(out) + 1, "kind": kind, "expected": expected, "quote": quote,
            "cited": cited, "source": source, "language": cited_language(cited), "note": note,
        })  # fmt: skip

    def cited_language(segment: str) -> str:
        return next(s.language for s in sessions if segment.startswith(s.code))

    for session, turn in said:
        core, lang = turn.core, session.language
        add("exact", "verified", core, turn.segment, turn.segment)
        add("punctuation", "verified", _punctuate(core, rng), turn.segment, turn.segment)
        if rng.random() < 0.6:
            add("elided", "verified", _elide(core, rng), turn.segment, turn.segment)
        if rng.random() < 0.6:
            changed = _small_change(core, swaps[lang], rng)
            if changed:
                add("small_change", "verified_or_check", changed, turn.segment, turn.segment)
        if rng.random() < 0.7:
            para = _paraphrase(core, swaps[lang], rng)
            if para:
                add("paraphrase", "not_verified", para, turn.segment, turn.segment)
        if rng.random() < 0.45:
            other, how = _elsewhere(sessions, session, turn, rng)
            add("misattributed", "misattributed", _punctuate(core, rng) if rng.random() < 0.5
                else core, other.segment, turn.segment, note=how)  # fmt: skip
        if rng.random() < 0.15:
            add("short", "not_evidence", " ".join(core.split()[1:5]), turn.segment, turn.segment)
    for session in sessions:
        moderators = [t for t in session.turns if t.role == "moderator"]
        for turn in rng.sample(moderators, 3):
            add("moderator", "not_evidence", turn.text, turn.segment, turn.segment)
    for lang in ("en", "es"):
        targets = [t for s, t in said if s.language == lang]
        for sentence in banks[lang]["invented"]:
            add("invented", "unsupported", sentence, rng.choice(targets).segment)
    return out


QUOTE_MARKS = {"'": "’", '"': "”"}


def _punctuate(text: str, rng: random.Random) -> str:
    """As models re-punctuate: commas dropped or added, a curly apostrophe, the final stop
    gone, a dash for a comma, the first letter's case changed."""
    out = text.replace("'", "’")
    if rng.random() < 0.5:
        out = out.replace(",", "")
    if rng.random() < 0.4:
        out = out.replace(" because", ", because").replace(" porque", ", porque")
    if rng.random() < 0.3:
        out = out.replace(", ", " — ", 1)
    out = out.rstrip(".")
    if rng.random() < 0.5:
        out = out[0].lower() + out[1:]
    if rng.random() < 0.3:
        out = out.replace(" ", "  ", 1)
    return out


def _elide(text: str, rng: random.Random) -> str:
    words = text.rstrip(".").split()
    head = rng.randint(3, max(3, len(words) // 2 - 1))
    tail = rng.randint(3, max(3, len(words) - head - 3))
    mark = rng.choice(["...", "…", "[...]"])
    return f"{' '.join(words[:head])} {mark} {' '.join(words[-tail:])}"


def _swappable(words: list[str], swaps: dict) -> list[int]:
    return [i for i, w in enumerate(words) if w.lower().strip(".,") in swaps]


def _small_change(text: str, swaps: dict, rng: random.Random) -> str | None:
    """One word swapped for a near synonym, or one small word dropped: a model's slip."""
    words = text.split()
    options = _swappable(words, swaps)
    if options and rng.random() < 0.6:
        i = rng.choice(options)
        words[i] = swaps[words[i].lower().strip(".,")]
    else:
        small = [i for i, w in enumerate(words[1:-1], start=1) if len(w) <= 3]
        if not small:
            return None
        del words[rng.choice(small)]
    return " ".join(words)


def _paraphrase(text: str, swaps: dict, rng: random.Random) -> str | None:
    """The same idea in other words: most swappable words swapped, the clauses turned."""
    words = text.rstrip(".").split()
    options = _swappable(words, swaps)
    if not options:
        return None
    for i in options:
        words[i] = swaps[words[i].lower().strip(".,")]
    joined = " ".join(words)
    for link in (" because ", " so ", " but ", " porque ", " así que ", " pero "):
        if link in joined:
            first, second = joined.split(link, 1)
            joined = f"{second[0].upper()}{second[1:]}{link.rstrip()} {first[0].lower()}{first[1:]}"
            break
    else:
        joined = _drop_some(joined, rng)
    return joined if len(options) >= 3 else _drop_some(joined, rng)


def _drop_some(text: str, rng: random.Random) -> str:
    words = text.split()
    keep = [w for i, w in enumerate(words) if i == 0 or len(w) > 3 or rng.random() < 0.4]
    return " ".join(keep)


def _elsewhere(sessions, session, turn, rng) -> tuple[Turn, str]:
    """Another participant segment to cite instead: the other speaker of a pair interview,
    the same speaker's other turn, or another session (the right words, the wrong source)."""
    pair = [t for t in session.turns if t.core and t.speaker != turn.speaker]
    if pair and rng.random() < 0.6:
        return rng.choice(pair), "wrong speaker"
    others = [t for s in sessions if s is not session for t in s.turns if t.core]
    same = [t for t in session.turns if t.core and t is not turn]
    if same and rng.random() < 0.3:
        return rng.choice(same), "wrong turn"
    return rng.choice(others), "wrong session"


# -- surveys and reviews --------------------------------------------------------------------

SUS_EN = [
    "I think that I would like to use this app frequently.",
    "I found the app unnecessarily complex.",
    "I thought the app was easy to use.",
    "I think that I would need the support of a technical person to be able to use this app.",
    "I found the various functions in this app were well integrated.",
    "I thought there was too much inconsistency in this app.",
    "I would imagine that most people would learn to use this app very quickly.",
    "I found the app very cumbersome to use.",
    "I felt very confident using the app.",
    "I needed to learn a lot of things before I could get going with this app.",
]
LIKERT_EN = [
    "Strongly disagree",
    "Disagree",
    "Neither agree nor disagree",
    "Agree",
    "Strongly agree",
]
LIKERT_ES = ["Totalmente en desacuerdo", "En desacuerdo", "Ni de acuerdo ni en desacuerdo",
             "De acuerdo", "Totalmente de acuerdo"]  # fmt: skip
COMMENTS_EN = ["Booking on the phone is slow", "Please show prices earlier", "Love the reminders",
               "", "Let me pick my therapist", "", "The app logs me out", ""]  # fmt: skip
COMMENTS_ES = ["Reservar desde el móvil es lento", "Enseñad los precios antes", "", "Me encantan "
               "los recordatorios", "", "Quiero elegir a mi fisio", ""]  # fmt: skip
FEATURES = ["Online booking", "Reminders", "Online payment", "Reviews"]


def _respondents(rng: random.Random, count: int) -> list[dict]:
    people = []
    for i in range(count):
        platform = rng.choice(["iPhone", "Android", "Web"])
        nps = min(10, max(0, int(rng.gauss(7.2 if platform == "iPhone" else 6.4, 2.2))))
        sus = [min(5, max(1, int(rng.gauss(3.8 if k % 2 == 0 else 2.2, 1)))) for k in range(10)]
        easy = min(4, max(0, int(rng.gauss(2.9, 1.1))))
        features = [f for f in FEATURES if rng.random() < 0.5]
        people.append({"i": i, "platform": platform, "nps": nps, "sus": sus, "easy": easy,
                       "features": features})  # fmt: skip
    return people


def write_qualtrics(people: list[dict], rng: random.Random) -> Path:
    ids = ["StartDate", "EndDate", "Status", "Progress", "Finished", "ResponseId", "Q1", "Q2",
           *[f"Q3_{k}" for k in range(1, 11)], "Q4", "Q5"]  # fmt: skip
    texts = ["Start Date", "End Date", "Response Type", "Progress", "Finished", "Response ID",
             "How likely are you to recommend the clinic app to a friend or colleague?",
             "Which device did you book on?",
             *[f"Please rate each statement - {s}" for s in SUS_EN],
             "Booking an appointment was easy.", "Anything else you want to tell us?"]  # fmt: skip
    imports = [json.dumps({"ImportId": k}) for k in ids]
    path = HERE / "surveys" / "qualtrics_en.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerows([ids, texts, imports])
        for p in people:
            comment = COMMENTS_EN[p["i"] % len(COMMENTS_EN)]
            out.writerow(["2026-10-01 09:00:00", "2026-10-01 09:06:00", "IP Address", "100",
                          "True", f"R_{p['i']:05d}", p["nps"], p["platform"], *p["sus"],
                          LIKERT_EN[p["easy"]], comment])  # fmt: skip
    return path


def write_surveymonkey(people: list[dict]) -> Path:
    first = ["Respondent ID", "Collector ID", "Start Date", "End Date",
             "How likely is it that you would recommend the clinic app to a friend or colleague?",
             "Which features did you use? (select all that apply)", "", "", "",
             "What device do you use?"]  # fmt: skip
    second = ["", "", "", "", "Response", *FEATURES, "Response"]
    path = HERE / "surveys" / "surveymonkey_en.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerows([first, second])
        for p in people:
            ticks = [f if f in p["features"] else "" for f in FEATURES]
            out.writerow([11400000 + p["i"], 4321, "10/02/2026 10:00:00 AM",
                          "10/02/2026 10:04:00 AM", p["nps"], *ticks, p["platform"]])  # fmt: skip
    return path


def write_google_forms(people: list[dict]) -> Path:
    header = ["Marca temporal", "¿Con qué probabilidad recomendarías la app de la clínica a un "
              "amigo o colega?", "Reservar una cita fue fácil", "¿Desde qué dispositivo "
              "reservas?", "¿Algo más que quieras contarnos?"]  # fmt: skip
    path = HERE / "surveys" / "google_forms_es.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(header)
        for p in people:
            comment = COMMENTS_ES[p["i"] % len(COMMENTS_ES)]
            out.writerow([f"2026/10/03 {10 + p['i'] % 8}:{p['i'] % 60:02d}:00 p. m. CET",
                          p["nps"], LIKERT_ES[p["easy"]], p["platform"], comment])  # fmt: skip
    return path


REVIEWS = [
    (5, "Booking took me less than a minute, and the reminder arrived the evening before."),
    (2, "The app logged me out twice while I was paying for my session."),
    (1, "Charged twice for one appointment and support took ages to answer my emails."),
    (4, "Good choice of therapists but I wish I could filter by language spoken."),
    (3, "La aplicación funciona pero no deja cambiar la cita sin cancelarla primero."),
    (5, "Me encanta poder ver la foto y las opiniones de cada fisioterapeuta antes de reservar."),
    (2, "No encuentro dónde descargar la factura para la mutua, tengo que pedirla por correo."),
    (4, "Reminders are great, but three messages for one visit is a bit much."),
]


def write_reviews() -> Path:
    path = HERE / "reviews" / "app_reviews.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["Review ID", "Posted", "Stars", "Review text", "Reviewer"])
        for i, (stars, text) in enumerate(REVIEWS, start=1):
            out.writerow([f"RV-{i:04d}", f"2026-09-{i + 3:02d}", stars, text, f"user{i * 37}"])
    return path


def reference_statistics(people: list[dict], likert: list[str]) -> dict:
    """NPS, SUS, the Likert distribution and its top-two box, and NPS by device: the values
    any correct implementation must compute from the exports."""
    n = len(people)
    promoters = sum(p["nps"] >= 9 for p in people)
    detractors = sum(p["nps"] <= 6 for p in people)
    sus = [
        2.5 * sum((s - 1) if k % 2 == 0 else (5 - s) for k, s in enumerate(p["sus"]))
        for p in people
    ]
    counts = {label: sum(likert[p["easy"]] == label for p in people) for label in likert}
    by_device = {}
    for device in sorted({p["platform"] for p in people}):
        group = [p for p in people if p["platform"] == device]
        by_device[device] = round(
            100 * (sum(p["nps"] >= 9 for p in group) - sum(p["nps"] <= 6 for p in group))
            / len(group), 1,
        )  # fmt: skip
    features = {f: sum(f in p["features"] for p in people) for f in FEATURES}
    return {
        "responses": n,
        "nps": round(100 * (promoters - detractors) / n, 1),
        "promoters": promoters,
        "detractors": detractors,
        "sus_mean": round(sum(sus) / n, 1),
        "likert_counts": counts,
        "top_two_box": round(100 * (counts[likert[3]] + counts[likert[4]]) / n, 1),
        "nps_by_device": by_device,
        "features": features,
    }


def main() -> None:
    rng = random.Random(SEED)
    sessions = build_sessions(rng)
    write_sessions(sessions, rng)
    for folder in ("surveys", "reviews"):
        (HERE / folder).mkdir(exist_ok=True)
    people_q, people_m, people_g = (_respondents(rng, n) for n in (40, 36, 30))
    write_qualtrics(people_q, rng)
    write_surveymonkey(people_m)
    write_google_forms(people_g)
    write_reviews()
    labelled = quotes(sessions, rng)
    with (HERE / "quotes.jsonl").open("w", encoding="utf-8") as handle:
        for quote in labelled:
            handle.write(json.dumps(quote, ensure_ascii=False) + "\n")
    who = participants(sessions)
    expected = {
        "sessions": [
            {"file": s.file, "code": s.code, "language": s.language, "format": s.format,
             "turns": len(s.turns),
             "speakers": sorted({t.speaker for t in s.turns}),
             "participants": sorted({who[t.speaker] for t in s.turns if t.role == "participant"}),
             "segments": {t.segment: {"speaker": t.speaker, "start": t.start, "text": t.text,
                                      "role": t.role, "topic": t.topic}
                          for t in s.turns}}
            for s in sessions
        ],
        "participants": who,
        "surveys": {
            "qualtrics_en.csv": reference_statistics(people_q, LIKERT_EN),
            "surveymonkey_en.csv": reference_statistics(
                [{**p, "easy": 0, "sus": [3] * 10} for p in people_m], LIKERT_EN),
            "google_forms_es.csv": reference_statistics(people_g, LIKERT_ES),
        },
    }  # fmt: skip
    (HERE / "expected.json").write_text(
        json.dumps(expected, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    kinds: dict[str, int] = {}
    for quote in labelled:
        kinds[quote["kind"]] = kinds.get(quote["kind"], 0) + 1
    print(len(labelled), "quotes", kinds)


if __name__ == "__main__":
    main()
