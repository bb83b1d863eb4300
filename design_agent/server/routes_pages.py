"""The pages: `/` (the web app, after the token URL), /api/docs, and /api/v1/status."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from design_agent import __version__
from design_agent.server.deps import context_of, memory_of, person_json, person_of
from design_agent.server.security import cookie_header, cookie_token, token_matches

router = APIRouter()

STATIC_DIR = Path(__file__).resolve().parent / "static"
LOCKED_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>design-agent</title></head>
<body><h1>design-agent</h1>
<p>This page needs the link with the token. Open the URL that
<code>design-agent serve</code> printed (it looks like
<code>http://127.0.0.1:PORT/?token=...</code>); <code>design-agent server status
--show-token</code> prints it again.</p></body></html>
"""


@router.get("/", include_in_schema=False, response_model=None)
def index(request: Request, token: str | None = None) -> Response:
    """The web app. `?token=T` with the right token sets the cookie and redirects to `/`
    (so the token leaves the address bar); without a valid cookie, a 401 page."""
    context = context_of(request)
    if context.team is not None:  # a team's: the app for a signed-in person, else sign in
        from design_agent.server.team_auth import login_page

        if person_of(request) is None:
            return login_page()
        return _app_page()
    if token is not None:
        if not token_matches(context, token):
            return HTMLResponse(LOCKED_PAGE, status_code=401)
        response = RedirectResponse("/", status_code=303)
        response.headers["set-cookie"] = cookie_header(context.token)
        return response
    if not token_matches(context, cookie_token(request.headers.get("cookie", ""))):
        return HTMLResponse(LOCKED_PAGE, status_code=401)
    return _app_page()


def _app_page() -> Response:
    page = STATIC_DIR / "index.html"
    if not page.is_file():
        return HTMLResponse("<!doctype html><title>design-agent</title><p>No web page.</p>")
    return FileResponse(page, media_type="text/html", headers={"Cache-Control": "no-store"})


@router.get("/api/v1/status", tags=["status"])
def status(request: Request) -> dict[str, Any]:
    """The server: version, pid, home, start time, active project, provider, language;
    on a team's server also who you are (`person`), and the home only for an admin."""
    from design_agent.core.settings import load_settings

    context = context_of(request)
    with memory_of(request) as memory:
        active = memory.active_project()
    values = load_settings(context.home, {}).values
    found: dict[str, Any] = {
        "version": __version__,
        "pid": os.getpid(),
        "home": str(context.home.root),
        "started": context.started.isoformat(),
        "active_project": {"id": active.id, "name": active.name} if active else None,
        "provider": values.provider,
        "language": values.language,
    }
    person = person_of(request)
    if context.team is not None and person is not None:
        found["team"] = True
        found["person"] = person_json(person)
        if not person.is_admin:
            del found["home"]
        else:  # for whoever runs it: the pool's connections lent out now (none idle held)
            found["pool"] = context.pool()
    return found


@router.get("/api/docs", include_in_schema=False)
def docs(request: Request) -> HTMLResponse:
    """Every endpoint, from the OpenAPI document, as one page with no script (no CDN)."""
    schema = request.app.openapi()
    rows = []
    for path, methods in schema.get("paths", {}).items():
        for method, operation in methods.items():
            summary = operation.get("summary", "")
            text = (operation.get("description") or "").split("\n")[0]
            rows.append(
                f"<tr><td><code>{html.escape(method.upper())}</code></td>"
                f"<td><code>{html.escape(path)}</code></td>"
                f"<td>{html.escape(summary)}</td><td>{html.escape(text)}</td></tr>"
            )
    body = "".join(rows)
    page = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>design-agent API {html.escape(__version__)}</title></head><body>"
        "<h1>design-agent API</h1><p>The whole document: "
        "<a href='/api/openapi.json'>/api/openapi.json</a>. Contract: docs/server-api.md.</p>"
        f"<table><tr><th>method</th><th>path</th><th>name</th><th>what</th></tr>{body}"
        "</table></body></html>"
    )
    return HTMLResponse(page)
