"""The words design-agent reads people with are data: per-language YAML files, validated,
folded when loaded, and extended by a home's own files."""

from __future__ import annotations

from pathlib import Path

from design_agent.core.lexicon import (
    Lexicon,
    LexiconWords,
    build,
    bundled_folder,
    load,
    sources,
    use_home,
)
from design_agent.core.paths import HomeLayout


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_bundled_lexicon_is_valid_and_speaks_english_and_spanish() -> None:
    words = load(None)
    assert words.problems == []
    assert words.languages[:2] == ("en", "es")
    assert "si" in words.words("yes_words", "es")  # folded: "sí" is found as "si"
    assert words.table("ordinals", "es")["ultima"] == -1
    assert {"yes", "si"} <= words.union("yes_words")


def test_a_homes_words_extend_the_bundled_ones_and_a_new_language_is_a_folder(
    tmp_path: Path,
) -> None:
    home = HomeLayout(tmp_path / "home")
    write(home.root / "lexicon" / "en" / "replies.yaml", "yes_words: [righto]\n")
    write(home.root / "lexicon" / "pt" / "replies.yaml", 'yes_words: ["sim", "claro"]\n')
    words = load(home)
    assert words.problems == []
    assert {"righto", "yes"} <= words.words("yes_words", "en")
    assert words.languages == ("en", "es", "pt")
    assert words.words("yes_words", "pt") == {"sim", "claro"}
    assert sources(home)[0].is_relative_to(bundled_folder())


def test_every_problem_names_its_file_and_line(tmp_path: Path) -> None:
    bad = write(
        tmp_path / "lexicon" / "en" / "bad.yaml",
        "yes_words: [fine, no]\nBad-Name: [x]\nordinals: 3\ncardinals: {one: [1, [2]]}\n",
    )
    odd = write(tmp_path / "lexicon" / "english" / "words.yaml", "stop: [the]\n")
    problems = [str(p) for p in build([bad, odd]).problems]
    assert problems[0].startswith(f"{bad}:1: yes_words: write yes, no")
    assert problems[1].startswith(f"{bad}:2: 'Bad-Name' is not a lexicon name")
    assert problems[2].startswith(f"{bad}:3: ordinals: give a list of words")
    assert problems[3].startswith(f"{bad}:4: cardinals:")
    assert problems[4] == f"{odd}: 'english' is not a language code (en, es, pt...)"


def test_what_code_derives_from_the_words_is_made_once_per_lexicon(tmp_path: Path) -> None:
    made: list[str] = []

    def count(words: Lexicon) -> int:
        made.append(words.signature)
        return len(words.union("stop_words"))

    words = load(HomeLayout(tmp_path / "home"))
    assert words.derived(count) == words.derived(count) > 100
    assert len(made) == 1
    assert "_derived" not in words.__getstate__()  # never pickled with the words


def test_a_view_reads_the_words_of_the_home_in_use(tmp_path: Path) -> None:
    home = HomeLayout(tmp_path / "home")
    write(home.root / "lexicon" / "en" / "replies.yaml", "yes_words: [righto]\n")
    yes = LexiconWords("yes_words")
    try:
        assert "righto" not in yes and "si" in yes
        use_home(home)
        assert "righto" in yes and "yes" in yes
        assert "righto" in LexiconWords("yes_words", "en") - LexiconWords("yes_words", "es")
    finally:
        use_home(None)
    assert "righto" not in yes
