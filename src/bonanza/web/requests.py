"""Reading request bodies: bounded in size, time and depth, JSON objects only.

Every failure is an :class:`ApiError` (4xx) whose message names the problem;
no body, however hostile, makes ``json.loads`` recurse or raise unhandled.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import sys
from itertools import accumulate
from typing import Any, NoReturn

from starlette.requests import ClientDisconnect, Request

from bonanza.web.errors import ApiError
from bonanza.web.limits import ServerLimits

MAX_REPR = 200
"""Characters of a bad value quoted in an error message."""
CLOSE = {"Connection": "close"}
"""Sent with answers after which the rest of the body is not worth reading."""

# A JSON string, or an unterminated one running to the end of the text.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def limits_of(request: Request) -> ServerLimits:
    """The app's limits (``app.state.limits``), or the defaults."""
    limits = getattr(request.app.state, "limits", None)
    return limits if isinstance(limits, ServerLimits) else ServerLimits()


def client_address(request: Request) -> str:
    """The address the request came from: the peer's, or behind a trusted proxy the
    client's it forwarded (``bonanza serve --proxy-headers``, as the request log shows it)."""
    return request.client.host if request.client is not None else ""


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings not counted).

    A scan that never recurses, so it is safe on any input. On invalid JSON it
    still bounds the depth ``json.loads`` reaches before it fails, since a stray
    closing bracket only lowers the count after the point where parsing stops.
    """
    brackets = _BRACKETS.findall(_STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _refuse_constant(name: str) -> NoReturn:
    raise ApiError(400, f"request body contains {name}, which JSON does not allow")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ApiError(400, f"a number in the request body is too large: {text[:MAX_REPR]}")
    return value


def parse_json(raw: bytes, limits: ServerLimits) -> Any:
    """``raw`` decoded as JSON within ``limits.max_json_depth``; bad input is a 400."""
    try:
        text = raw.decode(json.detect_encoding(raw))
    except UnicodeDecodeError as error:
        raise ApiError(400, f"request body is not valid JSON: {error}") from None
    if json_depth(text) > limits.max_json_depth:
        raise ApiError(400, f"request body is nested deeper than {limits.max_json_depth} levels")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except json.JSONDecodeError as error:
        raise ApiError(400, f"request body is not valid JSON: {error}") from None
    except RecursionError:  # the depth check should make this unreachable
        raise ApiError(400, "request body is nested too deeply") from None
    except ValueError:  # int() refusing a number over Python's digit limit
        digits = sys.get_int_max_str_digits()
        raise ApiError(400, f"a number in the request body has more than {digits} digits") from None
    if "\\u" in text:  # only an escape can make a lone surrogate, which no text may hold
        try:
            json.dumps(data, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise ApiError(
                400, "a string in the request body has a lone surrogate escape such as \\ud800"
            ) from None
    return data


async def read_body(request: Request, limits: ServerLimits) -> bytes:
    """The raw body: at most ``limits.max_body_bytes`` (else 413), arriving within
    ``limits.body_timeout`` seconds (else 408)."""
    limit = limits.max_body_bytes
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise ApiError(400, f"Content-Length {length[:MAX_REPR]!r} is not a number")
        if int(length) > limit:
            error = ApiError(413, f"request body of {length} bytes is over the {limit}-byte limit")
            error.headers = CLOSE
            raise error
    chunks: list[bytes] = []
    size = 0
    try:
        # asyncio's own timeout (the server runs on asyncio, see ``writer``): an
        # anyio cancel scope cost some 7 % of a move's time on the event loop.
        async with asyncio.timeout(limits.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    error = ApiError(413, f"request body is over the {limit}-byte limit")
                    error.headers = CLOSE
                    raise error
                chunks.append(chunk)
    except TimeoutError:
        error = ApiError(408, f"request body took more than {limits.body_timeout:g} seconds")
        error.headers = CLOSE
        raise error from None
    except ClientDisconnect:
        raise ApiError(400, "the client closed the connection before the body ended") from None
    return b"".join(chunks)


async def json_body(request: Request, *, required: bool = True) -> dict[str, Any]:
    """The request's JSON object body; an empty body is ``{}`` unless ``required``."""
    limits = limits_of(request)
    raw = await read_body(request, limits)
    if not raw.strip():
        if required:
            raise ApiError(400, "request body is empty: expected a JSON object")
        return {}
    data = parse_json(raw, limits)
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
        raise ApiError(422, f"field {name!r} has the wrong type: {value!r}"[:MAX_REPR])
    return value
