"""Serving only the ``Host`` names configured: Starlette's ``TrustedHostMiddleware``,
refusing in JSON like the rest of the API."""

from __future__ import annotations

from collections.abc import Sequence

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bonanza.web.errors import error_response

BAD_HOST = 400
MAX_QUOTED = 100
"""Characters of a refused Host header quoted back in the error."""


async def _drop(message: Message) -> None:
    """Where Starlette's plain-text refusal goes: nowhere (ours is sent instead)."""


class AllowedHostsMiddleware:
    """Passes requests whose ``Host`` is one of ``hosts`` (``*.example.com``: its
    subdomains) to ``app``; answers the others 400 in JSON."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.check = TrustedHostMiddleware(self._inner, allowed_hosts=hosts, www_redirect=False)

    async def _inner(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["bonanza.host_allowed"] = True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.check(scope, receive, _drop)  # marks the scope if the host is allowed
        if scope.pop("bonanza.host_allowed", False):
            await self.app(scope, receive, send)
            return
        host = next((value for name, value in scope["headers"] if name == b"host"), b"")
        quoted = repr(host.decode("latin-1")[:MAX_QUOTED])
        await error_response(BAD_HOST, f"this server does not serve the host {quoted}")(
            scope, receive, send
        )
