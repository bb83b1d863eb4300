"""How `ask --show-prompt` and `/prompt` print a prompt preview.

Plain text, exactly as it would be sent (cleaned of escape sequences, never
read as markup): the method and provider, the command line, the system
prompt, the standard input, then the estimated tokens per block.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from design_agent.core.text import clean_text

if TYPE_CHECKING:
    from design_agent.turn.preview import PromptPreview

DROPPED_SHOWN = 4
VIA = {
    "args": "in a file named on the command line",
    "env": "in a file named in the environment",
    "stdin": "before the prompt on standard input",
}


def render_preview(preview: PromptPreview) -> str:
    """The preview as text, one titled part after another."""
    parts = [
        _heading(preview),
        _part("command", _command(preview)),
        _part(
            f"system prompt ({preview.tokens.get('persona', 0):,} tokens, "
            f"{VIA.get(preview.system_prompt_via, preview.system_prompt_via)})",
            preview.system_prompt,
        ),
        _part(
            f"standard input ({preview.total_tokens - preview.tokens.get('persona', 0):,} tokens)",
            preview.stdin,
        ),
        _part("tokens per block", _blocks(preview)),
    ]
    return clean_text("\n\n".join(parts))


def _heading(preview: PromptPreview) -> str:
    lines = [
        f"Method: {preview.task_name} ({preview.task_id}, {preview.band})",
        f"Provider: {preview.provider}"
        + (f", model {preview.model}" if preview.model else "")
        + f" · {preview.total_tokens:,} of {preview.budget:,} tokens"
        + f" · {preview.language}, {preview.verbosity}",
    ]
    if preview.band != "HIGH" and preview.alternatives:
        lines.append(
            "Not certain of the method: a turn would confirm it; close alternatives: "
            + ", ".join(preview.alternatives)
        )
    if preview.dropped:
        shown = ", ".join(preview.dropped[:DROPPED_SHOWN])
        more = len(preview.dropped) - DROPPED_SHOWN
        lines.append(
            f"Left out to fit: {shown}" + (f" and {more} more (--json)" if more > 0 else "")
        )
    return "\n".join(lines)


def _command(preview: PromptPreview) -> str:
    if not preview.argv:
        return "(built-in offline provider: no process; it answers from the same grounding)"
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in preview.env.items())
    return f"{env} {shlex.join(preview.argv)}".strip()


def _blocks(preview: PromptPreview) -> str:
    used = [(name, n) for name, n in preview.tokens.items() if n]
    width = max(len(name) for name, _ in used) if used else 0
    lines = [f"{name:<{width}}  {n:>7,}" for name, n in used]
    lines.append(f"{'total':<{width}}  {preview.total_tokens:>7,}")
    return "\n".join(lines)


def _part(title: str, body: str) -> str:
    return f"── {title} ──\n{body}"
