"""Token estimates for prompt budgets, and text that is always valid Unicode
(text comparison lives in language.py)."""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """A provider-neutral token estimate: about four characters per token."""
    return max(1, (len(text) + 3) // 4)


def valid_unicode(text: str) -> str:
    """`text` with each lone surrogate (a JSON `"\\ud800"` decodes to one) replaced by U+FFFD,
    and a surrogate pair joined into its character, so it can always be encoded as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
