"""Anonymous player identity: a random token in a cookie, no account."""

from __future__ import annotations

import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

COOKIE = "bonanza_player"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
TEN_YEARS = 10 * 365 * 24 * 3600
ATTRIBUTES = f"; Path=/; Max-Age={TEN_YEARS}; HttpOnly; SameSite=Lax"
"""The player cookie's attributes (with ``; Secure`` added behind a TLS proxy)."""
KNOWN_HEADERS = 4096
"""Cookie headers whose player the middleware remembers (each browser sends the same one)."""
KNOWN_HEADER_BYTES = 1024
"""Longer Cookie headers are read each time, not remembered."""


def new_player() -> str:
    return secrets.token_urlsafe(18)


def read_player(cookie_header: str) -> str | None:
    """The player token in a Cookie header, if one is well formed. The header is read as
    browsers send it, pair by pair (split on ``;``, each at its first ``=``), so that
    another cookie of the host that is no RFC token, such as JSON or a value with a
    space, hides nothing: ``http.cookies.SimpleCookie`` would drop every cookie then."""
    found = None
    for pair in cookie_header.split(";"):
        name, equals, value = pair.partition("=")
        if equals and name.strip() == COOKIE and TOKEN.fullmatch(value.strip()):
            found = value.strip()  # the last, as SimpleCookie read a name given twice
    return found


class KnownPlayers:
    """The players of the Cookie headers seen, remembered: each browser sends the same
    header with every request, so it is read once (``KNOWN_HEADERS`` of them)."""

    def __init__(self) -> None:
        self._known: dict[bytes, str | None] = {}

    def player_in(self, header: bytes) -> str | None:
        """:func:`read_player` of a Cookie header, remembered for the next request."""
        if header in self._known:
            return self._known[header]
        player = read_player(header.decode("latin-1"))
        if len(header) <= KNOWN_HEADER_BYTES:
            if len(self._known) >= KNOWN_HEADERS:
                del self._known[next(iter(self._known))]  # the one remembered longest ago
            self._known[header] = player
        return player


class PlayerMiddleware:
    """Puts the player's token in ``scope["state"]["player"]``, issuing one when missing
    (in a cookie marked ``Secure`` with ``secure``: for a server behind a TLS proxy)."""

    def __init__(
        self, app: ASGIApp, default_player: str | None = None, *, secure: bool = False
    ) -> None:
        self.app = app
        self.default_player = default_player
        self.attributes = ATTRIBUTES + ("; Secure" if secure else "")
        self._player_in = KnownPlayers().player_in

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # Every Cookie header, joined as one (HTTP/2 may send a header per cookie).
        header = b"; ".join(value for name, value in scope["headers"] if name == b"cookie")
        player = self._player_in(header) if header else None
        if player is not None:
            scope.setdefault("state", {})["player"] = player
            await self.app(scope, receive, send)
            return
        player = self.default_player or new_player()
        scope.setdefault("state", {})["player"] = player

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                cookie = f"{COOKIE}={player}{self.attributes}"
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cookie)
