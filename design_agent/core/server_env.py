"""The environment fingerprint a server writes in server.json and `ask` compares with its own.

A server answers with the provider set-up of the environment it was started
in: the settings in DESIGN_AGENT_* variables, the PATH that finds the AI CLI,
the locale, the credentials the adapters pass through. `ask` sends a turn to a
running server only when its own environment gives the same fingerprint; any
difference means the in-process path, which sees exactly this shell's
environment. Terminal variables (TERM, COLUMNS...) are left out: they differ
between two windows of the same session and `ask` sends them with each turn.

Standard library only: the `ask` fast path (design_agent.launch.remote_ask) imports it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase

TYPE_CHECKING = False  # mypy reads this name as typing's; importing typing costs ~5 ms
if TYPE_CHECKING:
    from typing import Any


def _builtin_sha256() -> Callable[[], Any]:
    """The interpreter's own sha256: importing hashlib loads OpenSSL, ~10 ms that the
    `ask` fast path would pay. Same digest either way."""
    for name in ("_sha256", "_sha2"):  # Python 3.11; 3.12 and later
        try:
            return __import__(name).sha256  # type: ignore[no-any-return]
        except ImportError:
            continue
    from hashlib import sha256

    return sha256


# What a turn's answer depends on. The provider patterns are those the bundled
# adapters pass through (adapters/*.yaml `env_passthrough`; a test keeps them in step).
FINGERPRINT_PATTERNS: tuple[str, ...] = (
    *("PATH", "HOME", "LANG", "LANGUAGE", "LC_*", "TZ", "DESIGN_AGENT_*"),
    *("ANTHROPIC_*", "CLAUDE_*", "GEMINI_*", "GOOGLE_*", "OPENAI_*", "CODEX_*"),
    *("LLM_*", "OLLAMA_*"),
)
USER_PASSTHROUGH = "DESIGN_AGENT_ENV_PASSTHROUGH"
# Left out: the home is the one whose server.json `ask` read, however it was named; and
# where a test wants the fast path's module list (entry.py) changes no answer.
IGNORED = ("DESIGN_AGENT_HOME", "DESIGN_AGENT_TEST_MODULES_FILE")


def fingerprint_patterns(environ: Mapping[str, str]) -> list[str]:
    """The fixed patterns plus the user's DESIGN_AGENT_ENV_PASSTHROUGH ones (e.g. FAKE_*)."""
    raw = environ.get(USER_PASSTHROUGH, "").replace(",", " ")
    user = [p for p in raw.split() if p.strip("*?")]  # a bare `*` passes nothing, as there
    return [*FINGERPRINT_PATTERNS, *user]


def environment_fingerprint(environ: Mapping[str, str] | None = None) -> str:
    """sha256 (hex) of the names and values of the variables a turn's answer depends on."""
    environ = os.environ if environ is None else environ
    patterns = fingerprint_patterns(environ)
    digest = _builtin_sha256()()
    for name in sorted(environ):
        if name not in IGNORED and any(_matches(name, p) for p in patterns):
            digest.update(f"{name}\0{environ[name]}\0".encode("utf-8", "surrogateescape"))
    return str(digest.hexdigest())


def _matches(name: str, pattern: str) -> bool:
    """fnmatchcase(name, pattern), without compiling a regex for the plain `PREFIX*` and
    `NAME` patterns (compiling the fixed ones costs the fast path ~1.5 ms)."""
    if "?" in pattern or "[" in pattern or "*" in pattern[:-1]:
        return fnmatchcase(name, pattern)
    return name.startswith(pattern[:-1]) if pattern.endswith("*") else name == pattern
