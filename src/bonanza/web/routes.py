"""The HTTP API: thin handlers that read the request and call the game service."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bonanza.core import BonanzaError, Rules
from bonanza.core.rules import CUSTOM_TABLE
from bonanza.play.chosen_deals import QUOTED, check_deal_text, read_daily_rules, read_grade
from bonanza.play.daily import DAILY_DRAWS, may_show_deal, playing_everywhere
from bonanza.play.errors import STORE_DOWN, Invalid, Unavailable
from bonanza.play.ledger import export_game, statistics
from bonanza.storage import StorageError
from bonanza.storage.player_settings import (
    SAFE_HOME,
    SettingError,
    checked_settings,
    setting_entries,
)
from bonanza.storage.records import GameRecord
from bonanza.web.bodies import (
    DealCheckBody,
    NewGameBody,
    NoBody,
    SettingsBody,
    given,
)
from bonanza.web.play_requests import CURRENT, GETS, POSTS, Handler
from bonanza.web.requests import client_address, limits_of, read_body, read_json
from bonanza.web.responses import JSONAnswer
from bonanza.web.service import GameService
from bonanza.web.wire_answers import DealChecked, Settings
from bonanza.web.wire_stats import ExportedGame, Statistics, StatisticsExport, StatisticsReset

NO_STORE = {"Cache-Control": "no-store"}
MAX_DEAL_TEXT = 400

def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def player(request: Request) -> str:
    token: str = request.scope["state"]["player"]
    return token


def answer(data: msgspec.Struct, status: int = 200) -> Response:
    return JSONAnswer(data, status_code=status, headers=NO_STORE)


def read_rules(body: NewGameBody) -> Rules:
    """The rules a new game asks for: ``rules``, else the ``preset`` (else Klondike's)."""
    try:
        if body.rules is not None:
            chosen = body.rules.rules()
        else:
            chosen = Rules.preset(body.preset or "klondike")
    except BonanzaError as error:
        raise Invalid(f"bad rules: {error}") from None
    if chosen.game == CUSTOM_TABLE:
        raise Invalid(f"bad rules: {CUSTOM_TABLE_REFUSED} ({chosen})")
    return chosen


CUSTOM_TABLE_REFUSED = (
    "the web game lays out the tables of Klondike, Double Klondike, Westcliff and "
    "Easthaven only, not a custom table"
)
"""Why rules whose table is none of the games' are refused: the page has no layout
for it (any draw, passes and options are played on those tables)."""


DRAW_WITHOUT_DAILY = (
    "field 'draw' goes with 'daily' (the daily deal's draw mode); for any other game give"
    ' the draw in the rules: {"rules": {"draw": 3}}'
)
"""Why ``draw`` without ``daily`` is refused: it would be read as nothing, a draw-1 game."""
DAILY_WITHOUT_DRAW = (
    "field 'draw' is missing: 'daily' goes with the daily deal's draw mode, 1 or 3:"
    ' {"daily": "today", "draw": 3}'
)
"""Why ``daily`` without ``draw`` is refused: a new game reads no saved rules, so it
would quietly be the draw-1 daily deal."""


def short_text(value: str | None, name: str) -> str | None:
    """``value``, the field ``name``, unless it is too long to be a deal ID."""
    if value is not None and len(value) > MAX_DEAL_TEXT:
        raise Invalid(f"field {name!r} is too long to be a deal ID")
    return value


async def new_game(request: Request) -> Response:
    """Start a game: a random deal, ``deal``, ``share`` or ``replay``; a winnable
    deal of ``grade`` (easy, medium or hard); or the ``daily`` deal (``today`` or
    a date) of the draw mode ``draw``."""
    body = await read_json(request, NewGameBody, required=False)
    daily, draw = short_text(body.daily, "daily"), body.draw
    if draw is not None and daily is None:  # not quietly a draw-1 game
        raise Invalid(DRAW_WITHOUT_DAILY)
    if daily is not None and draw is None:  # not quietly the draw-1 daily deal
        raise Invalid(DAILY_WITHOUT_DRAW)
    rules = read_daily_rules(draw) if draw is not None else read_rules(body)
    game = await service(request).new_game(
        player(request),
        rules,
        deal_text=short_text(body.deal, "deal"),
        share=short_text(body.share, "share"),
        replay=short_text(body.replay, "replay"),
        grade=read_grade(body.grade) if body.grade is not None else None,
        daily=daily,
        client=client_address(request),
    )
    return answer(game, 201)


async def daily_deals(request: Request) -> Response:
    """The player's daily statistics and calendar: ``?draw=1`` or ``?draw=3``."""
    draw = request.query_params.get("draw", "1")
    if draw not in {str(count) for count in DAILY_DRAWS}:
        raise Invalid(f"draw {draw[:QUOTED]!r}: the daily deal is dealt with draw 1 or 3")
    return answer(await service(request).daily(player(request), int(draw)))


async def check_deal(request: Request) -> Response:
    """Whether ``deal`` is a deal number or code (the new-deal dialog asks first),
    of ``decks`` decks when given (1 or 2: Double Klondike's deals have two)."""
    body = await read_json(request, DealCheckBody)
    text, decks = short_text(body.deal, "deal"), body.decks
    if text is None:
        raise Invalid("give deal, the text to check")
    if decks is not None and decks not in (1, 2):
        raise Invalid(f"field 'decks' must be 1 or 2, not {decks}")
    check_deal_text(text.strip(), decks)  # Invalid unless it is one
    return answer(DealChecked())


def game_id(request: Request) -> str:
    value: str = request.path_params["game_id"]
    return value


def of_play(handler: Handler, *, reads_body: bool) -> Callable[[Request], Awaitable[Response]]:
    """The route of a request of play: its handler (``play_requests``, which the hot
    path also answers with), on the request's body when it ``reads_body``; a handler's
    None is 204 No Content (a player with no game yet)."""

    async def endpoint(request: Request) -> Response:
        body = await read_body(request, limits_of(request)) if reads_body else b""
        game = request.path_params.get("game_id", CURRENT)
        found = await handler(
            service(request), player(request), game, body, client_address(request)
        )
        return Response(status_code=204, headers=NO_STORE) if found is None else answer(found)

    return endpoint


async def share(request: Request) -> Response:
    await read_json(request, NoBody, required=False)
    return answer(await service(request).share(player(request), game_id(request)), 201)


async def hint(request: Request) -> Response:
    return answer(await service(request).hint(
        player(request), game_id(request), client_address(request)
    ))


async def winnable(request: Request) -> Response:
    await read_json(request, NoBody, required=False)
    return answer(await service(request).winnable(
        player(request), game_id(request), client_address(request)
    ))


async def review(request: Request) -> Response:
    return answer(await service(request).review(
        player(request), game_id(request), client_address(request)
    ))


async def read_settings(svc: GameService, token: str) -> Settings:
    """Every setting of the player (``bonanza.storage.player_settings.SETTINGS``)."""
    return msgspec.convert(await svc.games.settings(token), Settings)


async def get_settings(request: Request) -> Response:
    """Every setting of the player."""
    return answer(await read_settings(service(request), player(request)))


async def put_settings(request: Request) -> Response:
    """Change some of the player's settings, such as ``{"theme": "dark", "volume": 40}``,
    and answer them all; an unknown setting or a bad value is a 422 that names it."""
    try:
        changes = checked_settings(given(await read_json(request, SettingsBody)))
    except SettingError as error:
        raise Invalid(str(error)) from None
    svc, token = service(request), player(request)
    if SAFE_HOME in changes:  # switched in the games in play too
        await svc.set_settings(token, bool(changes.pop(SAFE_HOME)))
    try:
        for key, text in setting_entries(token, changes):
            await svc.writer.write(svc.storage.set_setting, key, text)
    except StorageError:
        raise Unavailable(STORE_DOWN) from None
    return await get_settings(request)


async def _finished(request: Request) -> list[GameRecord]:
    svc = service(request)
    games: list[GameRecord] = await svc.games.read(svc.storage.finished_games, player(request))
    return games


def figures(games: list[GameRecord]) -> Statistics:
    """The statistics of ``games`` (``bonanza.play.ledger.statistics``), checked as declared."""
    return msgspec.convert(statistics(games), Statistics)


async def get_stats(request: Request) -> Response:
    return answer(figures(await _finished(request)))


async def reset_stats(request: Request) -> Response:
    svc = service(request)
    count = await svc.games.read(svc.storage.archive_finished_games, player(request))
    empty = figures([])
    return answer(
        StatisticsReset(groups=empty.groups, chosen=empty.chosen, assisted=empty.assisted,
                        reset=count)
    )


EXPORT_FORMAT = "bonanza-statistics"
EXPORT_HEADERS = {
    **NO_STORE,
    "Content-Disposition": f'attachment; filename="{EXPORT_FORMAT}.json"',
}


async def export_stats(request: Request) -> Response:
    games = await _finished(request)
    svc = service(request)
    playing = await svc.games.read(playing_everywhere, svc.storage, player(request))
    exported = [msgspec.convert(export_game(game), ExportedGame) for game in games]
    for game, row in zip(games, exported, strict=True):
        if not may_show_deal(game, playing):  # a daily deal still being played for its day
            row.deal = None
    found = figures(games)
    data = StatisticsExport(
        groups=found.groups,
        chosen=found.chosen,
        assisted=found.assisted,
        format=EXPORT_FORMAT,
        exported_at=time.time(),
        games=exported,
    )
    return JSONAnswer(data, headers=EXPORT_HEADERS)


GAME = "/api/games/{game_id:str}"

routes = [
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games/current", of_play(GETS[""], reads_body=False), methods=["GET"]),
    Route("/api/daily", daily_deals, methods=["GET"]),
    Route("/api/deals/check", check_deal, methods=["POST"]),
    Route(GAME, of_play(GETS[""], reads_body=False), methods=["GET"]),
    *(Route(f"{GAME}/{path}", of_play(handler, reads_body=True), methods=["POST"])
      for path, handler in POSTS.items()),
    Route(GAME + "/share", share, methods=["POST"]),
    Route(GAME + "/hint", hint, methods=["GET"]),
    Route(GAME + "/progress", of_play(GETS["progress"], reads_body=False), methods=["GET"]),
    Route(GAME + "/winnable", winnable, methods=["POST"]),
    Route(GAME + "/review", review, methods=["GET"]),
    Route("/api/settings", get_settings, methods=["GET"]),
    Route("/api/settings", put_settings, methods=["POST"]),
    Route("/api/stats", get_stats, methods=["GET"]),
    Route("/api/stats", reset_stats, methods=["DELETE"]),
    Route("/api/stats/export", export_stats, methods=["GET"]),
]
