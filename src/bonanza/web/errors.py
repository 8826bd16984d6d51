"""JSON errors: every failure the API reports is ``{"error": message, "status": code}``.

The layers below the web raise errors by meaning (``bonanza.play.errors``, the
session's refusals); ``STATUS`` is the one place that gives each its HTTP status.
"""

from __future__ import annotations

import logging
from typing import Final

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from bonanza.play.errors import (
    Conflict,
    Invalid,
    NotFound,
    PlayError,
    RateLimited,
    TooLarge,
    Unavailable,
)
from bonanza.session import SessionError
from bonanza.web.responses import JSONAnswer
from bonanza.web.wire_answers import ErrorAnswer

log = logging.getLogger("bonanza.web")

STATUS: Final[dict[type[PlayError], int]] = {
    NotFound: 404,
    Conflict: 409,
    TooLarge: 413,
    Invalid: 422,
    RateLimited: 429,
    Unavailable: 503,
}
"""The HTTP status of each kind of error (a session's refusal is a conflict)."""
CONFLICT: Final = STATUS[Conflict]


class ApiError(HTTPException):
    """A 4xx answer whose message names the problem."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(status_code=status_code, detail=message)


def status_of(error: PlayError | SessionError) -> int:
    """The HTTP status of an error raised below the web."""
    if isinstance(error, SessionError):  # game over, undo refused, history full...
        return CONFLICT
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    raise TypeError(f"no status for {type(error).__name__}")


def error_response(status: int, message: str) -> Response:
    return JSONAnswer(ErrorAnswer(message, status), status_code=status)


async def http_error(request: Request, exc: Exception) -> Response:
    """Render Starlette's and our HTTP errors as JSON."""
    assert isinstance(exc, HTTPException)
    message = exc.detail
    if exc.status_code == 404 and message == "Not Found":
        message = f"no such address: {request.url.path}"
    elif exc.status_code == 405 and message == "Method Not Allowed":
        message = f"{request.method} is not allowed on {request.url.path}"
    response = error_response(exc.status_code, str(message))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


async def play_error(request: Request, exc: Exception) -> Response:
    """Render an error by meaning (``PlayError``, ``SessionError``) as JSON with its status."""
    assert isinstance(exc, PlayError | SessionError)
    return error_response(status_of(exc), str(exc))


async def server_error(request: Request, exc: Exception) -> Response:
    """Last resort: log the failure (without game data) and answer 500 in JSON."""
    log.error("internal error on %s %s: %s", request.method, request.url.path, type(exc).__name__)
    return error_response(500, "internal server error")
