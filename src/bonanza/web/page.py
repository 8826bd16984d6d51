"""The page: ``index.html`` with what its first render needs already inside.

The page carries, in a JSON data block (``<script type="application/json">``, which
runs nothing), the player's settings and their latest game: the very answers of
``GET /api/settings`` and ``GET /api/games/current``, so nothing a game in play
hides. A returning player's table is drawn with no API request, and a new
player's page asks for its deal as soon as its first module runs. What cannot be
read (the store is down, a game cannot be read back) is left out, and the page
asks the API for it as before.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial
from typing import Any, Final

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from bonanza.storage import StorageError
from bonanza.storage.player_settings import SETTINGS, player_settings
from bonanza.web.bundle import join_modules, join_sheets
from bonanza.web.errors import ApiError
from bonanza.web.players import read_player
from bonanza.web.routes import player, service
from bonanza.web.static_files import Joiner, PackedStaticFiles

TEMPLATE: Final = "index.html"
BUNDLES: Final[Mapping[str, Joiner]] = {
    "page.css": partial(join_sheets, sheets=("style.css", "cards.css", "motion.css")),
    "js/page.js": partial(join_modules, entries=("js/boot.js", "js/main.js")),
}
"""The page's one sheet and one script (``bundle``), which ``TEMPLATE`` names."""
DATA_BLOCK: Final = '<script type="application/json" id="page-data">'
"""Where the data goes, in the template (left empty there)."""
CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS: Final = {"Cache-Control": "no-store", "Content-Security-Policy": CSP}
"""The page names the player's game: it is not kept."""
HTML_ESCAPES: Final = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
"""JSON escapes that keep ``</script>`` (or a comment) out of the data block."""
NEW_PLAYER: Final = {
    "settings": {name: spec.decode(None) for name, spec in SETTINGS.items()},
    "current": None,
}
"""What the page of a player issued with it carries: the store has nothing of theirs."""


def embedded_json(data: Any) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(HTML_ESCAPES)


async def page_data(request: Request) -> dict[str, Any]:
    """The player's ``settings`` and ``current`` game (null before the first), each
    left out when it cannot be read."""
    svc, token = service(request), player(request)
    data: dict[str, Any] = {}
    try:
        data["settings"] = await anyio.to_thread.run_sync(player_settings, svc.storage, token)
        data["current"] = await svc.current(token)
    except (ApiError, StorageError):
        pass
    return data


class Page:
    """The ``GET /`` handler: the template from ``files``, filled for the player
    (``local_player``: the one a browser without a cookie plays as, if any)."""

    def __init__(self, files: PackedStaticFiles, local_player: str | None = None) -> None:
        self.files = files
        self.local_player = local_player

    def is_new(self, request: Request) -> bool:
        """Whether the player is issued with this answer (the store is not asked)."""
        return self.local_player is None and read_player(request.headers.get("cookie", "")) is None

    async def __call__(self, request: Request) -> Response:
        data = embedded_json(NEW_PLAYER if self.is_new(request) else await page_data(request))
        filled = self.files.text(TEMPLATE).replace(DATA_BLOCK, DATA_BLOCK + data, 1)
        return HTMLResponse(filled, headers=HEADERS)
