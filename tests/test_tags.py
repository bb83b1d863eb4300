"""The model may record decisions and ask questions only through two whitelisted tags."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from design_agent.knowledge.tags import AskUserTag, DecisionTag, TagParser, TextSegment, parse_all

ANSWER = (
    'We will test with 5 people. <decision rationale="budget allows one round">'
    "moderated usability testing</decision> Next? <ask_user>How many screens?</ask_user> done"
)


def stream(text: str, size: int) -> list:
    parser = TagParser()
    out = []
    for i in range(0, len(text), size):
        out.extend(parser.feed(text[i : i + size]))
    out.extend(parser.close())
    return out


def tags_of(segments: list) -> list:
    return [s for s in segments if not isinstance(s, TextSegment)]


def text_of(segments: list) -> str:
    return "".join(s.text for s in segments if isinstance(s, TextSegment))


def test_a_decision_and_a_question_are_recognised():
    assert tags_of(parse_all(ANSWER)) == [
        DecisionTag("moderated usability testing", "budget allows one round"),
        AskUserTag("How many screens?"),
    ]
    assert text_of(parse_all(ANSWER)) == "We will test with 5 people.  Next?  done"


def test_tags_split_across_every_possible_chunk_size():
    expected = parse_all(ANSWER)
    for size in range(1, 12):
        segments = stream(ANSWER, size)
        assert tags_of(segments) == tags_of(expected), size
        assert text_of(segments) == text_of(expected), size


def test_unknown_tags_are_plain_text_and_never_acted_on():
    text = "<script>rm -rf /</script> <tool name='x'>run</tool> <decisions>x</decisions>"
    assert parse_all(text) == [TextSegment(text)]


def test_nested_tags_are_shown_as_text():
    text = '<decision rationale="r">a <ask_user>b?</ask_user> c</decision> after'
    segments = parse_all(text)
    assert tags_of(segments) == []
    assert text_of(segments) == text


def test_unclosed_tag_and_unknown_attribute_are_text():
    assert parse_all("<decision rationale='x'>never closed") == [
        TextSegment("<decision rationale='x'>never closed")
    ]
    odd = '<decision onclick="x">y</decision>'
    assert parse_all(odd) == [TextSegment(odd)]


def test_a_lone_angle_bracket_is_text():
    assert text_of(stream("a < b and c<d <", 1)) == "a < b and c<d <"


@given(st.text(alphabet="<>/ab decisonrat=\"'_uk", max_size=80), st.integers(1, 7))
def test_streaming_equals_whole_parsing_and_loses_no_text(text, size):
    whole = parse_all(text)
    assert tags_of(stream(text, size)) == tags_of(whole)
    if not tags_of(whole):
        assert text_of(stream(text, size)) == text
