"""`design-agent serve`: the HTTP + SSE API and web page over the same pipeline as the shell.

Nothing here is imported by `--version`, `--help` or `ask`: fastapi and
uvicorn load only when a server starts (design_agent.server.serve). The
modules without a web framework (context, turns, lifecycle) are the seams the
ask fast path and tests use. See docs/server-api.md for the contract.
"""
