"""The page: ``index.html`` with what its first render needs already inside.

The page carries, in a JSON data block (``<script type="application/json">``, which
runs nothing; ``wire_page.PageData``), the words and choices it takes from the
server (``page_words``: the games it offers, the rules and settings it starts
from, and more), and the player's settings and their latest game: the very
answers of ``GET /api/settings`` and ``GET /api/games/current``, so nothing a
game in play hides. A returning player's table is drawn with no API request. A new player's
page also carries their first deal, ``started``: the very answer of
``POST /api/games`` for the standard rules, dealt while the page is made (the
player's cookie goes with the page, as it would with that answer), so their
table is drawn with no API request either. What cannot be read (the store is
down, a game cannot be read back) or dealt is left out, and the page asks the
API for it as before.

A deal is stored for each page that carries one, so only a browser's own
navigation to the page gets one (not a ``HEAD``, a prefetch, or a client that
says nothing of what it fetches, such as a crawler), and it counts against the
address's ``ServerLimits.new_games_per_minute`` as a new game asked of the API
does: past that, the page comes without and its script asks for the deal (and is
refused as the API refuses it).

The data block ends the page, which goes out in two parts: all before the data
at once, then the data once it is read (or dealt). The browser fetches the
page's sheet and script while the server works; its script, a module, runs once
the whole page is in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Final

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Receive, Scope, Send

from bonanza.core import Rules
from bonanza.play.errors import PlayError
from bonanza.storage import StorageError
from bonanza.web.bundle import join_modules, join_sheets
from bonanza.web.gzip_stream import OpeningGzip, accepts_gzip
from bonanza.web.page_words import WORDS
from bonanza.web.players import read_player
from bonanza.web.requests import client_address
from bonanza.web.responses import encode
from bonanza.web.routes import player, read_settings, service
from bonanza.web.static_files import COMPRESS_LEVEL, Joiner, PackedStaticFiles
from bonanza.web.wire_page import PageData

TEMPLATE: Final = "index.html"
BUNDLES: Final[Mapping[str, Joiner]] = {
    "page.css": partial(join_sheets, sheets=("style.css", "cards.css", "motion.css")),
    "js/page.js": partial(join_modules, entries=("js/boot.js", "js/main.js")),
}
"""The page's one sheet and one script (``bundle``), which ``TEMPLATE`` names."""
LATER_MODULES: Final = ("js/leaderboard.js", "js/courts.js", "js/help.js", "js/stats_dialog.js")
"""Modules the page imports (``import()``) when first shown, with a sheet of their own: no part
of the first load, so not joined into its script."""
DATA_BLOCK: Final = '<script type="application/json" id="page-data">'
"""Where the data goes, in the template (left empty there, at the end of the page)."""
CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS: Final = {"Cache-Control": "no-store", "Content-Security-Policy": CSP}
"""The page names the player's game: it is not kept."""
GZIP_HEADERS: Final = {**HEADERS, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
HTML_ESCAPES: Final = ((b"<", b"\\u003c"), (b">", b"\\u003e"), (b"&", b"\\u0026"))
"""JSON escapes that keep ``</script>`` (or a comment) out of the data block."""
NEW_PLAYER: Final = PageData(WORDS, settings=WORDS.defaults.settings, current=None)
"""What the page of a player issued with it carries: the store has nothing of theirs."""
FIRST_RULES: Final = Rules.preset("klondike")
"""The rules of a new player's first deal: the page's default (``WORDS.defaults.rules``)."""
LINK_PARAMS: Final = ("share", "deal")
"""Query parameters naming a deal the page starts itself (``boot.js``): none is dealt here."""
PREFETCH_HEADERS: Final = ("sec-purpose", "purpose", "x-purpose", "x-moz")
"""Headers by which browsers mark a prefetch or prerender, which the player may never see."""


def embedded_json(data: object) -> str:
    """``data`` (a ``PageData``) as JSON that can sit inside a ``<script>`` element."""
    return embedded_bytes(data).decode()


def embedded_bytes(data: object) -> bytes:
    """:func:`embedded_json` as UTF-8. ``<``, ``>`` and ``&`` occur only inside JSON
    strings, where their escapes mean the same."""
    text = encode(data)
    for character, escape in HTML_ESCAPES:
        text = text.replace(character, escape)
    return text


WORDS_OPENING: Final = embedded_bytes(PageData(WORDS))[: -len(b"}")]
"""How every page's data begins (``words`` is its first field, and the same for all)."""


async def page_data(request: Request) -> PageData:
    """The player's ``settings`` and ``current`` game (null before the first), each
    left out when it cannot be read."""
    svc, token = service(request), player(request)
    data = PageData(WORDS)
    try:
        data.settings = await read_settings(svc, token)
        data.current = await svc.current(token, history=False)  # it grows with the game
    except (PlayError, StorageError):
        pass
    return data


def is_navigation(request: Request) -> bool:
    """Whether ``request`` is a browser opening the page to show it: a ``GET`` that
    says it fetches a document to navigate to, and is no prefetch."""
    headers = request.headers
    return (
        request.method == "GET"
        and headers.get("sec-fetch-dest") == "document"
        and headers.get("sec-fetch-mode") == "navigate"
        and not any(name in headers for name in PREFETCH_HEADERS)
    )


class Page:
    """The ``GET /`` handler: the template from ``files``, filled for the player
    (``local_player``: the one a browser without a cookie plays as, if any), gzip
    compressed for browsers that take it, its common opening compressed once
    (``gzip_stream``)."""

    def __init__(self, files: PackedStaticFiles, local_player: str | None = None) -> None:
        self.files = files
        self.local_player = local_player
        self._opening: tuple[str, bytes, bytes, OpeningGzip] | None = None

    def opening(self) -> tuple[bytes, bytes, OpeningGzip]:
        """The page up to its data's own part, what follows the data, and their gzip
        (made again when the template changes, as ``files`` reads it)."""
        template = self.files.text(TEMPLATE)
        if self._opening is None or self._opening[0] != template:
            before, block, after = template.partition(DATA_BLOCK)
            opening = (before + block).encode() + WORDS_OPENING
            gzip = OpeningGzip(opening, COMPRESS_LEVEL)
            self._opening = template, opening, after.encode(), gzip
        return self._opening[1:]

    def is_new(self, request: Request) -> bool:
        """Whether the player is issued with this answer (the store is not asked)."""
        cookies = "; ".join(request.headers.getlist("cookie"))
        return self.local_player is None and read_player(cookies) is None

    def deals_first_game(self, request: Request) -> bool:
        """Whether the new player's page carries their first deal (see the module's notes)."""
        return is_navigation(request) and not any(
            name in request.query_params for name in LINK_PARAMS
        )

    async def new_player_data(self, request: Request) -> PageData:
        """``NEW_PLAYER``, with the first deal (``started``) when the page carries one."""
        if not self.deals_first_game(request):
            return NEW_PLAYER
        try:
            started = await service(request).new_game(
                player(request), FIRST_RULES, client=client_address(request)
            )
        except (PlayError, StorageError):  # too many new games, the store is down...
            return NEW_PLAYER  # the page asks the API, which says what is wrong
        return msgspec.structs.replace(NEW_PLAYER, started=started)

    async def data(self, request: Request) -> PageData:
        """What the page carries for the player who asks for it."""
        if self.is_new(request):
            return await self.new_player_data(request)
        return await page_data(request)

    async def own_part(self, request: Request, after: bytes) -> bytes:
        """The page after its opening: the rest of the player's data, and the template's end."""
        data = embedded_bytes(await self.data(request))
        if not data.startswith(WORDS_OPENING):
            raise AssertionError("the page's data does not begin with its words")
        return data[len(WORDS_OPENING) :] + after

    async def respond(self, request: Request) -> Response:
        opening, after, gzip = self.opening()
        if request.method == "HEAD":  # headers only: nothing is read, nothing dealt
            before, block, _after = self.files.text(TEMPLATE).partition(DATA_BLOCK)
            return HTMLResponse(before + block + after.decode(), headers=HEADERS)
        if not accepts_gzip(request.headers.get("accept-encoding", "")):
            return TwoParts(opening, lambda: self.own_part(request, after), HEADERS)

        async def compressed() -> bytes:
            return gzip.rest(await self.own_part(request, after))

        return TwoParts(gzip.head, compressed, GZIP_HEADERS)


class TwoParts(Response):
    """An HTML answer sent in two parts: ``first`` at once, then what ``rest`` makes
    (the page's data, read meanwhile), with none of a streamed answer's machinery."""

    media_type = HTMLResponse.media_type

    def __init__(
        self, first: bytes, rest: Callable[[], Awaitable[bytes]], headers: Mapping[str, str]
    ) -> None:
        super().__init__(headers=headers, media_type=self.media_type)
        self.first, self.rest = first, rest

    def init_headers(self, headers: Mapping[str, str] | None = None) -> None:
        super().init_headers(headers)  # no content-length: the length comes with the body
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        await send({"type": "http.response.body", "body": self.first, "more_body": True})
        await send({"type": "http.response.body", "body": await self.rest()})
