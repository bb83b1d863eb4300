"""A team's people and their credentials: accounts, invites, sessions, personal API tokens.

There is no open sign-up: a person is added from the command line (`users add NAME`),
which makes a single-use invite; the person opens it and sets a password (argon2id,
passwords.py). A person is disabled, never deleted, so the turns, decisions and files
they made, and the audit log, keep their name; disabling ends their sessions and tokens.

Every credential is a random token (`secrets.token_urlsafe(32)`, 256 bits) given to the
person once and stored as its SHA-256 hash: whoever reads the database cannot use one. A
session (the page's cookie) lasts SESSION_DAYS and ends at logout; an invite lasts
INVITE_DAYS and works once; an API token (`users token NAME`, `login URL`) lasts until
revoked.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from typing import Any

from design_agent.core.errors import NotAllowedError, NotFoundError, UsageError
from design_agent.memory.connection import Connection
from design_agent.memory.db import inserted_id, one, rows, scalar, stamp, transaction
from design_agent.memory.models import Person
from design_agent.memory.text import slugify

INVITE_DAYS = 7
SESSION_DAYS = 14
MAX_NAME = 60
COLUMNS = (
    "id, name, is_admin, created_at, disabled_at, "
    "CASE WHEN password_hash IS NULL THEN 0 ELSE 1 END AS has_password"
)


def new_token() -> str:
    """A fresh credential, to give to its person once."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """How a credential is stored (and looked up)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _person(row: dict[str, Any]) -> Person:
    return Person.model_validate(
        {**row, "is_admin": bool(row["is_admin"]), "has_password": bool(row["has_password"])}
    )


def _name_key(name: str) -> str:
    clean = " ".join(name.split())
    key = slugify(clean)
    if not clean or not key:
        raise UsageError("a person needs a name with letters or digits, e.g. users add ana")
    if len(clean) > MAX_NAME:
        raise UsageError(f"a person's name has at most {MAX_NAME} characters")
    return key


def add(db: Connection, name: str, is_admin: bool, now: str) -> Person:
    """Add a person (no password yet); UsageError when the name (any case/accents) is taken."""
    key = _name_key(name)
    with transaction(db):
        taken = one(db, "SELECT name FROM people WHERE name_key = ?", [key])
        if taken is not None:
            raise UsageError(
                f"'{taken['name']}' is already a person of this team; a new invite: "
                f"design-agent users invite '{taken['name']}'"
            )
        person_id = inserted_id(
            db,
            "INSERT INTO people (name, name_key, is_admin, created_at) VALUES (?, ?, ?, ?) "
            "RETURNING id",
            [" ".join(name.split()), key, int(is_admin), now],
        )
    return get(db, person_id)


def get(db: Connection, person_id: int) -> Person:
    row = one(db, f"SELECT {COLUMNS} FROM people WHERE id = ?", [person_id])
    if row is None:
        raise NotFoundError(f"no person with id {person_id}")
    return _person(row)


def find(db: Connection, name: str) -> Person:
    """The person called `name` (any case or accents); NotFoundError naming who there is."""
    row = one(db, f"SELECT {COLUMNS} FROM people WHERE name_key = ?", [slugify(name)])
    if row is None:
        known = [str(r["name"]) for r in rows(db, "SELECT name FROM people ORDER BY name")]
        listed = f" People: {', '.join(known)}." if known else " There is nobody yet."
        raise NotFoundError(
            f"no person named '{name}'.{listed} Add one with: design-agent users add NAME"
        )
    return _person(row)


def listing(db: Connection) -> list[Person]:
    """Everyone, by name."""
    return [_person(r) for r in rows(db, f"SELECT {COLUMNS} FROM people ORDER BY name_key")]


def count(db: Connection) -> int:
    return int(scalar(db, "SELECT count(*) FROM people") or 0)


def disable(db: Connection, person_id: int, now: str) -> Person:
    """Disable a person: they can no longer sign in; their sessions, tokens and unused
    invites end now."""
    with transaction(db):
        db.execute(
            "UPDATE people SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL",
            [now, person_id],
        )
        _end_credentials(db, person_id, now)
    return get(db, person_id)


def _end_credentials(db: Connection, person_id: int, now: str) -> None:
    for table in ("sessions", "api_tokens"):
        db.execute(
            f"UPDATE {table} SET revoked_at = ? WHERE person_id = ? AND revoked_at IS NULL",
            [now, person_id],
        )
    db.execute(
        "UPDATE invites SET used_at = ? WHERE person_id = ? AND used_at IS NULL", [now, person_id]
    )


def _require_active(person: Person) -> None:
    if not person.active:
        raise UsageError(f"{person.name} is disabled; nothing can be made for a disabled person")


# -- Invites --------------------------------------------------------------------------------


