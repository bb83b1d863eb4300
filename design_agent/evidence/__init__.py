"""Research evidence: transcripts, notes, survey exports and reviews read into sessions,
speakers and segments with stable ids; quotes of an answer verified against them; counts,
survey statistics and coverage computed in code; the evidence block of a research prompt
and the offline draft groups. Parsers load their libraries (webvtt-py, python-docx) only
when a file is added."""
