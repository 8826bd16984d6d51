"""Reading request bodies: bounded in size, JSON objects only, with errors that name the problem."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from bonanza.web.errors import ApiError

MAX_BODY = 8 * 1024


async def json_body(request: Request, *, required: bool = True) -> dict[str, Any]:
    """The request's JSON object body; an empty body is ``{}`` unless ``required``."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise ApiError(400, f"Content-Length {length!r} is not a number")
        if int(length) > MAX_BODY:
            raise ApiError(413, f"request body of {length} bytes is over the {MAX_BODY}-byte limit")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"request body is over the {MAX_BODY}-byte limit")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        if required:
            raise ApiError(400, "request body is empty: expected a JSON object")
        return {}
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ApiError(400, f"request body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError(422, f"request body must be a JSON object, not {type(data).__name__}")
    return data


def field(
    data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = None
) -> Any:
    """``data[name]`` checked to be of ``kind`` (absent or null gives ``default``).

    ``true`` and ``false`` are not numbers here, though Python's bool is an int.
    """
    value = data.get(name)
    if value is None:
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        raise ApiError(422, f"field {name!r} has the wrong type: {value!r}"[:200])
    return value
