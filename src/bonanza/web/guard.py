"""Refusing cross-site and non-JSON writes to the API before any handler runs.

A browser lets any page send a "simple" cross-origin POST (a form, or
``fetch`` with ``text/plain``) without asking the server first; the player's
cookie may go with it. So every state-changing request to ``/api/`` must come
from the page's own origin (or from no browser at all: no ``Origin`` header)
and, if it has a body, must declare it ``application/json``, which no form can.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from bonanza.web.errors import error_response

API_PREFIX = "/api/"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_TYPE = "application/json"
DEFAULT_PORTS = {"http": 80, "https": 443}
MAX_QUOTED = 100
"""Characters of a refused header value quoted back in the error."""

Origin = tuple[str, str, int | None]
"""Scheme, lower-case host and port: what two URLs must share to be same-origin."""


def _origin(scheme: str, netloc: str) -> Origin | None:
    """``scheme`` and ``host[:port]`` as an :data:`Origin`, or None if malformed."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or parts.username is not None or parts.path:
        return None
    scheme = scheme.lower()
    return scheme, parts.hostname, port if port is not None else DEFAULT_PORTS.get(scheme)


def parse_origin(value: str) -> Origin | None:
    """An ``Origin`` header (``scheme://host[:port]``) as an :data:`Origin`; None for ``null``."""
    scheme, sep, netloc = value.strip().partition("://")
    if not sep or not scheme.isalpha():
        return None
    return _origin(scheme, netloc)


def request_origin(scope: Scope, host: str) -> Origin | None:
    """The origin the request was sent to: its scheme and its ``Host`` header (``host``)."""
    if not host and scope.get("server"):
        name, port = scope["server"]
        host = f"[{name}]:{port}" if ":" in name else f"{name}:{port}"
    return _origin(scope.get("scheme", "http"), host)


def has_body(lengths: list[str], chunked: bool) -> bool:
    """Whether a request with these ``Content-Length`` values (and ``Transfer-Encoding``
    or not) says it carries a body."""
    return chunked or bool({length.strip() for length in lengths} - {"0"})


def media_type(value: str) -> str:
    """``application/json`` from ``Application/JSON; charset=utf-8``."""
    return value.split(";", 1)[0].strip().lower()


def quoted(value: str) -> str:
    return repr(value[:MAX_QUOTED])


_CHECKED = frozenset(
    {
        b"host",
        b"sec-fetch-site",
        b"origin",
        b"content-type",
        b"content-length",
        b"transfer-encoding",
    }
)


def refusal(scope: Scope) -> tuple[int, str] | None:
    """Why a state-changing API request is refused (status and message), or None.

    A header sent twice is checked in each of its copies. The headers are read
    in one pass; the request's own origin is worked out only when an ``Origin``
    header needs it.
    """
    found: dict[bytes, list[str]] = {}
    for name, value in scope["headers"]:
        if name in _CHECKED:
            found.setdefault(name, []).append(value.decode("latin-1"))
    sites = {site.strip().lower() for site in found.get(b"sec-fetch-site", ())}
    if "cross-site" in sites:
        return 403, "cross-site request refused (Sec-Fetch-Site: cross-site)"
    origins = found.get(b"origin", [])
    if origins:
        target = request_origin(scope, found.get(b"host", [""])[0])
        for origin in origins:
            sender = parse_origin(origin)
            if sender is None or target is None or sender != target:
                return (
                    403,
                    f"cross-origin request refused: Origin {quoted(origin)} is not this site",
                )
    content_types = found.get(b"content-type", [])
    if not content_types and has_body(
        found.get(b"content-length", []), b"transfer-encoding" in found
    ):
        return 415, f"request body has no Content-Type: send it as {JSON_TYPE}"
    for content_type in content_types:
        if media_type(content_type) != JSON_TYPE:
            return 415, f"Content-Type {quoted(content_type)} is not {JSON_TYPE}"
    return None


class GuardMiddleware:
    """Answers 403 or 415 (JSON) to a state-changing ``/api/`` request that is
    cross-origin, cross-site, or not JSON; everything else passes untouched.

    A request without a body and without a Content-Type (``POST .../undo``
    from curl) passes: there is nothing in it to misread, and a browser
    sending it cross-origin still names its Origin.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] in WRITES
            and (scope["path"] + "/").startswith(API_PREFIX)
        ):
            refused = refusal(scope)
            if refused is not None:
                status, message = refused
                await error_response(status, message)(scope, receive, send)
                return
        await self.app(scope, receive, send)
