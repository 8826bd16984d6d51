"""Reading request bodies: bounded in size and time, decoded by msgspec into declared
types (``bodies``).

Every failure is an :class:`ApiError` (4xx) whose message names the problem and,
where there is one, the field; no body, however hostile, gets a 5xx. msgspec
decodes into the body's type, checking every field's type as it goes; before it
runs, one scan of the text outside its strings (``lexical_problem``) refuses
what msgspec has no option for:

- nesting deeper than ``ServerLimits.max_json_depth``: msgspec recurses on the C
  stack under Python's recursion limit, and skips an unknown field's value however
  deep it is. The body types could not nest so deep, but a value they ignore can,
  and a deep body should be refused for what it is, so the check stays;
- integers of more digits than Python reads (``sys.get_int_max_str_digits``),
  which msgspec would skip unread in an ignored field;
- ``NaN`` and ``Infinity``, which JSON does not allow, named as such.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import sys
from itertools import accumulate
from typing import Final, TypeVar

import msgspec
from starlette.requests import Request
from starlette.types import Receive

from bonanza.web.bodies import Body
from bonanza.web.errors import ApiError
from bonanza.web.limits import ServerLimits

B = TypeVar("B", bound=Body)

MAX_REPR: Final = 200
"""Characters of a bad value quoted in an error message."""
CLOSE: Final = {"Connection": "close"}
"""Sent with answers after which the rest of the body is not worth reading."""
BAD_REQUEST: Final = 400
TOO_LARGE: Final = 413
TIMEOUT: Final = 408
UNPROCESSABLE: Final = 422
UTF8_BOM: Final = "\ufeff"
"""A byte order mark, which JSON text may begin with (RFC 8259 §8.1): ignored."""

# A JSON string, or an unterminated one running to the end of the text.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_CONSTANT = re.compile(r"-?(?:NaN|Infinity)")
# msgspec's validation errors: "<what> - at `$.a.b`" (no path at the top).
_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_EXPECTED = re.compile(r"^Expected `(?P<want>[^`]*)`, got `(?P<got>[^`]*)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<name>[^`]*)`$")
_OUT_OF_RANGE = ("Integer value out of range", "Number out of range")


def limits_of(request: Request) -> ServerLimits:
    """The app's limits (``app.state.limits``), or the defaults."""
    limits = getattr(request.app.state, "limits", None)
    return limits if isinstance(limits, ServerLimits) else ServerLimits()


def client_address(request: Request) -> str:
    """The address the request came from: the peer's, or behind a trusted proxy the
    client's it forwarded (``bonanza serve --proxy-headers``, as the request log shows it)."""
    return request.client.host if request.client is not None else ""


def json_depth(outside: str) -> int:
    """How deeply the arrays and objects of ``outside``, a text without its strings,
    nest.

    A scan that never recurses, so it is safe on any input. On invalid JSON it
    still bounds the depth a parser reaches before it fails, since a stray
    closing bracket only lowers the count after the point where parsing stops.
    """
    brackets = _BRACKETS.findall(outside)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def lexical_problem(text: str, limits: ServerLimits) -> str | None:
    """What in ``text``, outside its strings, no body may hold (module notes), or None."""
    outside = _STRING.sub('""', text)
    if json_depth(outside) > limits.max_json_depth:
        return f"request body is nested deeper than {limits.max_json_depth} levels"
    digits = sys.get_int_max_str_digits()
    if digits and re.search(rf"\d{{{digits + 1}}}", outside):
        return f"a number in the request body has more than {digits} digits"
    constant = _CONSTANT.search(outside)
    if constant is not None:
        return f"request body contains {constant.group()}, which JSON does not allow"
    return None


def lone_surrogate(text: str) -> bool:
    """Whether a string of ``text`` escapes half of a surrogate pair alone (``\\ud800``),
    which no text may hold."""
    for string in _STRING.findall(text):
        if "\\u" not in string:
            continue
        try:
            json.loads(string).encode()
        except UnicodeEncodeError:
            return True
        except ValueError:  # not a whole string: msgspec says what is wrong
            continue
    return False


@functools.cache
def decoder(kind: type[B]) -> msgspec.json.Decoder[B]:
    """The decoder of one body type (made once)."""
    return msgspec.json.Decoder(kind)


