"""The environment an AI CLI is started with: an allow-list, never the whole of ours.

A shell's environment holds credentials for everything (cloud keys, tokens
for code hosts, database URLs); a provider needs a handful. The child gets:

- the variables every CLI needs to run at all (`BASE_PASSTHROUGH`): the
  path, the home and user, the locale, the terminal, the time zone, the
  proxies and certificate bundles, the XDG folders;
- the variables its adapter declares in `env_passthrough` (glob patterns,
  e.g. `ANTHROPIC_*` for Claude Code);
- the patterns the user adds for every provider in `DESIGN_AGENT_ENV_PASSTHROUGH`
  (comma-separated, e.g. `AWS_*` for Claude Code on Bedrock);
- the adapter's own `env` entries, which win over all of these.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fnmatch import translate
from functools import lru_cache

from design_agent.providers.spec import AdapterSpec

USER_PASSTHROUGH = "DESIGN_AGENT_ENV_PASSTHROUGH"
_PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY")
BASE_PASSTHROUGH: tuple[str, ...] = (
    *("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ"),
    *("LANG", "LANGUAGE", "LC_*", "TERM", "COLORTERM", "NO_COLOR"),
    *_PROXIES,
    *(name.lower() for name in _PROXIES),
    *("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"),
    "XDG_*",
)
_SEPARATORS = re.compile(r"[\s,]+")


def user_patterns(parent: Mapping[str, str]) -> list[str]:
    """The patterns in DESIGN_AGENT_ENV_PASSTHROUGH (a bare `*` is ignored: it would pass all)."""
    raw = parent.get(USER_PASSTHROUGH, "")
    return [p for p in _SEPARATORS.split(raw) if p and p.strip("*?")]


@lru_cache(maxsize=32)
def _any_of(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One expression for all the globs: every start tests each variable against ~30."""
    return re.compile("|".join(f"(?:{translate(pattern)})" for pattern in patterns) or "(?!)")


def child_environment(
    spec: AdapterSpec, parent: Mapping[str, str], extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """What `spec`'s CLI is started with: the allowed part of `parent`, then `extra`.

    `extra` is the invocation's own variables (the adapter's `env` and the
    system prompt's file), which are always set.
    """
    patterns = _any_of((*BASE_PASSTHROUGH, *spec.env_passthrough, *user_patterns(parent)))
    allowed = {name: value for name, value in parent.items() if patterns.match(name)}
    return {**allowed, **(extra or {})}
