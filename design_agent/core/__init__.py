"""Foundations every layer uses: models, settings, errors, events, paths and private files,
the home's trust rule, YAML with lines, user-facing messages, logs, text basics, the
catalogue cache and the process's start-up state.

The bottom layer: it imports nothing of design-agent's but itself.
"""
