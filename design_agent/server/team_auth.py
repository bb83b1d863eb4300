"""A team's server: who a request is from, signing in and out, invites, personal tokens.

`authenticate` runs in the Guard (security.py) before any route: it finds the person of a
session cookie or of `Authorization: Bearer` (a session or a personal API token), and
puts them in `request.state.person`. Anonymous requests reach only the sign-in page, the
invite page, the static files and the three routes that make a credential; any other
/api/ call is 401.

    POST   /api/v1/session          {name, password} -> the session cookie, {person}
    DELETE /api/v1/session          ends this session (the cookie is cleared)
    POST   /api/v1/invite/check     {token} -> {name}: whose invite it is
    POST   /api/v1/invite/accept    {token, password} -> the password set, signed in
    POST   /api/v1/tokens           {name, password, label} -> {token}: `design-agent login`
    DELETE /api/v1/tokens/current   ends the API token of this request (`logout`)
    GET    /api/v1/me               {person}

A wrong name and a wrong password get the same answer in the same time (a dummy argon2
verification for an unknown name). After MAX_FAILURES failed sign-ins for one name within
FAILURE_WINDOW seconds, this process refuses that name for the rest of the window (429).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from collections.abc import MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field

from design_agent.core.errors import ExitCode
from design_agent.memory.text import slugify
from design_agent.server.api_errors import ApiError
from design_agent.server.deps import context_of, person_json, person_of
from design_agent.server.security import credential, session_cookie

if TYPE_CHECKING:
    from design_agent.memory.models import Person
    from design_agent.server.context import ServerContext

router = APIRouter(prefix="/api/v1", tags=["team"])
pages = APIRouter()

STATIC = Path(__file__).resolve().parent / "static"
MAX_FAILURES = 5
FAILURE_WINDOW = 15 * 60.0
SESSION_SECONDS = 14 * 24 * 3600  # as people.SESSION_DAYS
# What an anonymous request may reach (every method), and the credential makers (POST).
OPEN_PATHS = frozenset({"/", "/invite", "/favicon.ico"})
OPEN_POSTS = frozenset(
    {"/api/v1/session", "/api/v1/invite/check", "/api/v1/invite/accept", "/api/v1/tokens"}
)
WRONG = "wrong name or password"


async def authenticate(
    context: ServerContext, scope: MutableMapping[str, Any], headers: dict[str, str]
) -> tuple[int, str, str] | None:
    """Find who the request is from (request.state.person, None: nobody); refuse an
    anonymous request to anything but the open pages and the credential makers."""
    from starlette.concurrency import run_in_threadpool

    given = credential(headers)
    found = await run_in_threadpool(_holder, context, given) if given else None
    state = scope.setdefault("state", {})
    state["person"], state["credential"] = (found[0], found[1]) if found else (None, None)
    path, method = scope["path"], scope["method"]
    if found is not None or path in OPEN_PATHS or path.startswith("/static/"):
        return None
    if method == "POST" and path in OPEN_POSTS:
        return None
    if given:
        return 401, "unauthorized", "your sign-in has expired or was ended: sign in again"
    return 401, "unauthorized", "sign in first (or send Authorization: Bearer TOKEN)"


def _holder(context: ServerContext, token: str) -> tuple[Person, str] | None:
    with context.memory() as memory:
        return memory.credential_holder(token)


class Throttle:
    """Failed sign-ins per name, in this process: a name with MAX_FAILURES in the window
    is refused until the oldest of them leaves it."""

    def __init__(self) -> None:
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def wait(self, name: str) -> float:
        """Seconds until `name` may try again (0: now)."""
        now = time.monotonic()
        with self._lock:
            failures = self._failures[slugify(name)]
            while failures and now - failures[0] > FAILURE_WINDOW:
                failures.popleft()
            if len(failures) < MAX_FAILURES:
                return 0.0
            return FAILURE_WINDOW - (now - failures[0])

    def failed(self, name: str) -> None:
        with self._lock:
            self._failures[slugify(name)].append(time.monotonic())

    def passed(self, name: str) -> None:
        with self._lock:
            self._failures.pop(slugify(name), None)


throttle = Throttle()


class SignIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=1024)


class TokenRequest(SignIn):
    label: str = Field(default="design-agent login", max_length=200)


class InviteCheck(BaseModel):
    token: str = Field(min_length=10, max_length=200)


class InviteAccept(InviteCheck):
    password: str = Field(min_length=1, max_length=1024)


def signed_in(context: ServerContext, name: str, password: str) -> Person:
    """The person whose name and password these are; 401 otherwise (429 when the name had
    too many failures), in the same time whether or not the name exists."""
    from design_agent.memory.passwords import (
        dummy_verify,
        hash_password,
        needs_rehash,
        verify_password,
    )

    wait = throttle.wait(name)
    if wait > 0:
        message = f"too many failed sign-ins for '{name}': try again in {int(wait // 60) + 1} min"
        raise ApiError(429, "too_many_attempts", message, ExitCode.NOT_ALLOWED)
    with context.memory() as memory:
        found = memory.password_of(name)
        if found is None:
            dummy_verify(password)
        elif verify_password(found[1], password):
            person, stored = found
            if needs_rehash(stored):
                memory.rehash_password(person.id, hash_password(password))
            throttle.passed(name)
            return person
    throttle.failed(name)
    raise ApiError(401, "unauthorized", WRONG, ExitCode.NOT_ALLOWED)


@router.post("/session")
def sign_in(body: SignIn, request: Request) -> JSONResponse:
    """Sign in: the session cookie (HttpOnly, SameSite=Lax, 14 days) and who you are."""
    context = _team(request)
    person = signed_in(context, body.name, body.password)
    with context.memory() as memory:
        token = memory.new_session(person.id)
    response = JSONResponse({"person": person_json(person)})
    response.headers["set-cookie"] = session_cookie(context, token, SESSION_SECONDS)
    return response


@router.delete("/session", status_code=204)
def sign_out(request: Request) -> Response:
    """End this session (it no longer works anywhere) and clear the cookie."""
    context = _team(request)
    token = credential({k.lower(): v for k, v in request.headers.items()})
    if token and request.state.credential == "session":
        with context.memory() as memory:
            memory.revoke_credential(token)
    response = Response(status_code=204)
    response.headers["set-cookie"] = session_cookie(context, "", 0)
    return response


@router.post("/invite/check")
def invite_check(body: InviteCheck, request: Request) -> dict[str, Any]:
    """Whose invite this is, while it can be used (401 when used, expired or unknown)."""
    with _team(request).memory() as memory:
        person = memory.invited_person(body.token)
    return {"name": person.name}


@router.post("/invite/accept")
def invite_accept(body: InviteAccept, request: Request) -> JSONResponse:
    """Set your password with your invite (once): you are signed in."""
    from design_agent.memory.passwords import hash_password

    context = _team(request)
    password_hash = hash_password(body.password)  # a short one is refused before the invite
    with context.memory() as memory:
        person = memory.accept_invite(body.token, password_hash)
        token = memory.new_session(person.id)
    response = JSONResponse({"person": person_json(person)})
    response.headers["set-cookie"] = session_cookie(context, token, SESSION_SECONDS)
    return response


@router.post("/tokens", status_code=201)
def make_token(body: TokenRequest, request: Request) -> dict[str, Any]:
    """A personal API token for whoever signs in with this name and password (shown once):
    what `design-agent login URL` stores."""
    context = _team(request)
    person = signed_in(context, body.name, body.password)
    with context.memory() as memory:
        token = memory.act_as(person).new_api_token(person.id, body.label)
    return {"token": token, "person": person_json(person)}


@router.delete("/tokens/current", status_code=204)
def end_token(request: Request) -> Response:
    """End the API token this request was made with (`design-agent logout`)."""
    context = _team(request)
    token = credential({k.lower(): v for k, v in request.headers.items()})
    if token and request.state.credential == "token":
        with context.memory() as memory:
            memory.revoke_credential(token)
    return Response(status_code=204)


@router.get("/me")
def me(request: Request) -> dict[str, Any]:
    """Who you are signed in as."""
    _team(request)
    person = person_of(request)
    assert person is not None  # the Guard let only a signed-in request through
    return {"person": person_json(person)}


@pages.get("/invite", include_in_schema=False, response_model=None)
def invite_page(request: Request) -> Response:
    """The page an invite link opens: set your password (the token is in the fragment)."""
    _team(request)
    return _page("invite.html")


def login_page() -> Response:
    """The sign-in page, for `/` without a session."""
    return _page("login.html")


def _page(name: str) -> Response:
    return FileResponse(
        STATIC / name, media_type="text/html", headers={"Cache-Control": "no-store"}
    )


def _team(request: Request) -> ServerContext:
    context = context_of(request)
    if context.team is None:
        raise ApiError(404, "not_found", "this server is one person's: no accounts here")
    return context