def refusal(error: msgspec.ValidationError, kind: type[Body]) -> ApiError:
    """A 4xx that says in words which field is wrong, and how, from msgspec's error."""
    found = _AT.match(str(error))
    assert found is not None  # the pattern matches any text
    what, path = found["what"], (found["path"] or "").lstrip(".")
    noun = kind.noun if "." not in path else "field"
    expected, unknown = _EXPECTED.match(what), _UNKNOWN.match(what)
    if expected is not None and not path:
        message = f"request body must be a JSON object, not {expected['got']}"
    elif expected is not None:
        got = f"{expected['want']}, got {expected['got']}"
        message = f"{noun} {path!r} has the wrong type: expected {got}"
    elif unknown is not None and not path:
        fields = ", ".join(kind.__struct_fields__)
        message = f"unknown {kind.noun} {unknown['name']!r}: the {kind.noun}s are {fields}"
    elif unknown is not None:
        message = f"field {path!r} has an unknown field {unknown['name']!r}"
    elif what in _OUT_OF_RANGE:
        return ApiError(BAD_REQUEST, f"a number in the request body is too large: {path!r}")
    else:
        message = f"{noun} {path!r}: {what}"
    return ApiError(UNPROCESSABLE, message[:MAX_REPR])


def parse_json(raw: bytes, kind: type[B], limits: ServerLimits) -> B:
    """``raw`` decoded as a ``kind`` within ``limits``; bad input is a 4xx."""
    try:
        text = raw.decode().removeprefix(UTF8_BOM)
    except UnicodeDecodeError as error:
        raise ApiError(BAD_REQUEST, f"request body is not valid JSON: {error}") from None
    problem = lexical_problem(text, limits)
    if problem is not None:
        raise ApiError(BAD_REQUEST, problem)
    try:
        body: B = decoder(kind).decode(text)
    except msgspec.ValidationError as error:
        raise refusal(error, kind) from None
    except msgspec.DecodeError as error:
        if "\\u" in text and lone_surrogate(text):
            message = "a string in the request body has a lone surrogate escape such as \\ud800"
            raise ApiError(BAD_REQUEST, message) from None
        raise ApiError(BAD_REQUEST, f"request body is not valid JSON: {error}") from None
    return body


async def read_body(request: Request, limits: ServerLimits) -> bytes:
    """The raw body: at most ``limits.max_body_bytes`` (else 413), arriving within
    ``limits.body_timeout`` seconds (else 408)."""
    limit = limits.max_body_bytes
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise ApiError(BAD_REQUEST, f"Content-Length {length[:MAX_REPR]!r} is not a number")
        if int(length) > limit:
            message = f"request body of {length} bytes is over the {limit}-byte limit"
            raise closing(ApiError(TOO_LARGE, message))
    return await receive_body(request.receive, limits)


async def receive_body(receive: Receive, limits: ServerLimits) -> bytes:
    """The body as ``receive`` gives it: at most ``limits.max_body_bytes`` (else 413),
    arriving within ``limits.body_timeout`` seconds (else 408); a client gone is a 400."""
    limit = limits.max_body_bytes
    chunks: list[bytes] = []
    size = 0
    try:
        # asyncio's own timeout (the server runs on asyncio, see ``writer``): an
        # anyio cancel scope cost some 7 % of a move's time on the event loop.
        async with asyncio.timeout(limits.body_timeout):
            while True:
                received = await receive()
                if received["type"] != "http.request":  # http.disconnect
                    gone = "the client closed the connection before the body ended"
                    raise ApiError(BAD_REQUEST, gone)
                chunk = received.get("body", b"")
                size += len(chunk)
                if size > limit:
                    message = f"request body is over the {limit}-byte limit"
                    raise closing(ApiError(TOO_LARGE, message))
                chunks.append(chunk)
                if not received.get("more_body", False):
                    break
    except TimeoutError:
        message = f"request body took more than {limits.body_timeout:g} seconds"
        raise closing(ApiError(TIMEOUT, message)) from None
    return b"".join(chunks)


def closing(error: ApiError) -> ApiError:
    """``error``, answered with the connection closed (the rest of the body is not read)."""
    error.headers = CLOSE
    return error


async def read_json(request: Request, kind: type[B], *, required: bool = True) -> B:
    """The request's body as a ``kind``; an empty body is ``kind()`` unless ``required``."""
    limits = limits_of(request)
    return body_of(await read_body(request, limits), kind, limits, required=required)


def body_of(raw: bytes, kind: type[B], limits: ServerLimits, *, required: bool = True) -> B:
    """``raw`` as a ``kind``; an empty body is ``kind()`` unless ``required``."""
    if not raw.strip():
        if required:
            raise ApiError(BAD_REQUEST, "request body is empty: expected a JSON object")
        return kind()
    return parse_json(raw, kind, limits)
