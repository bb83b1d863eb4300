"""The FastAPI application: `create_app(context)`, the routes, the guard, the errors.

    app = create_app(ServerContext(home=HomeLayout(path), token=token))

Every error leaves as `{"error": {code, message, exit_code}}` (see
api_errors.py); the Guard middleware (security.py) checks Host, Origin and
the token before any route runs, /mcp (the MCP endpoint, mcp/http.py)
included. Imported only when a server starts.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.routing import Route

from design_agent import __version__
from design_agent.core.errors import DesignAgentError, ExitCode
from design_agent.memory.faults import storage_error
from design_agent.server.api_errors import ApiError, from_domain
from design_agent.server.context import ServerContext
from design_agent.server.routes_pages import STATIC_DIR
from design_agent.server.security import Guard

log = logging.getLogger("design_agent.server")
HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "bad_request",
    413: "too_large",
}


def create_app(context: ServerContext) -> FastAPI:
    """The server's app; its shared state is `app.state.context`."""
    from design_agent.mcp.http import PATH, McpEndpoint
    from design_agent.server import (
        ask_route,
        routes_guides,
        routes_memory,
        routes_pages,
        routes_projects,
        routes_providers,
        routes_report,
        routes_team,
        routes_tree,
        routes_turns,
        team_auth,
    )

    mcp = McpEndpoint(context.shared)  # MCP over streamable HTTP, behind the same Guard

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with mcp.running():
            yield

    app = FastAPI(
        title="design-agent",
        version=__version__,
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.context = context
    for module in (
        routes_pages,
        routes_projects,
        routes_turns,
        routes_memory,
        routes_providers,
        routes_guides,
        routes_report,
        routes_team,
        routes_tree,
        team_auth,
        ask_route,
    ):
        app.include_router(module.router)
    app.include_router(team_auth.pages)
    app.router.routes.append(Route(PATH, endpoint=mcp))
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    _add_error_handlers(app)
    app.add_middleware(Guard, context=context)
    return app


def _add_error_handlers(app: FastAPI) -> None:
    async def api_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ApiError)
        return JSONResponse(error.body(), error.status, headers=error.headers)

    async def domain_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, DesignAgentError)
        return await api_error(request, from_domain(error))

    async def invalid(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        return await api_error(request, ApiError(422, "invalid", _first_problem(error)))

    async def http_error(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, HTTPException)
        code = HTTP_CODES.get(error.status_code, "error")
        exit_code = ExitCode.NOT_FOUND if error.status_code == 404 else ExitCode.USAGE
        return await api_error(
            request, ApiError(error.status_code, code, str(error.detail), exit_code)
        )

    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        context = request.app.state.context
        known = storage_error(error, context.home.database_file)  # full disk, damaged file
        if known is not None:
            return await domain_error(request, known)
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        message = f"unexpected {type(error).__name__}: {error}"
        return await api_error(request, ApiError(500, "internal", message, ExitCode.UNEXPECTED))

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(Exception, unexpected)
    app.add_exception_handler(DesignAgentError, domain_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)


def _first_problem(error: RequestValidationError) -> str:
    """The first validation problem in one line: where, and what is wrong."""
    problems: list[Any] = list(error.errors())
    if not problems:
        return "invalid request"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))
