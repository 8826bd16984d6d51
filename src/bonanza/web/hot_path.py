"""The requests of play (``play_requests``), served in one pass: a move, undo, redo,
a finish step, the progress check, a game's view and the player's latest game.

Each move is a request, so what a request costs beside the game is what a host pays
most. Routing, request and response objects and the middleware layers cost more
than the move itself; :class:`HotPath`, the app's outermost middleware, answers
these requests directly when they are plainly well formed: one ``Host`` the server
serves, the player's cookie, no ``Origin`` or the page's own, not cross-site, and
a JSON body (or none) of a declared length within the limit. Every other request,
and every request it is unsure of (a header sent twice, a chunked body, a new
player), goes on to the app, which answers it as always. So no check and no error
changes: this path only skips work for requests that pass every check.
"""

from __future__ import annotations

from typing import Final

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from bonanza.play.errors import PlayError
from bonanza.session import SessionError
from bonanza.web.errors import status_of
from bonanza.web.guard import JSON_TYPE, media_type, parse_origin, request_origin
from bonanza.web.hosts import HostNames
from bonanza.web.limits import ServerLimits
from bonanza.web.play_requests import GETS, POSTS, Handler
from bonanza.web.players import KnownPlayers
from bonanza.web.requests import receive_body
from bonanza.web.responses import encode
from bonanza.web.security_headers import NOSNIFF
from bonanza.web.service import GameService
from bonanza.web.wire_answers import ErrorAnswer

GAMES: Final = "/api/games/"
OK: Final = 200
NO_CONTENT: Final = 204
JSON_HEADER: Final = (b"content-type", JSON_TYPE.encode())
NO_STORE_HEADER: Final = (b"cache-control", b"no-store")
CROSS_SITE: Final = b"cross-site"
SINGLE_HEADERS: Final = frozenset(
    {b"host", b"cookie", b"origin", b"content-type", b"content-length"}
)
"""Headers the hot path reads, each once: a request sending one twice goes to the app."""
KNOWN_ORIGINS: Final = 1024
"""(Origin, Host) pairs whose same-origin verdict is remembered."""

class HotPath:
    """Serves the requests of play (module notes) before ``app``; passes the rest on."""

    def __init__(
        self,
        app: ASGIApp,
        service: GameService,
        limits: ServerLimits,
        hosts: HostNames | None = None,
    ) -> None:
        self.app = app
        self.service = service
        self.limits = limits
        self.hosts = hosts
        self._player_in = KnownPlayers().player_in
        self._same_origin: dict[tuple[str, bytes, bytes], bool] = {}
        self.served = 0
        """Requests answered here, not by the app (tests and benchmarks read it)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            found = self._handler(scope)
            if found is not None:
                await self._serve(scope, receive, send, *found)
                return
        await self.app(scope, receive, send)

    def _handler(self, scope: Scope) -> tuple[Handler, str, str, bool] | None:
        """What serves the request (its handler, player, game and whether it reads a
        body), or None: the app does."""
        path: str = scope["path"]
        if not path.startswith(GAMES) or scope.get("root_path"):
            return None
        game, _slash, action = path[len(GAMES) :].partition("/")
        method = scope["method"]
        routes = POSTS if method == "POST" else GETS if method == "GET" else None
        if routes is None or not game or action not in routes:
            return None
        if action == "" and _slash:
            return None  # "/api/games/ID/": not a route
        player = self._checked_player(scope, method == "POST")
        if player is None:
            return None
        return routes[action], player, game, method == "POST"

    def _checked_player(self, scope: Scope, write: bool) -> str | None:
        """The player, when the request passes every check at a glance; else None."""
        found: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in SINGLE_HEADERS:
                if name in found:
                    return None  # sent twice: the app's checks read every copy
                found[name] = value
            elif name == b"sec-fetch-site":
                if value.strip().lower() == CROSS_SITE:
                    return None
            elif name == b"transfer-encoding":
                return None
        host, cookie, origin = found.get(b"host"), found.get(b"cookie"), found.get(b"origin")
        content_type, length = found.get(b"content-type"), found.get(b"content-length")
        if host is None or cookie is None:
            return None
        if self.hosts is not None and not self.hosts.allows(host.decode("latin-1")):
            return None
        if length is not None and not (
            length.isdigit() and int(length) <= self.limits.max_body_bytes
        ):
            return None
        if not write:
            if length not in (None, b"0"):
                return None
        elif content_type is not None:
            if media_type(content_type.decode("latin-1")) != JSON_TYPE:
                return None
        elif length not in (None, b"0"):
            return None
        if origin is not None and not self._is_same_origin(scope, origin, host):
            return None
        return self._player_in(cookie)

    def _is_same_origin(self, scope: Scope, origin: bytes, host: bytes) -> bool:
        """``guard``'s same-origin test, remembered for each (Origin, Host) pair."""
        key = (scope.get("scheme", "http"), origin, host)
        verdict = self._same_origin.get(key)
        if verdict is None:
            sender = parse_origin(origin.decode("latin-1"))
            target = request_origin(scope, host.decode("latin-1"))
            verdict = sender is not None and target is not None and sender == target
            if len(self._same_origin) >= KNOWN_ORIGINS:
                self._same_origin.clear()
            self._same_origin[key] = verdict
        return verdict

    async def _serve(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        handler: Handler,
        player: str,
        game: str,
        write: bool,
    ) -> None:
        self.served += 1
        client = scope.get("client")
        address = client[0] if client else ""  # as ``requests.client_address``
        extra: list[tuple[bytes, bytes]] = [NO_STORE_HEADER]
        try:
            body = await receive_body(receive, self.limits) if write else b""
            answer = await handler(self.service, player, game, body, address)
            if answer is None:
                await self._no_content(send)
                return
            status, data = OK, encode(answer)
        except (PlayError, SessionError) as error:
            status, extra = status_of(error), []
            data = encode(ErrorAnswer(str(error), status))
        except HTTPException as error:  # ``ApiError``: a bad body
            status, extra = error.status_code, []
            data = encode(ErrorAnswer(str(error.detail), status))
            for name, value in (error.headers or {}).items():
                extra.append((name.lower().encode("latin-1"), value.encode("latin-1")))
        headers = [
            (b"content-length", str(len(data)).encode()),
            JSON_HEADER,
            *extra,
            NOSNIFF,
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    async def _no_content(self, send: Send) -> None:
        """204, as the app answers a player with no game yet."""
        headers = [NO_STORE_HEADER, NOSNIFF]
        await send({"type": "http.response.start", "status": NO_CONTENT, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
