"""Scripted multi-turn conversations with design-agent, in English and Spanish."""
