"""Token estimates for prompt budgets (text comparison lives in language.py)."""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """A provider-neutral token estimate: about four characters per token."""
    return max(1, (len(text) + 3) // 4)
