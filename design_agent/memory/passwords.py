"""Passwords of a team's people: argon2id (argon2-cffi), imported only when one is set or
checked, so a one-person home never loads it.

argon2-cffi's PasswordHasher uses argon2id with RFC 9106's low-memory profile (t=3,
m=64 MiB, p=4) and a random salt per hash; the hash string carries its parameters, so
`needs_rehash` tells when a stored one should be made again with today's.

    stored = hash_password("correct horse battery")
    verify_password(stored, "correct horse battery")   # True
"""

from __future__ import annotations

from typing import Any

from design_agent.core.errors import ConfigError, UsageError

MIN_CHARS = 10
MAX_CHARS = 1024  # argon2 reads all of it: a megabyte password must not cost a megabyte's work
INSTALL = "pip install 'design-agent[team]'"


def _hasher() -> Any:
    try:
        from argon2 import PasswordHasher
    except ImportError as e:
        raise ConfigError(
            f"team accounts need argon2-cffi, which is not installed: {INSTALL} "
            "(or 'design-agent[postgres]', which includes it)"
        ) from e
    return PasswordHasher()


def check_password(password: str) -> str:
    """`password` if it may be used (UsageError saying what a password needs otherwise)."""
    if len(password) < MIN_CHARS:
        raise UsageError(f"a password needs at least {MIN_CHARS} characters")
    if len(password) > MAX_CHARS:
        raise UsageError(f"a password has at most {MAX_CHARS} characters")
    if not password.strip():
        raise UsageError("a password cannot be only spaces")
    return password


def hash_password(password: str) -> str:
    """The argon2id hash to store for `password` (checked first)."""
    return str(_hasher().hash(check_password(password)))


def verify_password(stored: str, password: str) -> bool:
    """Whether `password` is the one `stored` was made from (False for anything else,
    including a damaged hash)."""
    if not stored or len(password) > MAX_CHARS:
        return False
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(_hasher().verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether `stored` was made with weaker parameters than today's."""
    return bool(_hasher().check_needs_rehash(stored))


def dummy_verify(password: str) -> None:
    """Spend a verification's time on nothing, so an unknown name takes as long to refuse
    as a wrong password (no timing tells who has an account)."""
    verify_password(_dummy(), password)


_DUMMY: list[str] = []


def _dummy() -> str:
    if not _DUMMY:
        _DUMMY.append(str(_hasher().hash("design-agent dummy password")))
    return _DUMMY[0]
