"""What the person means: the language of a message, the intent of a meta-request, the
reply to an open question, the design method a request needs, the model's choice among
close methods, and the conversation state a project keeps between turns.

Its words are data, not code: design_agent/lexicon/<language>/*.yaml (core/lexicon.py),
from which the patterns, sets and indexes here are made once per lexicon.

Below actions/ and the turn, above knowledge/ (it reads the catalogue it matches against).
"""
