"""Stream parsers: pure functions from the recorded CLI output lines to events."""

from __future__ import annotations

import itertools
import json

import pytest
from fixtures.fakes import RECORDED
from hypothesis import given, settings
from hypothesis import strategies as st

from design_agent.providers.events import StreamDone, StreamError, TextDelta, Usage
from design_agent.providers.lines import ChunkDecoder, LineSplitter, LineTooLongError
from design_agent.providers.parsers import parse_lines

ANSWER = "Hello from fake server. <decision>use cards</decision>"


def stdout_lines(name: str) -> list[str]:
    data = json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))
    return data["stdout"].splitlines()


def text_of(events: list) -> str:  # type: ignore[type-arg]
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def kinds(events: list) -> list[type]:  # type: ignore[type-arg]
    return [type(e) for e in events]


def test_claude_partial_messages_stream_deltas_and_skip_the_repeated_message():
    events = parse_lines("claude-stream-json", stdout_lines("run_claude_partial"))
    assert [e.text for e in events if isinstance(e, TextDelta)] == [
        "Hello from ",
        "fake server",
        ". <decision",
        ">use cards<",
        "/decision>",
    ]
    assert kinds(events)[-2:] == [Usage, StreamDone]
    assert events[-2] == Usage(input_tokens=11, output_tokens=17, cost_usd=0.000288)


def test_claude_without_partial_messages_takes_the_assistant_message():
    events = parse_lines("claude-stream-json", stdout_lines("run_claude_stream_stdin"))
    assert text_of(events) == ANSWER and isinstance(events[-1], StreamDone)


def test_claude_logged_out_is_an_error_even_with_subtype_success():
    events = parse_lines("claude-stream-json", stdout_lines("noauth_claude_stream"))
    assert text_of(events) == ""
    errors = [e for e in events if isinstance(e, StreamError)]
    assert errors[-1].terminal and "Not logged in" in errors[-1].message
    assert not any(isinstance(e, StreamDone) for e in events)


def test_claude_interrupted_keeps_the_partial_text_and_reports_the_abort():
    recorded = json.loads((RECORDED / "cancel_claude_sigint_child.json").read_text())
    events = parse_lines("claude-stream-json", recorded["stdout_lines"])
    assert text_of(events) == "Hel"
    assert "aborted_streaming" in events[-1].message


def test_gemini_deltas_and_token_counts_without_cost():
    events = parse_lines("gemini-stream-json", stdout_lines("run_gemini_stream"))
    assert text_of(events) == ANSWER
    assert events[-2] == Usage(input_tokens=11, output_tokens=17, cost_usd=None)
    assert isinstance(events[-1], StreamDone)


def test_gemini_error_result_fails():
    lines = ['{"type":"result","status":"error","error":{"type":"X","message":"quota exceeded"}}']
    events = parse_lines("gemini-stream-json", lines)
    assert isinstance(events[-1], StreamError) and events[-1].message == "quota exceeded"


def test_codex_whole_messages_warnings_and_usage():
    events = parse_lines("codex-json", stdout_lines("run_codex_stdin"))
    assert text_of(events) == ANSWER
    warning = next(e for e in events if isinstance(e, StreamError))
    assert not warning.terminal and "Model metadata" in warning.message
    assert events[-2] == Usage(input_tokens=11, output_tokens=17)


def test_codex_turn_failed_is_terminal():
    events = parse_lines("codex-json", stdout_lines("run_codex_nokey"))
    assert events[-1].terminal and "Missing environment variable" in events[-1].message


def test_codex_items_that_grow_emit_only_what_is_new():
    lines = [
        '{"type":"item.updated","item":{"id":"a","type":"agent_message","text":"Hel"}}',
        '{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"Hello"}}',
        '{"type":"item.completed","item":{"id":"b","type":"agent_message","text":"Bye"}}',
    ]
    assert [e.text for e in parse_lines("codex-json", lines)] == ["Hel", "lo", "\n\nBye"]


def test_unknown_events_blank_lines_and_noise_are_ignored():
    lines = ["", "   ", "npm WARN old", "[1, 2]", '{"type":"brand_new_event"}', "{not json",
             *stdout_lines("run_gemini_stream")]  # fmt: skip
    events = parse_lines("gemini-stream-json", lines)
    assert text_of(events) == ANSWER and isinstance(events[-1], StreamDone)


def test_a_stream_that_ends_early_has_no_final_event():
    events = parse_lines("claude-stream-json", stdout_lines("run_claude_partial")[:-1])
    assert text_of(events) == ANSWER
    assert not any(isinstance(e, StreamDone | StreamError) for e in events)


def test_plain_text_passes_chunks_through():
    assert text_of(parse_lines("text", ["Hel", "lo ", "wörld"])) == "Hello wörld"


# -- reads split anywhere ---------------------------------------------------------


def split_and_parse(output_format: str, data: bytes, cuts: list[int]) -> list:  # type: ignore[type-arg]
    splitter = LineSplitter()
    items: list[str] = []
    edges = [0, *sorted(set(cuts)), len(data)]
    for start, end in itertools.pairwise(edges):
        items += splitter.feed(data[start:end])
    items += splitter.flush()
    return parse_lines(output_format, items)


RECORDED_BYTES = (
    "\n".join(stdout_lines("run_claude_partial"))
    + '\n{"type":"stream_event","event":{"type":"content_block_delta",'
    '"delta":{"type":"text_delta","text":"ñandú 日本 🎨"}}}\n'
).encode()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=len(RECORDED_BYTES) - 1), max_size=40))
def test_any_split_of_the_bytes_gives_the_same_events(cuts):
    whole = split_and_parse("claude-stream-json", RECORDED_BYTES, [])
    assert split_and_parse("claude-stream-json", RECORDED_BYTES, cuts) == whole
    assert text_of(whole).endswith("ñandú 日本 🎨")


def test_every_single_byte_split_of_a_multibyte_line():
    line = '{"type":"message","role":"assistant","content":"ñ€🎨","delta":true}\n'.encode()
    for cut in range(1, len(line)):
        assert text_of(split_and_parse("gemini-stream-json", line, [cut])) == "ñ€🎨"


def test_chunk_decoder_holds_back_half_a_character():
    decoder = ChunkDecoder()
    emoji = "🎨".encode()
    assert decoder.feed(b"a" + emoji[:2]) == ["a"]
    assert decoder.feed(emoji[2:]) == ["🎨"]
    assert decoder.flush() == []


def test_invalid_bytes_become_replacement_characters():
    splitter = LineSplitter()
    assert splitter.feed(b"ok \xff\xfe\n") == ["ok \ufffd\ufffd"]


def test_a_line_over_the_limit_is_refused():
    splitter = LineSplitter(max_line=10)
    splitter.feed(b"12345")
    with pytest.raises(LineTooLongError):
        splitter.feed(b"678901")
