"""One turn of the conversation: `pipeline` orchestrates the 8 steps; its pieces each do
one of them (the method chosen or asked for: clarify; the request built: request_builder,
grounding; the answer streamed, checked and saved: answer_stream, recording; a provider
that cannot answer: fallback; the budget, compare, the prompt preview). `types` holds what
the pieces share, below all of them; `session` the services a turn reads.

Above actions/: a turn runs an action's handler and applies the result it returns.
"""
