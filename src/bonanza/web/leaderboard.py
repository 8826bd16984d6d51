"""The daily leaderboard over HTTP: its answer and the display name, as declared types.

``GET /api/daily/leaderboard?draw=1`` (``&day=YYYY-MM-DD`` for a past day of the
calendar) answers the day's board (``bonanza.play.leaderboard``): places,
names, times and moves, and whether an entry is the asker's; never a player's
token, a game's ID or the deal. ``POST /api/daily/name`` with ``{"name": "..."}``
sets the asker's display name (an empty one: anonymous again); a name too long
is a 422 that says so. The page shows names as text, never as HTML.
"""

from __future__ import annotations

from typing import Final

import msgspec
from msgspec import Struct
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bonanza.play.chosen_deals import QUOTED, TODAY
from bonanza.play.daily import DAILY_DRAWS
from bonanza.play.errors import Invalid
from bonanza.play.leaderboard import NAME_LENGTH, NAME_TOO_LONG, choose_name, daily_leaderboard
from bonanza.web.bodies import Body
from bonanza.web.requests import read_json
from bonanza.web.routes import answer, player, service

MAX_DAY_TEXT: Final = 40
"""A longer ``day`` is no day: refused before it is read."""
MAX_NAME_TEXT: Final = 4 * NAME_LENGTH
"""A longer name is refused before it is cleaned (cleaning may shorten it to the limit)."""


class LeaderboardRow(Struct):
    """One place of a board: the player's display name (or "anonymous"), the time in
    seconds and the moves of their game, and whether it is the asker's."""

    place: int
    name: str
    elapsed: float
    moves: int
    you: bool


class Leaderboard(Struct):
    """A day's board of a draw mode: its first places by time and by moves (the asker's
    place after them if lower), the asker's ``name`` (None: anonymous), the longest
    name taken, and the words the page shows with it."""

    day: str
    draw: int
    draw_words: str
    rule: str
    anonymous: str
    name: str | None
    name_length: int
    fastest: list[LeaderboardRow]
    fewest_moves: list[LeaderboardRow]


class DisplayName(Struct):
    """The asker's display name as stored (None: anonymous)."""

    name: str | None


class DisplayNameBody(Body):
    """``POST /api/daily/name``: the ``name`` to show (empty or null: anonymous)."""

    name: str | None = None


def read_draw(text: str) -> int:
    """The draw mode a query names (1 or 3)."""
    if text not in {str(count) for count in DAILY_DRAWS}:
        raise Invalid(f"draw {text[:QUOTED]!r}: the daily deal is dealt with draw 1 or 3")
    return int(text)


async def get_leaderboard(request: Request) -> Response:
    """The day's leaderboard of ``?draw=1`` or ``?draw=3`` (today unless ``?day=``)."""
    draw = read_draw(request.query_params.get("draw", "1"))
    day = request.query_params.get("day", TODAY)[:MAX_DAY_TEXT]
    svc = service(request)
    board = await svc.games.read(
        daily_leaderboard, svc.storage, player(request), draw, svc.clock(), day
    )
    return answer(msgspec.convert(board, Leaderboard))


async def set_name(request: Request) -> Response:
    """Set the asker's display name; answer it as stored."""
    text = (await read_json(request, DisplayNameBody)).name or ""
    if len(text) > MAX_NAME_TEXT:
        raise Invalid(NAME_TOO_LONG.format(most=NAME_LENGTH, count=len(text)))
    svc = service(request)
    stored = await svc.games.write(choose_name, svc.storage, player(request), text)
    return answer(DisplayName(stored))


routes = [
    Route("/api/daily/leaderboard", get_leaderboard, methods=["GET"]),
    Route("/api/daily/name", set_name, methods=["POST"]),
]
