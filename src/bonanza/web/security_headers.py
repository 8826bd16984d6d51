"""Headers every answer carries: no content sniffing, and a strict policy on the
static HTML files (the help's sections), which hold no script."""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOSNIFF: Final = (b"x-content-type-options", b"nosniff")
STATIC_HTML_POLICY: Final = (
    b"content-security-policy",
    b"default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
    b"form-action 'none'; frame-ancestors 'none'",
)
STATIC_PREFIX: Final = "/static/"
HTML_SUFFIX: Final = ".html"


class SecurityHeadersMiddleware:
    """Adds ``X-Content-Type-Options: nosniff`` to every answer, and a content
    security policy to the static HTML files."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        added = [NOSNIFF]
        if path.startswith(STATIC_PREFIX) and path.endswith(HTML_SUFFIX):
            added.append(STATIC_HTML_POLICY)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _value in message.get("headers", [])}
                extra = [header for header in added if header[0] not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)
