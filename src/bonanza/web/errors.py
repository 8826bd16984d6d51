"""JSON errors: every failure the API reports is ``{"error": message, "status": code}``."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

log = logging.getLogger("bonanza.web")


class ApiError(HTTPException):
    """A 4xx answer whose message names the problem."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(status_code=status_code, detail=message)


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")


def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


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


async def server_error(request: Request, exc: Exception) -> Response:
    """Last resort: log the failure (without game data) and answer 500 in JSON."""
    log.error("internal error on %s %s: %s", request.method, request.url.path, type(exc).__name__)
    return error_response(500, "internal server error")