def invite(db: Connection, person_id: int, moment: datetime) -> str:
    """A new single-use invite for the person (their earlier unused ones end): the token."""
    person = get(db, person_id)
    _require_active(person)
    token, now = new_token(), stamp(moment)
    with transaction(db):
        db.execute(
            "UPDATE invites SET used_at = ? WHERE person_id = ? AND used_at IS NULL",
            [now, person_id],
        )
        db.execute(
            "INSERT INTO invites (token_hash, person_id, created_at, expires_at) "
            "VALUES (?, ?, ?, ?)",
            [token_hash(token), person_id, now, stamp(moment + timedelta(days=INVITE_DAYS))],
        )
    return token


def invited(db: Connection, token: str, moment: datetime) -> Person:
    """The person an invite is for, if it can still be used; NotAllowedError otherwise."""
    row = one(
        db,
        "SELECT person_id, expires_at, used_at FROM invites WHERE token_hash = ?",
        [token_hash(token)],
    )
    if row is None or row["used_at"] is not None or _passed(row["expires_at"], moment):
        raise NotAllowedError(
            "this invite link was used already, has expired or is not one; ask your admin "
            "for a new one (design-agent users invite NAME)",
            signed_in=False,
        )
    person = get(db, int(row["person_id"]))
    if not person.active:
        raise NotAllowedError(f"{person.name} is disabled", signed_in=False)
    return person


def accept_invite(db: Connection, token: str, password_hash: str, moment: datetime) -> Person:
    """Use an invite: the person's password is set (its argon2id hash) and the invite spent,
    in one transaction (two tabs using it at once: one wins)."""
    now = stamp(moment)
    with transaction(db):
        person = invited(db, token, moment)
        spent = db.execute(
            "UPDATE invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
            [now, token_hash(token)],
        )
        if spent.rowcount != 1:
            raise NotAllowedError("this invite link was used already", signed_in=False)
        db.execute("UPDATE people SET password_hash = ? WHERE id = ?", [password_hash, person.id])
    return get(db, person.id)


def password_of(db: Connection, name: str) -> tuple[Person, str] | None:
    """An active person called `name` with their password hash, or None."""
    row = one(
        db,
        f"SELECT {COLUMNS}, password_hash FROM people WHERE name_key = ? "
        "AND disabled_at IS NULL AND password_hash IS NOT NULL",
        [slugify(name)],
    )
    if row is None:
        return None
    stored = str(row.pop("password_hash"))
    return _person(row), stored


def set_password_hash(db: Connection, person_id: int, password_hash: str) -> None:
    db.execute("UPDATE people SET password_hash = ? WHERE id = ?", [password_hash, person_id])


# -- Sessions and API tokens ----------------------------------------------------------------


def new_session(db: Connection, person_id: int, moment: datetime) -> str:
    """A session for the person (the page's cookie): its token."""
    _require_active(get(db, person_id))
    token = new_token()
    db.execute(
        "INSERT INTO sessions (token_hash, person_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
        [token_hash(token), person_id, stamp(moment), stamp(moment + timedelta(days=SESSION_DAYS))],
    )
    return token


def new_api_token(db: Connection, person_id: int, label: str, now: str) -> str:
    """A personal API token for the person (`Authorization: Bearer`): shown once."""
    _require_active(get(db, person_id))
    token = new_token()
    db.execute(
        "INSERT INTO api_tokens (person_id, token_hash, label, created_at) VALUES (?, ?, ?, ?)",
        [person_id, token_hash(token), label[:200], now],
    )
    return token


def holder(db: Connection, token: str, moment: datetime) -> tuple[Person, str] | None:
    """Who a credential belongs to, and its kind ("session" or "token"): an unexpired,
    unrevoked session or API token of an active person; None otherwise."""
    hashed = token_hash(token)
    row = one(
        db,
        f"""SELECT {_prefixed("p")}, 'session' AS kind FROM sessions s
            JOIN people p ON p.id = s.person_id
            WHERE s.token_hash = :h AND s.revoked_at IS NULL AND s.expires_at > :now
              AND p.disabled_at IS NULL
        UNION ALL
        SELECT {_prefixed("p")}, 'token' AS kind FROM api_tokens t
            JOIN people p ON p.id = t.person_id
            WHERE t.token_hash = :h AND t.revoked_at IS NULL AND p.disabled_at IS NULL""",
        {"h": hashed, "now": stamp(moment)},
    )
    if row is None:
        return None
    kind = str(row.pop("kind"))
    return _person(row), kind


def _prefixed(alias: str) -> str:
    return (
        f"{alias}.id, {alias}.name, {alias}.is_admin, {alias}.created_at, {alias}.disabled_at, "
        f"CASE WHEN {alias}.password_hash IS NULL THEN 0 ELSE 1 END AS has_password"
    )


def revoke(db: Connection, token: str, now: str) -> bool:
    """End a session or an API token (logout): whether one was ended."""
    hashed, ended = token_hash(token), 0
    for table in ("sessions", "api_tokens"):
        done = db.execute(
            f"UPDATE {table} SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
            [now, hashed],
        )
        ended += max(0, done.rowcount)
    return ended > 0


def _passed(expires_at: Any, moment: datetime) -> bool:
    when = expires_at if isinstance(expires_at, datetime) else datetime.fromisoformat(expires_at)
    return bool(when <= moment)
