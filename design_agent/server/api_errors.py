"""Errors as the API answers them: `{"error": {code, message, exit_code}}` and a status.

Routes raise `ApiError` (or let a `DesignAgentError` through); the app's
handlers turn both into the one JSON shape, so no route formats an error.
"""

from __future__ import annotations

from typing import Any

from design_agent.core.errors import (
    ConfigError,
    ConflictError,
    DesignAgentError,
    DiskFullError,
    ExitCode,
    NotAllowedError,
    NotFoundError,
    ProviderUnavailableError,
    UsageError,
)


class ApiError(Exception):
    """An answer other than success: HTTP status, short code, one-line message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        exit_code: int = ExitCode.USAGE,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.exit_code = int(exit_code)
        self.extra = extra or {}
        self.headers = headers  # sent with the answer (`connection: close` ends an upload)

    def body(self) -> dict[str, Any]:
        error = {"code": self.code, "message": self.message, "exit_code": self.exit_code}
        return {"error": error, **self.extra}


# The first class in this table that an error is an instance of decides its answer.
_STATUS: tuple[tuple[type[DesignAgentError], int, str], ...] = (
    (NotFoundError, 404, "not_found"),
    (DiskFullError, 507, "disk_full"),
    (ProviderUnavailableError, 409, "provider_unavailable"),
    (ConfigError, 422, "invalid"),
    (ConflictError, 409, "conflict"),
    (UsageError, 400, "bad_request"),
)


def from_domain(error: DesignAgentError) -> ApiError:
    """The API's answer to a domain error (its message and exit code kept)."""
    if isinstance(error, NotAllowedError):  # 401 when nobody is signed in, 403 otherwise
        status, code = (403, "forbidden") if error.signed_in else (401, "unauthorized")
        return ApiError(status, code, _one_line(error.message), error.exit_code)
    for kind, status, code in _STATUS:
        if isinstance(error, kind):
            return ApiError(status, code, _one_line(error.message), error.exit_code)
    return ApiError(500, "internal", _one_line(error.message), error.exit_code)


def _one_line(text: str) -> str:
    return " ".join(text.split())
