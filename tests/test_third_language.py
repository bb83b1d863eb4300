"""A new language is a folder of words: a user writes Portuguese into their home's
lexicon/pt/ (a few function words, what tells Portuguese apart, a small glossary to
English) and design-agent reads Portuguese requests with them, without a line of code.
`check` keeps those files honest, naming the file and line of what is wrong."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from design_agent.core.lexicon import lexicon, use_home
from design_agent.core.paths import HomeLayout
from design_agent.understanding.intents import detect_action
from design_agent.understanding.language import detect_language, keywords_of

WORDS = """\
# Portuguese function words: detection counts the ones no other language has.
stop_words: [o, a, os, as, um, uma, de, do, da, dos, das, em, "no", na, para, com, por, que,
  e, eu, nos, nosso, nossa, meu, minha, preciso, quero, fazer, como]
detection_words: [voce, nao, sao, entao, tambem, aplicativo]
detection:
  characters: "ãõçâêôàáéíóú"
  endings: [cao, coes]
"""
GLOSSARY = """\
# Portuguese -> the English of the catalogue.
glossary:
  pesquisa: research
  concorrentes: competitors
  aplicativo: app
  usuarios: users
  tela: screen
  cadastro: signup
  entrevistas: interviews
  jornada: journey
  fluxo: flow
  teste: test
"""
INTENTS = """\
# "apaga o projeto Atlas": Portuguese alternatives in the intent patterns.
delete_verbs: [apaga, apagar, exclui, excluir]
owner_words: [o, meu, nosso]
project_words: [projeto]
"""
REQUEST = "preciso mapear a jornada dos usuários no cadastro"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def bundled_words_after() -> Iterator[None]:
    """A Portuguese home's words stay in its tests: the process reads the bundled ones after."""
    yield
    use_home(None)


def matched(run_cli, message: str) -> dict[str, Any]:
    result = run_cli("match", "--json", message)
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.output)
    return found


def test_a_portuguese_request_reaches_its_method_through_files_alone(run_cli, home):
    before = matched(run_cli, REQUEST)
    assert before["language"] == "es"  # read as Spanish: the journey is missed
    assert before["best"]["task_id"] != "journey_mapping"
    write(home / "lexicon" / "pt" / "words.yaml", WORDS)
    write(home / "lexicon" / "pt" / "glossary.yaml", GLOSSARY)
    assert run_cli("check").exit_code == 0
    after = matched(run_cli, REQUEST)  # new words: a new matcher, no stale cache
    assert after["language"] == "pt"
    assert after["best"]["task_id"] == "journey_mapping"
    assert "jornada" in after["keywords"] and "dos" not in after["keywords"]
    another = matched(run_cli, "quero uma pesquisa dos concorrentes do nosso aplicativo")
    assert another["best"]["task_id"] == "competitive_analysis"


def test_detection_weighs_every_language_and_a_tie_is_english(home):
    write(home / "lexicon" / "pt" / "words.yaml", WORDS)
    use_home(HomeLayout(home))
    assert lexicon().languages == ("en", "es", "pt")
    assert detect_language("você não precisa de uma solução") == "pt"  # ê, ã, ç and "nao"
    assert detect_language("necesito una encuesta para los usuarios") == "es"
    assert detect_language("plan a usability test") == "en"
    assert detect_language("de") == "en"  # Spanish and Portuguese both: a tie
    assert keywords_of("quero um teste do fluxo", "pt") == ["teste", "fluxo"]


def test_a_languages_file_adds_alternatives_to_the_intent_patterns(home):
    write(home / "lexicon" / "pt" / "intents.yaml", INTENTS)
    assert detect_action("apaga o projeto Atlas", projects=["Atlas"]) is None  # bundled words
    use_home(HomeLayout(home))
    found = detect_action("apaga o projeto Atlas", projects=["Atlas"])
    assert found is not None and found.name == "projects.delete"
    assert found.input == {"name": "Atlas"}
    assert detect_action("delete the Atlas project", projects=["Atlas"]) == detect_action(
        "excluir Atlas", projects=["Atlas"]
    )


def test_check_names_the_file_and_line_of_a_broken_lexicon_file(run_cli, home):
    words = write(
        home / "lexicon" / "pt" / "words.yaml",
        "stop_words: [o, a]\nstop_word: [um]\ndetection_words: [nao, no]\nglossary: [x]\n",
    )
    result = run_cli("check")
    assert result.exit_code == 3
    problems = result.stderr.splitlines()
    assert (
        f"{words}:2: 'stop_word' is not a name design-agent reads (did you mean stop_words?)"
        in problems
    )
    assert any(p.startswith(f"{words}:3: detection_words: write yes, no") for p in problems)
    assert f"{words}:4: glossary: give a table (a: 1), as the bundled lexicon does" in problems
    report = json.loads(run_cli("check", "--json").output)
    assert report["ok"] is False and len(report["problems"]) == 3


def test_a_false_friend_must_name_a_list_that_exists(run_cli, home):
    friends = write(
        home / "lexicon" / "pt" / "false_friends.yaml",
        "false_friends:\n  historia: story_support\n  sprint: sprnt_support\n",
    )
    result = run_cli("check")
    assert result.exit_code == 3
    expected = f"{friends}:3: false_friends: sprint names 'sprnt_support', a list no file gives"
    assert expected in result.stderr.splitlines()
